import CrownVocabulary
import MockDisplay
import PagerCore

/// The terminal's keys and mouse wheel as a crown: they produce the same facts the knob does,
/// so both go through the same interpreter.
enum TerminalCrown {
    /// The crown events for `command` read at `instant`; none for commands that are not the crown's.
    ///
    /// A terminal reports no key-up, so a press is a short one, and the long-press key stands
    /// for a press that began a long-press time ago.
    static func events(for command: TerminalCommand, at instant: Timestamp, longPressDuration: TimeSpan) -> [CrownEvent]
    {
        switch command {
        case .turn(let detents): return [.rotated(detents: detents, at: instant)]
        case .press: return [.pressed(at: instant), .released(at: instant)]
        case .longPress: return [.pressed(at: instant - longPressDuration), .released(at: instant)]
        case .quit, .redraw: return []
        }
    }
}
