import CrownVocabulary

/// A request to the running pager: one line of the control protocol (`ControlProtocol.md`).
package enum ControlRequest: Hashable, Sendable {
    /// Show a notification (`crownpager notify`).
    case notify(ControlNotification)
    /// Go to a page, by its title or its number from 1 (`crownpager show`).
    case show(page: String)
    /// Give a page whose `source = "push"` its value (`crownpager set`).
    case set(page: String, value: String)
    /// Describe the pager's state (`crownpager status`).
    case status
    /// The brightness in use, 0 to 100, in place of `display.brightness` (`crownpager brightness`).
    case brightness(percent: Int)
    /// Switch the display off or on (`crownpager display`).
    case display(on: Bool)
    /// Run a `remote = true` page's action without the confirmation (`crownpager press`).
    case press(page: String)

    /// The command word that starts the request's line.
    package var command: String {
        switch self {
        case .notify: return "notify"
        case .show: return "show"
        case .set: return "set"
        case .status: return "status"
        case .brightness: return "brightness"
        case .display: return "display"
        case .press: return "press"
        }
    }

    /// The request as one line, its newline included: what a client sends.
    package var line: String {
        var fields: [ControlField] = []
        switch self {
        case .notify(let notification):
            if let title = notification.title { fields.append(ControlField("title", title)) }
            fields.append(ControlField("priority", notification.priority.rawValue))
            if let timeout = notification.timeoutMilliseconds { fields.append(ControlField("timeout", "\(timeout)")) }
            fields.append(ControlField("message", notification.message))
        case .show(let page):
            fields.append(ControlField("page", page))
        case .set(let page, let value):
            fields = [ControlField("page", page), ControlField("value", value)]
        case .status:
            break
        case .brightness(let percent):
            fields.append(ControlField("percent", "\(percent)"))
        case .display(let on):
            fields.append(ControlField("state", on ? "on" : "off"))
        case .press(let page):
            fields.append(ControlField("page", page))
        }
        return ControlField.line(command, fields)
    }
}

/// What `crownpager notify` asks to show; the engine's `PagerNotification` is made from it.
package struct ControlNotification: Hashable, Sendable {
    /// What it says.
    package var message: String
    /// Its first line, in bold; nil for none.
    package var title: String?
    /// How much it may interrupt.
    package var priority: NotificationPriority
    /// How long it stays, in milliseconds; nil for the pager's default.
    package var timeoutMilliseconds: Int64?

    /// A notification saying `message`.
    package init(
        message: String, title: String? = nil, priority: NotificationPriority = .active,
        timeoutMilliseconds: Int64? = nil
    ) {
        self.message = message
        self.title = title
        self.priority = priority
        self.timeoutMilliseconds = timeoutMilliseconds
    }
}
