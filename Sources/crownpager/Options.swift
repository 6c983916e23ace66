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

    @Option(help: .setting("--detents-per-page"))
    var detentsPerPage: Int?

    @Option(help: .setting("--sensitivity", valueName: "low|medium|high"))
    var sensitivity: String?

    @Option(help: .setting("--rubber-band", valueName: "soft|medium|stiff"))
    var rubberBand: String?

    @Option(help: .setting("--background-style"))
    var backgroundStyle: String?

    @Option(help: .setting("--max-dots"))
    var maxDots: Int?

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
        if let crownSide, side == nil {
            throw ValidationError("--crown-side must be 'right', 'left' or 'bottom', not '\(crownSide)'")
        }
        try checkRange(detentsPerPage, flag: "--detents-per-page")
        if let sensitivity, preset == nil {
            throw ValidationError("--sensitivity must be 'low', 'medium' or 'high', not '\(sensitivity)'")
        }
        if let rubberBand, stiffness == nil {
            throw ValidationError("--rubber-band must be 'soft', 'medium' or 'stiff', not '\(rubberBand)'")
        }
        if let backgroundStyle, style == nil {
            throw ValidationError(
                "--background-style must be 'automatic', 'prominent' or 'minimal', not '\(backgroundStyle)'")
        }
        try checkRange(maxDots, flag: "--max-dots")
        if let pages, !(1...999).contains(pages) {
            throw ValidationError("--pages must be between 1 and 999, not \(pages)")
        }
        if let pageDuration, Self.parseDuration(pageDuration) == nil {
            throw ValidationError(
                "--page-duration must be a time such as 3s or 500ms (at least 100ms), not '\(pageDuration)'")
        }
        for spec in pageImage where Self.splitPageImage(spec) == nil {
            throw ValidationError(
                "--page-image must be <page>=<image> with a page from 1, e.g. 1=location, not '\(spec)'")
        }
    }

    var side: CrownSide? { crownSide.flatMap { CrownSide(rawValue: $0.lowercased()) } }

    /// `--sensitivity`, parsed.
    var preset: CrownSensitivity? { sensitivity.flatMap { CrownSensitivity(rawValue: $0.lowercased()) } }

    /// `--rubber-band`, parsed.
    var stiffness: RubberBandStiffness? { rubberBand.flatMap { RubberBandStiffness(rawValue: $0.lowercased()) } }

    var style: PageControlBackgroundStyle? {
        backgroundStyle.flatMap { PageControlBackgroundStyle(rawValue: $0.lowercased()) }
    }

    /// The indicator's style, with its images loaded; a bad image file is a clear error.
    func indicatorStyle() throws(CrownPagerError) -> PageIndicatorStyle {
        var style = PageIndicatorStyle(
            maximumVisibleDots: maxDots, hidesForSinglePage: hidesForSinglePage, crownSide: side ?? .right,
            backgroundStyle: self.style ?? .automatic)
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
        if wrap { overrides.set(Settings.crownWrap, true) }
        if let side { overrides.set(Settings.crownSide, side) }
        if let detentsPerPage { overrides.set(Settings.crownDetentsPerPage, detentsPerPage) }
        if let preset { overrides.set(Settings.crownSensitivity, preset) }
        if let stiffness { overrides.set(Settings.crownRubberBand, stiffness) }
        if let style { overrides.set(Settings.indicatorStyle, style) }
        if let maxDots { overrides.set(Settings.indicatorMaximumDots, maxDots) }
        if hidesForSinglePage { overrides.set(Settings.indicatorHidesForSinglePage, true) }
        overrides.displayOnly = displayOnly
        if let duration = pageDuration.flatMap(Self.parseDuration) { overrides.set(Settings.timerDuration, duration) }
        if noAcceleration { overrides.set(Settings.crownAcceleration, false) }
        (overrides.indicatorImage, overrides.pageImages) = try images()
    }

    /// `3s`, `2.5s`, `500ms`: at least 100 ms, at most a day.
    static func parseDuration(_ text: String) -> TimeSpan? {
        let lower = text.lowercased()
        let (number, scale): (Substring, Double) =
            lower.hasSuffix("ms")
            ? (lower.dropLast(2), 1_000_000) : lower.hasSuffix("s") ? (lower.dropLast(), 1_000_000_000) : ("", 0)
        guard let value = Double(number), value.isFinite else { return nil }
        let nanoseconds = value * scale
        guard nanoseconds >= 100_000_000, nanoseconds <= 86_400e9 else { return nil }
        return TimeSpan(nanoseconds: Int64(nanoseconds))
    }

    static func splitPageImage(_ spec: String) -> (page: Int, image: String)? {
        let parts = spec.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let page = Int(parts[0]), (1...999).contains(page), !parts[1].isEmpty else {
            return nil
        }
        return (page, String(parts[1]))
    }
}
