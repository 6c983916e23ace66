/// The answer to a request: one line, `ok` and fields, or `error CODE message=...`.
package enum ControlResponse: Hashable, Sendable {
    /// Done; the fields say more (`status`'s state).
    case ok([ControlField])
    /// Refused, and nothing changed.
    case error(ControlErrorCode, String)

    /// Done, with nothing to say.
    package static let done = ControlResponse.ok([])

    /// The response as one line, its newline included.
    package var line: String {
        switch self {
        case .ok(let fields): return ControlField.line("ok", fields)
        case .error(let code, let message):
            return ControlField.line("error", [ControlField("code", code.rawValue), ControlField("message", message)])
        }
    }

    /// The response `line` holds (without its newline); nil when it is not one.
    package init?(parsing line: some StringProtocol) {
        let words = String(line).split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first, case .success(let fields) = ControlField.fields(words.dropFirst()) else {
            return nil
        }
        switch first {
        case "ok":
            self = .ok(fields)
        case "error":
            guard let code = fields.first(where: { $0.key == "code" }).flatMap({ ControlErrorCode(rawValue: $0.value) })
            else { return nil }
            self = .error(code, fields.first { $0.key == "message" }?.value ?? "")
        default:
            return nil
        }
    }

    /// The value of the field `key` of an `ok` response.
    package subscript(key: String) -> String? {
        guard case .ok(let fields) = self else { return nil }
        return fields.first { $0.key == key }?.value
    }
}

/// Why a request was refused, as the word after `error`.
package enum ControlErrorCode: String, CaseIterable, Hashable, Sendable {
    /// Longer than the protocol allows: the connection is closed after the answer.
    case tooLong = "too-long"
    /// Not a request: not UTF-8, a control character, a missing or unknown field.
    case malformed
    /// The first word is no command.
    case unknownCommand = "unknown-command"
    /// No page has that title or number.
    case unknownPage = "unknown-page"
    /// The page's value does not come from `crownpager set` (no `source = "push"`).
    case notPushed = "not-pushed"
    /// The value does not suit the page: a gauge takes a number.
    case badValue = "bad-value"
    /// Too many clients are connected: try again.
    case busy
    /// The page has no action that may be run remotely (`remote = true`).
    case notRemote = "not-remote"
    /// The page's action is running: try again when it ends.
    case running
}
