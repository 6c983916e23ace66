/// A 1-bit font generated from a BDF file by `Scripts/dev/fonts/bdf2swift.py`.
///
/// Glyph metrics follow BDF: each glyph has an advance (`DWIDTH`) and a bounding box
/// (`BBX`) placed relative to its origin on the baseline. The generated tables are two hex
/// string literals (flash on a microcontroller); a font decodes them once, when it is made
/// (the built-in fonts are static, so on first use), into page-packed column bytes laid out
/// like `Bitmap`, so drawing a glyph is a blit of whole bytes rather than a hex parse a pixel.
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
    /// The glyphs in code point order, for binary search.
    private let glyphs: [Glyph]
    /// Where printable ASCII's glyphs sit in `glyphs` (-1: absent), so most text skips the search.
    private let asciiSlots: [Int16]
    /// ASCII's advances, controls and missing glyphs included, so measuring most text is a load a character.
    let asciiAdvances: [Int16]
    /// Every glyph's box as page-packed column bytes (`Bitmap` layout), at the glyph's `bitsOffset`.
    let columns: [UInt8]

    /// Hex digits in one index record.
    static let recordLength = 22

    /// A font over generated tables; `glyphCount` is trimmed to the records `index` holds.
    public init(
        name: String, ascent: Int, descent: Int, cellWidth: Int, glyphCount: Int,
        index: StaticString, bits: StaticString
    ) {
        let count = max(0, min(glyphCount, index.utf8CodeUnitCount / Self.recordLength))
        let rowBits = bits.withUTF8Buffer(Self.bytes(ofHex:))
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(count)
        var columns: [UInt8] = []
        index.withUTF8Buffer { table in
            for position in 0..<count {
                let base = position * Self.recordLength
                guard let scalar = Unicode.Scalar(Self.hex(table, base, digits: 6)) else { continue }
                let box = Self.boundingBox(table, base + 8)
                let glyph = Glyph(
                    scalar: scalar,
                    advance: Int(Int8(truncatingIfNeeded: Self.hex(table, base + 6, digits: 2))),
                    boundingBox: box, bitsOffset: columns.count)
                Self.appendColumns(
                    of: box, rowBitsAt: Int(Self.hex(table, base + 16, digits: 6)), rowBits, to: &columns)
                glyphs.append(glyph)
            }
        }
        self.init(name: name, ascent: ascent, descent: descent, cellWidth: cellWidth, glyphs: glyphs, columns: columns)
    }

    /// A font over decoded glyphs in code point order, their page-packed columns in `columns`.
    init(name: String, ascent: Int, descent: Int, cellWidth: Int, glyphs: [Glyph], columns: [UInt8]) {
        self.name = name
        self.ascent = max(0, ascent)
        self.descent = max(0, descent)
        self.cellWidth = max(1, cellWidth)
        self.glyphCount = glyphs.count
        var asciiSlots = [Int16](repeating: -1, count: 128)
        for (slot, glyph) in glyphs.enumerated() where glyph.scalar.value < 128 {
            asciiSlots[Int(glyph.scalar.value)] = Int16(truncatingIfNeeded: slot)
        }
        // As `measuredAdvance(of:)` has them: controls move nothing, a missing glyph a cell.
        let cell = self.cellWidth
        asciiAdvances = (0..<128).map { code in
            if Self.isControl(Unicode.Scalar(UInt8(code))) { return 0 }
            let slot = Int(asciiSlots[code])
            return Int16(truncatingIfNeeded: slot < 0 ? cell : glyphs[slot].advance)
        }
        self.glyphs = glyphs
        self.asciiSlots = asciiSlots
        self.columns = columns
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
        /// Where the glyph's page-packed columns start in the font's `columns`.
        let bitsOffset: Int
    }

    /// The glyph for `scalar`, or nil when the font lacks it.
    public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
        let target = scalar.value
        if target < 128 {
            let slot = Int(asciiSlots[Int(target)])
            return slot < 0 ? nil : glyphs[slot]
        }
        var low = 0
        var high = glyphs.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let code = glyphs[middle].scalar.value
            if code < target {
                low = middle + 1
            } else if code > target {
                high = middle - 1
            } else {
                return glyphs[middle]
            }
        }
        return nil
    }

    /// The scalar of every glyph, in code point order.
    public var scalars: [Unicode.Scalar] {
        glyphs.map { $0.scalar }
    }

    /// True when the pixel at column `x`, row `y` of the glyph's bounding box is inked.
    public func isInked(_ glyph: Glyph, x: Int, y: Int) -> Bool {
        let box = glyph.boundingBox
        guard x >= 0, y >= 0, x < box.width, y < box.height else { return false }
        let byteIndex = glyph.bitsOffset + (y >> 3) * box.width + x
        guard byteIndex < columns.count else { return false }
        return columns[byteIndex] & (1 << UInt8(y & 7)) != 0
    }

    /// The glyph's inked box as a bitmap, for tests and previews.
    public func bitmap(of glyph: Glyph) -> Bitmap {
        let box = glyph.boundingBox
        let start = glyph.bitsOffset
        let end = start + box.width * ((box.height + 7) / 8)
        guard box.width > 0, box.height > 0, end <= columns.count,
            let result = Bitmap(width: box.width, height: box.height, pageBytes: Array(columns[start..<end]))
        else { return Bitmap(width: box.width, height: box.height) }
        return result
    }

    /// Appends the box's pixels, read from the row-major, most significant bit first bits at
    /// `offset` in `rowBits`, as page-packed columns; bits past the table's end are dark.
    private static func appendColumns(
        of box: Rect, rowBitsAt offset: Int, _ rowBits: [UInt8], to columns: inout [UInt8]
    ) {
        let start = columns.count
        columns.append(contentsOf: repeatElement(0, count: max(0, box.width) * ((max(0, box.height) + 7) / 8)))
        for y in 0..<max(0, box.height) {
            for x in 0..<max(0, box.width) {
                let bit = y * box.width + x
                let byteIndex = offset + (bit >> 3)
                guard byteIndex < rowBits.count, rowBits[byteIndex] & (0x80 >> UInt8(bit & 7)) != 0 else { continue }
                columns[start + (y >> 3) * box.width + x] |= 1 << UInt8(y & 7)
            }
        }
    }

    /// The bytes a hex table spells, two digits each; a last lone digit is no byte.
    private static func bytes(ofHex table: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        (0..<(table.count / 2)).map { UInt8(truncatingIfNeeded: hex(table, $0 * 2, digits: 2)) }
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
