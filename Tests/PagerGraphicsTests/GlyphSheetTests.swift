import PagerGraphics
import TestSupport
import Testing

/// The fonts under test, with the golden each one's sheet is compared against.
let allFonts: [BitmapFont] = [.fixed5x8, .fixed6x10, .fixed10x20]

/// The ranges bdf2swift.py keeps, sampled one row each on the glyph sheet.
let sampledRanges: [ClosedRange<UInt32>] = [
    0x00A0...0x00FF, 0x0100...0x017F, 0x0370...0x03FF, 0x0400...0x04FF, 0x2000...0x206F,
    0x20A0...0x20CF, 0x2100...0x214F, 0x2190...0x21FF, 0x2200...0x22FF, 0x2500...0x257F,
    0x2580...0x259F, 0x25A0...0x25FF, 0x2600...0x26FF, 0x2700...0x27BF,
]

/// Sixteen glyphs a row: ASCII in full, then up to sixteen glyphs spread evenly over each range,
/// then combining marks on vowels, U+FFFD and a character no font has (a replacement box).
func glyphSheet(_ font: BitmapFont) -> Bitmap {
    let columns = 16
    var rows: [String] = []
    let ascii = (0x20...0x7E).compactMap { Unicode.Scalar(UInt32($0)) }
    for start in stride(from: 0, to: ascii.count, by: columns) {
        rows.append(String(String.UnicodeScalarView(ascii[start..<min(start + columns, ascii.count)])))
    }
    let present = font.scalars
    for range in sampledRanges {
        let inRange = present.filter { range.contains($0.value) }
        guard !inRange.isEmpty else { continue }
        let count = min(columns, inRange.count)
        let picked = (0..<count).map { inRange[$0 * inRange.count / count] }
        rows.append(String(String.UnicodeScalarView(picked)))
    }
    rows.append("a\u{300}e\u{301}o\u{302}n\u{303}u\u{308}c\u{327} \u{FFFD}\u{4E2D}|")
    let margin = 2
    var sheet = Bitmap(width: columns * font.cellWidth + 2 * margin, height: rows.count * font.lineHeight + 2 * margin)
    for (index, row) in rows.enumerated() {
        sheet.drawText(row, at: Point(x: margin, y: margin + index * font.lineHeight), font: font)
    }
    return sheet
}

@Suite("Glyph sheets")
struct GlyphSheetTests {
    @Test("each font's glyph sheet matches its golden", .tags(.golden), arguments: allFonts.map(\.name))
    func sheet(name: String) throws {
        let font = try #require(allFonts.first { $0.name == name })
        expectGolden(glyphSheet(font), named: "glyphs-\(font.name)")
    }
}
