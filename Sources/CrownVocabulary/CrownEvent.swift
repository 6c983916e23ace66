/// What the crown did, as a fact with the time it happened; the interpreter decides what it means.
///
/// Drivers (the GPIO decoder, the kernel's input device, the terminal's keys and mouse
/// wheel) all produce these, so every crown goes through the same interpreter.
public enum CrownEvent: Hashable, Sendable {
    /// The crown turned by whole detents: positive clockwise (towards later pages), negative back.
    case rotated(detents: Int, at: Timestamp)
    /// The crown's button went down.
    case pressed(at: Timestamp)
    /// The crown's button came up.
    case released(at: Timestamp)

    /// When the event happened.
    public var timestamp: Timestamp {
        switch self {
        case .rotated(_, let at), .pressed(let at), .released(let at): return at
        }
    }
}
