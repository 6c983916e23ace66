/// A 1-bit font generated from a BDF file by `Scripts/fonts/bdf2swift.py`.
///
/// Glyph metrics follow BDF: each glyph has an advance (`DWIDTH`) and a bounding box
/// (`BBX`) placed relative to its origin on the baseline. The glyph table lives in two
/// hex string literals read in place, so a font costs flash, not RAM, on a microcontroller.
///
///     origin.y ──────────┬─────────────  top of the line box
///                        │ ascent
///     baseline ── ● ─────┴──── advance ─▶ next origin
///                        │ descent
///     origin.y + lineHeight ──────────
public struct BitmapFont: Sendable {
    /// The name the font is known by, e.g. `fixed6x10`.
    public let name: String
    /// Rows above the baseline in the line box (BDF `FONT_ASCENT`).
    public let ascent: Int
    /// Rows below the baseline in the line box (BDF `FONT_DESCENT`).
    public let descent: Int
    /// The width of the font's default cell (BDF `FONTBOUNDINGBOX`), used for the replacement box.
    public let cellWidth: Int
    /// The number of glyphs the font holds.
    public let glyphCount: Int
    /// Fixed-width hex records sorted by code point; the layout is documented in bdf2swift.py.
    private let index: StaticString
    /// Glyph bits, row-major, most significant bit first, each glyph starting on a byte.
    private let bits: StaticString

    /// Hex digits in one index record.
    static let recordLength = 22

    /// A font over generated tables; `glyphCount` is trimmed to the records `index` holds.
    public init(
        name: String, ascent: Int, descent: Int, cellWidth: Int, glyphCount: Int,
        index: StaticString, bits: StaticString
    ) {
        self.name = name
        self.ascent = max(0, ascent)
        self.descent = max(0, descent)
        self.cellWidth = max(1, cellWidth)
        self.glyphCount = max(0, min(glyphCount, index.utf8CodeUnitCount / Self.recordLength))
        self.index = index
        self.bits = bits
    }

    /// The height of one line of text: ascent plus descent.
    public var lineHeight: Int { ascent + descent }

    /// One glyph's metrics.
    public struct Glyph: Hashable, Sendable {
        /// The character the glyph draws.
        public let scalar: Unicode.Scalar
        /// How far the pen moves right after this glyph (BDF `DWIDTH`); 0 for combining marks.
        public let advance: Int
        /// The inked box relative to the origin on the baseline, y growing downwards (BDF `BBX` flipped).
        public let boundingBox: Rect
        /// Where the glyph's bits start in the font's bit table.
        let bitsOffset: Int
    }

    /// The glyph for `scalar`, or nil when the font lacks it.
    public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
        let target = scalar.value
        return index.withUTF8Buffer { table -> Glyph? in
            var low = 0
            var high = glyphCount - 1
            while low <= high {
                let middle = (low + high) / 2
                let base = middle * Self.recordLength
                let code = Self.hex(table, base, digits: 6)
                if code < target {
                    low = middle + 1
                } else if code > target {
                    high = middle - 1
                } else {
                    return Glyph(
                        scalar: scalar,
                        advance: Int(Int8(truncatingIfNeeded: Self.hex(table, base + 6, digits: 2))),
                        boundingBox: Self.boundingBox(table, base + 8),
                        bitsOffset: Int(Self.hex(table, base + 16, digits: 6)))
                }
            }
            return nil
        }
    }

    /// The scalar of every glyph, in code point order.
    public var scalars: [Unicode.Scalar] {
        index.withUTF8Buffer { table in
            var result: [Unicode.Scalar] = []
            result.reserveCapacity(glyphCount)
            for position in 0..<glyphCount {
                if let scalar = Unicode.Scalar(Self.hex(table, position * Self.recordLength, digits: 6)) {
                    result.append(scalar)
                }
            }
            return result
        }
    }

    /// True when the pixel at column `x`, row `y` of the glyph's bounding box is inked.
    public func isInked(_ glyph: Glyph, x: Int, y: Int) -> Bool {
        let box = glyph.boundingBox
        guard x >= 0, y >= 0, x < box.width, y < box.height else { return false }
        let bit = y * box.width + x
        let byteIndex = glyph.bitsOffset + (bit >> 3)
        return bits.withUTF8Buffer { table in
            guard byteIndex * 2 + 1 < table.count else { return false }
            return Self.hex(table, byteIndex * 2, digits: 2) & (0x80 >> UInt32(bit & 7)) != 0
        }
    }

    /// The glyph's inked box as a bitmap, for tests and previews.
    public func bitmap(of glyph: Glyph) -> Bitmap {
        var result = Bitmap(width: glyph.boundingBox.width, height: glyph.boundingBox.height)
        for y in 0..<result.height {
            for x in 0..<result.width where isInked(glyph, x: x, y: y) {
                result[x, y] = true
            }
        }
        return result
    }

    /// BBX fields as stored: width, height, x offset, y offset (upwards to the box's bottom row).
    private static func boundingBox(_ table: UnsafeBufferPointer<UInt8>, _ base: Int) -> Rect {
        let width = Int(hex(table, base, digits: 2))
        let height = Int(hex(table, base + 2, digits: 2))
        let xOffset = Int(Int8(truncatingIfNeeded: hex(table, base + 4, digits: 2)))
        let yOffset = Int(Int8(truncatingIfNeeded: hex(table, base + 6, digits: 2)))
        return Rect(x: xOffset, y: -(yOffset + height), width: width, height: height)
    }

    /// The value of `digits` upper-case hex digits at `start`; bytes past the end read as 0.
    private static func hex(_ table: UnsafeBufferPointer<UInt8>, _ start: Int, digits: Int) -> UInt32 {
        var value: UInt32 = 0
        for position in start..<(start + digits) {
            let byte = position < table.count ? table[position] : UInt8(ascii: "0")
            let nibble = byte >= UInt8(ascii: "A") ? byte &- UInt8(ascii: "A") &+ 10 : byte &- UInt8(ascii: "0")
            value = (value << 4) | UInt32(nibble & 0x0F)
        }
        return value
    }
}

extension BitmapFont: Hashable {
    /// Fonts are identified by name and metrics; the generated tables of one name never differ.
    public static func == (lhs: BitmapFont, rhs: BitmapFont) -> Bool {
        lhs.name == rhs.name && lhs.ascent == rhs.ascent && lhs.descent == rhs.descent
            && lhs.cellWidth == rhs.cellWidth && lhs.glyphCount == rhs.glyphCount
    }

    /// Hashes the name and metrics, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(ascent)
        hasher.combine(descent)
        hasher.combine(cellWidth)
        hasher.combine(glyphCount)
    }
}
