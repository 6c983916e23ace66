import PagerGraphics

/// Large text (`size = "large"`): one value alone on the page, in the largest Spleen font that
/// fits it in one or two lines, centred; no title (the indicator says which page it is).
///
/// The fonts are Spleen's four sizes (Fonts/BDF/README.md), so every panel has one that fills
/// it: 64 rows (an SSD1306, SH1106 or SSD1309 128x64) take a short value in 32x64 or two lines
/// of 16x32 or 12x24; 48 rows one line of 16x32 or two of 12x24; 40 and 32 rows one line of
/// 16x32 or two of 8x16; 16 rows one of 8x16. A word is never cut while a smaller font holds it
/// whole. Characters Spleen lacks draw in the page's chain (its font, misc-fixed, Unifont's
/// glyphs), on the same baseline. Text that fits no font in two lines draws in 8x16 as far as
/// the panel's rows go.
extension ConfiguredPage {
    /// The fonts of large text, largest first.
    static let largeFonts: [BitmapFont] = [.spleen32x64, .spleen16x32, .spleen12x24, .spleen8x16]

    /// For each large font, a chain of it and the page's fonts after it; made with the page, so
    /// a frame measures and draws without making chains.
    static func largeChains(fallingBackOn chain: FontChain?) -> [FontChain] {
        largeFonts.map { FontChain($0, fallbacks: chain?.fonts ?? [Self.font]) }
    }

    /// Large text placed in a canvas: the chain it draws in, and each line with its top-left corner.
    struct LargeText {
        /// The font and its fallbacks.
        var chain: FontChain
        /// The lines, each with where it starts.
        var lines: [(text: String, origin: Point)]
    }

    /// Makes the large fonts' chains once, for the frames to come, where the page has no chain of
    /// its own (a page with one has them already): `PageBook` asks, once the page is made, so a
    /// clock's or a text's page, made without them, checks nothing.
    mutating func prepareLargeChains() {
        guard case .large = body, lineChains.isEmpty else { return }
        lineChains = Self.largeChains(fallingBackOn: chain)
    }

    /// Where `text` goes in a canvas of `size`: the largest font whose lines number at most two
    /// and fit its rows, each line centred.
    func largeText(_ text: String, in size: Size) -> LargeText {
        let chains = lineChains.count == Self.largeFonts.count ? lineChains : Self.largeChains(fallingBackOn: chain)
        let width = max(1, size.width)
        var used = chains[chains.count - 1]
        var lines: [String] = []
        // A value cut inside a word ("21.5" over "°C") reads worse than a smaller font: words
        // whole first, then, for a word no font holds, cut.
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        search: for keepsWords in [true, false] {
            for candidate in chains where !keepsWords || words.allSatisfy({ candidate.width(of: $0) <= width }) {
                let wrapped = candidate.wrap(text, width: width)
                if wrapped.count <= 2, wrapped.count * candidate.lineHeight <= size.height {
                    used = candidate
                    lines = wrapped
                    break search
                }
            }
        }
        if lines.isEmpty {
            lines = Array(used.wrap(text, width: width).prefix(max(1, size.height / max(1, used.lineHeight))))
        }
        let top = (size.height - lines.count * used.lineHeight) / 2
        return LargeText(
            chain: used,
            lines: lines.enumerated().map { index, line in
                (line, Point(x: (size.width - used.width(of: line)) / 2, y: top + index * used.lineHeight))
            })
    }

    /// Draws `text` as large as `largeText(_:in:)` places it.
    func drawLarge(_ text: String, into canvas: inout Bitmap) {
        let placed = largeText(text, in: canvas.size)
        for line in placed.lines { canvas.drawText(line.text, at: line.origin, fonts: placed.chain) }
    }
}
