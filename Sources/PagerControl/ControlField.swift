/// One `key=value` word of a request or a response line; the value escaped so that it holds no
/// space, no control character and no newline (`\s`, `\n`, `\t`, `\r`, `\\`).
package struct ControlField: Hashable, Sendable {
    /// The key: lowercase letters and `-`.
    package var key: String
    /// The value, unescaped.
    package var value: String

    /// The field `key=value`.
    package init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }

    /// The field as it goes on the line.
    package var word: String { key + "=" + Self.escape(value) }

    /// `command` and `fields` as one line, with its newline.
    package static func line(_ command: String, _ fields: [ControlField]) -> String {
        ([command] + fields.map { $0.word }).joined(separator: " ") + "\n"
    }

    /// `text` with a backslash before what would end a word or a line.
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case " ": escaped += "\\s"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            // Other control characters travel as spaces: the panel draws none of them.
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: escaped += "\\s"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// The value `text` escapes; nil when a backslash starts no known escape.
    package static func unescape(_ text: Substring) -> String? {
        guard text.contains("\\") else { return String(text) }
        var value = ""
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                switch scalar {
                case "\\": value += "\\"
                case "s": value += " "
                case "n": value += "\n"
                case "t": value += "\t"
                case "r": value += "\r"
                default: return nil
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                value.unicodeScalars.append(scalar)
            }
        }
        return escaping ? nil : value
    }

    /// The fields of `words` (`key=value` each), in order; the error names the first that is not one.
    static func fields(_ words: ArraySlice<Substring>) -> Result<[ControlField], ControlRequestError> {
        var fields: [ControlField] = []
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                return .failure(.malformed("\"\(clipped(word))\" is not key=value"))
            }
            let key = String(word[..<equals])
            guard let value = unescape(word[word.index(after: equals)...]) else {
                return .failure(
                    .malformed("the value of \(clipped(key)) has an unknown escape: use \\s \\n \\t \\r \\\\"))
            }
            guard !fields.contains(where: { $0.key == key }) else {
                return .failure(.malformed("\(clipped(key)) is given twice"))
            }
            fields.append(ControlField(key, value))
        }
        return .success(fields)
    }
}

/// At most 40 characters of `text`, for an error message that quotes what came.
func clipped(_ text: some StringProtocol) -> String {
    text.count <= 40 ? String(text) : String(text.prefix(40)) + "..."
}
