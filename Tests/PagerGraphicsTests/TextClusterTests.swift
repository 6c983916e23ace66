import PagerGraphics
import TestSupport
import Testing

/// Text is measured, wrapped, cut and drawn by grapheme cluster; default-ignorables draw nothing.
@Suite("Grapheme clusters and invisible characters")
struct TextClusterTests {
    /// Unicode's default-ignorables the issue found drawn as labelled boxes, and their kin.
    static let invisibles: [Unicode.Scalar] = [
        "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{00AD}", "\u{FE0E}", "\u{FE0F}", "\u{034F}",
        "\u{180E}", "\u{202E}", "\u{2066}", "\u{E0001}", "\u{E0100}", "\u{115F}", "\u{1160}",
    ]

    /// Clusters of every kind the wrapper meets: letters with marks, emoji sequences, flags,
    /// Hangul spelled in jamo, CJK, default-ignorables, spaces and words.
    static let corpus: [String] = [
        "a", "word", "longerwordthanfits", " ", "  ", "\n", "e\u{301}", "a\u{308}\u{323}", "\u{301}",
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{1F44D}\u{1F3FD}", "\u{2764}\u{FE0F}",
        "\u{1F1F0}\u{1F1F7}", "\u{1F1FA}", "\u{1100}\u{1161}\u{11A8}", "\u{1100}", "\u{1161}", "\u{11A8}",
        "\u{D55C}", "\u{AE00}", "中", "\u{200B}", "\u{2060}", "\u{FEFF}", "\u{AD}", "\u{FE0F}", "\u{200D}", ".", ",",
        "\u{915}\u{94D}\u{937}", "\r\n", "\u{1}",
    ]

    /// A font of misc-fixed 6x10 that also has glyphs for every invisible above: as Unifont
    /// has (the labelled dotted boxes), so that only the rule keeps them off the glass.
    static func fontWithInvisibleGlyphs() throws -> BitmapFont {
        var bdf = """
            STARTFONT 2.1
            FONT test
            SIZE 10 75 75
            FONTBOUNDINGBOX 6 10 0 -2
            STARTPROPERTIES 2
            FONT_DESCENT 2
            FONT_ASCENT 8
            ENDPROPERTIES
            CHARS \(invisibles.count + 2)

            """
        for scalar in ["a", "b"] + invisibles {
            bdf += """
                STARTCHAR u\(scalar.value)
                ENCODING \(scalar.value)
                SWIDTH 500 0
                DWIDTH 6 0
                BBX 6 10 0 -2
                BITMAP
                FC
                84
                84
                84
                84
                84
                84
                84
                84
                FC
                ENDCHAR

                """
        }
        bdf += "ENDFONT\n"
        return try BDFFont.decode(Array(bdf.utf8), name: "boxes")
    }

    static func drawn(_ text: String, font: BitmapFont) -> Bitmap {
        var canvas = Bitmap(width: 96, height: 24)
        canvas.drawText(text, at: Point(x: 1, y: 1), font: font)
        return canvas
    }

    static func drawn(_ text: String, chain: FontChain) -> Bitmap {
        var canvas = Bitmap(width: 96, height: 24)
        canvas.drawText(text, at: Point(x: 1, y: 1), fonts: chain)
        return canvas
    }

    @Test(arguments: invisibles)
    func anInvisibleCharacterDrawsNothingAndTakesNoWidthEvenWhereAFontHasAGlyph(_ invisible: Unicode.Scalar) throws {
        let boxes = try Self.fontWithInvisibleGlyphs()
        #expect(boxes.glyph(for: invisible) != nil)
        #expect(BitmapFont.drawsNothing(invisible))
        let with = "a" + String(Character(invisible)) + "b"
        for font in [boxes, .fixed5x8, .fixed6x10, .fixed10x20] {
            #expect(font.width(of: with) == font.width(of: "ab"))
            #expect(Self.drawn(with, font: font) == Self.drawn("ab", font: font))
        }
        let chain = FontChain(.fixed6x10, fallbacks: [boxes])
        #expect(chain.width(of: with) == chain.width(of: "ab"))
        #expect(Self.drawn(with, chain: chain) == Self.drawn("ab", chain: chain))
    }

    @Test func visibleCharactersAreNotInvisible() {
        for scalar in ["a", " ", "\u{A0}", "\u{E9}", "\u{301}", "\u{FFFD}", "\u{AC00}", "\u{1F468}"] as [Unicode.Scalar]
        {
            #expect(!BitmapFont.drawsNothing(scalar), "\(scalar.value)")
        }
    }

