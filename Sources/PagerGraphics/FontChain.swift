/// Fonts tried in turn for each character of a text run: the page's font, then misc-fixed, then
/// Unifont's glyphs in use; a character none has draws a replacement box the first font's cell wide.
///
/// Lines are as tall as the tallest font's line box, every font's glyphs on one shared baseline.
public struct FontChain: Sendable, Hashable {
    /// The fonts, most preferred first; never empty.
    public let fonts: [BitmapFont]
    /// Rows above the shared baseline: the largest ascent.
    public let ascent: Int
    /// Rows below the baseline: the largest descent.
    public let descent: Int

    /// A chain of `first` and then `fallbacks`, in order.
    public init(_ first: BitmapFont, fallbacks: [BitmapFont] = []) {
        fonts = [first] + fallbacks
        ascent = fonts.map { $0.ascent }.max() ?? first.ascent
        descent = fonts.map { $0.descent }.max() ?? first.descent
    }

    /// The height of one line: ascent plus descent.
    public var lineHeight: Int { ascent + descent }

    /// The first font with a glyph for `scalar` and its glyph; nil when none has one.
    public func glyph(for scalar: Unicode.Scalar) -> (font: Int, glyph: BitmapFont.Glyph)? {
        for (position, font) in fonts.enumerated() {
            if let glyph = font.glyph(for: scalar) { return (position, glyph) }
        }
        return nil
    }

    /// How far the pen moves for `scalar`: 0 for what draws nothing (`BitmapFont.drawsNothing`),
    /// the first font's cell for a missing glyph.
    public func advance(of scalar: Unicode.Scalar) -> Int {
        if BitmapFont.drawsNothing(scalar) { return 0 }
        return glyph(for: scalar)?.glyph.advance ?? fonts[0].cellWidth
    }

    /// The advance of the widest line of `text`, lines separated by "\n".
    public func width(of text: some StringProtocol) -> Int {
        var widest = 0
        for line in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            widest = max(widest, line.reduce(0) { $0 + advance(of: $1) })
        }
        return widest
    }

    /// True for scripts written without spaces between their characters' break chances: a line
    /// may break before or after any of them (Hangul syllables and jamo, kana, CJK ideographs).
    public static func breaksAround(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// Punctuation that stays with the character before it: no line starts with it.
    static func closes(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ".", ",", "!", "?", ":", ";", ")", "]", "}", "'", "\"", "\u{3001}", "\u{3002}", "\u{300D}", "\u{FF0C}",
            "\u{FF0E}", "\u{FF09}":
            return true
        default:
            return false
        }
    }

    /// `text` broken into lines no wider than `width`.
    ///
    /// Lines break at spaces (a run of spaces collapses to one) and between two Hangul syllables
    /// or CJK characters, never before closing punctuation; a Latin word wider than `width` is cut
    /// where it stops fitting; every "\n" (or "\r\n") starts a line. Each line holds at least one
    /// character, and lines break between grapheme clusters only (never inside a Hangul syllable
    /// spelled in jamo, an emoji sequence, or a letter and its marks).
    public func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        let spaceWidth = advance(of: " ")
        var paragraphStart = text.startIndex
        var index = text.startIndex
        while index <= text.endIndex {
            let next = index < text.endIndex ? text.index(after: index) : index
            guard index == text.endIndex || text.unicodeScalars[index..<next].last == "\n" else {
                index = next
                continue
            }
            wrap(text[paragraphStart..<index], width: width, spaceWidth: spaceWidth, into: &lines)
            if index == text.endIndex { break }
            paragraphStart = next
            index = next
        }
        return lines
    }

    /// Adds the lines of one paragraph (text without line ends) to `lines`.
    private func wrap(_ paragraph: Substring, width: Int, spaceWidth: Int, into lines: inout [String]) {
        var line = ""
        var lineWidth = 0
        var spaceBefore = false
        func endLine() {
            lines.append(line)
            line = ""
            lineWidth = 0
        }
        for unit in Self.units(paragraph) {
            if unit.first == " " {
                spaceBefore = true
                continue
            }
            let unitWidth = unit.clusterScalars.reduce(0) { $0 + advance(ofCluster: $1) }
            let gap = spaceBefore && !line.isEmpty ? spaceWidth : 0
            spaceBefore = false
            if !line.isEmpty, lineWidth + gap + unitWidth <= width {
                if gap > 0 { line.append(" ") }
                line.append(contentsOf: unit)
                lineWidth += gap + unitWidth
                continue
            }
            if !line.isEmpty { endLine() }
            for cluster in unit.clusterScalars {
                let step = advance(ofCluster: cluster)
                if !line.isEmpty, step > 0, lineWidth + step > width { endLine() }
                line.unicodeScalars.append(contentsOf: cluster)
                lineWidth += step
            }
        }
        endLine()
    }

    /// The pieces a line may break between, as slices of `paragraph` on grapheme cluster
    /// boundaries: runs of spaces, one Hangul or CJK character, or a word of other characters;
    /// closing punctuation joins the piece before it.
    static func units(_ paragraph: Substring) -> [Substring] {
        var units: [Substring] = []
        var start = paragraph.startIndex
        var currentIsSpace = false
        var currentBreaksAfter = false
        var index = paragraph.startIndex
        while index < paragraph.endIndex {
            let next = paragraph.index(after: index)
            let cluster = paragraph.unicodeScalars[index..<next]
            let isSpace = cluster.isSpace
            let first = cluster.first ?? " "
            let startsNew: Bool
            if index == start {
                startsNew = false
            } else if isSpace != currentIsSpace {
                startsNew = true
            } else if isSpace || closes(first) {
                startsNew = false
            } else {
                startsNew = currentBreaksAfter || breaksAround(first)
            }
            if startsNew {
                units.append(paragraph[start..<index])
                start = index
            }
            currentIsSpace = isSpace
            currentBreaksAfter = breaksAround(first)
            index = next
        }
        if start < paragraph.endIndex { units.append(paragraph[start..<paragraph.endIndex]) }
        return units
    }
}

