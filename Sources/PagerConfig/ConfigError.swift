/// A configuration mistake: the file, the line, the key, and what was expected there.
package struct ConfigError: Error, Hashable, CustomStringConvertible {
    /// The configuration file's path, as the user gave it.
    package var file: String
    /// The 1-based line of the key (or of its table, for a missing key).
    package var line: Int
    /// The key's full name, e.g. `display.brightness` or `page[3].refresh`; empty for syntax errors.
    package var key: String
    /// What is wrong and what is expected.
    package var message: String

    /// An error about `key` on `line` of `file`.
    package init(file: String, line: Int, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// A syntax error of the file itself.
    package init(file: String, syntax error: TOMLError) {
        self.init(file: file, line: error.line, key: "", message: "column \(error.column): \(error.message)")
    }

    /// `crownpager.toml:12: display.brightness: expected an integer from 0 to 100, found 250`.
    package var description: String {
        key.isEmpty ? "\(file):\(line): \(message)" : "\(file):\(line): \(key): \(message)"
    }
}

/// Every mistake of a configuration file, for `crownpager check`, in the order of their lines.
package struct ConfigErrors: Error, Equatable, CustomStringConvertible {
    /// The mistakes, at least one.
    package var errors: [ConfigError]
    /// Whether a syntax error stopped the reading: the rest of the file could not be checked.
    package var stoppedReading: Bool

    /// `errors`, sorted by line; `stoppedReading` when a syntax error ended the reading.
    package init(_ errors: [ConfigError], stoppedReading: Bool = false) {
        self.errors = errors.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .map { $0.element }
        self.stoppedReading = stoppedReading
    }

    /// One error a line, as `ConfigError` writes it.
    package var description: String { errors.map { $0.description }.joined(separator: "\n") }
}

/// Where the reading of a configuration collects its mistakes instead of stopping at the first.
package final class ConfigProblems {
    /// The mistakes, in the order they were found.
    package private(set) var errors: [ConfigError] = []
    /// The same mistakes, to find one again in constant time: `check` on a file of 8,000 wrong
    /// pages searched the list each time, 3.5 s instead of linear time.
    private var recorded: Set<ConfigError> = []
    /// Where in `errors` the last mistake about each key is.
    private var lastByKey: [String: Int] = [:]

    /// None yet.
    package init() {}

    /// Adds `error`, unless it is there already: a read that went on past a wrong value may throw it again.
    package func record(_ error: ConfigError) {
        guard recorded.insert(error).inserted else { return }
        lastByKey[error.key] = errors.count
        errors.append(error)
    }

    /// The last mistake recorded about `key` (its full name), in constant time.
    package func last(about key: String) -> ConfigError? {
        lastByKey[key].map { errors[$0] }
    }
}

/// Describes a value as found in the file, for "found ..." in messages.
package func describeFound(_ value: TOMLValue) -> String {
    switch value {
    case .string(let text): return "the string \"\(text.count > 40 ? String(text.prefix(40)) + "..." : text)\""
    case .integer(let number): return "the integer \(number)"
    case .float(let number): return "the float \(number)"
    case .boolean(let flag): return flag ? "true" : "false"
    case .array(let elements): return "an array of \(elements.count)"
    case .table: return "a table"
    }
}
