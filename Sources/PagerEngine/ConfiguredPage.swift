import CrownVocabulary
import PagerCore
import PagerGraphics

/// A configured page as it stands now: its title and what it shows, ready to draw.
///
/// The run loop rebuilds these from the specs and the latest readings (`PageReadings`); the
/// page itself reads nothing, so frames are reproducible and drawing never blocks.
///
/// A page may carry its body's lines wrapped for one width (`preparingLines(width:)`), so that
/// frames draw them without wrapping the text again; two pages are equal when their title and
/// body are, prepared or not.
///
/// A page may also carry fallback glyphs (GNU Unifont's, which the shell reads): when its title or
/// text has characters misc-fixed lacks and they have, that text draws and wraps through a
/// `FontChain` of misc-fixed and them, its lines as tall as the chain's. Otherwise, or without
/// them, the page draws with misc-fixed alone, as before.
package struct ConfiguredPage: PageContent, Hashable, Sendable {
    /// Shown at the top and in the title list.
    package var title: String {
        didSet { updateChain() }
    }
    /// What is drawn under the title.
    package var body: Body {
        didSet {
            prepared = nil
            updateChain()
        }
    }
    /// How long it stays before the next page comes by itself (`[[page]] duration`).
    package var duration = PageDuration.automatic
    /// Whether a press runs the page's action (`confirm = "press"` or `"none"`) instead of going to the first page.
    package var hasPressAction = false
    /// Whether a long press runs the page's action (`confirm = "hold"`) instead of opening the title list.
    package var hasHoldAction = false
    /// Glyphs for characters misc-fixed lacks; like prepared lines, not part of what the page is.
    package var fallbackGlyphs: BitmapFont? {
        didSet {
            prepared = nil
            updateChain()
        }
    }
    /// The font its text draws in first (`font = "..."`), misc-fixed 6x10 then filling in; nil
    /// draws in misc-fixed 6x10 alone, as before.
    package var font: BitmapFont? {
        didSet {
            prepared = nil
            updateChain()
        }
    }
    /// The body's lines wrapped for a width, made once for the frames to come.
    private var prepared: PreparedLines?
    /// The page's font, misc-fixed and the fallback glyphs, when the page has a font or its text
    /// needs the glyphs; nil draws as before.
    var chain: FontChain?
    /// The chains `chain(for:text:)` picks from, made with a clock or a gauge page that has a
    /// chain: for each face, one a subset of the fonts after the face's font (a bit a font), so a
    /// frame that draws the page measures and draws its lines without allocating. Empty otherwise.
    var lineChains: [FontChain] = []
    /// Subsets a face has room for in `lineChains`: the chain has at most three fonts.
    static let subsetsPerFace = 8

    /// Lines of a body wrapped for one width, and for that width less the "more" gutter (a page
    /// taller than the screen keeps it free for the renderer's mark).
    private struct PreparedLines: Sendable {
        var width: Int
        var lines: [String]
        var narrowLines: [String]
    }

    /// What a page shows.
    package enum Body: Hashable, Sendable {
        /// Wrapped text; the page grows taller than the screen when needed.
        case text(String)
        /// The time, as large as fits, and the date under it; the shorter forms stand in, in
        /// order, where the panel is too narrow: times without seconds, then dates in fewer words.
        case clock(time: String, date: String, shorterTimes: [String] = [], shorterDates: [String] = [])
        /// `label value` lines.
        case values([ValueLine])
        /// Lines of output and, under them, a status such as "timed out after 2s".
        case output(lines: [String], status: String?)
        /// A picture, centred.
        case image(Bitmap)
        /// A bar or dial: the fraction filled (nil while unknown) and the text beside it.
        case gauge(fraction: Double?, text: String, isDial: Bool)
        /// One value alone, without the title, in the largest font that fits it in one or two
        /// lines (`size = "large"`, `ConfiguredPage+LargeText`).
        case large(String)
    }

    /// A page, with `fallbackGlyphs` for characters misc-fixed lacks and its own `font`.
    package init(title: String, body: Body, fallbackGlyphs: BitmapFont? = nil, font: BitmapFont? = nil) {
        self.title = title
        self.body = body
        self.fallbackGlyphs = fallbackGlyphs
        self.font = font
        updateChain()
    }

    /// Title, body and duration make the page; prepared lines only save work.
    package static func == (lhs: ConfiguredPage, rhs: ConfiguredPage) -> Bool {
        lhs.title == rhs.title && lhs.body == rhs.body && lhs.duration == rhs.duration
    }

    /// Hashes the title, body and duration, consistent with `==`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(title)
        hasher.combine(body)
        hasher.combine(duration)
    }

    static let font = BitmapFont.fixed6x10

    /// Whether the page's text draws through the fallback glyphs: some character of it is one
    /// misc-fixed lacks and they have.
    package var drawsWithFallbackGlyphs: Bool { chain != nil }

    private mutating func updateChain() {
        let needsGlyphs =
            fallbackGlyphs.map { glyphs in
                textContains { Self.font.glyph(for: $0) == nil && glyphs.glyph(for: $0) != nil }
            } ?? false
        lineChains = []
        guard font != nil || needsGlyphs else {
            chain = nil
            return
        }
        // The page's font, then misc-fixed 6x10, then Unifont's glyphs; a character none has is a box.
        let fallbacks = (font == nil ? [] : [Self.font]) + (needsGlyphs ? fallbackGlyphs.map { [$0] } ?? [] : [])
        let chain = FontChain(font ?? Self.font, fallbacks: fallbacks)
        self.chain = chain
        switch body {
        case .clock, .gauge:
            for face in [PageLayout.Face.large, .body, .small] {
                let (first, rest) = Self.lineFonts(face, chain)
                for used in 0..<Self.subsetsPerFace {
                    let subset = rest.indices.filter { used & (1 << ($0 - rest.startIndex)) != 0 }.map { rest[$0] }
                    lineChains.append(FontChain(first, fallbacks: subset))
                }
            }
        case .large:
            lineChains = Self.largeChains(fallingBackOn: chain)
        case .text, .values, .output, .image: break
        }
    }

    /// The font a line in `face` draws in first, and the fonts of `chain` it may fall back on.
    static func lineFonts(_ face: PageLayout.Face, _ chain: FontChain) -> (BitmapFont, ArraySlice<BitmapFont>) {
        face == .body ? (chain.fonts[0], chain.fonts.dropFirst()) : (face.font, chain.fonts[...])
    }

    /// Whether a character of the text drawn through the fallback glyphs (the title, the text,
    /// the values, the output and its status, a clock's time and dates, a gauge's text)
    /// satisfies `predicate`; controls are skipped.
    package func textContains(where predicate: (Unicode.Scalar) -> Bool) -> Bool {
        func scan(_ text: String) -> Bool {
            text.unicodeScalars.contains { !BitmapFont.drawsNothing($0) && predicate($0) }
        }
        if scan(title) { return true }
        switch body {
        case .text(let text): return scan(text)
        case .values(let values): return values.contains { scan($0.label) || scan($0.value) }
        case .output(let lines, let status): return lines.contains(where: scan) || status.map(scan) == true
        case .clock(let time, let date, let shorterTimes, let shorterDates):
            return scan(time) || scan(date) || shorterTimes.contains(where: scan) || shorterDates.contains(where: scan)
        case .gauge(_, let text, _), .large(let text): return scan(text)
        case .image: return false
        }
    }

    /// The height of a line of the title or the body's text.
    var lineHeight: Int { chain?.lineHeight ?? Self.font.lineHeight }
    /// The title, the rule under it and a gap.
    var headerHeight: Int { lineHeight + 2 }

    private func wrap(_ text: String, width: Int) -> [String] {
        if let chain { return chain.wrap(text, width: width) }
        return Self.font.wrap(text, width: width)
    }

    func drawLine(_ text: String, at point: Point, into canvas: inout Bitmap) {
        if let chain {
            canvas.drawText(text, at: point, fonts: chain)
        } else {
            canvas.drawText(text, at: point, font: Self.font)
        }
    }

    /// The page with its body's lines wrapped for a content area `width` pixels wide, so that
    /// drawing and measuring it at that width wrap nothing (the frame loop allocates no lines).
    /// Drawn at another width, the page wraps as before.
    package func preparingLines(width: Int) -> ConfiguredPage {
        var page = self
        switch body {
        case .text, .values, .output:
            page.prepared = PreparedLines(
                width: width, lines: bodyLines(width: width),
                narrowLines: bodyLines(width: width - PagerRenderer.moreMarkGutter))
        case .clock, .image, .gauge, .large: page.prepared = nil
        }
        return page
    }

    /// The lines under the title at `width`, each at most that wide: prepared, or made now.
    func bodyLines(width: Int) -> [String] {
        if let prepared, prepared.width == width { return prepared.lines }
        if let prepared, prepared.width - PagerRenderer.moreMarkGutter == width { return prepared.narrowLines }
        switch body {
        case .text(let text): return wrap(text, width: width)
        case .values(let values): return values.map { fit($0.label + " " + $0.value, width: width) }
        case .output(let lines, let status): return wrapped(lines, status: status, width: width)
        case .clock, .image, .gauge, .large: return []
        }
    }

    /// The number of lines under the title at `width`, wrapping nothing when prepared.
    private func lineCount(width: Int) -> Int {
        switch body {
        case .text where prepared == nil && chain == nil:
            if case .text(let text) = body { return Self.font.lineCount(wrapping: text, width: width) }
            return 0
        case .text, .values, .output: return bodyLines(width: width).count
        case .clock, .image, .gauge, .large: return 0
        }
    }

    /// Whether the page's lines at the screen's width run below the screen: then it scrolls,
    /// and its lines keep the "more" gutter free.
    func isTall(in viewport: Size) -> Bool {
        switch body {
        case .text, .values, .output:
            return headerHeight + lineCount(width: viewport.width) * lineHeight > viewport.height
        case .clock, .image, .gauge, .large: return false
        }
    }

    /// One screen, or as tall as the text, values or output need (wrapped clear of the "more" gutter).
    package func contentHeight(in viewport: Size) -> Int {
        guard isTall(in: viewport) else { return viewport.height }
        let lines = lineCount(width: max(1, viewport.width - PagerRenderer.moreMarkGutter))
        return max(viewport.height, headerHeight + lines * lineHeight)
    }

    /// A configured page draws from its content alone: readings and the clock come as new pages.
    package var drawsAlikeAtEveryInstant: Bool { true }

    /// Draws the page as if the screen showed it whole.
    package func draw(into canvas: inout Bitmap, at instant: Timestamp) {
        draw(into: &canvas, viewport: canvas.size, at: instant)
    }

    /// Draws the title, a rule under it, then the body, as `layout(in:viewport:)` places them.
    package func draw(into canvas: inout Bitmap, viewport: Size, at instant: Timestamp) {
        switch body {
        case .text, .values, .output:
            // Lines are drawn straight from the (prepared) lines, where the layout puts them,
            // so that a frame allocates nothing.
            let header = header(width: canvas.width, viewport: viewport)
            if let title = header.title { drawText(title, into: &canvas) }
            if let rule = header.rule { canvas.fillRect(rule) }
            let width = isTall(in: viewport) ? canvas.width - PagerRenderer.moreMarkGutter : canvas.width
            var y = header.bottom
            for line in bodyLines(width: max(1, width)) where y < canvas.height {
                drawLine(line, at: Point(x: 0, y: y), into: &canvas)
                y += lineHeight
            }
        case .clock:
            // Placed and drawn without a layout's arrays: the clock draws every second.
            let header = header(width: canvas.width, viewport: viewport)
            if let rule = header.rule { canvas.fillRect(rule) }
            if let title = header.title { drawText(title, into: &canvas) }
            if let clock = clockPlacement(in: bodyArea(under: header, size: canvas.size)) {
                drawText(clock.time, into: &canvas)
                if let date = clock.date { drawText(date, into: &canvas) }
            }
        case .large(let text):
            drawLarge(text, into: &canvas)
        case .image, .gauge:
            let layout = layout(in: canvas.size, viewport: viewport)
            for graphic in layout.graphics {
                switch graphic.kind {
                case .rule: canvas.fillRect(graphic.box)
                case .bar, .dial, .image: drawGraphic(graphic.box, into: &canvas)
                }
            }
            for text in layout.texts { drawText(text, into: &canvas) }
        }
    }

    /// Draws one laid-out line of text.
    private func drawText(_ text: PageLayout.Text, into canvas: inout Bitmap) {
        if text.face == .body && !isSingleScreenGraphic {
            drawLine(text.text, at: text.ink.origin, into: &canvas)
        } else if let chain = chain(for: text.face, text: text.text) {
            canvas.drawText(text.text, at: text.ink.origin, fonts: chain)
        } else {
            canvas.drawText(text.text, at: text.ink.origin, font: text.face.font)
        }
    }

    /// Draws the body's picture, bar or dial into `box`.
    private func drawGraphic(_ box: Rect, into canvas: inout Bitmap) {
        switch body {
        case .image(let bitmap):
            // Centred on the box, and clipped to it so a large image never covers the title.
            let saved = canvas.clip
            canvas.clip = box.intersection(saved)
            canvas.blit(
                bitmap,
                at: Point(x: box.x + (box.width - bitmap.width) / 2, y: box.y + (box.height - bitmap.height) / 2))
            canvas.clip = saved
        case .gauge(let fraction, _, let isDial):
            if isDial {
                GaugeDrawing.dial(fraction: fraction, in: box, canvas: &canvas)
            } else {
                GaugeDrawing.bar(fraction: fraction, in: box, canvas: &canvas)
            }
        case .text, .values, .output, .clock, .large: break
        }
    }

    /// Output lines, then the status in brackets, wrapped to the width (a long status must not be cut).
    private func wrapped(_ lines: [String], status: String?, width: Int) -> [String] {
        (lines + (status.map { ["[\($0)]"] } ?? [])).flatMap { $0.isEmpty ? [""] : wrap($0, width: width) }
    }

    var imageHeight: Int {
        if case .image(let bitmap) = body { return bitmap.height }
        return 0
    }

    var isSingleScreenGraphic: Bool {
        switch body {
        case .clock, .gauge: return true
        default: return false
        }
    }
}

