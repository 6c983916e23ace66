import CrownVocabulary
import PagerGraphics

/// A message for the person at the panel, which interrupts the pages by its priority: from
/// `crownpager notify` through the control socket, and (with MQTT) from the house.
package struct PagerNotification: Hashable, Sendable {
    /// How much a notification may interrupt: the one type the control socket and MQTT use too.
    package typealias Priority = NotificationPriority

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
