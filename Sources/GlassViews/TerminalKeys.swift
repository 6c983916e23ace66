import CrownVocabulary
import PagerCore

/// The terminal's keys and mouse wheel as a crown: the one place their bytes become crown facts,
/// for the run loop and the doctor alike.
///
/// A terminal reports no key-up, so a press is a short one, and the long-press key stands for a
/// press that began `longPressDuration` ago: the crown interpreter's own rule decides the rest.
package struct TerminalKeys: Hashable, Sendable {
    /// How long the crown's button is held for a long press (the configuration's crown setting).
    package let longPressDuration: TimeSpan
    /// A quit key came (`q`, Ctrl-C, Ctrl-D).
    package private(set) var quit = false
    /// A redraw key came (`r`, Ctrl-L) and nobody took it yet.
    package private(set) var redraw = false
    private var decoder = KeyDecoder()

    /// Keys whose long-press key stands for a press held `longPressDuration`.
    package init(longPressDuration: TimeSpan) { self.longPressDuration = longPressDuration }

    /// The crown facts in `bytes` read at `instant`; no bytes: a lone Escape is a key after all.
    package mutating func feed(_ bytes: [UInt8], at instant: Timestamp) -> [CrownEvent] {
        var events: [CrownEvent] = []
        for command in bytes.isEmpty ? decoder.flush() : decoder.feed(bytes) {
            switch command {
            case .turn(let detents): events.append(.rotated(detents: detents, at: instant))
            case .press: events += [.pressed(at: instant), .released(at: instant)]
            case .longPress: events += [.pressed(at: instant - longPressDuration), .released(at: instant)]
            case .quit: quit = true
            case .redraw: redraw = true
            }
        }
        return events
    }

    /// Whether a redraw was asked for since the last call.
    package mutating func takeRedraw() -> Bool {
        defer { redraw = false }
        return redraw
    }
}
