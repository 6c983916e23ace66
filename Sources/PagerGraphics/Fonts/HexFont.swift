/// Reads bytes of a .hex file at an offset: the shell's file, or bytes in memory for tests.
public protocol HexFontReader {
    /// Up to `count` bytes from `offset`; fewer at the end, nil when the file cannot be read.
    func bytes(at offset: Int, count: Int) -> [UInt8]?
}

/// A .hex file held in memory, as a reader.
public struct HexBytes: HexFontReader, Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]

    /// A reader over `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Up to `count` bytes from `offset`.
    public func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, offset <= bytes.count, count >= 0 else { return nil }
        return Array(bytes[offset..<min(bytes.count, offset + min(count, bytes.count - offset))])
    }
}

/// The index of a GNU Unifont .hex file (`CODE:HEXBITS` a line, 8x16 or 16x16 glyphs).
///
/// Built once in one pass over the file, fed in chunks, it keeps 8 bytes a glyph (code point,
/// where its bits start, whether it is double width), sorted, so a lookup is a binary search and
/// the glyphs themselves are read and decoded only when text needs them (`glyphs(for:from:)`).
public struct HexFontIndex: Sendable {
    /// Rows above the baseline of Unifont's 16-row cell.
    public static let ascent = 14
    /// Rows below the baseline.
    public static let descent = 2
    /// Code point << 32 | bits offset << 1 | wide, sorted by code point.
    private var entries: [UInt64] = []
    private var sorted = true
    // The scan's state between chunks.
    private var offset = 0
    private var lineNumber = 1
    private var code: UInt32 = 0
    private var codeDigits = 0
    private var bitsStart = -1
    private var bitsDigits = 0
    private var lineFailed = false
    private var failure: FontFileError?

    /// An empty index, to feed with `add(_:)`.
    public init() {}

    /// The index of a whole file in memory.
    public init(bytes: [UInt8]) throws(FontFileError) {
        bytes.withUnsafeBufferPointer { add($0) }
        try finish()
    }

    /// The number of glyphs indexed.
    public var count: Int { entries.count }

    /// Scans the next chunk of the file.
    public mutating func add(_ chunk: UnsafeBufferPointer<UInt8>) {
        for byte in chunk {
            defer { offset += 1 }
            if failure != nil { return }
            if byte == UInt8(ascii: "\n") {
                endLine()
                continue
            }
            if byte == UInt8(ascii: "\r") { continue }
            if bitsStart < 0 {
                if byte == UInt8(ascii: ":") {
                    guard codeDigits > 0 else { return fail("a line starts with ':', with no code point before it") }
                    bitsStart = offset + 1
                } else if let digit = HexDigits.value(byte), codeDigits < 6 {
                    code = code << 4 | UInt32(digit)
                    codeDigits += 1
                } else {
                    return fail("the code point before ':' must be 1 to 6 hex digits (CODE:HEXBITS a line)")
                }
            } else if HexDigits.value(byte) != nil {
                bitsDigits += 1
            } else {
                return fail("the glyph bits after ':' must be hex digits")
            }
        }
    }

    /// Ends the scan: a last line without a newline counts; throws the first bad line met.
    public mutating func finish() throws(FontFileError) {
        if failure == nil, codeDigits > 0 || bitsStart >= 0 { endLine() }
        if let failure { throw failure }
        if !sorted { entries.sort() }
        // Growing by doubling leaves up to twice the room: keep exactly the entries.
        if entries.capacity > entries.count + entries.count / 8 { entries = Array(entries) }
    }

    private mutating func fail(_ reason: String) {
        failure = FontFileError(line: lineNumber, reason)
    }

