import PagerGraphics
import Testing

/// Spleen, the fonts of large text: generated from their BDF sources as misc-fixed is.
@Suite("Large fonts")
struct LargeFontTests {
    static let fonts: [(BitmapFont, String, ascent: Int, descent: Int, cell: Int)] = [
        (.spleen8x16, "spleen-8x16.bdf", 12, 4, 8), (.spleen12x24, "spleen-12x24.bdf", 19, 5, 12),
        (.spleen16x32, "spleen-16x32.bdf", 26, 6, 16), (.spleen32x64, "spleen-32x64.bdf", 52, 12, 32),
    ]

    @Test("metrics come from the BDF header, a line as tall as the size", arguments: 0..<4)
    func metrics(index: Int) {
        let (font, _, ascent, descent, cell) = Self.fonts[index]
        #expect(font.ascent == ascent && font.descent == descent && font.cellWidth == cell)
        #expect(font.lineHeight == cell * 2)
    }

    @Test("every glyph matches its BDF source pixel for pixel", arguments: 0..<4)
    func matchesSource(index: Int) throws {
        let (font, file, _, _, cell) = Self.fonts[index]
        let source = try sourceGlyphs(file)
        #expect(font.scalars.count == font.glyphCount && font.glyphCount > 200)
        for scalar in font.scalars {
            let glyph = try #require(font.glyph(for: scalar))
            let original = try #require(source[scalar.value])
            #expect(glyph.advance == original.advance)
            var expected = Bitmap(width: 3 * cell, height: 3 * font.lineHeight)
            original.draw(into: &expected, origin: Point(x: cell, y: 2 * font.lineHeight))
            var actual = Bitmap(width: 3 * cell, height: 3 * font.lineHeight)
            actual.drawGlyph(glyph, at: Point(x: cell, y: 2 * font.lineHeight), font: font)
            #expect(actual == expected, "\(font.name) U+\(String(scalar.value, radix: 16)) differs")
        }
    }

    @Test("the text subset holds what values are written in", arguments: 0..<4)
    func subset(index: Int) {
        let font = Self.fonts[index].0
        for scalar: Unicode.Scalar in ["0", "9", "A", "z", "%", ".", "°", "µ", "±", "é", "€", "…"] {
            #expect(font.glyph(for: scalar) != nil, "\(font.name) lacks \(scalar)")
        }
        // No box drawing, no Latin Extended-A: a glyph costs a hundred bytes and more at these sizes.
        #expect(font.glyph(for: "\u{2500}") == nil && font.glyph(for: "Ł") == nil)
    }
}
