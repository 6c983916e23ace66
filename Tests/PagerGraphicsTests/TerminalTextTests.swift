import PagerGraphics
import TestSupport
import Testing

/// Command and file output read as a terminal shows it.
@Suite("Terminal text")
struct TerminalTextTests {
    @Test(arguments: [
        ("\u{1B}[1;32mOK\u{1B}[0m web\n", "OK web\n"),
        ("sync 10%\rsync 100%\n", "sync 100%\n"),
        ("a\tb", "a       b"),
        ("12345678\tx", "12345678        x"),
        ("abc\u{8}d", "abd"),
        ("ab\u{8}\u{8}\u{8}\u{8}X", "Xb"),
        ("long line\rshort", "shortline"),
        ("50%\r\u{1B}[K100%", "100%"),
        ("abcdef\u{1B}[3D\u{1B}[1K", "    ef"),
        ("abc\u{1B}[2Kx", "   x"),
        ("\u{1B}]0;window title\u{7}text", "text"),
        ("\u{1B}]8;;https://example.com\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
        ("\u{1B}P1$r0m\u{1B}\\after", "after"),
        ("\u{1B}(Bplain\u{1B}=", "plain"),
        ("\u{9B}31mred\u{9B}0m", "red"),
        ("\u{1B}[31\u{18}mx", "mx"),
        ("a\u{7}b\u{0}c\u{7F}", "abc"),
        ("x\u{1B}[5Gy", "x   y"),
        ("one\r\ntwo\r\n", "one\ntwo\n"),
        ("e\u{301}\rE", "E"),
        ("a\u{C}b\u{B}c\u{85}d", "a\nb\nc\nd"),
        ("\u{200B}zero", "\u{200B}zero"),
        ("tab\u{200B}\tx", "tab\u{200B}     x"),
    ])
    func readsAsATerminalShows(_ input: String, _ shown: String) {
        #expect(TerminalText.read(input) == shown)
        #expect(TerminalText.read(Array(input.utf8)) == shown)
    }

    @Test func invalidUTF8ReadsAsReplacementCharacters() {
        #expect(TerminalText.read([0x61, 0xFF, 0x62]) == "a\u{FFFD}b")
        #expect(TerminalText.read([0x61, 0xE2, 0x82]) == "a\u{FFFD}")
        #expect(TerminalText.read([0xC0, 0xAF, 0x41]) == "\u{FFFD}\u{FFFD}A")
        #expect(TerminalText.read([0xED, 0xA0, 0x80]) == "\u{FFFD}\u{FFFD}\u{FFFD}")
    }

    @Test func aCursorMoveFarOffCostsALineNotGigabytes() {
        let shown = TerminalText.read("\u{1B}[999999999Cx\u{1B}[99999999999999G")
        #expect(shown == String(repeating: " ", count: TerminalText.maximumColumn) + "x")
    }

    static let pieces: [String] = [
        "a", "word", " ", "\n", "\r", "\t", "\u{8}", "\u{1B}[", "\u{1B}]", "\u{7}", "\u{1B}\\", "31m", "0;", "K", "2",
        "e\u{301}", "\u{301}", "\u{1F468}\u{200D}\u{1F469}", "\u{200D}", "\u{200B}", "\u{1F1F0}\u{1F1F7}", "\u{1100}",
        "\u{1161}", "中", "\u{9B}", "\u{1B}", "\u{18}", "\u{FFFD}",
    ]

    static func random(_ generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...30, using: &generator)).map { _ in
            pieces[Int.random(in: 0..<pieces.count, using: &generator)]
        }.joined()
    }

    @Test func readingTwiceChangesNothingMore() {
        var generator = SeededGenerator(seed: 8)
        for _ in 0..<3000 {
            let once = TerminalText.read(Self.random(&generator))
            #expect(TerminalText.read(once) == once, "\(Array(once.unicodeScalars))")
            // What is shown holds no controls but line ends.
            #expect(!once.unicodeScalars.contains { $0 != "\n" && BitmapFont.isControl($0) })
        }
    }

    @Test func textWithoutControlsComesBackAsItIs() {
        var generator = SeededGenerator(seed: 9)
        for _ in 0..<3000 {
            let text = Self.random(&generator).filter { !$0.unicodeScalars.contains(where: BitmapFont.isControl) }
            #expect(TerminalText.read(text) == text)
            #expect(TerminalText.read(Array(text.utf8)) == text)
        }
    }

    @Test func bytesFedInPiecesReadAsFedWhole() {
        var generator = SeededGenerator(seed: 10)
        for _ in 0..<2000 {
            var bytes = Array(Self.random(&generator).utf8)
            if Bool.random(using: &generator), !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                    in: 0x80...0xFF, using: &generator)
            }
            var reader = TerminalText()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...5, using: &generator))
                reader.feed(bytes[start..<end])
                start = end
            }
            #expect(reader.text == TerminalText.read(bytes), "\(bytes)")
        }
    }
}
