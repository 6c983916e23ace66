import PagerGraphics
import TestSupport
import Testing

@Suite("Text")
struct TextTests {
    let font = BitmapFont.fixed6x10

    @Test("drawText puts the line box's top-left at the origin and returns the advance")
    func origin() {
        var bitmap = Bitmap(width: 20, height: 12)
        let advance = bitmap.drawText("I", at: Point(x: 1, y: 1), font: font)
        #expect(advance == 6)
        // 6x10 "I" is three columns wide, 7 rows tall, its top one row below the line box's top.
        #expect(
            bitmap.cropped(to: Rect(x: 0, y: 0, width: 8, height: 11))
                == Bitmap(rows: [
                    "........",
                    "........",
                    "..###...",
                    "...#....",
                    "...#....",
                    "...#....",
                    "...#....",
                    "...#....",
                    "..###...",
                    "........",
                    "........",
                ]))
        #expect(bitmap.litPixelCount == 11)
    }

    @Test("width(of:) equals the advance drawText returns, for every font")
    func widthMatchesDrawing() {
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("Hello, wörld! Ωμέγα Привет → █ ░ 中\u{301}\t\u{7}".unicodeScalars)
        for font in allFonts {
            for _ in 0..<200 {
                let length = Int.random(in: 0...20, using: &generator)
                let text = String(
                    String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "x" })
                )
                var bitmap = Bitmap(width: 64, height: 32)
                #expect(bitmap.drawText(text, at: Point(x: 3, y: 2), font: font) == font.width(of: text))
            }
        }
    }

    @Test("a character the font lacks draws a hollow box one pixel smaller than the cell")
    func replacementBox() {
        var bitmap = Bitmap(width: 8, height: 10)
        let advance = bitmap.drawText("\u{4E2D}", at: Point(x: 1, y: 0), font: .fixed5x8)
        #expect(advance == 5)
        #expect(
            bitmap
                == Bitmap(rows: [
                    ".####...",
                    ".#..#...",
                    ".#..#...",
                    ".#..#...",
                    ".#..#...",
                    ".#..#...",
                    ".####...",
                    "........",
                    "........",
                    "........",
                ]))
    }

    @Test("control characters draw nothing and take no room; newline starts a line")
    func controls() {
        var plain = Bitmap(width: 40, height: 24)
        plain.drawText("ab", at: Point(x: 2, y: 1), font: font)
        var withControls = Bitmap(width: 40, height: 24)
        let advance = withControls.drawText("\u{0}a\t\u{7}\u{1B}\u{7F}\u{85}b\r", at: Point(x: 2, y: 1), font: font)
        #expect(withControls == plain)
        #expect(advance == 12)

        var lines = Bitmap(width: 40, height: 24)
        #expect(lines.drawText("ab\nc", at: Point(x: 2, y: 1), font: font) == 12)
        var expected = Bitmap(width: 40, height: 24)
        expected.drawText("ab", at: Point(x: 2, y: 1), font: font)
        expected.drawText("c", at: Point(x: 2, y: 11), font: font)
        #expect(lines == expected)
        #expect(font.width(of: "a\nbcd\n") == 18)
    }

    @Test("a combining mark lands on the character before it and takes no room")
    func combining() {
        #expect(font.width(of: "e\u{301}") == 6)
        var composed = Bitmap(width: 12, height: 10)
        composed.drawText("e\u{301}", at: .zero, font: font)
        var precomposed = Bitmap(width: 12, height: 10)
        precomposed.drawText("é", at: .zero, font: font)
        #expect(composed == precomposed)
    }

    @Test("wrap breaks at spaces, cuts long words and honours newlines")
    func wrap() {
        // 6x10: 6 pixels a character, so 30 pixels hold 5.
        #expect(font.wrap("the quick brown fox", width: 30) == ["the", "quick", "brown", "fox"])
        #expect(font.wrap("a bc def", width: 30) == ["a bc", "def"])
        #expect(font.wrap("abcdefghijkl", width: 30) == ["abcde", "fghij", "kl"])
        #expect(font.wrap("hi abcdefgh", width: 30) == ["hi", "abcde", "fgh"])
        #expect(font.wrap("one\n\ntwo  three", width: 60) == ["one", "", "two three"])
        #expect(font.wrap("", width: 30) == [""])
        #expect(font.wrap("ab", width: 0) == ["a", "b"])
        #expect(font.wrap("e\u{301}e\u{301}", width: 6) == ["e\u{301}", "e\u{301}"])
    }

    @Test("wrapped lines fit the width and keep every word in order")
    func wrapProperty() {
        var generator = SeededGenerator(seed: 42)
        let letters = Array("abcdefghijklmnopqrstuvwxyzäöüßΩЖ→".unicodeScalars)
        for _ in 0..<300 {
            let words = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                String(
                    String.UnicodeScalarView(
                        (0..<Int.random(in: 1...14, using: &generator)).map { _ in
                            letters.randomElement(using: &generator) ?? "a"
                        }))
            }
            let width = Int.random(in: 6...128, using: &generator)
            for font in allFonts {
                let lines = font.wrap(words.joined(separator: " "), width: width)
                for line in lines where line.unicodeScalars.count > 1 {
                    #expect(font.width(of: line) <= width, "\(line) wider than \(width)")
                }
                #expect(lines.joined().filter { $0 != " " } == words.joined())
                #expect(!lines.contains(""))
            }
        }
    }

    @Test("drawText(in:) sets lines leading, centred and trailing", .tags(.golden))
    func alignedInRect() {
        var bitmap = Bitmap(width: 128, height: 64)
        let rect = Rect(x: 4, y: 2, width: 120, height: 60)
        bitmap.strokeRect(rect.insetBy(-2))
        bitmap.drawText("Leading", in: Rect(x: 4, y: 2, width: 120, height: 10), font: font, alignment: .leading)
        bitmap.drawText("Centre", in: Rect(x: 4, y: 12, width: 120, height: 10), font: font, alignment: .center)
        bitmap.drawText("Trailing", in: Rect(x: 4, y: 22, width: 120, height: 10), font: font, alignment: .trailing)
        let lines = bitmap.drawText(
            "12:45", in: Rect(x: 4, y: 34, width: 120, height: 20), font: .fixed10x20, alignment: .center)
        #expect(lines == 1)
        bitmap.drawText("tiny 5x8 text, wrapped to fit", in: Rect(x: 4, y: 54, width: 120, height: 8), font: .fixed5x8)
        expectGolden(bitmap, named: "text-alignment")
    }

    @Test("drawText(in:) clips to the rectangle and counts the lines that fit")
    func clippedToRect() {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<100 {
            let rect = Rect(
                x: Int.random(in: -10...60, using: &generator), y: Int.random(in: -10...30, using: &generator),
                width: Int.random(in: 0...70, using: &generator), height: Int.random(in: 0...40, using: &generator))
            var bitmap = Bitmap(width: 64, height: 32)
            let lines = bitmap.drawText(
                "Pack my box with five dozen liquor jugs", in: rect, font: font, alignment: .center)
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width where bitmap[x, y] {
                    #expect(rect.contains(Point(x: x, y: y)))
                }
            }
            #expect(
                lines
                    == min(
                        rect.height / font.lineHeight,
                        font.wrap("Pack my box with five dozen liquor jugs", width: rect.width).count))
            #expect(bitmap.clip == bitmap.bounds, "drawText(in:) restores the clip")
        }
    }

    @Test("inverted text drawn twice restores the bitmap")
    func invertedTwice() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<50 {
            var bitmap = randomBitmap(width: 64, height: 30, using: &generator)
            let original = bitmap
            let origin = Point(
                x: Int.random(in: -20...60, using: &generator), y: Int.random(in: -20...30, using: &generator))
            bitmap.drawText("Ab\u{4E2D}é→█", at: origin, font: .fixed6x10, ink: .inverted)
            bitmap.drawText("Ab\u{4E2D}é→█", at: origin, font: .fixed6x10, ink: .inverted)
            #expect(bitmap == original)
        }
    }
}