extension Bitmap {
    /// Draws `text` with the top-left of its first line box at `origin`, each character in the
    /// chain's first font that has it; returns the widest line's advance.
    @discardableResult
    public mutating func drawText(_ text: String, at origin: Point, fonts chain: FontChain, ink: Ink = .on) -> Int {
        let mode = BlitMode(ink: ink, opaque: false)
        var pen = Point(x: origin.x, y: origin.y + chain.ascent)
        var widest = 0
        withCanvas { canvas in
            for scalar in text.unicodeScalars {
                if scalar == "\n" {
                    widest = max(widest, pen.x - origin.x)
                    pen = Point(x: origin.x, y: pen.y + chain.lineHeight)
                    continue
                }
                if BitmapFont.drawsNothing(scalar) { continue }
                if let (position, glyph) = chain.glyph(for: scalar) {
                    chain.fonts[position].columns.withUnsafeBufferPointer {
                        canvas.drawGlyph(glyph, at: pen, columns: $0, mode: mode)
                    }
                    pen.x += glyph.advance
                } else {
                    let cell = chain.fonts[0].cellWidth
                    canvas.stroke(
                        Rect(x: pen.x, y: pen.y - chain.ascent, width: cell - 1, height: chain.lineHeight - 1),
                        mode: mode)
                    pen.x += cell
                }
            }
        }
        return max(widest, pen.x - origin.x)
    }

    /// Wraps `text` to the width of `rect` (`FontChain.wrap`) and draws the lines from its top,
    /// aligned, clipped to `rect`. Returns the number of lines that fit entirely.
    @discardableResult
    public mutating func drawText(
        _ text: String, in rect: Rect, fonts chain: FontChain, alignment: TextAlignment = .leading, ink: Ink = .on
    ) -> Int {
        let lines = chain.wrap(text, width: rect.width)
        let height = max(1, chain.lineHeight)
        let savedClip = clip
        clip = clip.intersection(rect)
        // Every line that starts inside the rectangle, the last one perhaps cut by the clip.
        for (row, line) in lines.prefix((max(0, rect.height) + height - 1) / height).enumerated() {
            let left = alignment.left(ofWidth: chain.width(of: line), in: rect)
            drawText(line, at: Point(x: left, y: rect.y + row * height), fonts: chain, ink: ink)
        }
        clip = savedClip
        return min(lines.count, max(0, rect.height) / height)
    }
}

extension TextAlignment {
    /// The left edge of a line `width` wide in `rect`; centring gives an odd leftover pixel to the right.
    func left(ofWidth width: Int, in rect: Rect) -> Int {
        switch self {
        case .leading: return rect.x
        case .center: return rect.x + (rect.width - width) / 2
        case .trailing: return rect.x + rect.width - width
        }
    }
}
