/// What `crownpager status` tells: the page shown, the screen's state, what is queued; the
/// fields of `status`'s `ok` line, and the same as JSON for `--json`.
package struct ControlStatus: Hashable, Sendable {
    /// The current page, from 1.
    package var page: Int
    /// How many pages there are.
    package var pageCount: Int
    /// The current page's title.
    package var title: String
    /// `bright`, `dimmed` or `off`.
    package var screen: String
    /// Whether the display stopped answering.
    package var displayLost: Bool
    /// The notification the overlay shows (its title, else its message); empty for none.
    package var notification: String
    /// Notifications waiting to be shown.
    package var queuedNotifications: Int
    /// Every page's title, in order.
    package var titles: [String]
    /// The pages whose pushed value is older than their `stale_after`, from 1.
    package var stalePages: [Int]
    /// The MQTT connection's state (`connected`, `disconnected (why); retrying in 4 s`); empty when MQTT is off.
    package var mqtt = ""

    /// A status.
    package init(
        page: Int, pageCount: Int, title: String, screen: String, displayLost: Bool, notification: String = "",
        queuedNotifications: Int, titles: [String], stalePages: [Int]
    ) {
        self.page = page
        self.pageCount = pageCount
        self.title = title
        self.screen = screen
        self.displayLost = displayLost
        self.notification = notification
        self.queuedNotifications = queuedNotifications
        self.titles = titles
        self.stalePages = stalePages
    }

    /// The fields of the `ok` line.
    package var fields: [ControlField] {
        [
            ControlField("page", "\(page)"), ControlField("pages", "\(pageCount)"), ControlField("title", title),
            ControlField("screen", screen), ControlField("display", displayLost ? "lost" : "answering"),
            ControlField("notification", notification), ControlField("queued", "\(queuedNotifications)"),
            // Titles may hold commas: each is escaped, then the list joined by a tab.
            ControlField("titles", titles.map { ControlField.escape($0) }.joined(separator: "\t")),
            ControlField("stale", stalePages.map { "\($0)" }.joined(separator: ",")),
        ] + (mqtt.isEmpty ? [] : [ControlField("mqtt", mqtt)])
    }

    /// The status an `ok` response's fields describe; nil when one is missing.
    package init?(_ response: ControlResponse) {
        guard let page = response["page"].flatMap({ Int($0) }), let count = response["pages"].flatMap({ Int($0) }),
            let title = response["title"], let screen = response["screen"], let display = response["display"],
            let queued = response["queued"].flatMap({ Int($0) }), let titles = response["titles"],
            let stale = response["stale"], let notification = response["notification"]
        else { return nil }
        self.init(
            page: page, pageCount: count, title: title, screen: screen, displayLost: display == "lost",
            notification: notification, queuedNotifications: queued,
            titles: titles.isEmpty
                ? []
                : titles.split(separator: "\t", omittingEmptySubsequences: false).map {
                    ControlField.unescape($0) ?? String($0)
                },
            stalePages: stale.split(separator: ",").compactMap { Int($0) })
        mqtt = response["mqtt"] ?? ""
    }

    /// The lines `crownpager status` prints.
    package var text: String {
        var lines = [
            "page \(page) of \(pageCount): \(title)",
            "screen: \(screen)\(displayLost ? ", the display is not answering" : "")",
            (notification.isEmpty ? "no notification shown" : "notification shown: \(notification)")
                + ", \(queuedNotifications) queued",
        ]
        if !stalePages.isEmpty { lines.append("stale: pages \(stalePages.map { "\($0)" }.joined(separator: ", "))") }
        if !mqtt.isEmpty { lines.append("mqtt: \(mqtt)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The status as one JSON object, its keys in a fixed order (`crownpager status --json`).
    package var json: String {
        let members =
            [
                "\"page\": \(page)", "\"pages\": \(pageCount)", "\"title\": \(Self.jsonString(title))",
                "\"screen\": \(Self.jsonString(screen))", "\"displayLost\": \(displayLost)",
                "\"notification\": \(Self.jsonString(notification))", "\"queuedNotifications\": \(queuedNotifications)",
                "\"titles\": [\(titles.map(Self.jsonString).joined(separator: ", "))]",
                "\"stalePages\": [\(stalePages.map { "\($0)" }.joined(separator: ", "))]",
            ] + (mqtt.isEmpty ? [] : ["\"mqtt\": \(Self.jsonString(mqtt))"])
        return "{" + members.joined(separator: ", ") + "}\n"
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    package static func jsonString(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
