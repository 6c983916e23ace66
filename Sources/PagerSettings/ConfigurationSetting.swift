import CrownVocabulary
import PagerConfig
import PagerCore
import SSD1306

/// One setting of `crownpager.toml`: where it is, what it takes, its default, the flag that
/// overrides it, what it does and whether a reload may change it.
///
/// `ConfigurationSetting.all` is the one table the parser's known keys and ranges, `check --print-default`,
/// the flags' help and the configuration article's reference come from.
package struct ConfigurationSetting: Hashable, Sendable {
    /// Its place in the file: `display.address`, `crown.lines.a`; the keys of a `[[page]]` are `page.refresh`.
    package let key: String
    /// What it holds and which values it allows.
    package let type: SettingType
    /// The default as the default file writes it (`0x3c`, `"1min"`); nil when unset by default or required.
    package let defaultValue: String?
    /// For a setting without a default: a value the default file shows, commented out.
    package let example: String?
    /// The command-line flag that overrides it, if any.
    package let flag: SettingFlag?
    /// What it does, in one line.
    package let documentation: String
    /// Whether a reload (SIGHUP) may change it; otherwise it takes a restart.
    package let reloadable: Bool
    /// For the keys of a `[[page]]`: the kinds of page that take it.
    package let pageKinds: [String]

    /// A setting; `pageKinds` only for the keys of a `[[page]]`.
    package init(
        _ key: String, _ type: SettingType, default defaultValue: String?, example: String? = nil,
        flag: SettingFlag? = nil, reloadable: Bool = true, pageKinds: [String] = [], _ documentation: String
    ) {
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.example = example
        self.flag = flag
        self.documentation = documentation
        self.reloadable = reloadable
        self.pageKinds = pageKinds
    }

    /// The table it is in: `display`, `crown.lines`, `page`.
    package var section: String {
        guard let dot = key.lastIndex(of: ".") else { return "" }
        return String(key[..<dot])
    }

    /// Its name within its table: `address`, `a`.
    package var name: String {
        guard let dot = key.lastIndex(of: ".") else { return key }
        return String(key[key.index(after: dot)...])
    }

    /// Whether it is a key of a `[[page]]`.
    package var isPageKey: Bool { section == "page" }

    /// The help of its flag: what it does, what it takes and the key it overrides.
    package var flagHelp: String {
        guard let flag else { return documentation + "." }
        if flag.setsValue == "false" { return "Turn off \(key): \(Self.lowercasingFirst(documentation))." }
        if let value = flag.setsValue { return "\(documentation) (sets \(key) = \(value))." }
        let allowed = flag.takes ?? (type == .string ? nil : type.allowed)
        let takes = allowed.map { " Takes \($0)." } ?? ""
        let defaultText = defaultValue.map { ", default \($0)" } ?? ""
        return "\(documentation).\(takes) Overrides \(key)\(defaultText)."
    }

    /// `Pages per detent` as `pages per detent`, within a sentence.
    static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.utf8.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else { return text }
        return String(decoding: [first + 32], as: UTF8.self) + text.dropFirst()
    }

    /// The range of an integer setting; nil for any other.
    package var integerRange: ClosedRange<Int64>? {
        guard case .integer(let range) = type else { return nil }
        return range
    }

    /// The setting `flag` overrides, if any.
    package static func overridden(byFlag flag: String) -> ConfigurationSetting? {
        all.first { $0.flag?.name == flag }
    }

    /// What its flag's value is called in the help: `<low|medium|high>`, `<n>`, `<time>`; nil for
    /// a flag that takes none.
    package var flagValueName: String? {
        guard let flag, flag.setsValue == nil else { return nil }
        switch type {
        case .integer, .integerChoice: return "n"
        case .number: return "number"
        case .choice(let choices): return choices.joined(separator: "|")
        case .duration: return "time"
        case .boolean: return "true|false"
        case .string, .strings, .special: return "value"
        }
    }

    /// The flags `run` and `render` read from the table alone, with their help, as `--help` lists
    /// them: a line with the flag and its value, then the help, indented and wrapped within 64
    /// columns, which both `--help` and the indented discussion of crownpager(1) leave as they are.
    package static var tableFlagsHelp: String {
        all.compactMap { setting -> String? in
            guard let flag = setting.flag, !flag.isDeclared else { return nil }
            let value = setting.flagValueName.map { " <\($0)>" } ?? ""
            return (["  \(flag.name)\(value)"] + indented(setting.flagHelp, by: 6, width: 64)).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` columns, each indented by `indent` spaces.
    private static func indented(_ text: String, by indent: Int, width: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = margin
        for word in text.split(separator: " ") {
            if line.count > indent, line.count + 1 + word.count > width {
                lines.append(line)
                line = margin
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines
    }
}

/// A command-line flag that overrides a setting.
package struct SettingFlag: Hashable, Sendable {
    /// `--address`.
    package let name: String
    /// For a flag without a value: the value it sets (`true` for `--wrap`, `false` for `--no-acceleration`).
    package let setsValue: String?
    /// What the flag takes, where the command line differs from the file; nil: as the file.
    package let takes: String?
    /// Whether commands declare the flag themselves, for what they do with it besides overriding the
    /// file: the doctor's GPIO lines and bus, an image loaded from the working directory. Every
    /// other flag is read by `run` and `render` from this table alone (`RunOverrides.set(flags:)`).
    package let isDeclared: Bool

    /// A flag that takes a value, or sets `setsValue` when given alone.
    package init(_ name: String, sets setsValue: String? = nil, takes: String? = nil, declared: Bool = false) {
        self.name = name
        self.setsValue = setsValue
        self.takes = takes
        self.isDeclared = declared
    }
}

extension ConfigurationSetting {
    /// `[[page]]`: one page.
    static let pageKind = ConfigurationSetting(
        "page.kind", .choice(PageSpec.kinds), default: nil, example: "\"text\"", pageKinds: PageSpec.kinds,
        "What the page shows (required)")
    static let pageTitle = ConfigurationSetting(
        "page.title", .string, default: nil, example: "\"Hello\"", pageKinds: PageSpec.kinds,
        "Shown at the top of the page and in the title list; unset, named after what it shows")
    static let pageIndicatorImage = ConfigurationSetting(
        "page.indicator_image", .string, default: nil, example: "\"house\"", pageKinds: PageSpec.kinds,
        "This page's own dot: an image as for indicator.image")
    static let pageFont = ConfigurationSetting(
        "page.font", .string, default: nil, example: "\"fixed5x8\"", pageKinds: PageSpec.kinds,
        "This page's own font instead of display.font: a built-in name or a BDF file")
    static let pageSize = ConfigurationSetting(
        "page.size", .choice(PageTextSize.allCases.map { $0.rawValue }), default: "\"normal\"",
        pageKinds: ["text", "system", "command"],
        "large: the text (a system page's values, a command's output) alone, in the largest font that fits it in one or two lines"
    )
    static let pageDuration = ConfigurationSetting(
        "page.duration", .duration(minimumMilliseconds: 100, allowsNever: true), default: nil, example: "\"8s\"",
        pageKinds: PageSpec.kinds,
        "This page's own time before the next comes by itself, instead of timer.duration; \"never\" stays until turned"
    )
    static let pageText = ConfigurationSetting(
        "page.text", .string, default: nil, example: "\"Hello, world\"", pageKinds: ["text"],
        "The text to show, wrapped; a page taller than the screen scrolls (required; with source = \"push\", "
            + "what shows until the first value)")
    static let pageTime = ConfigurationSetting(
        "page.time", .special(described: "a format of " + ClockFormat.directives), default: "\"%H:%M\"",
        pageKinds: ["clock"], "The format of the time")
    static let pageDate = ConfigurationSetting(
        "page.date", .special(described: "a format of " + ClockFormat.directives), default: "\"%a %e %b\"",
        pageKinds: ["clock"], "The format of the date")
    static let pageValues = ConfigurationSetting(
        "page.values", .strings(minimumCount: 1), default: nil, example: "[\"hostname\", \"ip\"]",
        pageKinds: ["system"],
        "The values, one a line: hostname, ip [interface], cpu-temperature [zone], load, memory, uptime, disk [path], battery [name] (required)"
    )
    static let pageRefresh = ConfigurationSetting(
        "page.refresh", .duration(minimumMilliseconds: 100, allowsNever: false), default: nil, example: "\"2s\"",
        pageKinds: ["system", "command", "file", "gauge"],
        "How often to read it again: 2s, a command every 5s")
    static let pageArgv = ConfigurationSetting(
        "page.argv", .strings(minimumCount: 1), default: nil, example: "[\"vcgencmd\", \"measure_temp\"]",
        pageKinds: ["command", "gauge"],
        "The program and its arguments, run without a shell unless you name one (required for a command)")
    static let pageTimeout = ConfigurationSetting(
        "page.timeout", .duration(minimumMilliseconds: 10, allowsNever: false), default: "\"2s\"",
        pageKinds: ["command", "gauge"], "The command and its process group are killed after this long")
    static let pageMaximumOutput = ConfigurationSetting(
        "page.max_output", .integer(16...65536), default: "4096", pageKinds: ["command", "gauge"],
        "Bytes of output kept; the rest is dropped")
    static let pagePath = ConfigurationSetting(
        "page.path", .string, default: nil, example: "\"/var/log/syslog\"", pageKinds: ["file", "image", "gauge"],
        "The file: whose last lines to show, the PBM, XBM or PNG picture, or the one holding a gauge's number")
    static let pageLines = ConfigurationSetting(
        "page.lines", .integer(1...100), default: "5", pageKinds: ["file"], "How many of the file's last lines to show")
    static let pageSource = ConfigurationSetting(
        "page.source",
        .special(
            described: "a numeric system value such as \"cpu-temperature\", \"command\", \"file\", \"push\" or \"mqtt\""
        ),
        default: nil, example: "\"push\"", pageKinds: ["text", "gauge"],
        "Where the gauge's number comes from: a system value, a command (argv), a file (path), \"push\" "
            + "(crownpager set) or \"mqtt\" (topic) (required); a text page's text from \"push\" or \"mqtt\"")
    static let pageStaleAfter = ConfigurationSetting(
        "page.stale_after", .duration(minimumMilliseconds: 100, allowsNever: false), default: nil,
        example: "\"10min\"", pageKinds: ["text", "gauge"],
        "With source = \"push\" or \"mqtt\": a value not set again for this long is marked stale")
    static let pageTopic = ConfigurationSetting(
        "page.topic", .string, default: nil, example: "\"home/kitchen/temperature\"", pageKinds: ["text", "gauge"],
        "With source = \"mqtt\": the topic whose messages set the value; a retained one fills the page at start")
    static let pageJSON = ConfigurationSetting(
        "page.json", .string, default: nil, example: "\"sensor.temperature\"", pageKinds: ["text", "gauge"],
        "With source = \"mqtt\": the value is this field of a JSON payload, a dotted path (a number indexes an array)")
    static let pageMinimum = ConfigurationSetting(
        "page.min", .number(-1e12...1e12), default: nil, example: "30", pageKinds: ["gauge"],
        "The value at the empty end: by source, e.g. 30 for cpu-temperature, else 0")
    static let pageMaximum = ConfigurationSetting(
        "page.max", .number(-1e12...1e12), default: nil, example: "85", pageKinds: ["gauge"],
        "The value at the full end: by source, e.g. 85 for cpu-temperature, 100 for memory and disk")
    static let pageUnit = ConfigurationSetting(
        "page.unit", .string, default: nil, example: "\"%\"", pageKinds: ["gauge"],
        "Printed after the value: by source, e.g. \u{B0}C for cpu-temperature")
    static let pageStyle = ConfigurationSetting(
        "page.style", .choice(["bar", "dial"]), default: "\"bar\"", pageKinds: ["gauge"], "A bar or a dial")

    static let pageAction = ConfigurationSetting(
        "page.action", .strings(minimumCount: 1), default: nil,
        example: "[\"systemctl\", \"restart\", \"foo.service\"]",
        pageKinds: PageSpec.kinds,
        "What a press runs, as a command page runs argv (no shell); the page then shows its exit status and first line"
    )
    static let pageConfirm = ConfigurationSetting(
        "page.confirm", .choice(PageAction.Confirmation.allCases.map { $0.rawValue }), default: "\"press\"",
        pageKinds: PageSpec.kinds,
        "press: a second press within 5s runs it; hold: a long press does (no title list here); none: one press"
    )
    static let pageActionTimeout = ConfigurationSetting(
        "page.action_timeout", .duration(minimumMilliseconds: 10, allowsNever: false), default: "\"30s\"",
        pageKinds: PageSpec.kinds, "The action and its process group are killed after this long")
    static let pageStay = ConfigurationSetting(
        "page.stay", .boolean, default: "false", pageKinds: PageSpec.kinds,
        "pager.return_home_after never leaves this page")
    static let pageRemote = ConfigurationSetting(
        "page.remote", .boolean, default: "false", pageKinds: PageSpec.kinds,
        "A press from MQTT (Home Assistant's button) runs the action at once, without the on-device confirmation")

    /// Every setting, in the order of the default file: the typed table's (`Settings`), then a page's keys.
    package static let all: [ConfigurationSetting] =
        Settings.rows.map { $0.description } + [
            pageKind, pageTitle, pageIndicatorImage, pageFont, pageSize, pageDuration, pageText, pageTime, pageDate,
            pageValues,
            pageRefresh, pageArgv, pageTimeout, pageMaximumOutput, pagePath, pageLines, pageSource, pageMinimum,
            pageMaximum, pageUnit, pageStyle, pageStaleAfter, pageTopic, pageJSON, pageAction, pageConfirm,
            pageActionTimeout, pageStay, pageRemote,
        ]

    /// The keys a table takes, in the table's order: its settings' names and the tables within it.
    ///
    /// The root (`""`) takes `display`, `crown`, `indicator` and `page`.
    package static func keys(in section: String) -> [String] {
        var keys: [String] = []
        let prefix = section.isEmpty ? "" : section + "."
        for setting in all where setting.key.hasPrefix(prefix) {
            let rest = setting.key.dropFirst(prefix.count)
            let key = String(rest.split(separator: ".", maxSplits: 1).first ?? rest)
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The keys a `[[page]]` of `kind` takes.
    package static func pageKeys(kind: String) -> [String] {
        all.filter { $0.isPageKey && $0.pageKinds.contains(kind) }.map { $0.name }
    }
}

extension ConfigurationSetting {
    /// The default as an integer; `fallback` if the table gives none.
    func defaultInteger(_ fallback: Int) -> Int {
        defaultValue.flatMap { Int($0) } ?? fallback
    }

    /// The default string, without its quotes; `fallback` if the table gives none.
    func defaultString(_ fallback: String) -> String {
        guard let text = defaultValue, text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else {
            return fallback
        }
        return String(text.dropFirst().dropLast())
    }

    /// The default duration in milliseconds; `fallback` if the table gives none.
    func defaultMilliseconds(_ fallback: Int64) -> Int64 {
        parseDuration(defaultString("")) ?? fallback
    }
}

extension ConfigTable {
    /// A string setting the page must have; `expected` says what it takes.
    mutating func required(_ setting: ConfigurationSetting, _ expected: String) throws(ConfigError) -> String {
        try requiredString(setting.name, expected)
    }

    /// An integer setting, checked against the table's range or choices.
    mutating func integer(_ setting: ConfigurationSetting) throws(ConfigError) -> Int? {
        try integer(setting.name, setting.type)
    }

    /// A number setting, checked against the table's range.
    mutating func number(_ setting: ConfigurationSetting) throws(ConfigError) -> Double? {
        try number(setting.name, setting.type)
    }

    /// A string setting, checked against the table's choices.
    mutating func string(_ setting: ConfigurationSetting) throws(ConfigError) -> String? {
        try string(setting.name, setting.type)
    }

    /// A boolean setting.
    mutating func boolean(_ setting: ConfigurationSetting) throws(ConfigError) -> Bool? {
        try boolean(setting.name)
    }

    /// An array-of-strings setting.
    mutating func strings(_ setting: ConfigurationSetting) throws(ConfigError) -> [String]? {
        try strings(setting.name, setting.type)
    }

    /// A duration setting: nil when absent, `.some(nil)` for `"never"`.
    mutating func duration(_ setting: ConfigurationSetting) throws(ConfigError) -> TimeSpan?? {
        guard let milliseconds = try duration(setting.name, setting.type) else { return nil }
        return .some(milliseconds.map { TimeSpan.milliseconds($0) })
    }

    /// Marks the setting read and returns its value as written, for settings read by their own rule.
    mutating func value(_ setting: ConfigurationSetting) -> TOMLValue? {
        value(setting.name)
    }

    /// An error about `setting`.
    func error(_ setting: ConfigurationSetting, _ message: String) -> ConfigError {
        error(setting.name, message)
    }

    /// Throws for a key the settings table does not list for `section` (and this table never read).
    func finish(section: String) throws(ConfigError) {
        try finish(known: ConfigurationSetting.keys(in: section))
    }
}
