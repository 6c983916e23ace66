import PagerGraphics

/// What an MQTT payload means for a page fed by it (`source = "mqtt"`): the text or number to
/// push, or why it cannot be shown. Standard library only: the shell hands it the bytes.
package enum MQTTPayload {
    /// The largest payload read; a larger one is refused unread.
    package static let maximumBytes = 65_536
    /// The deepest nesting of a JSON payload read; deeper is refused, so no payload runs the stack out.
    package static let maximumDepth = 32

    /// Why a payload shows nothing.
    package enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// Larger than `maximumBytes`.
        case tooLarge(bytes: Int)
        /// Not JSON, or nested too deep, though the page reads a field of it.
        case badJSON
        /// The JSON has no value at the page's `json` path.
        case noField(String)
        /// A gauge's value is not a finite number.
        case notANumber(String)

        /// The short mark on the page.
        package var mark: String {
            switch self {
            case .tooLarge: return "too large"
            case .badJSON: return "bad JSON"
            case .noField: return "no field"
            case .notANumber: return "not a number"
            }
        }

        /// The log line's reason, with what the operator can change.
        package var description: String {
            switch self {
            case .tooLarge(let bytes): return "its \(bytes) bytes are more than \(MQTTPayload.maximumBytes)"
            case .badJSON:
                return "it is not JSON (or nests deeper than \(MQTTPayload.maximumDepth)): publish JSON or drop json ="
            case .noField(let path): return "its JSON has no value at \"\(path)\": check the page's json path"
            case .notANumber(let text):
                return
                    "a gauge shows a finite number, found \"\(text.prefix(40))\": publish e.g. 21.5 or pick it with json ="
            }
        }
    }

    /// The value `payload` gives a page: the field at `path` (dotted: `"sensor.temperature"`, a
    /// number indexes an array) of a JSON payload, or the whole payload for nil; a gauge's must be
    /// a finite number.
    ///
    /// Bytes that are not UTF-8 show as U+FFFD, as a command's output does (`TerminalText`): a
    /// sensor's stray byte costs one mark, not the whole value. A whole payload is read as a
    /// terminal shows it; a JSON string's invalid bytes become U+FFFD as it is read.
    package static func value(of payload: [UInt8], json path: String?, gauge: Bool) -> Result<String, Problem> {
        guard payload.count <= maximumBytes else { return .failure(.tooLarge(bytes: payload.count)) }
        var value: String
        if let path {
            var reader = JSONReader(bytes: payload)
            guard let found = reader.field(at: path.split(separator: ".", omittingEmptySubsequences: false)) else {
                return .failure(reader.failed ? .badJSON : .noField(path))
            }
            value = found
        } else {
            value = TerminalText.read(payload)
        }
        if gauge {
            let trimmed = value.trimmingWhitespace
            guard let number = Double(trimmed), number.isFinite else { return .failure(.notANumber(value)) }
            return .success(String(trimmed))
        }
        return .success(value)
    }

    /// The keys of the JSON object at `path` (dotted, as `value(of:json:gauge:)` reads it) of
    /// `payload`, in order; nil when the payload is not JSON or holds no object there.
    package static func keys(of payload: [UInt8], at path: String) -> [String]? {
        guard payload.count <= maximumBytes else { return nil }
        var reader = JSONReader(bytes: payload)
        _ = reader.field(at: path.split(separator: ".", omittingEmptySubsequences: false))
        return reader.failed ? nil : reader.keys
    }
}

/// A reader of one JSON document that keeps only the value at a path: a scalar's text, nil for
/// none (an object, an array, null, or no such field), `failed` when the text is not JSON.
private struct JSONReader {
    let bytes: [UInt8]
    var index = 0
    var failed = false
    /// The keys of the object at the path, once read; nil when the value there is not an object.
    var keys: [String]?

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The scalar at `path` of the document, which must be JSON to its end.
    mutating func field(at path: [Substring]) -> String? {
        let found = value(path: path[...], depth: 0)
        skipSpace()
        if index != bytes.count { failed = true }
        return failed ? nil : found
    }

