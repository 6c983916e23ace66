/// Typed, checked reading of one table of a configuration: every read names the key and its
/// line when the value is wrong, and `finish()` rejects any key that was never read.
///
/// A read throws its first mistake, unless the table collects them in `problems`: then a wrong
/// value is recorded and read as absent, so reading goes on and `crownpager check` lists them all.
package struct ConfigTable {
    /// The table as parsed.
    package let table: TOMLTable
    /// Its name in messages: `display`, `page[2]`; empty for the root.
    package let path: String
    /// The file, for messages.
    package let file: String
    /// Where mistakes are collected; nil: the first one is thrown.
    package let problems: ConfigProblems?
    private var used: [String] = []
    /// Every key asked for, present or not: the known keys, for "did you mean" and the list in messages.
    private var asked: [String] = []

    /// Reads `table`, called `path` in messages, from `file`; `problems` collects the mistakes instead of throwing them.
    package init(_ table: TOMLTable, path: String, file: String, problems: ConfigProblems? = nil) {
        self.table = table
        self.path = path
        self.file = file
        self.problems = problems
    }

    /// The line of `key`, or of the table when the key is absent.
    package func line(of key: String) -> Int { table[key]?.line ?? table.line }

    /// The full name of `key`.
    package func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// An error about `key`.
    package func error(_ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, line: max(1, line(of: key)), key: name(key), message: message)
    }

    /// Whether `key` is present.
    package func has(_ key: String) -> Bool { table[key] != nil }

    /// Throws `error`, or records it when collecting, so reading goes on.
    package func report(_ error: ConfigError) throws(ConfigError) {
        guard let problems else { throw error }
        problems.record(error)
    }

    /// Throws `error`, or records it when collecting and reads the value as absent (nil).
    package func invalid<Value>(_ error: ConfigError) throws(ConfigError) -> Value? {
        try report(error)
        return nil
    }

    /// What `read` returns, or nil when it throws and the table collects: the error is recorded, once.
    package func collecting<Value>(_ read: () throws(ConfigError) -> Value) throws(ConfigError) -> Value? {
        do {
            return try read()
        } catch {
            return try invalid(error)
        }
    }

    /// Whether a mistake was recorded about `key`: a check that compares it with another key is skipped.
    package func isInvalid(_ key: String) -> Bool {
        problems?.last(about: name(key)) != nil
    }

    /// The error for a required `key` that did not read: the mistake recorded about its value,
    /// or that it is missing (`message`).
    package func absent(_ key: String, _ message: String) -> ConfigError {
        problems?.last(about: name(key)) ?? error(key, message)
    }

    /// Marks `key` read and returns its value.
    package mutating func value(_ key: String) -> TOMLValue? {
        if !asked.contains(key) { asked.append(key) }
        guard let entry = table[key] else { return nil }
        if !used.contains(key) { used.append(key) }
        return entry.value
    }

    /// A string.
    package mutating func string(_ key: String) throws(ConfigError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            return try invalid(error(key, "expected a string in quotes, found \(describeFound(value))"))
        }
        return text
    }

    /// A required string.
    package mutating func requiredString(_ key: String, _ expected: String) throws(ConfigError) -> String {
        guard let text = try string(key) else { throw absent(key, "missing: \(expected)") }
        return text
    }

    /// One of `choices`.
    package mutating func choice(_ key: String, among choices: [String]) throws(ConfigError) -> String? {
        guard let text = try string(key) else { return nil }
        guard choices.contains(text) else {
            let hint = closestName(to: text, among: choices).map { " (did you mean \"\($0)\"?)" } ?? ""
            return try invalid(error(key, "expected one of \(quotedList(choices)), found \"\(text)\"\(hint)"))
        }
        return text
    }

    /// An integer within `range`.
    package mutating func integer(_ key: String, in range: ClosedRange<Int64>) throws(ConfigError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .integer(let number) = value, range.contains(number) else {
            return try invalid(
                error(
                    key,
                    "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(describeFound(value))"
                ))
        }
        return Int(number)
    }

    /// A number (integer or float) within `range`.
    package mutating func number(_ key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        guard let value = value(key) else { return nil }
        let number: Double
        switch value {
        case .integer(let integer): number = Double(integer)
        case .float(let float): number = float
        default: return try invalid(error(key, "expected a number, found \(describeFound(value))"))
        }
        guard range.contains(number) else {
            return try invalid(
                error(
                    key,
                    "expected a number from \(range.lowerBound) to \(range.upperBound), found \(describeFound(value))"))
        }
        return number
    }

    /// `true` or `false`.
    package mutating func boolean(_ key: String) throws(ConfigError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .boolean(let flag) = value else {
            return try invalid(error(key, "expected true or false, found \(describeFound(value))"))
        }
        return flag
    }

    /// An array of strings with at least `minimumCount` elements.
    package mutating func strings(_ key: String, minimumCount: Int = 0) throws(ConfigError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else {
            return try invalid(
                error(key, "expected an array of strings such as [\"a\", \"b\"], found \(describeFound(value))"))
        }
        var texts: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                return try invalid(
                    error(key, "element \(index + 1) must be a string in quotes, found \(describeFound(element))"))
            }
            texts.append(text)
        }
        guard texts.count >= minimumCount else {
            return try invalid(
                error(key, "expected at least \(minimumCount) element\(minimumCount == 1 ? "" : "s"), found none"))
        }
        return texts
    }

    /// A duration such as `"5s"`, `"500ms"`, `"2min"` or `"1h"`, in milliseconds, at least `minimum`.
    package mutating func duration(_ key: String, minimumMilliseconds minimum: Int64 = 0) throws(ConfigError) -> Int64?
    {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value, let milliseconds = parseDuration(text) else {
            return try invalid(
                error(
                    key,
                    "expected a duration in quotes such as \"5s\", \"500ms\", \"2min\" or \"1h\", found \(describeFound(value))"
                ))
        }
        guard milliseconds >= minimum else {
            return try invalid(error(key, "expected at least \(minimum) ms, found \"\(text)\""))
        }
        return milliseconds
    }

    /// A sub-table, read with its own `ConfigTable`.
    package mutating func table(_ key: String) throws(ConfigError) -> ConfigTable? {
        guard let value = value(key) else { return nil }
        guard case .table(let table) = value else {
            return try invalid(
                error(key, "expected a table ([\(name(key))] or { ... }), found \(describeFound(value))"))
        }
        return ConfigTable(table, path: name(key), file: file, problems: problems)
    }

    /// An array of tables (`[[key]]`), each named `key[n]` from 1.
    package mutating func tables(_ key: String) throws(ConfigError) -> [ConfigTable]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else {
            return try invalid(error(key, "expected [[\(name(key))]] tables, found \(describeFound(value))"))
        }
        var tables: [ConfigTable] = []
        for (index, element) in elements.enumerated() {
            guard case .table(let table) = element else {
                return try invalid(error(key, "element \(index + 1) must be a table, found \(describeFound(element))"))
            }
            tables.append(ConfigTable(table, path: "\(name(key))[\(index + 1)]", file: file, problems: problems))
        }
        return tables
    }

    /// Throws for the first key never read (or records each): unknown keys are mistakes, not silently ignored.
    package func finish(known: [String] = []) throws(ConfigError) {
        for entry in table.entries where !used.contains(entry.key) {
            var candidates = asked
            for name in known where !candidates.contains(name) { candidates.append(name) }
            let hint = closestName(to: entry.key, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
            let list = candidates.isEmpty ? "" : "; known keys here: " + candidates.joined(separator: ", ")
            try report(
                ConfigError(file: file, line: entry.line, key: name(entry.key), message: "unknown key\(hint)\(list)"))
        }
    }
}

