import CrownVocabulary
import PagerConfig

/// How one kind of value is read from the file, written back as TOML and read from a command-line
/// argument: the part of a setting its type decides, shared by every setting of that type.
package struct SettingCodec<Value>: Sendable {
    /// Reads `key` of the table, checked against the setting's type; nil when absent or wrong (recorded).
    let read: @Sendable (inout ConfigTable, String, SettingType) throws(ConfigError) -> Value?
    /// The value as the default file writes it; nil for a value that is unset (written as the example).
    let toml: @Sendable (Value) -> String?
    /// The value a command-line argument names, checked against the setting's type; nil when it names none.
    let parse: @Sendable (String, SettingType) -> Value?

    /// A codec of its three parts.
    init(
        read: @escaping @Sendable (inout ConfigTable, String, SettingType) throws(ConfigError) -> Value?,
        toml: @escaping @Sendable (Value) -> String?,
        parse: @escaping @Sendable (String, SettingType) -> Value?
    ) {
        self.read = read
        self.toml = toml
        self.parse = parse
    }

    /// This codec's values seen through `forward` and `backward`: an enum of a few integers or strings.
    func map<Other>(
        _ forward: @escaping @Sendable (Value) -> Other?, _ backward: @escaping @Sendable (Other) -> Value
    ) -> SettingCodec<Other> {
        let read = self.read
        let toml = self.toml
        let parse = self.parse
        return SettingCodec<Other>(
            read: { (table: inout ConfigTable, key: String, type: SettingType) throws(ConfigError) -> Other? in
                try read(&table, key, type).flatMap(forward)
            },
            toml: { toml(backward($0)) }, parse: { text, type in parse(text, type).flatMap(forward) })
    }

    /// This codec's values, or nil written as `unset` (`"never"`, `"none"`); nil `unset` leaves it out of the file.
    func optional(unset: String? = nil) -> SettingCodec<Value?> {
        let read = self.read
        let toml = self.toml
        let parse = self.parse
        return SettingCodec<Value?>(
            read: { (table: inout ConfigTable, key: String, type: SettingType) throws(ConfigError) -> Value?? in
                if let unset, case .string(unset)? = table.table[key]?.value {
                    _ = table.value(key)
                    return .some(nil)
                }
                return try read(&table, key, type).map { .some($0) }
            },
            toml: { value in value.map(toml) ?? unset.map { "\"" + $0 + "\"" } },
            parse: { text, type in text == unset ? .some(nil) : parse(text, type).map { .some($0) } })
    }
}

extension SettingCodec where Value == Int {
    /// An integer within the type's range or among its choices.
    static let integer = SettingCodec(
        read: { (table: inout ConfigTable, key: String, type: SettingType) throws(ConfigError) -> Int? in
            try table.integer(key, type)
        },
        toml: { String($0) },
        parse: { text, type in
            guard let number = Int64(text) else { return nil }
            switch type {
            case .integer(let range): return range.contains(number) ? Int(number) : nil
            case .integerChoice(let choices, _): return choices.contains(number) ? Int(number) : nil
            default: return Int(number)
            }
        })
}

extension SettingCodec where Value == Bool {
    /// `true` or `false`.
    static let boolean = SettingCodec(
        read: { (table: inout ConfigTable, key: String, _: SettingType) throws(ConfigError) -> Bool? in
            try table.boolean(key)
        },
        toml: { $0 ? "true" : "false" },
        parse: { text, _ in text == "true" ? true : text == "false" ? false : nil })
}

extension SettingCodec where Value == String {
    /// A string in quotes, one of the type's choices if it has them.
    static let string = SettingCodec(
        read: { (table: inout ConfigTable, key: String, type: SettingType) throws(ConfigError) -> String? in
            try table.string(key, type)
        },
        toml: { "\"" + $0 + "\"" },
        parse: { text, type in
            guard case .choice(let choices) = type else { return text }
            return choices.contains(text.lowercased()) ? text.lowercased() : nil
        })
}

extension SettingCodec where Value: RawRepresentable & Sendable, Value.RawValue == String {
    /// One of an enumeration's names, as its raw value.
    static var named: SettingCodec {
        SettingCodec<String>.string.map({ Value(rawValue: $0) }, { $0.rawValue })
    }
}

extension SettingCodec where Value == TimeSpan {
    /// A duration in quotes (`"5s"`) of at least the type's minimum.
    static let duration = SettingCodec(
        read: { (table: inout ConfigTable, key: String, type: SettingType) throws(ConfigError) -> TimeSpan? in
            guard case .duration(let minimum, _) = type else {
                return try table.duration(key).map(TimeSpan.milliseconds)
            }
            return try table.duration(key, minimumMilliseconds: minimum).map(TimeSpan.milliseconds)
        },
        toml: { "\"" + SettingType.durationText($0.milliseconds) + "\"" },
        parse: { text, type in
            guard let milliseconds = parseDuration(text) else { return nil }
            if case .duration(let minimum, _) = type, milliseconds < minimum { return nil }
            return .milliseconds(milliseconds)
        })
}

