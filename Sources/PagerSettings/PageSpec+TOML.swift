import CrownVocabulary
import PagerConfig
import PagerCore
import PagerGraphics

extension PageSpec {
    /// The page kinds, as written in `kind = "..."`.
    package static let kinds = ["text", "clock", "system", "command", "file", "image", "gauge"]

    /// Reads one `[[page]]` table; `files` reads the pictures of image pages.
    init(reading table: inout ConfigTable, directory: String, files: some FileReading) throws(ConfigError) {
        typealias Setting = ConfigurationSetting
        line = table.table.line
        let kindName = try table.string(Setting.pageKind)
        guard let kindName else {
            throw table.absent(
                Setting.pageKind.name, "missing: say what the page shows, one of \(quotedList(Self.kinds))")
        }
        indicatorImage = try table.string(Setting.pageIndicatorImage)
        if let name = try table.string(Setting.pageFont) {
            let located = table
            font = try located.collecting { () throws(ConfigError) in
                try Configuration.loadFont(name, directory: directory, files: files) { (message: String) in
                    located.error(Setting.pageFont, message)
                }
            }
        }
        // Read only where it applies: on other kinds the key stays unread, and unknown.
        if Setting.pageSize.pageKinds.contains(kindName), let size = try table.string(Setting.pageSize) {
            self.size = PageTextSize(rawValue: size) ?? .normal
        }
        let explicitTitle = try table.string(Setting.pageTitle)
        (action, stay) = try Self.action(&table, title: explicitTitle)
        switch try table.duration(Setting.pageDuration) {
        case .none: duration = .automatic
        case .some(.none): duration = .never
        case .some(.some(let span)): duration = .after(span)
        }
        switch kindName {
        case "text":
            if try Self.isPushed(&table) {
                kind = .text(try table.string(Setting.pageText) ?? "")
            } else {
                kind = .text(try table.required(Setting.pageText, "the text to show, e.g. text = \"Hello\""))
            }
        case "clock":
            kind = .clock(
                time: try Self.clockFormat(&table, Setting.pageTime),
                date: try Self.clockFormat(&table, Setting.pageDate))
        case "system":
            guard let names = try table.strings(Setting.pageValues) else {
                throw table.absent(
                    Setting.pageValues.name,
                    "missing: the values to show, e.g. values = [\"hostname\", \"ip\", \"cpu-temperature\"]")
            }
            var values: [SystemValue] = []
            let located = table
            for name in names {
                let value = try located.collecting { () throws(ConfigError) in
                    try Self.systemValue(name, table: located, key: Setting.pageValues.name)
                }
                values += value.map { [$0] } ?? []
            }
            kind = .system(values, refresh: try Self.refresh(&table, default: 2000))
        case "command":
            kind = .command(try Self.command(&table))
        case "file":
            let path = try table.required(
                Setting.pagePath, "the file to show the end of, e.g. path = \"/var/log/syslog\"")
            kind = .file(
                path: Configuration.resolve(path, in: directory),
                lines: try table.integer(Setting.pageLines) ?? Setting.pageLines.defaultInteger(5),
                refresh: try Self.refresh(&table, default: 2000))
        case "image":
            let path = try table.required(Setting.pagePath, "a PBM, XBM or PNG file, e.g. path = \"logo.png\"")
            do throws(ImageFileError) {
                kind = .image(
                    ImageSpec(
                        path: path,
                        bitmap: try PageImageFile.load(Configuration.resolve(path, in: directory), from: files)))
            } catch {
                throw table.error(Setting.pagePath, error.description)
            }
        default:
            kind = .gauge(try Self.gauge(&table, directory: directory))
        }
        push = try Self.pushedValue(&table, kind: kind)
        try table.finish(known: Setting.pageKeys(kind: kindName))
        title = explicitTitle ?? Self.defaultTitle(for: kind)
    }

    /// Whether a text page's `source` says `"push"`, the only source a text page takes.
    private static func isPushed(_ table: inout ConfigTable) throws(ConfigError) -> Bool {
        guard let source = try table.string(ConfigurationSetting.pageSource) else { return false }
        guard source == "push" || source == "mqtt" else {
            throw table.error(
                ConfigurationSetting.pageSource,
                "a text page's source is \"push\" (its text from crownpager set) or \"mqtt\" (from topic), "
                    + "found \"\(source)\"")
        }
        return true
    }

