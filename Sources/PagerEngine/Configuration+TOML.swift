import CrownInput
import CrownVocabulary
import PagerConfig
import PagerCore
import PagerGraphics
import SSD1306

extension Configuration {
    /// Reads a configuration from TOML `text`; `file` names it in errors, `directory` anchors relative paths,
    /// and `files` reads the pictures it names (image pages, indicator images), which are checked now.
    ///
    /// Sections and keys left out keep their defaults; an empty file means the built-in pages.
    public init(parsing text: String, file: String, directory: String = ".", files: some FileReading)
        throws(ConfigError)
    {
        try self.init(
            root: Self.root(parsing: text, file: file), file: file, directory: directory, files: files, problems: nil)
    }

    /// Reads a configuration as `init(parsing:file:directory:files:)` does, but goes on past each
    /// mistake and throws them all (`crownpager check`): a wrong value reads as its default, a page
    /// that cannot be read is left out. A syntax error stops the reading; it is then the only error.
    public init(checking text: String, file: String, directory: String = ".", files: some FileReading)
        throws(ConfigErrors)
    {
        let root: TOMLTable
        do throws(ConfigError) { root = try Self.root(parsing: text, file: file) } catch {
            throw ConfigErrors([error], stoppedReading: true)
        }
        let problems = ConfigProblems()
        var configuration = Configuration()
        do {
            configuration = try Configuration(
                root: root, file: file, directory: directory, files: files, problems: problems)
        } catch {
            problems.record(error)
        }
        guard problems.errors.isEmpty else { throw ConfigErrors(problems.errors) }
        self = configuration
    }

    /// The TOML document `text`; a syntax error names `file`.
    private static func root(parsing text: String, file: String) throws(ConfigError) -> TOMLTable {
        do {
            return try TOMLParser.parse(text)
        } catch {
            throw ConfigError(file: file, syntax: error)
        }
    }

    /// Reads `root`; `problems` collects the mistakes, or nil throws the first.
    private init(root: TOMLTable, file: String, directory: String, files: some FileReading, problems: ConfigProblems?)
        throws(ConfigError)
    {
        self.init()
        self.file = file
        self.directory = directory
        var top = ConfigTable(root, path: "", file: file, problems: problems)
        if var table = try top.table("display") { display = try Self.display(&table) }
        if let name = display.font?.name {
            display.font = try top.collecting { () throws(ConfigError) in
                try Self.loadFont(name, directory: directory, files: files) { (message: String) in
                    ConfigError(
                        file: file, line: Self.line(of: "font", in: "display", root), key: "display.font",
                        message: message)
                }
            }
        }
        if var table = try top.table("crown") { crown = try Self.crown(&table) }
        if var table = try top.table("indicator") { indicator = try Self.indicator(&table) }
        if var table = try top.table("timer") { timer = try Self.timer(&table) }
        // Each page with its number in the file, for messages: a page that cannot be read is left out when collecting.
        var numbered: [(number: Int, page: PageSpec)] = []
        if let tables = try top.tables("page") {
            if tables.isEmpty { try top.report(top.error("page", "expected at least one [[page]]")) }
            for (index, var table) in tables.enumerated() {
                let read = try top.collecting { () throws(ConfigError) in
                    try PageSpec(reading: &table, directory: directory, files: files)
                }
                guard var page = read else { continue }
                page.font = page.font ?? display.font
                numbered.append((index + 1, page))
            }
            pages = numbered.map { $0.page }
        } else {
            pages = Configuration.builtIn.pages
            numbered = pages.enumerated().map { ($0.offset + 1, $0.element) }
        }
        try top.finish(section: "")
        // Indicator images are checked against the indicator's cell now, so `check` reports them.
        let cell = PageIndicatorStyle().cellSize
        if let image = indicator.image {
            do throws(ImageFileError) { _ = try IndicatorImageFile.load(resolve(image), cell: cell, from: files) } catch
            {
                try top.report(
                    ConfigError(
                        file: file, line: Self.line(of: "image", in: "indicator", root), key: "indicator.image",
                        message: error.description))
            }
        }
        for (number, page) in numbered {
            guard let image = page.indicatorImage else { continue }
            do throws(ImageFileError) { _ = try IndicatorImageFile.load(resolve(image), cell: cell, from: files) } catch
            {
                try top.report(
                    ConfigError(
                        file: file, line: page.line, key: "page[\(number)].indicator_image", message: error.description)
                )
            }
        }
    }

