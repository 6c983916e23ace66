/// One glyph as a font file spells it: metrics and rows of bits, each row padded to whole bytes,
/// most significant bit leftmost (BDF `BITMAP` and Unifont's .hex lines both read this way).
public struct GlyphRows: Hashable, Sendable {
    /// The character the glyph draws.
    public var scalar: Unicode.Scalar
    /// How far the pen moves right after the glyph.
    public var advance: Int
    /// The inked box relative to the origin on the baseline, y growing downwards.
    public var boundingBox: Rect
    /// `boundingBox.height` rows of `(boundingBox.width + 7) / 8` bytes each.
    public var rows: [UInt8]

    /// A glyph from its metrics and padded rows; missing row bytes read as dark.
    public init(scalar: Unicode.Scalar, advance: Int, boundingBox: Rect, rows: [UInt8]) {
        self.scalar = scalar
        self.advance = advance
        self.boundingBox = boundingBox
        self.rows = rows
    }

    /// True for combining marks (diacritical marks and their supplements, the half marks).
    public static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: return true
        default: return false
        }
    }

    /// A combining mark drawn in a whole cell (as misc-fixed and Unifont draw them) moved back over
    /// the character before it, moving the pen nothing; any other glyph as it is.
    func overlaidIfCombining() -> GlyphRows {
        guard advance > 0, Self.isCombiningMark(scalar) else { return self }
        var glyph = self
        glyph.boundingBox.x -= advance
        glyph.advance = 0
        return glyph
    }

    /// True when the pixel at column `x`, row `y` of the box is inked.
    func isInked(x: Int, y: Int) -> Bool {
        let stride = (boundingBox.width + 7) / 8
        let index = y * stride + x / 8
        guard x >= 0, y >= 0, x < boundingBox.width, y < boundingBox.height, index < rows.count else { return false }
        return rows[index] & (0x80 >> UInt8(x & 7)) != 0
    }
}

extension BitmapFont {
    /// A font made at run time from decoded glyphs (a BDF file, Unifont's glyphs in use).
    ///
    /// The glyphs are sorted by code point; of two glyphs for one scalar the first is kept.
    public init(name: String, ascent: Int, descent: Int, cellWidth: Int, glyphRows: [GlyphRows]) {
        var sorted = glyphRows.enumerated().sorted {
            ($0.element.scalar.value, $0.offset) < ($1.element.scalar.value, $1.offset)
        }.map { $0.element }
        var unique: [GlyphRows] = []
        unique.reserveCapacity(sorted.count)
        for glyph in sorted where unique.last?.scalar != glyph.scalar { unique.append(glyph) }
        sorted = []
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(unique.count)
        var columns: [UInt8] = []
        for source in unique {
            let box = Rect(
                x: source.boundingBox.x, y: source.boundingBox.y, width: max(0, source.boundingBox.width),
                height: max(0, source.boundingBox.height))
            let start = columns.count
            columns.append(contentsOf: repeatElement(0, count: box.width * ((box.height + 7) / 8)))
            for y in 0..<box.height {
                for x in 0..<box.width where source.isInked(x: x, y: y) {
                    columns[start + (y >> 3) * box.width + x] |= 1 << UInt8(y & 7)
                }
            }
            glyphs.append(Glyph(scalar: source.scalar, advance: source.advance, boundingBox: box, bitsOffset: start))
        }
        self.init(name: name, ascent: ascent, descent: descent, cellWidth: cellWidth, glyphs: glyphs, columns: columns)
    }
}
