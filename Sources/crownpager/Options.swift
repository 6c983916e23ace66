import ArgumentParser
import CrownPagerApp
import CrownVocabulary
import MockDisplay
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

/// How the pager, its page indicator and the crown behave.
struct PagerOptions: ParsableArguments {
    @Flag(help: .setting("--wrap"))
    var wrap = false

    @Option(help: .setting("--crown-side"))
    var crownSide: String?

    @Option(help: .setting("--detents-per-page", valueName: "n"))
    var detentsPerPage: String?

    @Option(help: .setting("--sensitivity", valueName: "low|medium|high"))
    var sensitivity: String?

    @Option(help: .setting("--rubber-band", valueName: "soft|medium|stiff"))
    var rubberBand: String?

    @Option(help: .setting("--background-style"))
    var backgroundStyle: String?

    @Option(help: .setting("--max-dots", valueName: "n"))
    var maxDots: String?

    @Flag(help: .setting("--hides-for-single-page"))
    var hidesForSinglePage = false

    @Flag(help: "Show the pages without letting the crown move them.")
    var displayOnly = false

    @Option(help: .setting("--page-duration", valueName: "time"))
    var pageDuration: String?

    @Option(help: "Show this many demo pages (1 to 999): the demo's own, then numbered pages (implies --demo on run).")
    var pages: Int?

    @Option(help: .setting("--indicator-image", valueName: "image"))
    var indicatorImage: String?

    @Option(help: ArgumentHelp("An image for one page, e.g. 1=location (repeatable).", valueName: "page=image"))
    var pageImage: [String] = []

    @Flag(help: .setting("--no-acceleration"))
    var noAcceleration = false

    func validate() throws {
        var scratch = RunOverrides()
        try applySettings(to: &scratch)
        if let pages, !(1...999).contains(pages) {
            throw ValidationError("--pages must be between 1 and 999, not \(pages)")
        }
        for spec in pageImage where Self.splitPageImage(spec) == nil {
            throw ValidationError(
                "--page-image must be <page>=<image> with a page from 1, e.g. 1=location, not '\(spec)'")
        }
    }

    /// The flags that override settings, each read by its setting's rule (as the file is).
    func applySettings(to overrides: inout RunOverrides) throws(ValidationError) {
        do {
            if wrap { overrides.set(Settings.crownWrap, true) }
            try overrides.set(Settings.crownSide, flagArgument: crownSide)
            try overrides.set(Settings.crownSensitivity, flagArgument: sensitivity)
            try overrides.set(Settings.crownDetentsPerPage, flagArgument: detentsPerPage)
            try overrides.set(Settings.crownRubberBand, flagArgument: rubberBand)
            try overrides.set(Settings.indicatorStyle, flagArgument: backgroundStyle)
            try overrides.set(Settings.indicatorMaximumDots, flagArgument: maxDots)
            if hidesForSinglePage { overrides.set(Settings.indicatorHidesForSinglePage, true) }
            try overrides.set(Settings.timerDuration, flagArgument: pageDuration)
            if noAcceleration { overrides.set(Settings.crownAcceleration, false) }
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// A setting's flag, read (`validate()` has refused a bad one); nil when not given.
    private func given<Value>(_ setting: Setting<Value>, _ argument: String?) -> Value? {
        argument.flatMap { try? setting.parse(flagArgument: $0) }
    }

    /// The indicator's style, with its images loaded; a bad image file is a clear error.
    func indicatorStyle() throws(CrownPagerError) -> PageIndicatorStyle {
        var style = PageIndicatorStyle(
            maximumVisibleDots: given(Settings.indicatorMaximumDots, maxDots) ?? nil,
            hidesForSinglePage: hidesForSinglePage,
            crownSide: given(Settings.crownSide, crownSide) ?? .right,
            backgroundStyle: given(Settings.indicatorStyle, backgroundStyle) ?? .automatic)
        let (preferred, pages) = try images()
        style.images.preferredIndicatorImage = preferred
        for (page, image) in pages { style.images.setIndicatorImage(image, forPage: page) }
        return style
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
        try? applySettings(to: &overrides)
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