    /// The line of `key` in the table `section`, or of the table when the key is absent; 1 when neither is there.
    private static func line(of key: String, in section: String, _ root: TOMLTable) -> Int {
        let line = root[section]?.line ?? 1
        guard case .table(let table)? = root[section]?.value else { return line }
        return table[key]?.line ?? line
    }

    /// The font `name` names (`FontFile.load`), a path resolved against `directory`; `error` makes
    /// the message a configuration error at the setting's line.
    static func loadFont(
        _ name: String, directory: String, files: some FileReading, error: (String) -> ConfigError
    ) throws(ConfigError) -> ConfiguredFont {
        let isBuiltIn = FontFile.builtIn.contains { $0.name == name }
        let path = isBuiltIn ? name : resolve(name, in: directory)
        do throws(FontLoadError) {
            return ConfiguredFont(name: path, font: try FontFile.load(path, from: files))
        } catch let failure {
            throw error(failure.description)
        }
    }

    /// A path from the file, relative to the file's folder unless absolute (built-in image names pass through).
    public func resolve(_ path: String) -> String {
        Self.resolve(path, in: directory)
    }

    static func resolve(_ path: String, in directory: String) -> String {
        guard !path.hasPrefix("/"), path.contains("/") || path.contains(".") else { return path }
        return directory == "." ? path : directory + "/" + path
    }

    private static func display(_ table: inout ConfigTable) throws(ConfigError) -> DisplaySection {
        typealias Setting = ConfigurationSetting
        var display = DisplaySection()
        if let name = try table.string(Setting.displayPanel) {
            display.panel = SSD1306Panel.all.first { $0.name == name || "ssd1306-" + $0.name == name } ?? display.panel
        }
        if let value = table.value(Setting.displayBus) {
            switch value {
            case .integer(let bus) where (0...1023).contains(bus): display.bus = Int(bus)
            case .string("mock"): display.bus = nil
            case .string(let text) where text.hasPrefix("spi") && SPIDevice(parsing: text) != nil:
                display.spi = SPIDevice(parsing: text)
            default:
                try table.report(
                    table.error(
                        Setting.displayBus, "expected \(Setting.displayBus.type.allowed), found \(describeFound(value))"
                    ))
            }
        }
        if let value = table.value(Setting.displayAddress), let address = try address(value, table: table) {
            display.address = address
        }
        if let rotation = try table.integer(Setting.displayRotation) {
            display.rotation = DisplayRotation(degrees: rotation) ?? display.rotation
        }
        display.brightness = try table.integer(Setting.displayBrightness) ?? display.brightness
        display.dimBrightness = try table.integer(Setting.displayDimBrightness) ?? display.dimBrightness
        display.dimAfter = try table.duration(Setting.displayDimAfter) ?? display.dimAfter
        display.offAfter = try table.duration(Setting.displayOffAfter) ?? display.offAfter
        if let dim = display.dimAfter, let off = display.offAfter, off < dim,
            !table.isInvalid(Setting.displayDimAfter.name), !table.isInvalid(Setting.displayOffAfter.name)
        {
            try table.report(table.error(Setting.displayOffAfter, "must not come before dim_after"))
        }
        display.busHertz = try table.integer(Setting.displayBusHertz) ?? display.busHertz
        // Loaded with the pages, which read files (`loadFonts`).
        display.font = try table.string(Setting.displayFont).map { ConfiguredFont(name: $0, font: .fixed6x10) }
        display.gpioChip = try table.string(Setting.displayGPIOChip) ?? display.gpioChip
        display.dataCommandLine = try table.integer(Setting.displayDataCommandLine) ?? display.dataCommandLine
        if let value = table.value(Setting.displayResetLine) {
            switch value {
            case .integer(let line) where (0...511).contains(line): display.resetLine = Int(line)
            case .string("none"): display.resetLine = nil
            default:
                try table.report(
                    table.error(
                        Setting.displayResetLine,
                        "expected \(Setting.displayResetLine.type.allowed), found \(describeFound(value))"))
            }
        }
        display.spiHertz = try table.integer(Setting.displaySPIHertz) ?? display.spiHertz
        try table.finish(section: "display")
        return display
    }

