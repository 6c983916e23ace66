/// Why a font file (BDF, Unifont's .hex) could not be read: the line (1-based) and what was wrong.
public struct FontFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line the problem was found on, counting from 1.
    public let line: Int
    /// What was wrong, in words.
    public let reason: String

    /// An error on `line` for `reason`.
    public init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line N: reason`, to follow the file's path.
    public var description: String { "line \(line): \(reason)" }
}

/// A reader of BDF 2.1 bitmap fonts (the X11 format misc-fixed and Unifont ship in), at run time.
public enum BDFFont {
    /// The most glyphs a file may hold: Unicode's planes 0 to 16 and some to spare.
    public static let maximumGlyphs = 1_200_000
    /// The widest or tallest glyph box accepted, in pixels.
    public static let maximumGlyphSide = 256

    /// The font in the BDF text `bytes`, named `name` (the file's name, say).
    ///
    /// Glyphs with `ENCODING -1` (no code point) or one that is no Unicode scalar are skipped.
    public static func decode(_ bytes: [UInt8], name: String) throws(FontFileError) -> BitmapFont {
        var parser = Parser(bytes: bytes)
        return try parser.font(name: name)
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0
        var lineNumber = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// The next line's words (split at spaces and tabs), or nil at the end of the file.
        mutating func nextLine() -> [Substring]? {
            guard position < bytes.count else { return nil }
            var end = position
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let text = String(decoding: bytes[position..<end], as: UTF8.self)
            position = end + 1
            lineNumber += 1
            return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        }

        /// The next line that is not blank or a `COMMENT`; `expecting` names what was due, for the error.
        mutating func nextWords(expecting: String) throws(FontFileError) -> [Substring] {
            while let words = nextLine() {
                if words.isEmpty || words[0] == "COMMENT" { continue }
                return words
            }
            throw FontFileError(line: lineNumber, "the file ends where \(expecting) was expected; is it cut short?")
        }

        func integers(_ words: [Substring], _ count: Int, _ keyword: String) throws(FontFileError) -> [Int] {
            guard words.count >= count + 1 else {
                throw FontFileError(
                    line: lineNumber, "\(keyword) needs \(count) whole numbers, found \(words.count - 1)")
            }
            var values: [Int] = []
            for word in words[1...count] {
                guard let value = Int(word), abs(value) <= 1 << 24 else {
                    throw FontFileError(line: lineNumber, "\(keyword): '\(word)' is not a whole number")
                }
                values.append(value)
            }
            return values
        }

        /// Throws unless the width and height in `values` are 0 to `maximumGlyphSide`.
        func checkSize(_ values: [Int], _ keyword: String) throws(FontFileError) {
            guard (0...maximumGlyphSide).contains(values[0]), (0...maximumGlyphSide).contains(values[1]) else {
                throw FontFileError(
                    line: lineNumber,
                    "\(keyword) \(values[0])x\(values[1]) is outside 0 to \(maximumGlyphSide) pixels a side")
            }
        }

        mutating func font(name: String) throws(FontFileError) -> BitmapFont {
            let first = try nextWords(expecting: "STARTFONT")
            guard first[0] == "STARTFONT" else {
                throw FontFileError(
                    line: lineNumber, "a BDF file starts with STARTFONT, found '\(first[0])'; is this a BDF font?")
            }
            var boundingBox: Rect?
            var ascent: Int?
            var descent: Int?
            var glyphs: [GlyphRows] = []
            while true {
                let words = try nextWords(expecting: "ENDFONT")
                switch words[0] {
                case "FONTBOUNDINGBOX":
                    let values = try integers(words, 4, "FONTBOUNDINGBOX")
                    try checkSize(values, "FONTBOUNDINGBOX")
                    boundingBox = Rect(x: values[2], y: -(values[3] + values[1]), width: values[0], height: values[1])
                case "FONT_ASCENT":
                    ascent = try integers(words, 1, "FONT_ASCENT")[0]
                case "FONT_DESCENT":
                    descent = try integers(words, 1, "FONT_DESCENT")[0]
                case "STARTCHAR":
                    guard let box = boundingBox else {
                        throw FontFileError(
                            line: lineNumber, "STARTCHAR before FONTBOUNDINGBOX; the header must give the box")
                    }
                    guard glyphs.count < maximumGlyphs else {
                        throw FontFileError(line: lineNumber, "more than \(maximumGlyphs) glyphs")
                    }
                    if let glyph = try glyph(defaultBox: box) { glyphs.append(glyph) }
                case "ENDFONT":
                    guard let box = boundingBox else {
                        throw FontFileError(
                            line: lineNumber, "ENDFONT without FONTBOUNDINGBOX; the header must give the box")
                    }
                    return BitmapFont(
                        name: name, ascent: ascent ?? -box.y, descent: descent ?? box.maxY,
                        cellWidth: box.width, glyphRows: glyphs)
                default:
                    continue  // SIZE, FONT, properties, CHARS: nothing the drawing needs.
                }
            }
        }

        /// The glyph from STARTCHAR to ENDCHAR; nil when it has no Unicode code point.
        mutating func glyph(defaultBox: Rect) throws(FontFileError) -> GlyphRows? {
            let start = lineNumber
            var encoding: Int?
            var advance = defaultBox.width
            var box = defaultBox
            while true {
                let words = try nextWords(expecting: "BITMAP or ENDCHAR (glyph from line \(start))")
                switch words[0] {
                case "ENCODING":
                    encoding = try integers(words, 1, "ENCODING")[0]
                case "DWIDTH":
                    advance = try integers(words, 1, "DWIDTH")[0]
                case "BBX":
                    let values = try integers(words, 4, "BBX")
                    try checkSize(values, "BBX")
                    box = Rect(x: values[2], y: -(values[3] + values[1]), width: values[0], height: values[1])
                case "BITMAP":
                    let rows = try bitmapRows(box)
                    guard let encoding else {
                        throw FontFileError(line: start, "glyph without ENCODING: every STARTCHAR needs one")
                    }
                    guard encoding >= 0, encoding <= 0x10FFFF, let scalar = Unicode.Scalar(UInt32(encoding)) else {
                        return nil
                    }
                    return GlyphRows(scalar: scalar, advance: advance, boundingBox: box, rows: rows)
                        .overlaidIfCombining()
                case "ENDCHAR":
                    throw FontFileError(line: lineNumber, "ENDCHAR without BITMAP (glyph from line \(start))")
                case "STARTCHAR", "ENDFONT":
                    throw FontFileError(
                        line: lineNumber, "\(words[0]) inside the glyph from line \(start); ENDCHAR missing?")
                default:
                    continue
                }
            }
        }

        /// The hex rows after BITMAP, up to ENDCHAR: one a pixel row, each a whole number of bytes.
        mutating func bitmapRows(_ box: Rect) throws(FontFileError) -> [UInt8] {
            let stride = (box.width + 7) / 8
            var rows: [UInt8] = []
            rows.reserveCapacity(stride * box.height)
            var count = 0
            while true {
                let words = try nextWords(expecting: "ENDCHAR")
                if words[0] == "ENDCHAR" { break }
                guard count < box.height else {
                    throw FontFileError(
                        line: lineNumber, "more BITMAP rows than the BBX height \(box.height); ENDCHAR missing?")
                }
                let digits = Array(words[0].utf8)
                guard digits.count >= stride * 2, digits.count % 2 == 0 else {
                    throw FontFileError(
                        line: lineNumber,
                        "a BITMAP row of width \(box.width) needs \(stride * 2) hex digits, found \(digits.count)")
                }
                for byte in 0..<stride {
                    guard let high = HexDigits.value(digits[byte * 2]), let low = HexDigits.value(digits[byte * 2 + 1])
                    else {
                        throw FontFileError(line: lineNumber, "'\(words[0])' is not hexadecimal")
                    }
                    rows.append(high << 4 | low)
                }
                count += 1
            }
            guard count == box.height else {
                throw FontFileError(line: lineNumber, "\(count) BITMAP rows where the BBX height says \(box.height)")
            }
            return rows
        }
    }
}

/// Hexadecimal digits as ASCII bytes.
enum HexDigits {
    /// The value of one hex digit, either case; nil for any other byte.
    static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
