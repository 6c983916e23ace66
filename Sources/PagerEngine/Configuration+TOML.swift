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
        let root: TOMLTable
        do {
            root = try TOMLParser.parse(text)
        } catch {
            throw ConfigError(file: file, syntax: error)
        }
        self.init()
        self.file = file
        self.directory = directory
        var top = ConfigTable(root, path: "", file: file)
        if var table = try top.table("display") { display = try Self.display(&table) }
        if let name = display.font?.name {
            display.font = try Self.loadFont(name, directory: directory, files: files) { (message: String) in
                var line = root["display"]?.line ?? 1
                if case .table(let section)? = root["display"]?.value { line = section["font"]?.line ?? line }
                return ConfigError(file: file, line: line, key: "display.font", message: message)
            }
        }
        if var table = try top.table("crown") { crown = try Self.crown(&table) }
        if var table = try top.table("indicator") { indicator = try Self.indicator(&table) }
        if var table = try top.table("timer") { timer = try Self.timer(&table) }
        if let tables = try top.tables("page") {
            guard !tables.isEmpty else { throw top.error("page", "expected at least one [[page]]") }
            for var table in tables {
                var page = try PageSpec(reading: &table, directory: directory, files: files)
                page.font = page.font ?? display.font
                pages.append(page)
            }
        } else {
            pages = Configuration.builtIn.pages
        }
        try top.finish(section: "")
        // Indicator images are checked against the indicator's cell now, so `check` reports them.
        let cell = PageIndicatorStyle().cellSize
        if let image = indicator.image {
            do throws(ImageFileError) { _ = try IndicatorImageFile.load(resolve(image), cell: cell, from: files) } catch
            {
                var line = root["indicator"]?.line ?? 1
                if case .table(let section)? = root["indicator"]?.value { line = section["image"]?.line ?? line }
                throw ConfigError(file: file, line: line, key: "indicator.image", message: error.description)
            }
        }
        for (index, page) in pages.enumerated() {
            guard let image = page.indicatorImage else { continue }
            do throws(ImageFileError) { _ = try IndicatorImageFile.load(resolve(image), cell: cell, from: files) } catch
            {
                throw ConfigError(
                    file: file, line: page.line, key: "page[\(index + 1)].indicator_image", message: error.description)
            }
        }
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
                throw table.error(
                    Setting.displayBus, "expected \(Setting.displayBus.type.allowed), found \(describeFound(value))")
            }
        }
        if let value = table.value(Setting.displayAddress) { display.address = try address(value, table: table) }
        if let rotation = try table.integer(Setting.displayRotation) {
            display.rotation = DisplayRotation(degrees: rotation) ?? display.rotation
        }
        display.brightness = try table.integer(Setting.displayBrightness) ?? display.brightness
        display.dimBrightness = try table.integer(Setting.displayDimBrightness) ?? display.dimBrightness
        display.dimAfter = try table.duration(Setting.displayDimAfter) ?? display.dimAfter
        display.offAfter = try table.duration(Setting.displayOffAfter) ?? display.offAfter
        if let dim = display.dimAfter, let off = display.offAfter, off < dim {
            throw table.error(Setting.displayOffAfter, "must not come before dim_after")
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
                throw table.error(
                    Setting.displayResetLine,
                    "expected \(Setting.displayResetLine.type.allowed), found \(describeFound(value))")
            }
        }
        display.spiHertz = try table.integer(Setting.displaySPIHertz) ?? display.spiHertz
        try table.finish(section: "display")
        return display
    }

    /// `address = 60`, `0x3c`, `"3c"` or `"0x3c"`: TOML has already read an integer's base, and a
    /// string goes through the command line's rule, so a file and `--address` agree.
    private static func address(_ value: TOMLValue, table: ConfigTable) throws(ConfigError) -> I2CAddress {
        switch value {
        case .integer(let number):
            if let address = I2CAddress(usable: number) { return address }
            let hex = number >= 0 ? " (0x" + String(number, radix: 16) + ")" : ""
            throw table.error(
                ConfigurationSetting.displayAddress, "expected \(I2CAddress.rule), found the integer \(number)\(hex)")
        case .string(let text):
            if let address = I2CAddress(parsing: text) { return address }
        default:
            break
        }
        throw table.error(
            ConfigurationSetting.displayAddress, "expected \(I2CAddress.rule), found \(describeFound(value))")
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
            if Set([crown.lineA, crown.lineB, crown.lineButton]).count < 3 {
                throw table.error(
                    linesKey,
                    "a, b and button must be three different lines, found \(crown.lineA), \(crown.lineB), \(crown.lineButton)"
                )
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
