import ArgumentParser
import CrownPagerApp
import CrownVocabulary
import GlassViews
import PagerCore
import PagerEngine
import PagerSettings
import SSD1306

/// Which panel to drive or emulate.
struct DisplayOptions: ParsableArguments {
    @Option(help: .setting("--panel"))
    var panel: String?

    @Option(
        help: ArgumentHelp(
            "Record every I2C write to this file, one i2ctransfer line per transaction.", valueName: "file"))
    var trace: String?

    func validate() throws {
        if let panel, chosenPanel == nil {
            throw ValidationError(
                "unknown panel '\(panel)': choose one of \(SSD1306Panel.all.map(\.name).joined(separator: ", "))")
        }
    }

    /// The panel given, nil when left to the configuration.
    var chosenPanel: SSD1306Panel? {
        panel.flatMap { name in
            SSD1306Panel.all.first { $0.name == name.lowercased() || "ssd1306-" + $0.name == name.lowercased() }
        }
    }

    /// The panel given, else a 128x64 SSD1306.
    var resolvedPanel: SSD1306Panel? {
        panel == nil ? .ssd1306_128x64 : chosenPanel
    }
}

/// How pictures of the glass look: render's PNG files, and the GIFs of render and run.
struct PictureOptions: ParsableArguments {
    @Option(help: "Each pixel as a square this many pixels wide (1 to 16); unset, 4 for render, 2 for run --record.")
    var scale: Int?

    @Option(help: "The lit pixels' colour: \(OLEDPalette.choices).")
    var palette: String = "white"

    @Option(help: ArgumentHelp("The unlit pixels' colour: black or #RRGGBB.", valueName: "colour"))
    var unlit: String = "black"

    func validate() throws {
        if let scale, !(1...16).contains(scale) {
            throw ValidationError("--scale must be between 1 and 16, not \(scale)")
        }
        guard OLEDPalette(name: palette) != nil else {
            throw ValidationError("unknown palette '\(palette)': choose one of \(OLEDPalette.choices)")
        }
        guard OLEDPalette.unlitColor(named: unlit) != nil else {
            throw ValidationError("unknown colour '\(unlit)' for --unlit: black or #RRGGBB, such as #101010")
        }
    }

    /// The colours chosen (validated first, so never nil in `run()`).
    var chosenPalette: OLEDPalette? {
        guard var chosen = OLEDPalette(name: palette), let dark = OLEDPalette.unlitColor(named: unlit) else {
            return nil
        }
        chosen.dark = dark
        return chosen
    }
}

/// The flags that override a setting and nothing more, read by the settings table's rows: a
/// setting added to the table with a flag is taken here, checked by its own rule, and listed in
/// `--help`, with nothing else to write.
struct SettingFlags: ParsableArguments {
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var arguments: [String] = []

    func validate() throws {
        var scratch = RunOverrides()
        try apply(to: &scratch)
    }

    /// The flags given, laid over a configuration by `run` and `render`.
    func apply(to overrides: inout RunOverrides) throws(ValidationError) {
        do {
            try overrides.set(flags: arguments)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// What `--help` says of them, after the command's own discussion.
    static let help = "Flags that override a setting of the configuration:\n" + ConfigurationSetting.tableFlagsHelp
}

/// How the pager shows its pages: the demo's page count, the crown locked, the indicator's images.
struct PagerOptions: ParsableArguments {
    @Flag(help: "Show the pages without letting the crown move them.")
    var displayOnly = false

    @Option(help: "Show this many demo pages (1 to 999): the demo's own, then numbered pages (implies --demo on run).")
    var pages: Int?

    @Option(help: .setting("--indicator-image", valueName: "image"))
    var indicatorImage: String?

    @Option(help: ArgumentHelp("An image for one page, e.g. 1=location (repeatable).", valueName: "page=image"))
    var pageImage: [String] = []

    func validate() throws {
        if let pages, !(1...999).contains(pages) {
            throw ValidationError("--pages must be between 1 and 999, not \(pages)")
        }
        for spec in pageImage where Self.splitPageImage(spec) == nil {
            throw ValidationError(
                "--page-image must be <page>=<image> with a page from 1, e.g. 1=location, not '\(spec)'")
        }
    }

    /// `--indicator-image` and `--page-image`, loaded (pages count from 0).
    func images() throws(CrownPagerError) -> (IndicatorImage?, [(page: Int, image: IndicatorImage)]) {
        let cell = PageIndicatorStyle().cellSize
        var pages: [(page: Int, image: IndicatorImage)] = []
        for spec in pageImage {
            guard let (page, image) = Self.splitPageImage(spec) else { continue }
            pages.append((page - 1, try IndicatorImageFile.load(image, cell: cell)))
        }
        var preferred: IndicatorImage?
        if let indicatorImage { preferred = try IndicatorImageFile.load(indicatorImage, cell: cell) }
        return (preferred, pages)
    }

    /// The flags given, laid over a configuration by `run`.
    func apply(to overrides: inout RunOverrides) throws(CrownPagerError) {
        overrides.displayOnly = displayOnly
        (overrides.indicatorImage, overrides.pageImages) = try images()
    }

    static func splitPageImage(_ spec: String) -> (page: Int, image: String)? {
        let parts = spec.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let page = Int(parts[0]), (1...999).contains(page), !parts[1].isEmpty else {
            return nil
        }
        return (page, String(parts[1]))
    }
}