/// `"a", "b" or "c"`.
package func quotedList(_ names: [String]) -> String {
    let quoted = names.map { "\"" + $0 + "\"" }
    guard quoted.count > 1, let last = quoted.last else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " or " + last
}

/// `"5s"`, `"1.5s"`, `"500ms"`, `"2min"` (or `"2m"`, as systemd and watchOS's settings write it),
/// `"1h"` in milliseconds; nil if not a duration or above a week.
package func parseDuration(_ text: String) -> Int64? {
    let units: [(suffix: String, milliseconds: Int64)] = [
        ("ms", 1), ("min", 60_000), ("m", 60_000), ("s", 1000), ("h", 3_600_000),
    ]
    for unit in units where text.hasSuffix(unit.suffix) {
        let number = Array(text.utf8.dropLast(unit.suffix.utf8.count))
        guard !number.isEmpty, number.count <= 12 else { return nil }
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionScale: Int64 = 1
        var seenPoint = false
        for byte in number {
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
                continue
            }
            guard isDigit(byte) else { return nil }
            if seenPoint {
                guard fractionScale < 1_000_000 else { continue }
                fraction = fraction * 10 + Int64(byte - 0x30)
                fractionScale *= 10
            } else {
                whole = whole * 10 + Int64(byte - 0x30)
            }
        }
        guard number.first != UInt8(ascii: "."), number.last != UInt8(ascii: ".") else { return nil }
        let result = whole * unit.milliseconds + fraction * unit.milliseconds / fractionScale
        return result <= 7 * 86_400_000 ? result : nil
    }
    return nil
}
