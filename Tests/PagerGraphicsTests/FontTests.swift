import Foundation
import PagerGraphics
import TestSupport
import Testing

/// A glyph as the BDF source describes it, read by a parser independent of bdf2swift.py.
struct SourceGlyph {
    var advance = 0
    var box = (width: 0, height: 0, x: 0, y: 0)
    var rows: [UInt32] = []

    /// The glyph drawn with its origin on the baseline at `origin`, BDF y offsets counting upwards.
    func draw(into bitmap: inout Bitmap, origin: Point) {
        let rowBits = (box.width + 7) / 8 * 8
        for (row, value) in rows.enumerated() {
            for column in 0..<box.width where value >> UInt32(rowBits - 1 - column) & 1 != 0 {
                bitmap[origin.x + box.x + column, origin.y - box.y - box.height + row] = true
            }
        }
    }
}

/// The glyphs of a BDF file in `Sources/PagerGraphics/Fonts/BDF`, keyed by code point.
func sourceGlyphs(_ file: String, filePath: String = #filePath) throws -> [UInt32: SourceGlyph] {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/PagerGraphics/Fonts/BDF/\(file)").standardized
    // The BDF files are ASCII; decoding the bytes directly works on every Foundation.
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    var glyphs: [UInt32: SourceGlyph] = [:]
    var glyph = SourceGlyph()
    var code: UInt32?
    var inBitmap = false
    for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        guard let key = words.first else { continue }
        if inBitmap {
            if key == "ENDCHAR" {
                inBitmap = false
                if let code { glyphs[code] = glyph }
            } else {
                glyph.rows.append(try #require(UInt32(key, radix: 16)))
            }
            continue
        }
        switch key {
        case "STARTCHAR":
            glyph = SourceGlyph()
            code = nil
        case "ENCODING": code = UInt32(words[1])
        case "DWIDTH": glyph.advance = try #require(Int(words[1]))
        case "BBX":
            let numbers = words.dropFirst().compactMap { Int($0) }
            glyph.box = (numbers[0], numbers[1], numbers[2], numbers[3])
        case "BITMAP": inBitmap = true
        default: break
        }
    }
    return glyphs
}

@Suite("BitmapFont")
struct FontTests {
    static let sources = ["fixed5x8": "5x8.bdf", "fixed6x10": "6x10.bdf", "fixed10x20": "10x20.bdf"]