    /// `address = 60`, `0x3c`, `"3c"` or `"0x3c"`: TOML has already read an integer's base, and a
    /// string goes through the command line's rule, so a file and `--address` agree.
    private static func address(_ value: TOMLValue, table: ConfigTable) throws(ConfigError) -> I2CAddress? {
        switch value {
        case .integer(let number):
            if let address = I2CAddress(usable: number) { return address }
            let hex = number >= 0 ? " (0x" + String(number, radix: 16) + ")" : ""
            return try table.invalid(
                table.error(
                    ConfigurationSetting.displayAddress,
                    "expected \(I2CAddress.rule), found the integer \(number)\(hex)"))
        case .string(let text):
            if let address = I2CAddress(parsing: text) { return address }
        default:
            break
        }
        return try table.invalid(
            table.error(
                ConfigurationSetting.displayAddress, "expected \(I2CAddress.rule), found \(describeFound(value))"))
    }

    private static func crown(_ table: inout ConfigTable) throws(ConfigError) -> CrownSection {
        typealias Setting = ConfigurationSetting
        var crown = CrownSection()
        if let source = try table.string(Setting.crownSource) {
            crown.source = source
            crown.sourceIsExplicit = true
        }
        crown.chip = try table.string(Setting.crownChip) ?? crown.chip
        crown.evdevPath = try table.string(Setting.crownEvdev) ?? crown.evdevPath
        let linesSection = Setting.crownLineA.section
        let linesKey = String(linesSection.split(separator: ".").last ?? "")
        if var lines = try table.table(linesKey) {
            crown.lineA = try lines.integer(Setting.crownLineA) ?? crown.lineA
            crown.lineB = try lines.integer(Setting.crownLineB) ?? crown.lineB
            crown.lineButton = try lines.integer(Setting.crownLineButton) ?? crown.lineButton
            try lines.finish(section: linesSection)
            let readable = [Setting.crownLineA, Setting.crownLineB, Setting.crownLineButton].allSatisfy {
                !lines.isInvalid($0.name)
            }
            if Set([crown.lineA, crown.lineB, crown.lineButton]).count < 3, readable {
                try table.report(
                    table.error(
                        linesKey,
                        "a, b and button must be three different lines, found \(crown.lineA), \(crown.lineB), \(crown.lineButton)"
                    ))
            }
        }
        switch try table.integer(Setting.crownStepsPerDetent) {
        case 2?: crown.stepping = .half
        case 1?: crown.stepping = .quarter
        case 4?: crown.stepping = .full
        default: break
        }
        crown.inverted = try table.boolean(Setting.crownInverted) ?? crown.inverted
        crown.acceleration = try table.boolean(Setting.crownAcceleration) ?? crown.acceleration
        crown.wrap = try table.boolean(Setting.crownWrap) ?? crown.wrap
        if let side = try table.string(Setting.crownSide) { crown.side = CrownSide(rawValue: side) ?? crown.side }
        if let name = try table.string(Setting.crownSensitivity), let sensitivity = CrownSensitivity(rawValue: name) {
            crown.sensitivity = sensitivity
            crown.detentsPerPage = sensitivity.detentsPerPage
        }
        // The exact count wins over the preset, as the flag does.
        crown.detentsPerPage = try table.integer(Setting.crownDetentsPerPage) ?? crown.detentsPerPage
        if let name = try table.string(Setting.crownRubberBand), let stiffness = RubberBandStiffness(rawValue: name) {
            crown.rubberBand = stiffness
        }
        try table.finish(section: "crown")
        return crown
    }

    private static func indicator(_ table: inout ConfigTable) throws(ConfigError) -> IndicatorSection {
        typealias Setting = ConfigurationSetting
        var indicator = IndicatorSection()
        if let style = try table.string(Setting.indicatorStyle) {
            indicator.style = PageControlBackgroundStyle(rawValue: style) ?? indicator.style
        }
        indicator.image = try table.string(Setting.indicatorImage)
        indicator.maximumDots = try table.integer(Setting.indicatorMaximumDots)
        indicator.hidesForSinglePage = try table.boolean(Setting.indicatorHidesForSinglePage) ?? false
        try table.finish(section: "indicator")
        return indicator
    }

    private static func timer(_ table: inout ConfigTable) throws(ConfigError) -> TimerSection {
        typealias Setting = ConfigurationSetting
        var timer = TimerSection()
        timer.duration = try table.duration(Setting.timerDuration) ?? timer.duration
        timer.resumeAfter = try table.duration(Setting.timerResumeAfter) ?? timer.resumeAfter
        timer.loops = try table.boolean(Setting.timerLoop) ?? timer.loops
        timer.dimsWhileAdvancing = try table.boolean(Setting.timerDimsWhileAdvancing) ?? timer.dimsWhileAdvancing
        try table.finish(section: "timer")
        return timer
    }
}
