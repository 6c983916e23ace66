/// How lines of text sit between the left and right edges of a rectangle.
public enum TextAlignment: Sendable, Hashable {
    /// Flush with the left edge.
    case leading
    /// Centred; an odd leftover pixel goes to the right.
    case center
    /// Flush with the right edge.
    case trailing
}

extension BitmapFont {
    /// What drawing one scalar does: nothing (`drawsNothing`), a glyph, or a replacement box.
    enum Mark {
        case none
        case glyph(Glyph)
        case replacement
    }

    /// How `scalar` is drawn: controls and default-ignorables draw nothing, scalars the font
    /// lacks draw a replacement box.
    func mark(for scalar: Unicode.Scalar) -> Mark {
        if Self.drawsNothing(scalar) { return .none }
        if let glyph = glyph(for: scalar) { return .glyph(glyph) }
        return .replacement
    }

    /// How far the pen moves for `scalar`: 0 for what draws nothing, the cell width for a missing glyph.
    public func advance(of scalar: Unicode.Scalar) -> Int {
        if scalar.value < 128 { return Int(asciiAdvances[Int(scalar.value)]) }
        return measuredAdvance(of: scalar)
    }

    /// `advance(of:)` from the glyph table, for any scalar; the font tabulates ASCII's with it.
    func measuredAdvance(of scalar: Unicode.Scalar) -> Int {
        switch mark(for: scalar) {
        case .none: return 0
        case .glyph(let glyph): return glyph.advance
        case .replacement: return cellWidth
        }
    }

    /// The advance of the widest line of `text`, lines separated by "\n".
    public func width(of text: String) -> Int {
        var widest = 0
        var line = 0
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                widest = max(widest, line)
                line = 0
            } else {
                line += advance(of: scalar)
            }
        }
        return max(widest, line)
    }

    /// The height of `lines` lines of text.
    public func height(ofLines lines: Int) -> Int {
        max(0, lines) * lineHeight
    }

    /// `text` broken into lines no wider than `width`.
    ///
    /// Lines break at spaces (a run of spaces collapses to one), a word wider than `width`
    /// is cut where it stops fitting, and every "\n" starts a new line, so blank lines stay.
    /// Lines break between grapheme clusters only; each line holds at least one, so a width
    /// narrower than a glyph still ends.
    public func wrap(_ text: String, width: Int) -> [String] {
        var wrapper = LineWrapper(font: self, width: width, keepsText: true)
        wrapper.wrap(text)
        return wrapper.lines
    }

    /// The number of lines `wrap(_:width:)` makes of `text`, without making them (no allocation).
    public func lineCount(wrapping text: String, width: Int) -> Int {
        var wrapper = LineWrapper(font: self, width: width, keepsText: false)
        wrapper.wrap(text)
        return wrapper.lineCount
    }

    /// Scalars that move nothing and draw nothing: C0 and C1 controls and DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

/// The state of `BitmapFont.wrap`: the lines so far and the line being filled.
///
/// One pass over the grapheme clusters; a word is a slice of the text, not a copy. The line is
/// built as UTF-8 in one buffer, so a line costs one string (none when it fits a small string)
/// and only when the text is kept.
private struct LineWrapper {
    let font: BitmapFont
    let width: Int
    let spaceWidth: Int
    /// False when only the lines are counted: nothing is built.
    let keepsText: Bool
    var lines: [String] = []
    var lineCount = 0
    /// The current line, UTF-8, when the text is kept.
    var line: [UInt8] = []
    var lineClusters = 0
    var lineWidth = 0

    init(font: BitmapFont, width: Int, keepsText: Bool) {
        self.font = font
        self.width = width
        self.keepsText = keepsText
        spaceWidth = font.advance(of: " ")
        if keepsText {
            lines.reserveCapacity(8)
            line.reserveCapacity(64)
        }
    }

    /// Breaks `text` at spaces and line ends ("\n", "\r\n"); every line end and the end close a line.
    mutating func wrap(_ text: String) {
        var wordStart = text.startIndex
        var wordWidth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            let cluster = text.unicodeScalars[index..<next]
            if cluster.isSpace || cluster.endsLine {
                add(text[wordStart..<index], width: wordWidth)
                if cluster.endsLine { endLine() }
                wordStart = next
                wordWidth = 0
            } else {
                wordWidth += font.advance(ofCluster: cluster)
            }
            index = next
        }
        add(text[wordStart..<text.endIndex], width: wordWidth)
        endLine()
    }

    /// Puts `word` on the line after a space when it fits, else starts a line with it, cut
    /// between grapheme clusters into pieces that fit.
    private mutating func add(_ word: Substring, width wordWidth: Int) {
        guard !word.isEmpty else { return }
        if lineClusters > 0, lineWidth + spaceWidth + wordWidth <= width {
            append(" ")
            if keepsText {
                for scalar in word.unicodeScalars { append(scalar) }
            }
            lineClusters += 1
            lineWidth += spaceWidth + wordWidth
            return
        }
        if lineClusters > 0 { endLine() }
        for cluster in word.clusterScalars {
            let advance = font.advance(ofCluster: cluster)
            if lineClusters > 0, advance > 0, lineWidth + advance > width { endLine() }
            for scalar in cluster { append(scalar) }
            lineClusters += 1
            lineWidth += advance
        }
    }

    /// Ends the current line, even an empty one.
    mutating func endLine() {
        lineCount += 1
        if keepsText {
            lines.append(String(decoding: line, as: UTF8.self))
            line.removeAll(keepingCapacity: true)
        }
        lineClusters = 0
        lineWidth = 0
    }

    private mutating func append(_ scalar: Unicode.Scalar) {
        guard keepsText else { return }
        if scalar.isASCII {
            line.append(UInt8(truncatingIfNeeded: scalar.value))
        } else {
            UTF8.encode(scalar) { line.append($0) }
        }
    }
}
