// Input devices may report absurd values (a crafted or broken evdev source): counts that would
// overflow are held at the ends of `Int` instead of trapping.

/// `lhs + rhs`, held at `Int.max` or `Int.min` instead of overflowing.
func saturatingSum(_ lhs: Int, _ rhs: Int) -> Int {
    let (sum, overflow) = lhs.addingReportingOverflow(rhs)
    return overflow ? (rhs > 0 ? .max : .min) : sum
}

/// `-value`, with `Int.min` held at `Int.max`.
func saturatingNegation(_ value: Int) -> Int { value == .min ? .max : -value }

/// `abs(value)`, with `Int.min` held at `Int.max`.
func saturatingMagnitude(_ value: Int) -> Int { value == .min ? .max : abs(value) }
