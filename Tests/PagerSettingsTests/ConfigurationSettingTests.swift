import PagerConfig
import PagerCore
import PagerSettings
import Testing

/// One picture for image pages: a 1x1 PBM, whatever the path.
struct OnePixelFiles: FileReading {
    func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8] { Array("P1\n1 1\n1\n".utf8) }
}

private func parse(_ text: String) throws(ConfigError) -> Configuration {
    try Configuration(parsing: text, file: "t.toml", files: OnePixelFiles())
}

/// `[crown]` as read, without whether the file named the source (naming it is the point of the key).
private func crownIgnoringExplicitSource(_ configuration: Configuration) -> CrownSection {
    var crown = configuration.crown
    crown.sourceIsExplicit = false
    return crown
}

/// The settings table against the parser, the built-in configuration and the default file.
@Suite struct ConfigurationSettingTests {
    static let fileSettings = ConfigurationSetting.all.filter { !$0.isPageKey }
    static let pageSettings = ConfigurationSetting.all.filter { $0.isPageKey }
    // Swift 6.0.3 crashes on a closure inside @Test(arguments:): the lists are named here.
    static let fileSettingsWithDefaults = fileSettings.filter { $0.defaultValue != nil }
    static let fileSettingsWithoutDefaults = fileSettings.filter { $0.defaultValue == nil }
    static let pageSettingsWithDefaults = pageSettings.filter { $0.defaultValue != nil }
    static let rangedSettings = ConfigurationSetting.all.filter { $0.integerRange != nil }

    /// The smallest page of each kind, to which a key is added.
    static let minimalPages: [String: String] = [
        "text": "kind = \"text\"\ntext = \"x\"",
        "clock": "kind = \"clock\"",
        "system": "kind = \"system\"\nvalues = [\"load\"]",
        "command": "kind = \"command\"\nargv = [\"true\"]",
        "file": "kind = \"file\"\npath = \"/x\"",
        "image": "kind = \"image\"\npath = \"/x.pbm\"",
        "gauge": "kind = \"gauge\"\nsource = \"command\"\nargv = [\"true\"]",
    ]

    /// What a page needs besides its kind for `setting` to mean something: an action to confirm or time.
    static func companion(of setting: ConfigurationSetting) -> String {
        if ["topic", "json"].contains(setting.name) {
            // A page fed by MQTT: its topic (and for json, a topic besides).
            return "\nsource = \"mqtt\"" + (setting.name == "json" ? "\ntopic = \"t\"" : "")
        }
        return ["confirm", "action_timeout", "remote"].contains(setting.name) ? "\naction = [\"true\"]" : ""
    }

    /// `[crown]` and `lines.a = 17` for `crown.lines.a`.
    static func file(setting: ConfigurationSetting, value: String) -> String {
        let parts = setting.key.split(separator: ".", maxSplits: 1)
        // A client certificate comes with its key, and only over TLS.
        let pairs = [
            "mqtt.certfile": "keyfile = \"k\"\ntls = true\n", "mqtt.keyfile": "certfile = \"c\"\ntls = true\n",
        ]
        return "[\(parts[0])]\n\(parts[1]) = \(value)\n" + (pairs[setting.key] ?? "")
    }

    @Test func everyKeyIsUniqueAndDocumented() {
        let keys = ConfigurationSetting.all.map(\.key)
        #expect(Set(keys).count == keys.count)
        for setting in ConfigurationSetting.all {
            #expect(!setting.documentation.isEmpty && !setting.documentation.contains("\n"), "\(setting.key)")
            #expect(setting.defaultValue != nil || setting.example != nil, "\(setting.key)")
            #expect(!setting.isPageKey || !setting.pageKinds.isEmpty, "\(setting.key)")
        }
        let flags = ConfigurationSetting.all.compactMap { $0.flag?.name }
        #expect(Set(flags).count == flags.count)
    }

    /// Each default, written alone into a file, gives the configuration an empty file gives: the
    /// table's default is the built-in value. The built-in configuration has every default too.
    @Test(arguments: fileSettingsWithDefaults)
    func theTableDefaultIsTheBuiltInValue(_ setting: ConfigurationSetting) throws {
        let empty = try parse("")
        let value = try #require(setting.defaultValue)
        let read = try parse(Self.file(setting: setting, value: value))
        #expect(read.display == empty.display)
        #expect(crownIgnoringExplicitSource(read) == crownIgnoringExplicitSource(empty))
        #expect(read.indicator == empty.indicator && read.timer == empty.timer && read.pager == empty.pager)
        let builtIn = Configuration.builtIn
        #expect(builtIn.display == empty.display && builtIn.indicator == empty.indicator)
        #expect(builtIn.timer == empty.timer)
        #expect(crownIgnoringExplicitSource(builtIn) == crownIgnoringExplicitSource(empty))
    }

