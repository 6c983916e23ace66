/// A configuration mistake: the file, the line, the key, and what was expected there.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// The configuration file's path, as the user gave it.
    public var file: String
    /// The 1-based line of the key (or of its table, for a missing key).
    public var line: Int
    /// The key's full name, e.g. `display.brightness` or `page[3].refresh`; empty for syntax errors.
    public var key: String
    /// What is wrong and what is expected.
    public var message: String

    /// An error about `key` on `line` of `file`.
    public init(file: String, line: Int, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// A syntax error of the file itself.
    public init(file: String, syntax error: TOMLError) {
        self.init(file: file, line: error.line, key: "", message: "column \(error.column): \(error.message)")
    }

    /// `crownpager.toml:12: display.brightness: expected an integer from 0 to 100, found 250`.
    public var description: String {
        key.isEmpty ? "\(file):\(line): \(message)" : "\(file):\(line): \(key): \(message)"
    }
}

/// Describes a value as found in the file, for "found ..." in messages.
public func describeFound(_ value: TOMLValue) -> String {
    switch value {
    case .string(let text): return "the string \"\(text.count > 40 ? String(text.prefix(40)) + "..." : text)\""
    case .integer(let number): return "the integer \(number)"
    case .float(let number): return "the float \(number)"
    case .boolean(let flag): return flag ? "true" : "false"
    case .array(let elements): return "an array of \(elements.count)"
    case .table: return "a table"
    }
}
