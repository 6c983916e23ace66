/// The levels of the encoder's two lines, A (CLK on a KY-040) and B (DT), read at one instant.
///
/// The raw value packs them as `A << 1 | B`: 0b00 to 0b11. `true` is the high (1) level.
package struct QuadratureState: Hashable, Sendable, CustomStringConvertible {
    /// The two levels packed as `A << 1 | B`, 0 to 3.
    package let rawValue: UInt8

    /// The state with raw value `rawValue & 0b11`.
    package init(rawValue: UInt8) { self.rawValue = rawValue & 0b11 }

    /// The state with line A at `a` and line B at `b`.
    package init(a: Bool, b: Bool) { self.rawValue = (a ? 0b10 : 0) | (b ? 0b01 : 0) }

    /// Line A's level.
    package var a: Bool { rawValue & 0b10 != 0 }
    /// Line B's level.
    package var b: Bool { rawValue & 0b01 != 0 }

    /// The four states, 00 01 10 11.
    package static let all = (0...3).map { QuadratureState(rawValue: UInt8($0)) }

    /// Both lines high: where a KY-040 or an EC11 with pull-ups rests between detents.
    package static let bothHigh = QuadratureState(rawValue: 0b11)
    /// Both lines low.
    package static let bothLow = QuadratureState(rawValue: 0b00)

    /// The state with `line` at `level` and the other line unchanged.
    package func setting(_ line: QuadratureLine, to level: Bool) -> QuadratureState {
        let bit: UInt8 = line == .a ? 0b10 : 0b01
        return QuadratureState(rawValue: level ? rawValue | bit : rawValue & ~bit)
    }

    /// The state's place in the clockwise cycle 00 → 10 → 11 → 01: 0 to 3.
    ///
    /// Two bits in Gray code: one step along the cycle changes exactly one line.
    package var phase: Int {
        switch rawValue {
        case 0b00: return 0
        case 0b10: return 1
        case 0b11: return 2
        default: return 3
        }
    }

    /// The state at `phase` (taken modulo 4) of the clockwise cycle.
    package init(phase: Int) {
        let cycle: [UInt8] = [0b00, 0b10, 0b11, 0b01]
        self.rawValue = cycle[((phase % 4) + 4) % 4]
    }

    /// `AB`, e.g. `10` for A high and B low.
    package var description: String { (a ? "1" : "0") + (b ? "1" : "0") }
}

/// One of the encoder's two quadrature lines.
package enum QuadratureLine: Hashable, Sendable {
    /// Line A: CLK on a KY-040, pin A on an EC11.
    case a
    /// Line B: DT on a KY-040, pin B on an EC11.
    case b
}
