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
public struct ConfiguredPage: PageContent, Hashable, Sendable {
    /// Shown at the top and in the title list.
    public var title: String {
        didSet { updateChain() }
    }
    /// What is drawn under the title.
    public var body: Body {
        didSet {
            prepared = nil
            updateChain()
        }
    }
    /// How long it stays before the next page comes by itself (`[[page]] duration`).
    public var duration = PageDuration.automatic
    /// Glyphs for characters misc-fixed lacks; like prepared lines, not part of what the page is.
    public var fallbackGlyphs: BitmapFont? {
        didSet {
            prepared = nil
            updateChain()
        }
    }
    /// The body's lines wrapped for a width, made once for the frames to come.
    private var prepared: PreparedLines?
    /// Misc-fixed and the fallback glyphs, when the page's text needs them; nil draws as before.
    private var chain: FontChain?

    /// Lines of a body wrapped for one width.
    private struct PreparedLines: Sendable {
        var width: Int
        var lines: [String]
    }

    /// What a page shows.
    public enum Body: Hashable, Sendable {
        /// Wrapped text; the page grows taller than the screen when needed.
        case text(String)
        /// The time, large, and the date under it.
        case clock(time: String, date: String)
        /// `label value` lines.
        case values([ValueLine])
        /// Lines of output and, under them, a status such as "timed out after 2s".
        case output(lines: [String], status: String?)
        /// A picture, centred.
        case image(Bitmap)
        /// A bar or dial: the fraction filled (nil while unknown) and the text beside it.
        case gauge(fraction: Double?, text: String, isDial: Bool)
    }

    /// A page, with `fallbackGlyphs` for characters misc-fixed lacks.
    public init(title: String, body: Body, fallbackGlyphs: BitmapFont? = nil) {
        self.title = title
        self.body = body
        self.fallbackGlyphs = fallbackGlyphs
        updateChain()
    }

    /// Title, body and duration make the page; prepared lines only save work.
    public static func == (lhs: ConfiguredPage, rhs: ConfiguredPage) -> Bool {
        lhs.title == rhs.title && lhs.body == rhs.body && lhs.duration == rhs.duration
    }

