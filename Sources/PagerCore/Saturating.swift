import CrownVocabulary

// Crown facts come from devices and scripts: counts that would overflow are held at the ends
// of `Int` instead of trapping.

/// `lhs + rhs`, held at `Int.max` or `Int.min` instead of overflowing.
func saturatingSum(_ lhs: Int, _ rhs: Int) -> Int {
    let (sum, overflow) = lhs.addingReportingOverflow(rhs)
    return overflow ? (rhs > 0 ? .max : .min) : sum
}

/// `lhs * rhs`, held at `Int.max` or `Int.min` instead of overflowing.
func saturatingProduct(_ lhs: Int, _ rhs: Int) -> Int {
    let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
    return overflow ? ((lhs < 0) == (rhs < 0) ? .max : .min) : product
}

/// `abs(value)`, with `Int.min` held at `Int.max`.
func saturatingMagnitude(_ value: Int) -> Int { value == .min ? .max : abs(value) }
