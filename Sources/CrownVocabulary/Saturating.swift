// Crown facts come from devices, scripts and configuration files: counts that would overflow are
// held at the ends of `Int` instead of trapping (a crafted input device can claim Int.min detents).

/// `lhs + rhs`, held at `Int.max` or `Int.min` instead of overflowing.
public func saturatingSum(_ lhs: Int, _ rhs: Int) -> Int {
    let (sum, overflow) = lhs.addingReportingOverflow(rhs)
    return overflow ? (rhs > 0 ? .max : .min) : sum
}

/// `lhs * rhs`, held at `Int.max` or `Int.min` instead of overflowing.
public func saturatingProduct(_ lhs: Int, _ rhs: Int) -> Int {
    let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
    return overflow ? ((lhs < 0) == (rhs < 0) ? .max : .min) : product
}

/// `-value`, with `Int.min` held at `Int.max`.
public func saturatingNegation(_ value: Int) -> Int { value == .min ? .max : -value }

/// `abs(value)`, with `Int.min` held at `Int.max`.
public func saturatingMagnitude(_ value: Int) -> Int { value == .min ? .max : abs(value) }
