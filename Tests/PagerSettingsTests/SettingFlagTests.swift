import PagerConfig
import PagerSettings
import Testing

/// The flags `run` and `render` read from the settings table alone: each means what its key
/// means in the file, so a setting added to the table with a flag needs nothing else.
@Suite struct SettingFlagTests {
    /// The flags no command declares itself (the ones read by `RunOverrides.set(flags:)`).
    static let tableFlags = ConfigurationSetting.all.filter { $0.flag.map { !$0.isDeclared } ?? false }

    /// A value the setting takes that is not its default: the file's and the flag's spelling.
    static func otherValue(_ setting: ConfigurationSetting) -> (toml: String, flag: String?)? {
        if let value = setting.flag?.setsValue { return (value, nil) }
        switch setting.type {
        case .integer(let range):
            let value = String(range.upperBound)
            return (value, value)
        case .integerChoice(let choices, _):
            guard let value = choices.last.map({ String($0) }) else { return nil }
            return (value, value)
        case .choice(let choices):
            guard let value = choices.last(where: { "\"\($0)\"" != setting.defaultValue }) else { return nil }
            return ("\"\(value)\"", value)
        case .duration(let minimum, _):
            // 5s, or the setting's minimum when that is longer (pixel_shift takes 10s at least).
            let value = "\(max(5, (minimum + 999) / 1000))s"
            return ("\"\(value)\"", value)
        default:
            return nil
        }
    }

    /// The configuration `text` gives, with `overrides` laid over it, printed whole to compare.
    static func configuration(_ text: String, _ overrides: RunOverrides = RunOverrides()) throws -> String {
        var printed = ""
        dump(overrides.applied(to: try Configuration(parsing: text, file: "t.toml", files: NoFiles())), to: &printed)
        return printed
    }

    @Test func theTableHasFlagsOnlyItReads() {
        #expect(Self.tableFlags.count >= 12)
        #expect(Self.tableFlags.contains { $0.key == "crown.sensitivity" })
    }

    /// `--flag value` lays over a configuration what `key = value` in the file gives.
    @Test(arguments: tableFlags) func aFlagMeansWhatItsKeyMeansInTheFile(setting: ConfigurationSetting) throws {
        let flag = try #require(setting.flag)
        let value = try #require(Self.otherValue(setting), "\(setting.key): no value to try")
        let parts = setting.key.split(separator: ".", maxSplits: 1)
        let file = try Self.configuration("[\(parts[0])]\n\(parts[1]) = \(value.toml)\n")
        var overrides = RunOverrides()
        try overrides.set(flags: [flag.name] + (value.flag.map { [$0] } ?? []))
        let flagged = try Self.configuration("", overrides)
        #expect(flagged == file, "\(flag.name)")
        let unflagged = try Self.configuration("")
        #expect(flagged != unflagged, "\(flag.name) changed nothing")
        // And `--flag=value`, the other spelling.
        if let argument = value.flag {
            var joined = RunOverrides()
            try joined.set(flags: ["\(flag.name)=\(argument)"])
            let joinedFlagged = try Self.configuration("", joined)
            #expect(joinedFlagged == file)
        }
    }

    @Test func whatTheTableCannotReadSaysWhy() {
        func refusal(_ arguments: [String]) -> String {
            var overrides = RunOverrides()
            do {
                try overrides.set(flags: arguments)
                return ""
            } catch {
                return error.description
            }
        }
        #expect(refusal(["--max-dots", "0"]) == "--max-dots must be between 1 and 20, not '0'")
        #expect(refusal(["--frobnicate"]) == "unknown option '--frobnicate'")
        #expect(refusal(["stray"]) == "unexpected argument 'stray'")
        #expect(refusal(["--sensitivity"]) == "missing value for '--sensitivity'")
        #expect(refusal(["--wrap=false"]) == "unknown option '--wrap=false'")
        #expect(refusal(["--sensitivity", "low", "--wrap"]).isEmpty)
    }
}