/// One setting of `crownpager.toml`, typed: where its value goes in `Configuration`, its TOML key,
/// type and range, default, flag, documentation and whether a reload may change it.
///
/// `Settings` holds one a setting; the parser, the defaults, the command line's overrides, the
/// flags' help, `check --print-default`, `--print-reference` and `crownpager.toml(5)` read them.
/// Embedded Swift has no key paths, so the place in `Configuration` is a setter.
package struct Setting<Value: Sendable>: Sendable {
    /// The setting as the references show it: key, type, default as TOML, flag, documentation.
    package let description: ConfigurationSetting
    /// The value a configuration without the key has.
    package let defaultValue: Value
    /// How its values are read and written.
    let codec: SettingCodec<Value>
    /// Puts a value where the configuration keeps it.
    let set: @Sendable (inout Configuration, Value) -> Void

    /// A setting at `key` of `type`, stored by `set`; `example` for a setting unset by default.
    init(
        _ key: String, _ type: SettingType, _ codec: SettingCodec<Value>, default defaultValue: Value,
        example: String? = nil, flag: SettingFlag? = nil, reloadable: Bool = true, _ documentation: String,
        set: @escaping @Sendable (inout Configuration, Value) -> Void
    ) {
        self.description = ConfigurationSetting(
            key, type, default: codec.toml(defaultValue), example: example, flag: flag, reloadable: reloadable,
            documentation)
        self.defaultValue = defaultValue
        self.codec = codec
        self.set = set
    }

    /// Its key: `display.brightness`.
    package var key: String { description.key }

    /// `value` as the file writes it (`"10m"`, `"never"`); nil where the file leaves it out.
    package func toml(_ value: Value) -> String? { codec.toml(value) }

    /// The help of its flag: what it does, what it takes and the key it overrides.
    package var help: String { description.flagHelp }

    /// The value a command-line argument names, checked as the file's value is; nil when it names none.
    package func parse(_ argument: String) -> Value? { codec.parse(argument, description.type) }

    /// The value of its flag's argument, checked as the file's value is; a refusal says what the
    /// flag takes, in the table's words.
    package func parse(flagArgument argument: String) throws(SettingArgumentError) -> Value {
        if let value = parse(argument) { return value }
        throw SettingArgumentError(
            flag: description.flag?.name ?? description.key, argument: argument,
            allowed: description.flag?.takes ?? description.type.flagAllowed)
    }

    /// The row of the table, its type erased.
    var row: SettingRow {
        let name = description.name
        let type = description.type
        let read = codec.read
        let set = self.set
        let setting = self
        return SettingRow(
            description: description,
            read: { (table: inout ConfigTable, configuration: inout Configuration) throws(ConfigError) in
                if let value = try read(&table, name, type) { set(&configuration, value) }
            },
            override: { (argument: String) throws(SettingArgumentError) -> SettingOverride in
                SettingOverride(setting, try setting.parse(flagArgument: argument))
            })
    }
}

/// A setting with its type erased: what the section reader and the references need.
struct SettingRow: Sendable {
    /// Its key, type, default, flag and documentation.
    let description: ConfigurationSetting
    /// Reads its key from its table into a configuration, if the table has it.
    let read: @Sendable (inout ConfigTable, inout Configuration) throws(ConfigError) -> Void
    /// Its flag's argument as an override, read by the setting's rule.
    let override: @Sendable (String) throws(SettingArgumentError) -> SettingOverride
}

/// A setting's value from the command line, laid over a configuration (`RunOverrides`).
package struct SettingOverride: Sendable {
    /// The setting's key.
    package let key: String
    /// Sets the value.
    let apply: @Sendable (inout Configuration) -> Void

    /// `value` for `setting`.
    package init<Value>(_ setting: Setting<Value>, _ value: Value) {
        key = setting.key
        let set = setting.set
        apply = { set(&$0, value) }
    }
}

/// A command-line argument the settings table cannot read: an unknown flag, a flag without its
/// value, or a value its setting refuses.
package enum SettingFlagError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No setting has this flag (or a word that is no flag at all).
    case unknown(String)
    /// The flag came last, without the value it takes.
    case missingValue(flag: String)
    /// The setting refuses the value.
    case refused(SettingArgumentError)

    package var description: String {
        switch self {
        case .unknown(let argument) where argument.hasPrefix("-"): return "unknown option '\(argument)'"
        case .unknown(let argument): return "unexpected argument '\(argument)'"
        case .missingValue(let flag): return "missing value for '\(flag)'"
        case .refused(let error): return error.description
        }
    }
}

/// A flag's argument its setting refuses: `--max-dots must be between 1 and 20, not 0`.
package struct SettingArgumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The flag: `--max-dots`.
    package var flag: String
    /// What was given.
    package var argument: String
    /// What the flag takes, in words.
    package var allowed: String

    package var description: String { "\(flag) must be \(allowed), not '\(argument)'" }
}

extension SettingType {
    /// What a flag of this type takes, as a sentence's object: `between 1 and 20`, `"low", "medium" or "high"`.
    var flagAllowed: String {
        switch self {
        case .integer(let range): return "between \(range.lowerBound) and \(range.upperBound)"
        default: return allowed
        }
    }
}