    @Test("metrics come from the BDF header")
    func metrics() {
        #expect((BitmapFont.fixed5x8.ascent, BitmapFont.fixed5x8.descent, BitmapFont.fixed5x8.cellWidth) == (7, 1, 5))
        #expect(
            (BitmapFont.fixed6x10.ascent, BitmapFont.fixed6x10.descent, BitmapFont.fixed6x10.cellWidth) == (8, 2, 6))
        #expect(
            (BitmapFont.fixed10x20.ascent, BitmapFont.fixed10x20.descent, BitmapFont.fixed10x20.cellWidth) == (
                16, 4, 10
            ))
        #expect(BitmapFont.fixed6x10.lineHeight == 10)
        #expect(BitmapFont.fixed5x8.lineHeight == 8)
        #expect(BitmapFont.fixed10x20.lineHeight == 20)
        #expect(Set(allFonts).count == 3)
        #expect(BitmapFont.fixed6x10 == BitmapFont.fixed6x10 && BitmapFont.fixed6x10 != BitmapFont.fixed5x8)
    }

    @Test("every glyph matches its BDF source pixel for pixel", arguments: allFonts.map(\.name))
    func matchesSource(name: String) throws {
        let font = try #require(allFonts.first { $0.name == name })
        let source = try sourceGlyphs(try #require(Self.sources[name]))
        let scalars = font.scalars
        #expect(scalars.count == font.glyphCount)
        #expect(scalars.count > 700)
        let cell = font.cellWidth
        for scalar in scalars {
            let glyph = try #require(font.glyph(for: scalar))
            let original = try #require(source[scalar.value], "U+\(String(scalar.value, radix: 16)) is not in the BDF")
            // Combining marks lose their advance and move back one cell, onto the character before.
            let isMark = scalar.properties.generalCategory == .nonspacingMark
            #expect(glyph.advance == (isMark ? 0 : original.advance))
            var expected = Bitmap(width: 3 * cell, height: 3 * font.lineHeight)
            original.draw(
                into: &expected, origin: Point(x: cell + (isMark ? -original.advance : 0), y: 2 * font.lineHeight))
            var actual = Bitmap(width: 3 * cell, height: 3 * font.lineHeight)
            actual.drawGlyph(glyph, at: Point(x: cell, y: 2 * font.lineHeight), font: font)
            #expect(
                actual == expected, "U+\(String(scalar.value, radix: 16)) differs:\n\(actual)\nexpected\n\(expected)")
            // The stored box is cropped to the ink: no blank edge row or column.
            let bits = font.bitmap(of: glyph)
            if bits.width > 0 {
                #expect(
                    (0..<bits.height).contains { bits[0, $0] }
                        && (0..<bits.height).contains { bits[bits.width - 1, $0] })
                #expect(
                    (0..<bits.width).contains { bits[$0, 0] } && (0..<bits.width).contains { bits[$0, bits.height - 1] }
                )
            }
        }
    }

    @Test("scalars are strictly increasing and each one is found by binary search", arguments: allFonts.map(\.name))
    func lookup(name: String) throws {
        let font = try #require(allFonts.first { $0.name == name })
        let scalars = font.scalars
        for (previous, next) in zip(scalars, scalars.dropFirst()) {
            #expect(previous.value < next.value)
        }
        for scalar in scalars {
            #expect(font.glyph(for: scalar)?.scalar == scalar)
        }
        // Neighbours of present glyphs that are absent must not be found.
        let present = Set(scalars.map(\.value))
        for value in present.flatMap({ [$0 - 1, $0 + 1] }) where !present.contains(value) {
            if let scalar = Unicode.Scalar(value) { #expect(font.glyph(for: scalar) == nil) }
        }
        for absent: Unicode.Scalar in ["\u{0}", "\u{1F}", "\u{7F}", "\u{4E2D}", "\u{1F600}", "\u{10FFFF}"] {
            #expect(font.glyph(for: absent) == nil)
        }
    }

    @Test("the subset keeps the ranges a pager needs")
    func subset() {
        for font in allFonts {
            for scalar: Unicode.Scalar in [
                "A", "z", "~", "°", "µ", "±", "é", "Ł", "Ω", "Ж", "…", "→", "─", "█", "■", "\u{FFFD}",
            ] {
                #expect(font.glyph(for: scalar) != nil, "\(font.name) lacks U+\(String(scalar.value, radix: 16))")
            }
        }
    }

    @Test("A in 6x10 is the misc-fixed A, cropped with its box on the baseline")
    func letterA() throws {
        let font = BitmapFont.fixed6x10
        let glyph = try #require(font.glyph(for: "A"))
        #expect(glyph.advance == 6)
        #expect(glyph.boundingBox == Rect(x: 0, y: -7, width: 5, height: 7))
        #expect(
            font.bitmap(of: glyph)
                == Bitmap(rows: [
                    "..#..",
                    ".#.#.",
                    "#...#",
                    "#...#",
                    "#####",
                    "#...#",
                    "#...#",
                ]))
        let descender = try #require(font.glyph(for: "g"))
        #expect(descender.boundingBox.maxY == 2, "g reaches the bottom of the descent")
        let space = try #require(font.glyph(for: " "))
        #expect(space.boundingBox.isEmpty && space.advance == 6)
    }

    @Test("isInked is false outside the glyph's box")
    func inkOutside() throws {
        let font = BitmapFont.fixed10x20
        let glyph = try #require(font.glyph(for: "█"))
        let box = glyph.boundingBox
        #expect(font.isInked(glyph, x: 0, y: 0))
        for (x, y) in [(-1, 0), (0, -1), (box.width, 0), (0, box.height), (Int.max, Int.max), (Int.min, 0)] {
            #expect(!font.isInked(glyph, x: x, y: y))
        }
    }

    @Test("a font over truncated tables finds what is there and never reads past the end")
    func truncatedTables() throws {
        let font = BitmapFont(
            name: "tiny", ascent: 2, descent: 0, cellWidth: 3, glyphCount: 5,
            index: "0000410302020000000000", bits: "F")
        #expect(font.glyphCount == 1)
        let glyph = try #require(font.glyph(for: "A"))
        #expect(glyph.boundingBox == Rect(x: 0, y: -2, width: 2, height: 2))
        // Only the first hex digit of the byte exists; nothing past the table is read.
        #expect(font.bitmap(of: glyph) == Bitmap(width: 2, height: 2))
        #expect(font.glyph(for: "B") == nil)
    }
}
