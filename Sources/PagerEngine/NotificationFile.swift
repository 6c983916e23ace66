import CrownVocabulary

/// The file that keeps the active and critical notifications not dismissed yet across a restart
/// of the service (`Effects.keepsNotifications`): UTF-8 text, one notification a line, four
/// fields parted by tabs:
///
///     priority<TAB>timeout in milliseconds<TAB>title<TAB>message
///
/// An empty timeout is the default one, an empty title none. A backslash, tab, line feed or
/// carriage return inside a field is written `\\`, `\t`, `\n`, `\r`. Lines starting with `#`
/// are comments. Reading is forgiving: a line that does not read (a truncated or corrupted
/// file, a hand edit) is skipped, never fatal, and the rest still come back.
package enum NotificationFile {
    /// The first line written, saying what the file is.
    package static let header = "# crownpager notifications: priority, timeout (ms), title, message; tab-separated"
    /// At most this many notifications are read back: a file grown by hand cannot flood the queue.
    package static let maximumCount = 64
    /// The longest timeout read back, a day: longer is taken for a corrupted field.
    private static let maximumTimeout: Int64 = 86_400_000

    /// The file's text for `notifications`, oldest first.
    package static func encode(_ notifications: [PagerNotification]) -> String {
        var text = header + "\n"
        for notification in notifications {
            let timeout = notification.timeout.map { String($0.milliseconds) } ?? ""
            let fields = [
                notification.priority.rawValue, timeout, escape(notification.title ?? ""), escape(notification.message),
            ]
            text += fields.joined(separator: "\t") + "\n"
        }
        return text
    }

    /// The notifications in `text`, skipping every line that does not read.
    package static func decode(_ text: String) -> [PagerNotification] {
        var notifications: [PagerNotification] = []
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
            guard notifications.count < maximumCount else { break }
            if let notification = notification(in: line) { notifications.append(notification) }
        }
        return notifications
    }

    /// The notification a line holds; nil for a comment or a line that does not read.
    private static func notification(in line: Substring.UTF8View) -> PagerNotification? {
        guard line.first != UInt8(ascii: "#") else { return nil }
        let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
        guard fields.count == 4,
            let priority = PagerNotification.Priority(rawValue: String(decoding: fields[0], as: UTF8.self)),
            let title = unescape(fields[2]), let message = unescape(fields[3])
        else { return nil }
        var timeout: TimeSpan?
        if !fields[1].isEmpty {
            guard fields[1].count <= 9, fields[1].allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = Int64(String(decoding: fields[1], as: UTF8.self)), milliseconds <= maximumTimeout
            else { return nil }
            timeout = .milliseconds(milliseconds)
        }
        return PagerNotification(
            message: message, title: title.isEmpty ? nil : title, priority: priority, timeout: timeout)
    }

    /// `field` with its backslash, tab and line breaks written as escapes.
    private static func escape(_ field: String) -> String {
        var escaped = ""
        for scalar in field.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `field` with its escapes undone; nil for an escape that is not one of the four.
    private static func unescape(_ field: Substring.UTF8View) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var escaping = false
        for byte in field {
            guard escaping else {
                if byte == UInt8(ascii: "\\") { escaping = true } else { bytes.append(byte) }
                continue
            }
            escaping = false
            switch byte {
            case UInt8(ascii: "\\"): bytes.append(byte)
            case UInt8(ascii: "t"): bytes.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "n"): bytes.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "r"): bytes.append(UInt8(ascii: "\r"))
            default: return nil
            }
        }
        guard !escaping else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