/// One line of a system page.
package struct ValueLine: Hashable, Sendable {
    /// `cpu`, `load`...
    package var label: String
    /// `48.3°C`, `0.42 0.30 0.25`...
    package var value: String

    /// A line.
    package init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}

/// Bars and dials for gauge pages.
enum GaugeDrawing {
    /// The bar's outline and its filled part, in `box`.
    static func bar(fraction: Double?, in box: Rect, canvas: inout Bitmap) {
        canvas.strokeRect(box)
        // A fraction that is no number (an infinite reading, an empty range) draws as unknown.
        if let fraction, fraction.isFinite {
            let filled = Int(Double(box.width - 2) * min(max(fraction, 0), 1))
            canvas.fillRect(Rect(x: box.x + 1, y: box.y + 1, width: filled, height: box.height - 2))
        }
    }

    /// The dial's upper half circle and its needle, in `box` (twice as wide as tall, less a pixel).
    static func dial(fraction: Double?, in box: Rect, canvas: inout Bitmap) {
        let radius = (box.width - 1) / 2
        let centre = Point(x: box.x + radius, y: box.y + radius)
        // The upper half circle, from 180 degrees (empty) to 0 (full), drawn as points.
        let steps = radius * 4
        for step in 0...steps {
            let angle = Double.pi * Double(step) / Double(steps)
            canvas[
                centre.x - Int((Double(radius) * cosine(angle)).rounded()),
                centre.y - Int((Double(radius) * sine(angle)).rounded())] = true
        }
        if let fraction, fraction.isFinite {
            let angle = Double.pi * min(max(fraction, 0), 1)
            let tip = Point(
                x: centre.x - Int((Double(radius - 2) * cosine(angle)).rounded()),
                y: centre.y - Int((Double(radius - 2) * sine(angle)).rounded()))
            canvas.drawLine(from: centre, to: tip)
        }
    }

    /// Taylor series, so the pure drawing needs no libm (good to a pixel on a 64-pixel dial).
    static func sine(_ x: Double) -> Double {
        var term = x
        var sum = x
        for n in 1...9 {
            term *= -x * x / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return sum
    }

    static func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }
}
