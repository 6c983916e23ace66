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
        if var table = try top.table("crown") { crown = try Self.crown(&table) }
        if var table = try top.table("indicator") { indicator = try Self.indicator(&table) }
        if let tables = try top.tables("page") {
            guard !tables.isEmpty else { throw top.error("page", "expected at least one [[page]]") }
            for var table in tables { pages.append(try PageSpec(reading: &table, directory: directory, files: files)) }
        } else {
            pages = Configuration.builtIn.pages
        }
        try top.finish(known: ["display", "crown", "indicator", "page"])
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

    /// A path from the file, relative to the file's folder unless absolute (built-in image names pass through).
    public func resolve(_ path: String) -> String {
        Self.resolve(path, in: directory)
    }

    static func resolve(_ path: String, in directory: String) -> String {
        guard !path.hasPrefix("/"), path.contains("/") || path.contains(".") else { return path }
        return directory == "." ? path : directory + "/" + path
    }

    private static func display(_ table: inout ConfigTable) throws(ConfigError) -> DisplaySection {
        var display = DisplaySection()
        let names = SSD1306Panel.all.map { $0.name }
        if let name = try table.choice("panel", among: names + ["ssd1306-128x64", "ssd1306-128x32"]) {
            display.panel = SSD1306Panel.all.first { $0.name == name || "ssd1306-" + $0.name == name } ?? display.panel
        }
        if let value = table.value("bus") {
            switch value {
            case .integer(let bus) where (0...1023).contains(bus): display.bus = Int(bus)
            case .string("mock"): display.bus = nil
            default:
                throw table.error(
                    "bus",
                    "expected an I2C bus number such as 1 (/dev/i2c-1), or \"mock\", found \(describeFound(value))")
            }
        }
        if let value = table.value("address") { display.address = try address(value, table: table) }
        if let rotation = try table.integer("rotation", in: 0...180) {
            guard let parsed = DisplayRotation(degrees: rotation) else {
                throw table.error("rotation", "expected 0 or 180, found \(rotation)")
            }
            display.rotation = parsed
        }
        if let brightness = try table.integer("brightness", in: 0...100) { display.brightness = brightness }
        if let brightness = try table.integer("dim_brightness", in: 0...100) { display.dimBrightness = brightness }
        display.dimAfter = try offOrDuration(&table, "dim_after") ?? display.dimAfter
        display.offAfter = try offOrDuration(&table, "off_after") ?? display.offAfter
        if let dim = display.dimAfter, let off = display.offAfter, off < dim {
            throw table.error("off_after", "must not come before dim_after")
        }
        if let hertz = try table.integer("bus_hz", in: 10_000...3_400_000) { display.busHertz = hertz }
        try table.finish()
        return display
    }

    /// `address = 60`, `0x3c`, `"3c"` or `"0x3c"`: TOML has already read an integer's base, and a
    /// string goes through the command line's rule, so a file and `--address` agree.
    private static func address(_ value: TOMLValue, table: ConfigTable) throws(ConfigError) -> I2CAddress {
        switch value {
        case .integer(let number):
            if let address = I2CAddress(usable: number) { return address }
            let hex = number >= 0 ? " (0x" + String(number, radix: 16) + ")" : ""
            throw table.error("address", "expected \(I2CAddress.rule), found the integer \(number)\(hex)")
        case .string(let text):
            if let address = I2CAddress(parsing: text) { return address }
        default:
            break
        }
        throw table.error("address", "expected \(I2CAddress.rule), found \(describeFound(value))")
    }

    /// A duration, or `"never"` (which is returned as a span of zero and means off).
    private static func offOrDuration(_ table: inout ConfigTable, _ key: String) throws(ConfigError) -> TimeSpan?? {
        if case .string("never")? = table.table[key]?.value {
            _ = table.value(key)
            return .some(nil)
        }
        guard let milliseconds = try table.duration(key, minimumMilliseconds: 1000) else { return nil }
        return .some(.milliseconds(milliseconds))
    }

    private static func crown(_ table: inout ConfigTable) throws(ConfigError) -> CrownSection {
        var crown = CrownSection()
        if let source = try table.choice("source", among: ["gpio", "evdev", "keyboard"]) {
            crown.source = source
            crown.sourceIsExplicit = true
        }
        crown.chip = try table.string("chip") ?? crown.chip
        crown.evdevPath = try table.string("evdev") ?? crown.evdevPath
        if var lines = try table.table("lines") {
            crown.lineA = try lines.integer("a", in: 0...511) ?? crown.lineA
            crown.lineB = try lines.integer("b", in: 0...511) ?? crown.lineB
            crown.lineButton = try lines.integer("button", in: 0...511) ?? crown.lineButton
            try lines.finish(known: ["a", "b", "button"])
            if Set([crown.lineA, crown.lineB, crown.lineButton]).count < 3 {
                throw table.error(
                    "lines",
                    "a, b and button must be three different lines, found \(crown.lineA), \(crown.lineB), \(crown.lineButton)"
                )
            }
        }
        if let steps = try table.integer("steps_per_detent", in: 1...4) {
            switch steps {
            case 4: crown.stepping = .full
            case 2: crown.stepping = .half
            case 1: crown.stepping = .quarter
            default: throw table.error("steps_per_detent", "expected 4 (KY-040, most EC11), 2 or 1, found \(steps)")
            }
        }
        crown.inverted = try table.boolean("inverted") ?? crown.inverted
        crown.acceleration = try table.boolean("acceleration") ?? crown.acceleration
        crown.wrap = try table.boolean("wrap") ?? crown.wrap
        if let side = try table.choice("side", among: CrownSide.allCases.map { $0.rawValue }) {
            crown.side = CrownSide(rawValue: side) ?? .right
        }
        crown.detentsPerPage = try table.integer("detents_per_page", in: 1...20) ?? crown.detentsPerPage
        try table.finish()
        return crown
    }

    private static func indicator(_ table: inout ConfigTable) throws(ConfigError) -> IndicatorSection {
        var indicator = IndicatorSection()
        if let style = try table.choice("style", among: PageControlBackgroundStyle.allCases.map { $0.rawValue }) {
            indicator.style = PageControlBackgroundStyle(rawValue: style) ?? .automatic
        }
        indicator.image = try table.string("image")
        indicator.maximumDots = try table.integer("max_dots", in: 1...20)
        indicator.hidesForSinglePage = try table.boolean("hides_for_single_page") ?? false
        try table.finish()
        return indicator
    }
}
