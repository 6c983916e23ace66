import CrownVocabulary
import PagerEngine
import PagerGraphics
import Testing

/// Pages whose lines were wrapped ahead (`preparingLines(width:)`) measure, draw and compare as
/// pages wrapped in the frame.
@Suite struct PreparedLinesTests {
    static let pages = [
        ConfiguredPage(
            title: "Notes", body: .text("CrownPager draws watch-style pages on a small OLED. Turn the crown to page.")),
        ConfiguredPage(
            title: "Long", body: .text(String(repeating: "A longer text that runs past one screen. ", count: 6))),
        ConfiguredPage(
            title: "System",
            body: .values([ValueLine(label: "cpu", value: "48.3\u{B0}C"), ValueLine(label: "load", value: "0.42")])),
        ConfiguredPage(
            title: "sensors", body: .output(lines: ["a line", "", "another"], status: "timed out after 2s")),
        ConfiguredPage(title: "Clock", body: .clock(time: "10:09", date: "Sat 21 Nov 2026")),
    ]

    static func drawn(_ page: ConfiguredPage, width: Int) -> Bitmap {
        var canvas = Bitmap(width: width, height: page.contentHeight(in: Size(width: width, height: 64)))
        page.draw(into: &canvas, at: .zero)
        return canvas
    }

    @Test func sameHeightAndPictureAtThePreparedWidthAndAnother() {
        for page in Self.pages {
            let prepared = page.preparingLines(width: 122)
            for width in [122, 90] {
                let viewport = Size(width: width, height: 64)
                #expect(prepared.contentHeight(in: viewport) == page.contentHeight(in: viewport))
                #expect(Self.drawn(prepared, width: width) == Self.drawn(page, width: width))
            }
        }
    }

    @Test func equalityAndHashIgnoreThePreparedLines() {
        for page in Self.pages {
            let prepared = page.preparingLines(width: 122)
            #expect(prepared == page)
            #expect(prepared.hashValue == page.hashValue)
        }
    }

    @Test func aNewBodyDropsTheLinesPreparedForTheOldOne() {
        var page = Self.pages[0].preparingLines(width: 122)
        page.body = .text("Short.")
        let fresh = ConfiguredPage(title: page.title, body: .text("Short."))
        #expect(Self.drawn(page, width: 122) == Self.drawn(fresh, width: 122))
        #expect(page.contentHeight(in: Size(width: 122, height: 64)) == 64)
    }
}
