import CrownVocabulary
import PagerGraphics

/// A message for the person at the panel, which interrupts the pages by its priority: from
/// `crownpager notify` through the control socket, and (with MQTT) from the house.
package struct PagerNotification: Hashable, Sendable {
    /// How much a notification may interrupt, as lcdproc's screen priorities and watchOS's
    /// passive, active and time-sensitive interruption levels do.
    package enum Priority: String, CaseIterable, Comparable, Sendable {
        /// Waits in the queue, shown as a mark beside the page indicator until the person looks.
        case passive
        /// Slides in over the page and wakes a dimmed panel.
        case active
        /// Also wakes a switched-off panel, and stays until pressed away.
        case critical

        private var rank: Int {
            switch self {
            case .passive: return 0
            case .active: return 1
            case .critical: return 2
            }
        }

        package static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
    }

    /// The first line, in bold; nil for none.
    package var title: String?
    /// What the notification says: wrapped, and scrolled with the crown when long.
    package var message: String
    /// How much it may interrupt.
    package var priority: Priority
    /// How long a passive or active one stays before it dismisses itself; nil for the default.
    /// Critical ones stay until pressed.
    package var timeout: TimeSpan?

    /// A notification saying `message`.
    package init(message: String, title: String? = nil, priority: Priority = .active, timeout: TimeSpan? = nil) {
        self.message = message
        self.title = title
        self.priority = priority
        self.timeout = timeout
    }
}

extension PagerNotification {
    /// The notification with its title and message as a terminal shows them (`TerminalText`).
    var asTerminalShows: PagerNotification {
        var shown = self
        shown.message = TerminalText.read(message)
        shown.title = title.map { TerminalText.read($0) }
        return shown
    }
}