    /// `stale_after` and the pushed source it belongs with; nil for a page whose value is read.
    private static func pushedValue(_ table: inout ConfigTable, kind: PageKind) throws(ConfigError) -> PushedValue? {
        let pushed: Bool
        switch kind {
        case .text: pushed = try table.string(ConfigurationSetting.pageSource) != nil
        case .gauge(let gauge): pushed = gauge.source == .push
        // Other kinds take neither key: the check of unknown keys names them.
        default: return nil
        }
        let staleAfter = try table.duration(ConfigurationSetting.pageStaleAfter) ?? nil
        let source = try table.string(ConfigurationSetting.pageSource)
        let mqtt = try mqttSubscription(&table, fed: pushed && source == "mqtt")
        guard pushed else {
            if staleAfter != nil {
                throw table.error(
                    ConfigurationSetting.pageStaleAfter,
                    "stale_after marks a pushed value: add source = \"push\" or remove stale_after")
            }
            return nil
        }
        var value = PushedValue(staleAfter: staleAfter)
        value.mqtt = mqtt
        return value
    }

    /// `topic` and `json` of a page whose `source = "mqtt"`; either on another page is a mistake.
    private static func mqttSubscription(_ table: inout ConfigTable, fed: Bool) throws(ConfigError) -> MQTTSubscription?
    {
        let topic = try table.string(ConfigurationSetting.pageTopic)
        let json = try table.string(ConfigurationSetting.pageJSON)
        guard fed else {
            for (setting, value) in [(ConfigurationSetting.pageTopic, topic), (ConfigurationSetting.pageJSON, json)]
            where value != nil {
                throw table.error(
                    setting, "\(setting.name) belongs with source = \"mqtt\": add it or remove \(setting.name)")
            }
            return nil
        }
        guard let topic, !topic.isEmpty, !topic.contains("#"), !topic.contains("+") else {
            throw table.error(
                ConfigurationSetting.pageTopic,
                "source = \"mqtt\" needs the topic its value is published on, without wildcards, e.g. topic = \"home/kitchen/temperature\""
            )
        }
        return MQTTSubscription(topic: topic, json: json)
    }

    private static func defaultTitle(for kind: PageKind) -> String {
        switch kind {
        case .text: return "Text"
        case .clock: return "Clock"
        case .system(let values, _): return values.count == 1 ? values[0].label : "System"
        case .command(let command): return command.argv.first ?? "Command"
        case .file(let path, _, _): return String(path.split(separator: "/").last ?? "File")
        case .image(let image): return String(image.path.split(separator: "/").last ?? "Image")
        case .gauge: return "Gauge"
        }
    }

    private static func clockFormat(_ table: inout ConfigTable, _ setting: ConfigurationSetting)
        throws(ConfigError) -> ClockFormat
    {
        let text = try table.string(setting) ?? setting.defaultString("")
        switch ClockFormat.parse(text) {
        case .success(let format): return format
        case .failure(let error):
            try table.report(
                table.error(setting, "unknown directive \(error.directive): use \(ClockFormat.directives)"))
            return .builtIn(text)
        }
    }

    private static func refresh(_ table: inout ConfigTable, default milliseconds: Int64) throws(ConfigError) -> TimeSpan
    {
        (try table.duration(ConfigurationSetting.pageRefresh) ?? nil) ?? .milliseconds(milliseconds)
    }

    /// `hostname`, `cpu-temperature [ZONE]`, `load`, `memory`, `uptime`, `disk [PATH]`, `ip [INTERFACE]`,
    /// `battery [NAME]`.
    static func systemValue(_ text: String, table: ConfigTable, key: String) throws(ConfigError) -> SystemValue {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        let argument = parts.count > 1 ? String(parts[1]) : nil
        let names = ["hostname", "cpu-temperature", "load", "memory", "uptime", "disk", "ip", "battery"]
        guard parts.count <= 2, let name = parts.first.map(String.init), names.contains(name) else {
            let typed = parts.first.map(String.init) ?? ""
            let hint =
                (names.first { !typed.isEmpty && $0.hasPrefix(typed) } ?? closestName(to: typed, among: names)).map {
                    " (did you mean \"\($0)\"?)"
                } ?? ""
            throw table.error(
                key,
                "unknown system value \"\(text)\"\(hint): use \(quotedList(names)); disk, ip, cpu-temperature and battery take a path, an interface, a zone, a supply: \"disk /home\", \"ip wlan0\", \"cpu-temperature acpitz\", \"battery BAT1\""
            )
        }
        if argument != nil, !["disk", "ip", "cpu-temperature", "battery"].contains(name) {
            throw table.error(key, "\"\(name)\" takes no argument, found \"\(text)\"")
        }
        switch name {
        case "hostname": return .hostname
        case "cpu-temperature": return argument.map { .thermalZone($0) } ?? .cpuTemperature
        case "load": return .load
        case "memory": return .memory
        case "uptime": return .uptime
        case "battery": return .battery(argument)
        case "disk":
            guard let path = argument ?? Optional("/"), path.hasPrefix("/") else {
                throw table.error(key, "disk takes an absolute path, e.g. \"disk /\", found \"\(text)\"")
            }
            return .disk(path: path)
        default: return .ipAddress(interface: argument)
        }
    }

