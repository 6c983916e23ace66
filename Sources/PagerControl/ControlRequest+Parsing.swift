import CrownVocabulary

/// Why a request line was refused; each becomes an `error` response and changes nothing.
package enum ControlRequestError: Error, Hashable, Sendable {
    /// The line is longer than `ControlProtocol.maximumLineBytes`.
    case tooLong
    /// The line is not UTF-8.
    case notUTF8
    /// The first word is no command.
    case unknownCommand(String)
    /// The words are not what the command takes; the sentence says what is wrong.
    case malformed(String)

    /// The response that answers it.
    package var response: ControlResponse {
        switch self {
        case .tooLong:
            return .error(
                .tooLong, "a request is one line of at most \(ControlProtocol.maximumLineBytes) bytes")
        case .notUTF8:
            return .error(.malformed, "a request is UTF-8 text")
        case .unknownCommand(let word):
            return .error(
                .unknownCommand,
                "no command \"\(clipped(word))\": use \(ControlProtocol.commands.joined(separator: ", "))")
        case .malformed(let sentence):
            return .error(.malformed, sentence)
        }
    }
}

/// The control protocol's limits and words.
package enum ControlProtocol {
    /// The longest request line, its newline included: longer ones are refused whole.
    package static let maximumLineBytes = 4096
    /// The commands a request starts with.
    package static let commands = ["notify", "show", "set", "status", "brightness", "display", "press"]
}

extension ControlRequest {
    /// The request `line` holds (its bytes, without the newline; one carriage return before it is
    /// allowed, as socat and nc may send one).
    package init(parsing line: some Collection<UInt8>) throws(ControlRequestError) {
        guard line.count < ControlProtocol.maximumLineBytes else { throw .tooLong }
        var bytes = Array(line)
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        // Control characters travel escaped: a raw one is junk, not a request.
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .malformed("a control character in the line: escape it (\\n, \\t, \\r)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let command = words.first else { throw .malformed("an empty line: use \(Self.commandList)") }
        let fields: [ControlField]
        switch ControlField.fields(words.dropFirst()) {
        case .success(let found): fields = found
        case .failure(let error): throw error
        }
        self = try Self.request(String(command), fields)
    }

    private static var commandList: String { ControlProtocol.commands.joined(separator: ", ") }

    private static func request(_ command: String, _ fields: [ControlField]) throws(ControlRequestError) -> Self {
        var reader = FieldReader(command: command, fields: fields)
        let request: ControlRequest
        switch command {
        case "notify":
            let message = try reader.required("message")
            let title = reader.optional("title")
            var priority = NotificationPriority.active
            if let word = reader.optional("priority") {
                guard let chosen = NotificationPriority(rawValue: word) else {
                    throw .malformed("priority \"\(clipped(word))\": use passive, active or critical")
                }
                priority = chosen
            }
            var timeout: Int64?
            if let word = reader.optional("timeout") {
                guard let milliseconds = Int64(word), milliseconds > 0, milliseconds <= 86_400_000 else {
                    throw .malformed("timeout \"\(clipped(word))\": milliseconds from 1 to 86400000")
                }
                timeout = milliseconds
            }
            request = .notify(
                ControlNotification(message: message, title: title, priority: priority, timeoutMilliseconds: timeout))
        case "show":
            request = .control(.show(page: .named(try reader.required("page"))))
        case "set":
            request = .control(.set(page: .named(try reader.required("page")), value: try reader.required("value")))
        case "status":
            request = .status
        case "brightness":
            let word = try reader.required("percent")
            guard let percent = Int(word), (0...100).contains(percent) else {
                throw .malformed("percent \"\(clipped(word))\": a whole number from 0 to 100")
            }
            request = .control(.brightness(percent: percent))
        case "display":
            let word = try reader.required("state")
            guard word == "on" || word == "off" else { throw .malformed("state \"\(clipped(word))\": use on or off") }
            request = .control(.display(on: word == "on"))
        case "press":
            request = .control(.press(page: .named(try reader.required("page"))))
        default:
            throw .unknownCommand(command)
        }
        try reader.finish()
        return request
    }
}

/// Takes a request's fields by key, and refuses the ones left over.
private struct FieldReader {
    let command: String
    var fields: [ControlField]

    mutating func optional(_ key: String) -> String? {
        guard let index = fields.firstIndex(where: { $0.key == key }) else { return nil }
        return fields.remove(at: index).value
    }

    mutating func required(_ key: String) throws(ControlRequestError) -> String {
        guard let value = optional(key), !value.isEmpty else {
            throw .malformed("\(command) needs \(key)=...")
        }
        return value
    }

    func finish() throws(ControlRequestError) {
        guard let extra = fields.first else { return }
        throw .malformed("\(command) takes no \(clipped(extra.key))")
    }
}
