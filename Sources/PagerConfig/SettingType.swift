/// What a setting holds and which values it allows: read by `ConfigTable`, and written out in
/// references and help from the same case, so a range is stated once.
package enum SettingType: Hashable, Sendable {
    /// An integer within the range.
    case integer(ClosedRange<Int64>)
    /// One of a few integers; `described` states them, e.g. `0 or 180`.
    case integerChoice([Int64], described: String)
    /// A number, integer or float, within the range.
    case number(ClosedRange<Double>)
    /// `true` or `false`.
    case boolean
    /// A string.
    case string
    /// An array of strings with at least this many elements.
    case strings(minimumCount: Int)
    /// One of these strings.
    case choice([String])
    /// A duration in quotes (`"5s"`) of at least this many milliseconds; `allowsNever` also takes `"never"`.
    case duration(minimumMilliseconds: Int64, allowsNever: Bool)
    /// Read by its own rule, which `described` states (the I2C bus and address, a system value).
    case special(described: String)

    /// The values allowed, in words: `0 to 100`, `"gpio", "evdev" or "keyboard"`, `a duration of at least 1s`.
    package var allowed: String {
        switch self {
        case .integer(let range): return "\(range.lowerBound) to \(range.upperBound)"
        case .integerChoice(_, let described): return described
        case .number(let range):
            return "a number from \(Self.shortNumber(range.lowerBound)) to \(Self.shortNumber(range.upperBound))"
        case .boolean: return "true or false"
        case .string: return "a string"
        case .strings(let minimumCount):
            return minimumCount > 0
                ? "an array of at least \(minimumCount) string\(minimumCount == 1 ? "" : "s")"
                : "an array of strings"
        case .choice(let choices): return quotedList(choices)
        case .duration(let minimum, let allowsNever):
            let least = "a duration of at least \(Self.durationText(minimum))"
            return allowsNever ? least + ", or \"never\"" : least
        case .special(let described): return described
        }
    }

    /// `"1s"`, `"100ms"`, `"2min"`, `"1h"`: the largest whole unit.
    package static func durationText(_ milliseconds: Int64) -> String {
        if milliseconds >= 3_600_000, milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds >= 60_000, milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)min" }
        if milliseconds >= 1000, milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(milliseconds)ms"
    }

    /// `-1e12` rather than `-1000000000000.0`, `30` rather than `30.0`.
    static func shortNumber(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        if abs(value) < 1e9, Double(Int64(value)) == value { return String(Int64(value)) }
        var exponent = 0
        var mantissa = abs(value)
        while mantissa >= 10 {
            mantissa /= 10
            exponent += 1
        }
        let sign = value < 0 ? "-" : ""
        return Double(Int64(mantissa)) == mantissa ? "\(sign)\(Int64(mantissa))e\(exponent)" : "\(value)"
    }
}

extension ConfigTable {
    /// An integer of an `.integer` or `.integerChoice` type; other types read any integer.
    package mutating func integer(_ key: String, _ type: SettingType) throws(ConfigError) -> Int? {
        switch type {
        case .integer(let range):
            return try integer(key, in: range)
        case .integerChoice(let choices, let described):
            guard let value = value(key) else { return nil }
            guard case .integer(let number) = value else {
                return try invalid(error(key, "expected \(described), found \(describeFound(value))"))
            }
            guard choices.contains(number) else {
                return try invalid(error(key, "expected \(described), found \(number)"))
            }
            return Int(number)
        default:
            return try integer(key, in: Int64.min...Int64.max)
        }
    }

    /// A number of a `.number` type; other types read any number.
    package mutating func number(_ key: String, _ type: SettingType) throws(ConfigError) -> Double? {
        guard case .number(let range) = type else {
            return try number(key, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        }
        return try number(key, in: range)
    }

    /// A string of a `.string` or `.choice` type (checked against the choices).
    package mutating func string(_ key: String, _ type: SettingType) throws(ConfigError) -> String? {
        guard case .choice(let choices) = type else { return try string(key) }
        return try choice(key, among: choices)
    }

    /// An array of strings of a `.strings` type.
    package mutating func strings(_ key: String, _ type: SettingType) throws(ConfigError) -> [String]? {
        guard case .strings(let minimumCount) = type else { return try strings(key) }
        return try strings(key, minimumCount: minimumCount)
    }

    /// A duration of a `.duration` type, in milliseconds; `.some(nil)` is `"never"` where the type allows it.
    package mutating func duration(_ key: String, _ type: SettingType) throws(ConfigError) -> Int64?? {
        guard case .duration(let minimum, let allowsNever) = type else {
            return try duration(key).map { .some($0) }
        }
        if allowsNever, case .string("never")? = table[key]?.value {
            _ = value(key)
            return .some(nil)
        }
        return try duration(key, minimumMilliseconds: minimum).map { .some($0) }
    }
}
