import PagerGraphics
import TestSupport
import Testing

/// The pixel-by-pixel drawing the byte- and word-wise code replaced, kept here as the reference.
enum PixelReference {
    /// Each lit source pixel gets `ink`; with `opaque`, each dark one goes dark.
    static func blit(_ source: Bitmap, at origin: Point, ink: Ink, opaque: Bool, into bitmap: inout Bitmap) {
        for y in 0..<source.height {
            for x in 0..<source.width {
                if source[x, y] {
                    bitmap.plot(x: origin.x + x, y: origin.y + y, ink: ink)
                } else if opaque {
                    bitmap.plot(x: origin.x + x, y: origin.y + y, ink: .off)
                }
            }
        }
    }

    /// Every pixel of `rect` gets `ink`.
    static func fill(_ rect: Rect, ink: Ink, into bitmap: inout Bitmap) {
        guard !rect.isEmpty else { return }
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX { bitmap.plot(x: x, y: y, ink: ink) }
        }
    }

    /// The glyph's inked pixels, read one at a time, get `ink`.
    static func glyph(
        _ glyph: BitmapFont.Glyph, at origin: Point, font: BitmapFont, ink: Ink, into bitmap: inout Bitmap
    ) {
        let box = glyph.boundingBox
        for y in 0..<box.height {
            for x in 0..<box.width where font.isInked(glyph, x: x, y: y) {
                bitmap.plot(x: origin.x + box.x + x, y: origin.y + box.y + y, ink: ink)
            }
        }
    }
}

/// Random drawing state for one trial: a destination, a clip that may reach past every edge, an ink.
struct Trial {
    var destination: Bitmap
    var ink: Ink
    var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
        // Widths around the 8-column word and heights around the 8-row page.
        let width = Int.random(in: 1...40, using: &generator)
        let height = Int.random(in: 1...30, using: &generator)
        destination = randomBitmap(width: width, height: height, using: &generator)
        if Bool.random(using: &generator) {
            destination.clip = Rect(
                x: Int.random(in: -4...width, using: &generator), y: Int.random(in: -4...height, using: &generator),
                width: Int.random(in: 0...(width + 8), using: &generator),
                height: Int.random(in: 0...(height + 8), using: &generator))
        }
        ink = [Ink.on, .off, .inverted][Int.random(in: 0...2, using: &generator)]
    }

    /// A point from well outside the top-left to well outside the bottom-right of the destination.
    mutating func origin(margin: Int) -> Point {
        Point(
            x: Int.random(in: (-margin - 3)...(destination.width + 3), using: &generator),
            y: Int.random(in: (-margin - 3)...(destination.height + 3), using: &generator))
    }
}

