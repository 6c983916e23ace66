import CrownVocabulary

/// A request to the running pager: one line of the control protocol (`ControlProtocol.md`).
package enum ControlRequest: Hashable, Sendable {
    /// Show a notification (`crownpager notify`).
    case notify(ControlNotification)
    /// Describe the pager's state (`crownpager status`).
    case status
    /// One of the commands the engine decides: `show`, `set`, `brightness`, `display`, `press`.
    case control(PagerCommand)

    /// The command word that starts the request's line.
    package var command: String {
        switch self {
        case .notify: return "notify"
        case .status: return "status"
        case .control(.show): return "show"
        case .control(.set): return "set"
        case .control(.brightness): return "brightness"
        case .control(.display): return "display"
        case .control(.press): return "press"
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
        case .control(.show(let page)), .control(.press(let page)):
            fields.append(ControlField("page", page.word))
        case .control(.set(let page, let value)):
            fields = [ControlField("page", page.word), ControlField("value", value)]
        case .status:
            break
        case .control(.brightness(let percent)):
            fields.append(ControlField("percent", "\(percent)"))
        case .control(.display(let on)):
            fields.append(ControlField("state", on ? "on" : "off"))
        }
        return ControlField.line(command, fields)
    }
}

extension RequestedPage {
    /// The page as the protocol's `page=` field gives it: a person's word, or the number from 1
    /// of an index (which the engine reads back as that page: a number is tried before a title).
    var word: String {
        switch self {
        case .named(let word): return word
        case .index(let index): return String(index + 1)
        }
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