    /// Reads one value; when `path` is empty, returns its text if it is a scalar.
    private mutating func value(path: ArraySlice<Substring>, depth: Int) -> String? {
        guard !failed else { return nil }
        guard depth < MQTTPayload.maximumDepth else { return fail() }
        skipSpace()
        guard index < bytes.count else { return fail() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(path: path, depth: depth)
        case UInt8(ascii: "["): return array(path: path, depth: depth)
        case UInt8(ascii: "\""):
            let text = string()
            return path.isEmpty ? text : nil
        default:
            let text = scalar()
            return path.isEmpty && text != "null" ? text : nil
        }
    }

    private mutating func object(path: ArraySlice<Substring>, depth: Int) -> String? {
        index += 1
        var found: String?
        // The object the path ends at: its keys are what `MQTTPayload.keys` asks for.
        var collected: [String]? = path.isEmpty ? [] : nil
        defer { if let collected, !failed { keys = collected } }
        skipSpace()
        if take(UInt8(ascii: "}")) { return nil }
        repeat {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return fail() }
            collected?.append(key)
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return fail() }
            let wanted = path.first.map { $0 == key } ?? false
            let inner = value(path: wanted ? path.dropFirst() : ["\u{0}"], depth: depth + 1)
            if wanted, found == nil { found = inner }
            skipSpace()
        } while take(UInt8(ascii: ",")) && !failed
        guard take(UInt8(ascii: "}")) else { return fail() }
        return found
    }

    private mutating func array(path: ArraySlice<Substring>, depth: Int) -> String? {
        index += 1
        var found: String?
        var position = 0
        skipSpace()
        if take(UInt8(ascii: "]")) { return nil }
        let wanted = path.first.flatMap { Int($0) }
        repeat {
            let inner = value(path: wanted == position ? path.dropFirst() : ["\u{0}"], depth: depth + 1)
            if wanted == position { found = inner }
            position += 1
            skipSpace()
        } while take(UInt8(ascii: ",")) && !failed
        guard take(UInt8(ascii: "]")) else { return fail() }
        return found
    }

    /// A string at `index` (on its quote), its escapes decoded; nil (and failed) when malformed.
    private mutating func string() -> String? {
        index += 1
        var scalars = String.UnicodeScalarView()
        var start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: String(decoding: bytes[start..<index], as: UTF8.self).unicodeScalars)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { return fail() }
            if byte == UInt8(ascii: "\\") {
                scalars.append(contentsOf: String(decoding: bytes[start..<index], as: UTF8.self).unicodeScalars)
                guard let escaped = escape() else { return fail() }
                scalars.append(escaped)
                start = index
                continue
            }
            index += 1
        }
        return fail()
    }

    /// The escape at `index` (on its backslash); a lone surrogate reads as U+FFFD.
    private mutating func escape() -> Unicode.Scalar? {
        index += 1
        guard index < bytes.count else { return nil }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(letter)
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let high = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(high), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            {
                index += 2
                guard let low = hex4() else { return nil }
                if (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                }
                return "\u{FFFD}"
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default: return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Int(String(Unicode.Scalar(byte)), radix: 16) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    /// A number, true, false or null: its text, which must be one of them.
    private mutating func scalar() -> String? {
        let start = index
        let numeric = Set("0123456789+-.eE".utf8)
        let allowed = numeric.union("truefalsn".utf8)
        while index < bytes.count, allowed.contains(bytes[index]) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // Double also reads "nan" and "inf", which JSON has not.
        let isNumber = !text.isEmpty && text.utf8.allSatisfy(numeric.contains) && Double(text) != nil
        guard text == "true" || text == "false" || text == "null" || isNumber else { return fail() }
        return text
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func fail() -> String? {
        failed = true
        return nil
    }
}

extension String {
    /// The text without white space around it.
    fileprivate var trimmingWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
