import PagerConfig
import Testing

@Suite struct ControlCharacterTests {
    @Test func escapeSequencesAreShownNotObeyed() {
        let clear = "\u{1B}[2J"
        #expect(escapingControlCharacters("title " + clear + "x") == "title \\u{1B}[2Jx")
        #expect(escapingControlCharacters("a\rb\u{0}c\u{7F}d\u{9B}e") == "a\\u{0D}b\\u{00}c\\u{7F}d\\u{9B}e")
        #expect(escapingControlCharacters("bell\u{07}") == "bell\\u{07}")
    }

    @Test func tabsNewLinesAndPrintableUnicodeStay() {
        let text = "col\tumn\nnext line: café ✓ 温度 👍 \\u{1B} as typed"
        #expect(escapingControlCharacters(text) == text)
        #expect(escapingControlCharacters("") == "")
    }
}