    private mutating func endLine() {
        defer {
            lineNumber += 1
            code = 0
            codeDigits = 0
            bitsStart = -1
            bitsDigits = 0
        }
        if codeDigits == 0, bitsStart < 0 { return }  // a blank line
        guard bitsStart >= 0 else { return fail("no ':' between the code point and the glyph bits") }
        guard bitsDigits == 32 || bitsDigits == 64 else {
            return fail("\(bitsDigits) hex digits of glyph bits; Unifont's glyphs have 32 (8x16) or 64 (16x16)")
        }
        guard code <= 0x10FFFF else { return fail("code point \(code) is past U+10FFFF") }
        // Compared as UInt64: where Int has 32 bits (wasm32, armhf), 1 << 31 is negative.
        guard UInt64(bitsStart) < 1 << 31 else { return fail("the glyph's bits start past the file's first 2 GiB") }
        let entry = UInt64(code) << 32 | UInt64(bitsStart) << 1 | (bitsDigits == 64 ? 1 : 0)
        if let last = entries.last, last >= entry { sorted = false }
        entries.append(entry)
    }

    /// Where the glyph for `scalar` is: its bits' offset and whether it is 16 columns wide.
    public func location(of scalar: Unicode.Scalar) -> (offset: Int, wide: Bool)? {
        var low = 0
        var high = entries.count - 1
        let target = UInt64(scalar.value)
        while low <= high {
            let middle = (low + high) / 2
            let code = entries[middle] >> 32
            if code < target {
                low = middle + 1
            } else if code > target {
                high = middle - 1
            } else {
                let entry = entries[middle]
                return (Int((entry & 0xFFFF_FFFF) >> 1), entry & 1 == 1)
            }
        }
        return nil
    }

    /// The glyphs for `scalars` that the file has, read through `reader` and decoded; the rest are left out.
    public func glyphs<Reader: HexFontReader>(for scalars: some Sequence<Unicode.Scalar>, from reader: Reader)
        -> [GlyphRows]
    {
        var result: [GlyphRows] = []
        for scalar in scalars {
            guard let (offset, wide) = location(of: scalar) else { continue }
            let digits = wide ? 64 : 32
            guard let bits = reader.bytes(at: offset, count: digits), bits.count == digits else { continue }
            var rows: [UInt8] = []
            rows.reserveCapacity(digits / 2)
            for byte in 0..<(digits / 2) {
                guard let high = HexDigits.value(bits[byte * 2]), let low = HexDigits.value(bits[byte * 2 + 1]) else {
                    break
                }
                rows.append(high << 4 | low)
            }
            guard rows.count == digits / 2 else { continue }
            let width = wide ? 16 : 8
            result.append(
                GlyphRows(
                    scalar: scalar, advance: width,
                    boundingBox: Rect(x: 0, y: -Self.ascent, width: width, height: Self.ascent + Self.descent),
                    rows: rows
                ).overlaidIfCombining())
        }
        return result
    }
}

/// Unifont's glyphs in use: an index of the file and a small font of the glyphs text asked for so far.
///
/// `cover(_:from:)` reads and decodes only the glyphs not yet held, so memory grows with the text
/// shown, not with the 57,000 glyphs of the file.
public struct HexGlyphCache: Sendable {
    /// The file's index.
    public let index: HexFontIndex
    /// The glyphs decoded so far, as a font for a `FontChain`.
    public private(set) var font: BitmapFont
    private var held: [GlyphRows] = []
    private var asked: Set<UInt32> = []

    /// A cache over `index`, holding no glyphs yet.
    public init(index: HexFontIndex, name: String = "unifont") {
        self.index = index
        font = BitmapFont(
            name: name, ascent: HexFontIndex.ascent, descent: HexFontIndex.descent, cellWidth: 8, glyphRows: [])
    }

    /// Makes `font` hold every glyph of `text` the file has and `fonts` lack; true when it grew.
    @discardableResult
    public mutating func cover<Reader: HexFontReader>(
        _ text: String, besides fonts: [BitmapFont] = [], from reader: Reader
    ) -> Bool {
        var wanted: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars where !BitmapFont.drawsNothing(scalar) && !asked.contains(scalar.value) {
            asked.insert(scalar.value)
            if fonts.contains(where: { $0.glyph(for: scalar) != nil }) { continue }
            wanted.append(scalar)
        }
        let found = index.glyphs(for: wanted, from: reader)
        guard !found.isEmpty else { return false }
        held += found
        font = BitmapFont(
            name: font.name, ascent: HexFontIndex.ascent, descent: HexFontIndex.descent, cellWidth: 8, glyphRows: held)
        return true
    }
}
