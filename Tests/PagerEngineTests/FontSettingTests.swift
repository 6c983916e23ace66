import CrownVocabulary
import Foundation
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

/// `font = "..."` settings, and Korean in clock dates, gauges and the title list, drawn by the
/// engine through the chain: the page's font, misc-fixed 6x10, Unifont's glyphs, a box.
@Suite struct FontSettingTests {
    /// The fixtures beside the graphics goldens.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PagerGraphicsTests/Fixtures").standardized.path

    /// `text` parsed as a configuration on `panel` whose relative paths are the fixtures'.
    static func configuration(_ text: String, panel: String) throws -> Configuration {
        try Configuration(
            parsing: "[display]\npanel = \"\(panel)\"\n" + text, file: "test.toml", directory: fixtures,
            files: LocalFiles())
    }

    /// The glass after running `configuration` for two seconds, glyphs from the Unifont subset,
    /// the crown held down from `pressAt` on when given (a long press opens the title list).
    static func glass(_ configuration: Configuration, pressAt: Timestamp? = nil) throws -> Bitmap {
        var sampler = try FallbackGlyphTests.GlyphSampler(bytes: try FallbackGlyphTests.subset())
        var shell = VirtualShell(
            engine: DeviceEngine(
                configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero),
            panel: configuration.display.panel, address: configuration.display.address)
        shell.feed(.start, at: .zero, sampler: &sampler)
        shell.run(
            events: pressAt.map { [.pressed(at: $0)] } ?? [], from: .zero, until: .milliseconds(2000), sampler: &sampler
        )
        return shell.glass
    }

    static let panels = ["128x64", "128x32"]

    /// Files read from disk, as the shell reads them.
    struct LocalFiles: FileReading {
        func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw FileReadError("could not open \(path)")
            }
            return Array(data.prefix(maximumBytes))
        }
    }

    /// A text page in the fixture's 5x8 font (printable ASCII only): the degree sign and the
    /// Cyrillic fall back to misc-fixed 6x10, the Hangul to Unifont.
    @Test(.tags(.golden), arguments: panels)
    func aPageInAConfiguredBDFFont(panel: String) throws {
        let configuration = try Self.configuration(
            """
            [[page]]
            kind = "text"
            title = "BDF 5x8 font"
            font = "BDF/5x8-ascii.bdf"
            text = "Small type: 21\u{B0}C, Привет, 페이지 and more words to wrap."
            """, panel: panel)
        let font = try #require(configuration.pages.first?.font)
        #expect(font.name == Self.fixtures + "/BDF/5x8-ascii.bdf")
        #expect(font.font.glyph(for: "A") != nil && font.font.glyph(for: "\u{B0}") == nil)
        expectGolden(try Self.glass(configuration), named: "font-bdf-page-\(panel)")
    }

    /// `display.font` is every page's unless a page names its own.
    @Test func theDisplayFontIsEveryPagesUnlessItsOwn() throws {
        let configuration = try Self.configuration(
            """
            font = "fixed5x8"
            [[page]]
            kind = "text"
            text = "a"
            [[page]]
            kind = "text"
            text = "b"
            font = "fixed10x20"
            """, panel: "128x64")
        #expect(configuration.display.font?.name == "fixed5x8")
        #expect(configuration.pages.map { $0.font?.name } == ["fixed5x8", "fixed10x20"])
    }

    /// A clock whose date has Korean words: the engine asks for their glyphs and draws them.
    @Test(.tags(.golden), arguments: panels)
    func aClockWithAKoreanDate(panel: String) throws {
        let configuration = try Self.configuration(
            """
            [[page]]
            kind = "clock"
            title = "시계"
            time = "%H:%M"
            date = "%Y년 %m월 %d일"
            """, panel: panel)
        let glass = try Self.glass(configuration)
        #expect(!FallbackGlyphTests.hasReplacementBox(glass, width: 5, height: 9))
        expectGolden(glass, named: "font-korean-date-\(panel)")
    }

    /// The title list (a long press) with Korean titles and a gauge with a Korean unit.
    @Test(.tags(.golden), arguments: panels)
    func theTitleListWithKoreanTitles(panel: String) throws {
        let configuration = try Self.configuration(
            """
            [[page]]
            kind = "text"
            title = "페이지 컨트롤"
            text = "x"
            [[page]]
            kind = "clock"
            title = "시계"
            [[page]]
            kind = "gauge"
            title = "온도"
            source = "cpu-temperature"
            unit = "도"
            """, panel: panel)
        let glass = try Self.glass(configuration, pressAt: .milliseconds(100))
        #expect(!FallbackGlyphTests.hasReplacementBox(glass, width: 5, height: 9))
        expectGolden(glass, named: "font-korean-title-list-\(panel)")
    }
}