@Suite("Byte-wise drawing equals the pixel-by-pixel reference")
struct ByteWiseDrawingTests {
    @Test("blit, transparent and opaque, with every ink, at any offset, clipped at every edge")
    func blitMatchesReference() {
        for seed in UInt64(0)..<3000 {
            var trial = Trial(seed: seed)
            let source = randomBitmap(
                width: Int.random(in: 0...36, using: &trial.generator),
                height: Int.random(in: 0...27, using: &trial.generator), using: &trial.generator)
            let origin = trial.origin(margin: max(source.width, source.height))
            let opaque = Bool.random(using: &trial.generator)
            var expected = trial.destination
            PixelReference.blit(source, at: origin, ink: trial.ink, opaque: opaque, into: &expected)
            var actual = trial.destination
            actual.blit(source, at: origin, ink: trial.ink, opaque: opaque)
            #expect(
                actual.bytes == expected.bytes,
                "seed \(seed): \(source.size) at \(origin), ink \(trial.ink), opaque \(opaque), clip \(trial.destination.clip)"
            )
            if actual.bytes != expected.bytes { return }
        }
    }

    @Test("fillRect with every ink, any rectangle, clipped at every edge")
    func fillMatchesReference() {
        for seed in UInt64(0)..<3000 {
            var trial = Trial(seed: seed)
            let origin = trial.origin(margin: 20)
            let rect = Rect(
                origin: origin,
                size: Size(
                    width: Int.random(in: -2...45, using: &trial.generator),
                    height: Int.random(in: -2...35, using: &trial.generator)))
            var expected = trial.destination
            PixelReference.fill(rect, ink: trial.ink, into: &expected)
            var actual = trial.destination
            actual.fillRect(rect, ink: trial.ink)
            #expect(actual.bytes == expected.bytes, "seed \(seed): \(rect), ink \(trial.ink), clip \(actual.clip)")
            if actual.bytes != expected.bytes { return }
        }
    }

    @Test("a glyph drawn as a blit of its columns equals its pixels plotted one by one")
    func glyphMatchesReference() throws {
        let fonts: [BitmapFont] = [.fixed5x8, .fixed6x10, .fixed10x20]
        for seed in UInt64(0)..<3000 {
            var trial = Trial(seed: seed)
            let font = fonts[Int(seed % 3)]
            let scalars = font.scalars
            let glyph = try #require(
                font.glyph(for: scalars[Int.random(in: 0..<scalars.count, using: &trial.generator)]))
            let origin = trial.origin(margin: 20)
            var expected = trial.destination
            PixelReference.glyph(glyph, at: origin, font: font, ink: trial.ink, into: &expected)
            var actual = trial.destination
            actual.drawGlyph(glyph, at: origin, font: font, ink: trial.ink)
            #expect(actual.bytes == expected.bytes, "seed \(seed): \(glyph.scalar) at \(origin), ink \(trial.ink)")
            if actual.bytes != expected.bytes { return }
        }
    }

    @Test("a crop equals reading each pixel, also past the edges")
    func cropMatchesReference() {
        for seed in UInt64(0)..<500 {
            var trial = Trial(seed: seed)
            let corner = trial.origin(margin: 10)
            let rect = Rect(
                origin: corner,
                size: Size(
                    width: Int.random(in: 0...30, using: &trial.generator),
                    height: Int.random(in: 0...30, using: &trial.generator)))
            var expected = Bitmap(width: rect.width, height: rect.height)
            for y in 0..<rect.height {
                for x in 0..<rect.width where trial.destination[rect.x + x, rect.y + y] { expected[x, y] = true }
            }
            #expect(trial.destination.cropped(to: rect) == expected, "seed \(seed): \(rect)")
        }
    }

    @Test("appending a page's bytes equals reading them one by one, 0 outside the bitmap")
    func appendPageBytesMatchesPageByte() {
        var generator = SeededGenerator(seed: 11)
        let bitmap = randomBitmap(width: 21, height: 19, using: &generator)
        for _ in 0..<500 {
            let page = Int.random(in: -1...3, using: &generator)
            let start = Int.random(in: -10...30, using: &generator)
            let columns = start..<(start + Int.random(in: 0...30, using: &generator))
            var data: [UInt8] = [0x40]
            bitmap.appendPageBytes(page, columns: columns, to: &data)
            #expect(
                data == [0x40] + columns.map { bitmap.pageByte(page: page, column: $0) }, "page \(page), \(columns)")
        }
    }

    @Test("padding rows past the height stay dark whatever is drawn")
    func paddingStaysDark() {
        var bitmap = Bitmap(width: 13, height: 11)
        var full = Bitmap(width: 20, height: 20)
        full.fill(true)
        bitmap.blit(full, at: Point(x: -3, y: -2))
        bitmap.fillRect(Rect(x: -5, y: 5, width: 30, height: 30), ink: .inverted)
        bitmap.fillRect(Rect(x: 0, y: 0, width: 30, height: 30))
        // Page 1 holds rows 8 to 10: bits 3 to 7 of its bytes are padding.
        #expect(bitmap.pageBytes(1).allSatisfy { $0 == 0b0000_0111 })
        #expect(bitmap.litPixelCount == 13 * 11)
    }
}

/// The word wrap the one-pass wrapper replaced, kept as the reference, by grapheme cluster
/// (`Character`): a space with a mark on it is a letter, not a break.
func referenceWrap(_ text: String, width: Int, font: BitmapFont) -> [String] {
    func advance(_ character: Character) -> Int { character.unicodeScalars.reduce(0) { $0 + font.advance(of: $1) } }
    var lines: [String] = []
    for paragraph in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
        var line = ""
        var lineWidth = 0
        for word in paragraph.split(separator: " ") {
            let wordWidth = word.reduce(0) { $0 + advance($1) }
            let spaceWidth = font.advance(of: " ")
            if !line.isEmpty, lineWidth + spaceWidth + wordWidth <= width {
                line.append(" ")
                line.append(contentsOf: word)
                lineWidth += spaceWidth + wordWidth
                continue
            }
            if !line.isEmpty {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            for character in word {
                let characterWidth = advance(character)
                if !line.isEmpty, characterWidth > 0, lineWidth + characterWidth > width {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                line.append(character)
                lineWidth += characterWidth
            }
        }
        lines.append(line)
    }
    return lines
}

@Suite("One-pass word wrap")
struct OnePassWrapTests {
    @Test(
        "wraps and counts random text as the reference: spaces, newlines, long words, marks, controls, missing glyphs")
    func wrapMatchesReference() {
        let pieces = [
            "a", "bc", "W", "word", "longerwordthanfits", " ", "  ", "\n", "\r\n", "\u{301}", "\u{1}", "é", "中", "→",
            "\u{200B}", "\u{200D}", "\u{1F468}", "\u{1100}", "\u{1161}", "\u{FE0F}",
        ]
        let fonts: [BitmapFont] = [.fixed5x8, .fixed6x10, .fixed10x20]
        var generator = SeededGenerator(seed: 7)
        for round in 0..<3000 {
            let text = (0..<Int.random(in: 0...24, using: &generator))
                .map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
            let width = Int.random(in: -2...70, using: &generator)
            let font = fonts[round % fonts.count]
            let expected = referenceWrap(text, width: width, font: font)
            #expect(
                font.wrap(text, width: width) == expected, "\(font.name), width \(width): \(Array(text.unicodeScalars))"
            )
            #expect(font.lineCount(wrapping: text, width: width) == expected.count)
        }
    }
}
