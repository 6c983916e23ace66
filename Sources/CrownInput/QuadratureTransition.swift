/// What one change of the encoder's lines means: a quarter step either way, nothing, or an impossible jump.
///
/// A quadrature encoder closes two contacts, A and B, a quarter of a period apart. Turned
/// clockwise, A leads B; turned back, B leads A:
///
///                ┌───────────┐           ┌───────────┐
///     A    ──────┘           └───────────┘           └────────────
///                      ┌───────────┐           ┌───────────┐
///     B    ────────────┘           └───────────┘           └──────
///     AB     00  │ 10  │ 11  │ 01  │ 00  │ 10  │ 11  │ 01  │ 00
///     phase   0  │  1  │  2  │  3  │  0  │  1  │  2  │  3  │  0
///                └───── one period ──────┘  4 transitions; time runs right = clockwise
///
/// Each valid transition changes exactly one line (the code is Gray code), so the phase moves
/// by one: +1 is a clockwise quarter step, -1 a counterclockwise one. A change of both lines at
/// once is impossible for a real encoder: an edge was missed (or the lines were sampled too
/// slowly), and its direction cannot be known. The decoder ignores it and counts it as a glitch.
///
/// Inverting both lines (active-low wiring, pull-ups) maps the cycle onto itself in the same
/// direction: only the resting state changes, never the sign. Swapping A and B reverses the sign.
package enum QuadratureTransition: Hashable, Sendable {
    /// The lines did not change.
    case none
    /// A quarter step clockwise (phase +1).
    case clockwise
    /// A quarter step counterclockwise (phase -1).
    case counterclockwise
    /// Both lines changed at once: a missed edge; the direction is unknown.
    case invalid

    /// The quarter steps the transition moves: +1, -1, or 0 (none and invalid).
    package var quarterSteps: Int {
        switch self {
        case .clockwise: return 1
        case .counterclockwise: return -1
        case .none, .invalid: return 0
        }
    }

    /// The transitions by `previous.rawValue << 2 | current.rawValue`: all 16 pairs.
    ///
    ///     previous → current   meaning            previous → current   meaning
    ///     00 → 00              none               10 → 00              counterclockwise
    ///     00 → 01              counterclockwise   10 → 01              invalid
    ///     00 → 10              clockwise          10 → 10              none
    ///     00 → 11              invalid            10 → 11              clockwise
    ///     01 → 00              clockwise          11 → 00              invalid
    ///     01 → 01              none               11 → 01              clockwise
    ///     01 → 10              invalid            11 → 10              counterclockwise
    ///     01 → 11              counterclockwise   11 → 11              none
    package static let table: [QuadratureTransition] = [
        // previous 00:  → 00    → 01               → 10        → 11
        .none, .counterclockwise, .clockwise, .invalid,
        // previous 01:  → 00    → 01               → 10        → 11
        .clockwise, .none, .invalid, .counterclockwise,
        // previous 10:  → 00             → 01      → 10        → 11
        .counterclockwise, .invalid, .none, .clockwise,
        // previous 11:  → 00    → 01               → 10        → 11
        .invalid, .clockwise, .counterclockwise, .none,
    ]

    /// The transition from `previous` to `current`, looked up in `table`.
    package init(from previous: QuadratureState, to current: QuadratureState) {
        self = Self.table[Int(previous.rawValue) << 2 | Int(current.rawValue)]
    }
}
