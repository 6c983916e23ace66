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

/// The known name closest to `name` (at most two edits away), for "did you mean".
public func closestName(to name: String, among names: [String]) -> String? {
    var best: (name: String, distance: Int)?
    for candidate in names {
        let distance = editDistance(Array(name.utf8), Array(candidate.utf8))
        if distance <= 2, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    return best?.name
}

func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty, a.count < 256, b.count < 256 else { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    var row = previous
    for i in 1...a.count {
        row[0] = i
        for j in 1...b.count {
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &row)
    }
    return previous[b.count]
}