    /// Hashes the title, body and duration, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(title)
        hasher.combine(body)
        hasher.combine(duration)
    }

    static let font = BitmapFont.fixed6x10

    /// Whether the page's text draws through the fallback glyphs: some character of it is one
    /// misc-fixed lacks and they have.
    public var drawsWithFallbackGlyphs: Bool { chain != nil }

    private mutating func updateChain() {
        guard let glyphs = fallbackGlyphs else {
            chain = nil
            return
        }
        let needed = textContains { Self.font.glyph(for: $0) == nil && glyphs.glyph(for: $0) != nil }
        chain = needed ? FontChain(Self.font, fallbacks: [glyphs]) : nil
    }

    /// Whether a character of the text drawn through the fallback glyphs (the title, the text,
    /// the values, the output and its status) satisfies `predicate`; controls are skipped.
    public func textContains(where predicate: (Unicode.Scalar) -> Bool) -> Bool {
        func scan(_ text: String) -> Bool {
            text.unicodeScalars.contains { !BitmapFont.isControl($0) && predicate($0) }
        }
        if scan(title) { return true }
        switch body {
        case .text(let text): return scan(text)
        case .values(let values): return values.contains { scan($0.label) || scan($0.value) }
        case .output(let lines, let status): return lines.contains(where: scan) || status.map(scan) == true
        case .clock, .image, .gauge: return false
        }
    }

    /// The height of a line of the title or the body's text.
    private var lineHeight: Int { chain?.lineHeight ?? Self.font.lineHeight }
    /// The title, the rule under it and a gap.
    private var headerHeight: Int { lineHeight + 2 }

    private func wrap(_ text: String, width: Int) -> [String] {
        if let chain { return chain.wrap(text, width: width) }
        return Self.font.wrap(text, width: width)
    }

    private func drawLine(_ text: String, at point: Point, into canvas: inout Bitmap) {
        if let chain {
            canvas.drawText(text, at: point, fonts: chain)
        } else {
            canvas.drawText(text, at: point, font: Self.font)
        }
    }

    /// The page with its body's lines wrapped for a content area `width` pixels wide, so that
    /// drawing and measuring it at that width wrap nothing (the frame loop allocates no lines).
    /// Drawn at another width, the page wraps as before.
    public func preparingLines(width: Int) -> ConfiguredPage {
        var page = self
        switch body {
        case .text, .values, .output: page.prepared = PreparedLines(width: width, lines: bodyLines(width: width))
        case .clock, .image, .gauge: page.prepared = nil
        }
        return page
    }

    /// The lines under the title at `width`: prepared, or made now.
    private func bodyLines(width: Int) -> [String] {
        if let prepared, prepared.width == width { return prepared.lines }
        switch body {
        case .text(let text): return wrap(text, width: width)
        case .values(let values): return values.map { $0.label + " " + $0.value }
        case .output(let lines, let status): return wrapped(lines, status: status, width: width)
        case .clock, .image, .gauge: return []
        }
    }

    /// One screen, or as tall as the text, values or output need.
    public func contentHeight(in viewport: Size) -> Int {
        let lines: Int
        switch body {
        case .text where prepared?.width == viewport.width, .output where prepared?.width == viewport.width:
            lines = prepared?.lines.count ?? 0
        case .text(let text) where chain != nil: lines = wrap(text, width: viewport.width).count
        case .text(let text): lines = Self.font.lineCount(wrapping: text, width: viewport.width)
        case .values(let values): lines = values.count
        case .output(let output, let status): lines = wrapped(output, status: status, width: viewport.width).count
        case .clock, .image, .gauge: return viewport.height
        }
        return max(viewport.height, headerHeight + lines * lineHeight)
    }

    /// Draws the title, a rule under it, then the body.
    public func draw(into canvas: inout Bitmap, at instant: Timestamp) {
        let font = Self.font
        let compact = canvas.height < 48
        var top = 0
        // On a short panel a clock, a gauge, or an image taller than the room under the title
        // takes the whole screen: the indicator dot already says which page it is.
        if !compact || !(isSingleScreenGraphic || imageHeight > canvas.height - headerHeight) {
            drawLine(title, at: Point(x: 0, y: 0), into: &canvas)
            let titleWidth = chain?.width(of: title) ?? font.width(of: title)
            canvas.drawHorizontalLine(x: 0, y: lineHeight, length: min(canvas.width, titleWidth))
            top = headerHeight
        }
        let area = Rect(x: 0, y: top, width: canvas.width, height: max(0, canvas.height - top))
        switch body {
        case .text, .values, .output:
            drawLines(bodyLines(width: canvas.width), into: &canvas, from: top)
        case .clock(let time, let date):
            let big = BitmapFont.fixed10x20
            let timeTop = area.y + max(0, (area.height - big.lineHeight - font.lineHeight - 2) / 2)
            canvas.drawText(
                time, in: Rect(x: 0, y: timeTop, width: canvas.width, height: big.lineHeight), font: big,
                alignment: .center)
            canvas.drawText(
                date, in: Rect(x: 0, y: timeTop + big.lineHeight + 2, width: canvas.width, height: font.lineHeight),
                font: font, alignment: .center)
        case .image(let bitmap):
            // Centred, and clipped to the area so a large image never covers the title.
            canvas.clip = area
            canvas.blit(
                bitmap, at: Point(x: (canvas.width - bitmap.width) / 2, y: area.y + (area.height - bitmap.height) / 2))
            canvas.clip = canvas.bounds
        case .gauge(let fraction, let text, let isDial):
            if isDial {
                GaugeDrawing.dial(fraction: fraction, text: text, in: area, canvas: &canvas)
            } else {
                GaugeDrawing.bar(fraction: fraction, text: text, in: area, canvas: &canvas)
            }
        }
    }

    /// Output lines, then the status in brackets, wrapped to the width (a long status must not be cut).
    private func wrapped(_ lines: [String], status: String?, width: Int) -> [String] {
        (lines + (status.map { ["[\($0)]"] } ?? [])).flatMap { $0.isEmpty ? [""] : wrap($0, width: width) }
    }

    private var imageHeight: Int {
        if case .image(let bitmap) = body { return bitmap.height }
        return 0
    }

    private var isSingleScreenGraphic: Bool {
        switch body {
        case .clock, .gauge: return true
        default: return false
        }
    }

    private func drawLines(_ lines: [String], into canvas: inout Bitmap, from top: Int) {
        var y = top
        for line in lines where y < canvas.height {
            drawLine(line, at: Point(x: 0, y: y), into: &canvas)
            y += lineHeight
        }
    }
}

/// One line of a system page.
public struct ValueLine: Hashable, Sendable {
    /// `cpu`, `load`...
    public var label: String
    /// `48.3°C`, `0.42 0.30 0.25`...
    public var value: String

    /// A line.
    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}

/// Bars and dials for gauge pages.
enum GaugeDrawing {
    static func bar(fraction: Double?, text: String, in area: Rect, canvas: inout Bitmap) {
        let font = BitmapFont.fixed10x20
        let textHeight = area.height >= 40 ? font.lineHeight : BitmapFont.fixed6x10.lineHeight
        let textFont = area.height >= 40 ? font : BitmapFont.fixed6x10
        let barHeight = max(4, min(12, area.height - textHeight - 4))
        let top = area.y + max(0, (area.height - textHeight - barHeight - 3) / 2)
        canvas.drawText(
            text, in: Rect(x: 0, y: top, width: area.width, height: textHeight), font: textFont, alignment: .center)
        let bar = Rect(x: 2, y: top + textHeight + 3, width: area.width - 4, height: barHeight)
        canvas.strokeRect(bar)
        // A fraction that is no number (an infinite reading, an empty range) draws as unknown.
        if let fraction, fraction.isFinite {
            let filled = Int(Double(bar.width - 2) * min(max(fraction, 0), 1))
            canvas.fillRect(Rect(x: bar.x + 1, y: bar.y + 1, width: filled, height: bar.height - 2))
        }
    }

    static func dial(fraction: Double?, text: String, in area: Rect, canvas: inout Bitmap) {
        let font = BitmapFont.fixed6x10
        let radius = max(4, min(area.width / 2 - 2, area.height - font.lineHeight - 4))
        let centre = Point(x: area.x + area.width / 2, y: area.y + radius + 1)
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
        canvas.drawText(
            text, in: Rect(x: 0, y: centre.y + 3, width: area.width, height: font.lineHeight), font: font,
            alignment: .center)
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