    /// A setting without a default takes its example, and the example changes the configuration:
    /// the key is read into something.
    @Test(arguments: fileSettingsWithoutDefaults)
    func anExampleIsReadIntoTheConfiguration(_ setting: ConfigurationSetting) throws {
        let empty = try parse("")
        let example = try #require(setting.example)
        let read = try parse(Self.file(setting: setting, value: example))
        #expect(
            read.display != empty.display || read.crown != empty.crown || read.indicator != empty.indicator
                || read.timer != empty.timer || read.pager != empty.pager || read.mqtt != empty.mqtt
                || read.web != empty.web)
    }

    /// A page key's default, written into a page of each kind that takes it, changes nothing.
    @Test(arguments: pageSettingsWithDefaults)
    func aPageDefaultIsTheParsersDefault(_ setting: ConfigurationSetting) throws {
        let value = try #require(setting.defaultValue)
        for kind in setting.pageKinds {
            let page = try #require(Self.minimalPages[kind]) + Self.companion(of: setting)
            let plain = try parse("[[page]]\n" + page + "\n")
            let explicit = try parse("[[page]]\n" + page + "\n\(setting.name) = \(value)\n")
            #expect(plain.pages == explicit.pages, "\(kind)")
        }
    }

    /// Every page key is accepted by every kind the table names for it (a gauge's keys by its
    /// source, `stale_after` by a pushed page).
    @Test(arguments: pageSettings)
    func aPageTakesTheKeysOfItsKind(_ setting: ConfigurationSetting) throws {
        let value = try #require(setting.defaultValue ?? setting.example)
        for kind in setting.pageKinds {
            var pages = [try #require(Self.minimalPages[kind]) + Self.companion(of: setting)]
            if kind == "gauge" {
                pages += [
                    "kind = \"gauge\"\nsource = \"file\"", "kind = \"gauge\"", "kind = \"gauge\"\nsource = \"push\"",
                ].map {
                    $0 + Self.companion(of: setting)
                }
            }
            if kind == "text" { pages.append("kind = \"text\"\nsource = \"push\"" + Self.companion(of: setting)) }
            let accepted = pages.filter { page in
                let lines = page.split(separator: "\n").filter { !$0.hasPrefix(setting.name + " ") }
                let given = setting.name == "kind" ? "\"\(kind)\"" : value
                let text = "[[page]]\n" + lines.joined(separator: "\n") + "\n\(setting.name) = \(given)\n"
                return (try? parse(text)) != nil
            }
            #expect(!accepted.isEmpty, "\(kind)")
        }
    }

    /// The keys the parser knows are the table's, in each table: an unknown key lists them.
    @Test(arguments: ["", "display", "crown", "crown.lines", "indicator", "timer", "pager", "mqtt"])
    func theParserKnowsTheTableKeys(_ section: String) throws {
        let text: String
        switch section {
        case "": text = "zzzz = 1\n"
        case "crown.lines": text = "[crown]\nlines = { a = 1, b = 2, button = 3, zzzz = 4 }\n"
        default: text = "[\(section)]\nzzzz = 1\n"
        }
        let known = try Self.knownKeys(text)
        #expect(Set(known) == Set(ConfigurationSetting.keys(in: section)))
        #expect(known.count == ConfigurationSetting.keys(in: section).count)
    }

    /// Each kind of page knows exactly the page keys the table gives that kind.
    @Test(arguments: PageSpec.kinds)
    func theParserKnowsThePageKeysOfEachKind(_ kind: String) throws {
        let page = try #require(Self.minimalPages[kind])
        let known = try Self.knownKeys("[[page]]\n" + page + "\nzzzz = 1\n")
        #expect(Set(known) == Set(ConfigurationSetting.pageKeys(kind: kind)))
    }

    static func knownKeys(_ text: String) throws -> [String] {
        do {
            _ = try parse(text)
        } catch {
            #expect(error.key.hasSuffix("zzzz"))
            let marker = "known keys here: "
            let parts = error.message.split(separator: marker, maxSplits: 1, omittingEmptySubsequences: false)
            #expect(parts.count == 2, "\(error)")
            return parts.last.map { $0.split(separator: ", ").map(String.init) } ?? []
        }
        Issue.record("an unknown key was accepted")
        return []
    }

    /// The ranges of the table are the parser's: just inside is taken, just outside is a `ConfigError`
    /// naming the key.
    @Test(arguments: rangedSettings)
    func integerRangesComeFromTheTable(_ setting: ConfigurationSetting) throws {
        let range = try #require(setting.integerRange)
        let base: String
        if setting.isPageKey {
            let kind = try #require(setting.pageKinds.first)
            base = "[[page]]\n" + (Self.minimalPages[kind] ?? "") + "\n\(setting.name) = "
        } else {
            base = String(Self.file(setting: setting, value: "").dropLast())
        }
        for inside in [range.lowerBound, range.upperBound] {
            #expect(throws: Never.self) { _ = try parse(base + "\(inside)\n") }
        }
        for outside in [range.lowerBound - 1, range.upperBound + 1] {
            do {
                _ = try parse(base + "\(outside)\n")
                Issue.record("\(setting.key) = \(outside) was accepted")
            } catch {
                #expect(error.key.hasSuffix(setting.name))
                #expect(error.message.contains("from \(range.lowerBound) to \(range.upperBound)"))
            }
        }
    }

    /// The default file has every setting outside pages once, as `name = default` (or commented
    /// out, `# name = example`), with its documentation as the comment; every page key is listed too.
    @Test func theDefaultFileListsEveryKeyWithItsDefaultAndDocumentation() throws {
        let lines = Configuration.builtInText.split(separator: "\n").map(String.init)
        for setting in ConfigurationSetting.all {
            let name = setting.isPageKey ? setting.name : String(setting.key.split(separator: ".", maxSplits: 1)[1])
            let value = try #require(setting.defaultValue ?? setting.example)
            let prefix =
                setting.isPageKey ? "#   " : setting.defaultValue == nil ? "# " : ""
            let matching = lines.filter { $0.hasPrefix(prefix + name + " = " + value + " ") }
            #expect(matching.count == 1, "\(setting.key)")
            #expect(matching.first?.contains("# " + setting.documentation) == true, "\(setting.key)")
        }
        // No setting outside the table: every assignment before the first page is a table key.
        let settingsPart = lines.prefix { $0 != "[[page]]" }
        let assignments = settingsPart.filter { !$0.hasPrefix("#") && $0.contains(" = ") }
        #expect(assignments.count == Self.fileSettings.filter { $0.defaultValue != nil }.count)
    }

    @Test func theDefaultFileReadsBackAsTheBuiltInConfiguration() throws {
        let read = try Configuration(parsing: Configuration.builtInText, file: "built-in", files: OnePixelFiles())
        let builtIn = Configuration.builtIn
        #expect(read.display == builtIn.display && read.crown == builtIn.crown && read.indicator == builtIn.indicator)
        #expect(read.pages == builtIn.pages && read.pages.count == 5)
    }

    /// The reference has a row for each setting, with its key, default and flag.
    @Test func theReferenceHasARowPerSetting() {
        let rows = ConfigurationSetting.reference.split(separator: "\n").dropFirst(2)
        #expect(rows.count == ConfigurationSetting.all.count)
        for (row, setting) in zip(rows, ConfigurationSetting.all) {
            #expect(row.contains("`\(setting.isPageKey ? setting.name : setting.key)`"))
            if let value = setting.defaultValue { #expect(row.contains("`\(value)`")) }
            if let flag = setting.flag { #expect(row.contains("`\(flag.name)`")) }
            #expect(row.contains(setting.reloadable ? "| yes |" : "| restart |"))
        }
    }

    /// `crownpager.toml(5)` has every key of the table under its table's heading, with its documentation.
    @Test func theManualHasEveryKeyInItsTable() throws {
        // The page's parts: the heading line (`.SS [display]`, `.SH PAGES`) and the lines under it.
        var parts: [String: [String]] = [:]
        var heading = ""
        for line in ConfigurationSetting.manual.split(separator: "\n").map(String.init) {
            if line.hasPrefix(".SS ") || line.hasPrefix(".SH ") {
                heading = line
            } else {
                parts[heading, default: []].append(line)
            }
        }
        for setting in ConfigurationSetting.all {
            let heading = setting.isPageKey ? ".SH PAGES" : ".SS [" + setting.section + "]"
            let lines = try #require(parts[heading], "\(setting.key)")
            let entry = try #require(lines.firstIndex(of: ".B " + setting.name), "\(setting.key)")
            let documentation = ConfigurationSetting.roffText(setting.documentation + ".")
            #expect(lines.dropFirst(entry).prefix(2).last == documentation, "\(setting.key)")
        }
    }

    /// The restart-only settings include everything the reload refuses to change.
    @Test func thePanelBusAndAddressNeedARestart() {
        for key in ["display.panel", "display.bus", "display.address"] {
            #expect(ConfigurationSetting.all.first { $0.key == key }?.reloadable == false)
        }
        #expect(ConfigurationSetting.all.first { $0.key == "display.brightness" }?.reloadable == true)
    }
}

/// `[crown]`'s feel: the sensitivity presets, the exact count that overrides them, the rubber band.
@Suite struct CrownFeelSettingTests {
    @Test func sensitivityPresetsAreDetentsPerPage() throws {
        #expect(try parse("").crown.crownConfiguration.detentsPerPage == 1)
        #expect(try parse("[crown]\nsensitivity = \"high\"\n").crown.detentsPerPage == 1)
        #expect(try parse("[crown]\nsensitivity = \"medium\"\n").crown.detentsPerPage == 2)
        let low = try parse("[crown]\nsensitivity = \"low\"\n").crown
        #expect(low.sensitivity == .low && low.crownConfiguration.detentsPerPage == 3)
    }

    @Test func anExactDetentsPerPageWinsOverTheSensitivity() throws {
        let crown = try parse("[crown]\nsensitivity = \"low\"\ndetents_per_page = 5\n").crown
        #expect(crown.detentsPerPage == 5 && crown.crownConfiguration.detentsPerPage == 5)
        // And the flag wins over both.
        var overrides = RunOverrides()
        overrides.set(Settings.crownDetentsPerPage, 2)
        #expect(overrides.applied(to: try parse("[crown]\nsensitivity = \"low\"\n")).crown.detentsPerPage == 2)
    }

    @Test func theFeelFlagsWinOverTheFile() throws {
        let file = try parse("[crown]\nsensitivity = \"high\"\ndetents_per_page = 5\nrubber_band = \"soft\"\n")
        var overrides = RunOverrides()
        overrides.set(Settings.crownSensitivity, .low)
        overrides.set(Settings.crownRubberBand, .stiff)
        let crown = overrides.applied(to: file).crown
        // --sensitivity wins over the file's preset and its exact count alike.
        #expect(crown.sensitivity == .low && crown.detentsPerPage == 3)
        #expect(crown.crownConfiguration.detentsPerPage == 3 && crown.crownConfiguration.rubberBand == .stiff)
        // --detents-per-page wins over --sensitivity, as detents_per_page over sensitivity in the file.
        overrides.set(Settings.crownDetentsPerPage, 4)
        #expect(overrides.applied(to: file).crown.detentsPerPage == 4)
        // Flags left out keep the file's values.
        let untouched = RunOverrides().applied(to: file).crown
        #expect(untouched.detentsPerPage == 5 && untouched.rubberBand == .soft)
        // Both flags stand in the settings table, so `--help` and the README name them.
        let sensitivityFlag = ConfigurationSetting.overridden(byFlag: "--sensitivity")?.key
        let rubberBandFlag = ConfigurationSetting.overridden(byFlag: "--rubber-band")?.key
        #expect(sensitivityFlag == "crown.sensitivity" && rubberBandFlag == "crown.rubber_band")
    }

    @Test func theRubberBandStiffnessReachesThePager() throws {
        #expect(try parse("").crown.crownConfiguration.rubberBand == .medium)
        #expect(try parse("[crown]\nrubber_band = \"soft\"\n").crown.crownConfiguration.rubberBand == .soft)
        #expect(try parse("[crown]\nrubber_band = \"stiff\"\n").crown.crownConfiguration.rubberBand == .stiff)
    }

    @Test func badFeelValuesSayWhatTheyTake() {
        func message(_ text: String) -> String {
            do {
                _ = try parse(text)
                return ""
            } catch {
                return String(describing: error)
            }
        }
        let sensitivity = message("[crown]\nsensitivity = \"hihg\"\n")
        #expect(sensitivity.contains("crown.sensitivity") && sensitivity.contains("\"high\""), "\(sensitivity)")
        let band = message("[crown]\nrubber_band = \"springy\"\n")
        #expect(band.contains("crown.rubber_band") && band.contains("\"soft\", \"medium\" or \"stiff\""), "\(band)")
        #expect(message("[crown]\nrubber_band = 3\n").contains("expected a string in quotes"))
    }
}