    @Test func anEmojiZWJSequenceNoFontHasIsDrawnAsItsPartsWithoutTheJoiners() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let parts = "\u{1F468}\u{1F469}\u{1F467}"
        let chain = FontChain(.fixed6x10)
        // Three replacement boxes, no box for either joiner.
        #expect(chain.width(of: family) == 3 * BitmapFont.fixed6x10.cellWidth)
        #expect(Self.drawn(family, chain: chain) == Self.drawn(parts, chain: chain))
        #expect(Self.drawn(family, font: .fixed6x10) == Self.drawn(parts, font: .fixed6x10))
    }

    /// A random text from the corpus, `count` pieces long.
    static func randomText(_ count: Int, using generator: inout SeededGenerator) -> String {
        (0..<count).map { _ in corpus[Int.random(in: 0..<corpus.count, using: &generator)] }.joined()
    }

    /// The clusters that are not spaces or line ends: what wrapping must keep whole and in order.
    static func inkClusters(_ text: some StringProtocol) -> [Character] {
        text.filter { $0 != " " && $0 != "\n" && $0 != "\r\n" }
    }

    @Test func wrappingNeverSplitsAGraphemeCluster() {
        var generator = SeededGenerator(seed: 34)
        let chain = FontChain(.fixed6x10, fallbacks: [.fixed10x20])
        for round in 0..<2000 {
            let text = Self.randomText(Int.random(in: 0...20, using: &generator), using: &generator)
            let width = Int.random(in: 1...80, using: &generator)
            let font = [BitmapFont.fixed5x8, .fixed6x10, .fixed10x20][round % 3]
            for lines in [font.wrap(text, width: width), chain.wrap(text, width: width)] {
                // Joined back, the lines hold the text's clusters, whole, in order: a cluster cut in
                // two would read as two other clusters (or join its neighbour across the break).
                #expect(
                    lines.flatMap { Self.inkClusters($0) } == Self.inkClusters(text),
                    "width \(width): \(Array(text.unicodeScalars)) -> \(lines)")
            }
            #expect(font.lineCount(wrapping: text, width: width) == font.wrap(text, width: width).count)
        }
    }

    @Test func anEllipsisNeverSplitsAGraphemeCluster() {
        var generator = SeededGenerator(seed: 51)
        let chain = FontChain(.fixed6x10, fallbacks: [.fixed10x20])
        for round in 0..<2000 {
            let text = Self.randomText(Int.random(in: 1...12, using: &generator), using: &generator)
            let width = Int.random(in: 0...90, using: &generator)
            let font = [BitmapFont.fixed5x8, .fixed6x10, .fixed10x20][round % 3]
            let line = String(text.prefix { $0 != "\n" && $0 != "\r\n" })
            for (fitted, ellipsis) in [
                (font.fitting(text, width: width), font.ellipsis), (chain.fitting(text, width: width), chain.ellipsis),
            ] {
                guard fitted != text else { continue }
                let kept = fitted.hasSuffix(ellipsis) ? String(fitted.dropLast(ellipsis.count)) : ""
                // What is kept is the line's first clusters, whole (trailing spaces dropped).
                #expect(Array(kept) == Array(line.prefix(kept.count)), "\(Array(text.unicodeScalars)) -> \(fitted)")
            }
            #expect(font.width(of: font.fitting(text, width: width)) <= max(width, font.width(of: text)))
        }
    }

    @Test func hangulSpelledInJamoStaysOneSyllableAtABreak() {
        // L V T jamo make one syllable: a line may break before or after it, never inside.
        let syllable = "\u{1100}\u{1161}\u{11A8}"
        let text = String(repeating: syllable, count: 4)
        let chain = FontChain(.fixed6x10, fallbacks: [.fixed10x20])
        let lines = chain.wrap(text, width: 2 * chain.width(of: syllable))
        #expect(lines.allSatisfy { $0.count > 0 && $0.unicodeScalars.count % 3 == 0 })
        #expect(lines.joined() == text)
    }

    @Test func invisibleCharactersWrapAsTheTextWithoutThem() {
        var generator = SeededGenerator(seed: 2060)
        let words = ["a", "bc", "word", "longerwordthanfits", "e\u{301}", "中"]
        for _ in 0..<1000 {
            var plain = ""
            var marked = ""
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let word = words[Int.random(in: 0..<words.count, using: &generator)]
                plain += word + " "
                // An invisible after each cluster of the word, where it joins that cluster.
                for character in word {
                    marked.append(character)
                    if Bool.random(using: &generator) {
                        marked.unicodeScalars.append(Self.invisibles[Int.random(in: 0..<4, using: &generator)])
                    }
                }
                marked += " "
            }
            let width = Int.random(in: 6...80, using: &generator)
            let font = BitmapFont.fixed6x10
            let strip = { (line: String) in
                String(String.UnicodeScalarView(line.unicodeScalars.filter { !BitmapFont.drawsNothing($0) }))
            }
            #expect(font.wrap(marked, width: width).map(strip) == font.wrap(plain, width: width))
            #expect(FontChain(font).wrap(marked, width: width).map(strip) == FontChain(font).wrap(plain, width: width))
        }
    }
}
