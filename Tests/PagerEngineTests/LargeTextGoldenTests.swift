import PagerConfig
import PagerCore
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine

/// Large text (`size = "large"`) as the glass shows it on every panel the program knows.
@Suite struct LargeTextGoldenTests {
    static let pages: [(String, ConfiguredPage)] = [
        ("large-short", ConfiguredPage(title: "Answer", body: .large("42"))),
        ("large-value", ConfiguredPage(title: "Outside", body: .large("21.5\u{B0}C"))),
        ("large-two-lines", ConfiguredPage(title: "Door", body: .large("Front door\nopen"))),
    ]

    @Test(.tags(.golden), arguments: SSD1306Panel.all)
    func largeTextFillsEveryPanel(panel: SSD1306Panel) {
        for (name, page) in Self.pages {
            let session = PanelPresenter(pages: [page, page], panel: panel)
            expectGolden(session.frame(at: .zero), named: "\(name)-\(panel.name)")
        }
    }
}

/// Which font large text takes, and what the pages give it.
@Suite struct LargeTextTests {
    static func placed(_ text: String, width: Int, height: Int) -> ConfiguredPage.LargeText {
        ConfiguredPage(title: "T", body: .large(text)).largeText(text, in: Size(width: width, height: height))
    }

    /// The name of the font large text takes.
    static func font(_ text: String, width: Int, height: Int) -> String {
        placed(text, width: width, height: height).chain.fonts[0].name
    }

    @Test func theLargestFontThatFitsInTwoLinesIsTaken() {
        // 128x64 less the indicator: three 32-pixel cells across, two 32-row lines down.
        #expect(Self.font("42", width: 120, height: 64) == "spleen32x64")
        #expect(Self.font("21.5\u{B0}C", width: 120, height: 64) == "spleen16x32")
        // "door open" is 144 pixels in 16x32: two lines of 12x24 rather than three.
        #expect(Self.font("Front door open", width: 120, height: 64) == "spleen12x24")
        #expect(Self.font("42", width: 88, height: 16) == "spleen8x16")
        #expect(Self.font("21.5\u{B0}C", width: 120, height: 32) == "spleen16x32")
        #expect(Self.font("21.5\u{B0}C", width: 56, height: 48) == "spleen8x16", "whole, not 21.5 over °C")
        #expect(Self.font("Door open", width: 56, height: 48) == "spleen12x24")
    }

    @Test func linesAreCentredAndWithinTheCanvas() {
        for (width, height) in [(120, 64), (120, 32), (88, 16), (64, 40), (56, 48), (124, 64), (120, 128)] {
            for text in ["42", "21.5\u{B0}C", "Front door\nopen", "a much longer sentence than fits any large font"] {
                let placed = Self.placed(text, width: width, height: height)
                #expect(!placed.lines.isEmpty && placed.lines.count <= max(2, height / 16))
                for line in placed.lines {
                    let lineWidth = placed.chain.width(of: line.text)
                    #expect(line.origin.x >= 0 && line.origin.x + lineWidth <= width, "\(text) at \(width)x\(height)")
                    #expect(abs((width - lineWidth) - 2 * line.origin.x) <= 1)
                    #expect(line.origin.y >= 0 && line.origin.y + placed.chain.lineHeight <= height)
                }
            }
        }
    }

    static let file = """
        [[page]]
        kind = "text"
        title = "Outside"
        text = "21.5°C"
        size = "large"

        [[page]]
        kind = "system"
        values = ["hostname"]
        size = "large"

        [[page]]
        kind = "command"
        argv = ["echo", "ok"]
        size = "large"

        [[page]]
        kind = "text"
        text = "normal"
        """

    @Test func textSystemAndCommandPagesTakeTheSize() throws {
        let configuration = try Configuration(parsing: Self.file, file: "t.toml", files: NoFiles())
        #expect(configuration.pages.map(\.size) == [.large, .large, .large, .normal])
        let book = PageBook(specs: configuration.pages)
        let pages = book.pages(clock: SampleReadings.clock)
        #expect(pages[0].body == .large("21.5°C"))
        #expect(pages[1].body == .large(""))
        #expect(pages[2].body == .large("[waiting for the first run]"))
        #expect(pages[3].body == .text("normal"))
    }

    @Test func otherKindsRefuseTheSizeAndUnknownSizesAreRefused() {
        #expect(throws: ConfigError.self) {
            _ = try Configuration(
                parsing: "[[page]]\nkind = \"clock\"\nsize = \"large\"\n", file: "t.toml", files: NoFiles())
        }
        #expect(throws: ConfigError.self) {
            _ = try Configuration(
                parsing: "[[page]]\nkind = \"text\"\ntext = \"a\"\nsize = \"huge\"\n", file: "t.toml", files: NoFiles())
        }
    }

    @Test func systemValuesAndOutputReadAsTheirText() {
        let values = ConfiguredPage.Body.values([
            ValueLine(label: "cpu", value: "48.3°C"), ValueLine(label: "load", value: "0.42"),
        ])
        #expect(values.largeText == "48.3°C\n0.42")
        #expect(ConfiguredPage.Body.output(lines: ["ok", ""], status: nil).largeText == "ok")
        #expect(ConfiguredPage.Body.output(lines: [], status: "exit status 3").largeText == "[exit status 3]")
        #expect(ConfiguredPage.Body.clock(time: "10:09", date: "").largeText == nil)
    }
}
