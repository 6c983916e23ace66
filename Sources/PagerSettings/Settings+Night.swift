import PagerConfig

/// The night schedule's rows of the settings table (`[display] night`, `night_mode`), in their own
/// block: the engine decides the night (`DeviceEngine+Night`), these only say when and how.
extension Settings {
    package static let displayNight = Setting<NightSchedule?>(
        "display.night", .special(described: NightSchedule.rule), nightCodec.optional(unset: "off"), default: nil,
        example: "\"23:00-07:00\"",
        "Local times between which the panel dims or switches off (night_mode) and timed pages stand still"
    ) { $0.display.night = $1 }
    package static let displayNightMode = Setting<NightMode>(
        "display.night_mode", .choice(NightMode.allCases.map { $0.rawValue }), .named, default: NightMode.dim,
        "What the night does: dim (to dim_brightness) or off"
    ) { $0.display.nightMode = $1 }

    /// `"23:00-07:00"`: a string read by `NightSchedule(parsing:)`.
    static let nightCodec = SettingCodec<NightSchedule>(
        read: { (table: inout ConfigTable, key: String, type: SettingType) throws(ConfigError) -> NightSchedule? in
            guard let value = table.value(key) else { return nil }
            if case .string(let text) = value, let ends = NightSchedule.ends(parsing: text) {
                if let night = NightSchedule(start: ends.start, end: ends.end) { return night }
                return try table.invalid(
                    table.error(
                        key,
                        "\"\(text)\" starts and ends at the same time: write the hours the night lasts (\"23:00-07:00\"), or \"off\" for no night"
                    ))
            }
            return try table.invalid(table.error(key, "expected \(type.allowed), found \(describeFound(value))"))
        },
        toml: { "\"" + $0.description + "\"" },
        parse: { text, _ in NightSchedule(parsing: text) })
}