    private static func command(_ table: inout ConfigTable) throws(ConfigError) -> CommandSpec {
        guard let argv = try table.strings(ConfigurationSetting.pageArgv) else {
            throw table.absent(
                ConfigurationSetting.pageArgv.name,
                "missing: the program and its arguments, e.g. argv = [\"vcgencmd\", \"measure_temp\"] (no shell unless you name one)"
            )
        }
        guard !argv[0].isEmpty else { throw table.error(ConfigurationSetting.pageArgv, "the program's name is empty") }
        let refresh = try refresh(&table, default: 5000)
        let timeout =
            (try table.duration(ConfigurationSetting.pageTimeout) ?? nil)
            ?? .milliseconds(ConfigurationSetting.pageTimeout.defaultMilliseconds(2000))
        let maximum =
            try table.integer(ConfigurationSetting.pageMaximumOutput)
            ?? ConfigurationSetting.pageMaximumOutput.defaultInteger(4096)
        return CommandSpec(argv: argv, refresh: refresh, timeout: timeout, maximumOutputBytes: maximum)
    }

    private static func gauge(_ table: inout ConfigTable, directory: String) throws(ConfigError) -> GaugeSpec {
        typealias Setting = ConfigurationSetting
        let sourceText = try table.required(
            Setting.pageSource,
            "where the number comes from: a system value such as \"cpu-temperature\", or \"command\" (with argv) or \"file\" (with path)"
        )
        let source: ValueSource
        switch sourceText {
        case "push", "mqtt":
            source = .push
        case "command":
            source = .command(try command(&table))
        case "file":
            source = .file(
                path: Configuration.resolve(
                    try table.required(Setting.pagePath, "the file holding the number"), in: directory))
        default:
            let value = try systemValue(sourceText, table: table, key: Setting.pageSource.name)
            guard value.isNumeric else {
                throw table.error(Setting.pageSource, "\"\(sourceText)\" is not a number a gauge can show")
            }
            source = .system(value)
        }
        let defaults = Self.gaugeDefaults(source)
        let minimum = try table.number(Setting.pageMinimum) ?? defaults.minimum
        let maximum = try table.number(Setting.pageMaximum) ?? defaults.maximum
        if maximum <= minimum, !table.isInvalid(Setting.pageMinimum.name), !table.isInvalid(Setting.pageMaximum.name) {
            try table.report(
                table.error(Setting.pageMaximum, "must be greater than min (\(minimum)), found \(maximum)"))
        }
        let style = try table.string(Setting.pageStyle) ?? Setting.pageStyle.defaultString("bar")
        var refresh = TimeSpan.milliseconds(2000)
        if case .command(let command) = source {
            refresh = command.refresh
        } else if source == .push {
            refresh = .zero
        } else {
            refresh = try Self.refresh(&table, default: 2000)
        }
        return GaugeSpec(
            source: source, minimum: minimum, maximum: maximum,
            unit: try table.string(Setting.pageUnit) ?? defaults.unit,
            isDial: style == "dial", refresh: refresh)
    }

    private static func gaugeDefaults(_ source: ValueSource) -> (minimum: Double, maximum: Double, unit: String) {
        switch source {
        case .system(.cpuTemperature), .system(.thermalZone): return (30, 85, "\u{B0}C")
        case .system(.memory), .system(.disk), .system(.battery): return (0, 100, "%")
        case .system(.load): return (0, 4, "")
        case .system(.uptime): return (0, 24 * 7, "h")
        default: return (0, 100, "")
        }
    }
}

/// Picture files for image pages: PBM (P1/P4), XBM or PNG.
package enum PageImageFile {
    /// The picture at `path`, read by `files`; errors name the file and say which formats work.
    package static func load(_ path: String, from files: some FileReading) throws(ImageFileError) -> Bitmap {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try files.bytes(atPath: path, maximumBytes: 1 << 20)
        } catch {
            throw ImageFileError("cannot read the image: " + error.description, kind: .unreadable)
        }
        return try decode(bytes, path: path)
    }

    /// PBM when the bytes start with `P1` or `P4`, PNG when they start with its signature, XBM otherwise.
    ///
    /// A PNG's pixels are lit where their luminance over black is at least half (`PNG.decode`).
    static func decode(_ bytes: [UInt8], path: String) throws(ImageFileError) -> Bitmap {
        if bytes.starts(with: Array("P1".utf8)) || bytes.starts(with: Array("P4".utf8)) {
            do throws(PBMError) { return try PBM.decode(bytes) } catch {
                throw ImageFileError("\(path) is unreadable (PBM): \(error)")
            }
        }
        if bytes.starts(with: PNG.signature) {
            do throws(PNGDecodingError) { return try PNG.decode(bytes) } catch {
                throw ImageFileError("\(path) is unreadable (PNG): \(error)")
            }
        }
        do throws(XBMError) {
            return try XBM.decode(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw ImageFileError("\(path) is unreadable (neither PBM, PNG nor XBM): \(error)")
        }
    }
}
