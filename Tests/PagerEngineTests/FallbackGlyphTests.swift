import CrownVocabulary
import Foundation
import PagerCore
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine

/// The engine asks the shell for the glyphs misc-fixed lacks, once each, and draws with those it gets.
@Suite struct FallbackGlyphTests {
    // Korean from the design texts in the seeds (Apple's page-controls guidance, translated), as
    // in the graphics goldens: the checked-in Unifont subset holds their glyphs.
    static let title = "페이지 컨트롤"
    static let body = "페이지 컨트롤은 표시기 이미지의 행을 표시하며, 각 행은 플랫 목록의 페이지를 나타냅니다."
    static let output = "워치OS에 대한 추가 고려사항은 없습니다."

    /// The Unifont subset beside the graphics goldens, as the file's bytes.
    static func subset() throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../PagerGraphicsTests/Fixtures/Unifont/subset.hex").standardized
        return Array(try Data(contentsOf: url))
    }

    /// A Korean text page and a command page whose output is Korean too, the command's first or second.
    static func configuration(commandFirst: Bool = false) -> Configuration {
        var configuration = DeviceEngineTests.configuration(pages: 1)
        let text = PageSpec(title: title, kind: .text(body))
        let command = PageSpec(
            title: "cmd",
            kind: .command(CommandSpec(argv: ["true"], refresh: .milliseconds(1000), timeout: .milliseconds(500))))
        configuration.pages = commandFirst ? [command, text] : [text, command]
        return configuration
    }

    /// The scalars of `texts` misc-fixed lacks, each once, in order, leaving out `besides`.
    static func missing(_ texts: [String], besides: Set<Unicode.Scalar> = []) -> [Unicode.Scalar] {
        var seen = besides
        var result: [Unicode.Scalar] = []
        for scalar in texts.joined().unicodeScalars
        where BitmapFont.fixed6x10.glyph(for: scalar) == nil && seen.insert(scalar).inserted {
            result.append(scalar)
        }
        return result
    }

    /// Answers glyph requests from the Unifont subset (or, without it, with nothing), recording them.
    struct GlyphSampler: PageSampler {
        var bytes: [UInt8]?
        var cache: HexGlyphCache?
        var requests: [[Unicode.Scalar]] = []

        init(bytes: [UInt8]?) throws {
            self.bytes = bytes
            cache = try bytes.map { HexGlyphCache(index: try HexFontIndex(bytes: $0)) }
        }

        func clock(at instant: Timestamp) -> ClockReading { SampleReadings.clock }

        func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput? {
            .commandFinished(page: read.page, output: FallbackGlyphTests.output, status: nil)
        }

        mutating func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont? {
            requests.append(scalars)
            guard let bytes, var cache else { return nil }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            let grew = cache.cover(String(text), from: HexBytes(bytes))
            self.cache = cache
            return grew ? cache.font : nil
        }
    }

    /// Runs the configuration for three seconds (the command page read three times) on the sampler.
    static func run(_ sampler: inout GlyphSampler, commandFirst: Bool = false) -> VirtualShell {
        let configuration = configuration(commandFirst: commandFirst)
        var shell = VirtualShell(
            engine: DeviceEngine(
                configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero),
            panel: configuration.display.panel, address: configuration.display.address)
        shell.feed(.start, at: .zero, sampler: &sampler)
        shell.run(events: [], from: .zero, until: .milliseconds(3000), sampler: &sampler)
        return shell
    }

    /// Whether `glass` has a replacement box `width` by `height`: an outline with nothing inside.
    static func hasReplacementBox(_ glass: Bitmap, width: Int, height: Int) -> Bool {
        for top in 0...(glass.height - height) {
            for left in 0...(glass.width - width) {
                var box = true
                for y in 0..<height where box {
                    for x in 0..<width {
                        let edge = x == 0 || y == 0 || x == width - 1 || y == height - 1
                        if glass[left + x, top + y] != edge {
                            box = false
                            break
                        }
                    }
                }
                if box { return true }
            }
        }
        return false
    }

    @Test(.tags(.golden)) func theEngineAsksForEachMissingScalarOnceAndDrawsWithTheGlyphs() throws {
        var sampler = try GlyphSampler(bytes: try Self.subset())
        let shell = Self.run(&sampler)
        let first = Self.missing([Self.title, Self.body])
        #expect(first.count == 27)
        // The pages at start, then the command's output: only what is new, never again.
        #expect(sampler.requests == [first, Self.missing([Self.output], besides: Set(first))])
        let glyphs = try #require(shell.engine.glyphs)
        for scalar in Self.missing([Self.title, Self.body, Self.output]) { #expect(glyphs.glyph(for: scalar) != nil) }
        #expect(shell.engine.presenter.pager.pages.allSatisfy { $0.drawsWithFallbackGlyphs })
        #expect(!Self.hasReplacementBox(shell.glass, width: 5, height: 15))
        #expect(!Self.hasReplacementBox(shell.glass, width: 5, height: 9))
        expectGolden(shell.glass, named: "fallback-glyphs-korean-128x64")
    }

    @Test(.tags(.golden)) func theCommandPageDrawsItsKoreanOutput() throws {
        var sampler = try GlyphSampler(bytes: try Self.subset())
        let shell = Self.run(&sampler, commandFirst: true)
        #expect(!Self.hasReplacementBox(shell.glass, width: 5, height: 15))
        expectGolden(shell.glass, named: "fallback-glyphs-korean-output-128x64")
    }

    @Test func scalarsTheShellCannotFindStayBoxesAndAreNotAskedAgain() throws {
        var sampler = try GlyphSampler(bytes: nil)
        let shell = Self.run(&sampler)
        let first = Self.missing([Self.title, Self.body])
        #expect(sampler.requests == [first, Self.missing([Self.output], besides: Set(first))])
        #expect(shell.engine.glyphs == nil)
        #expect(Self.hasReplacementBox(shell.glass, width: 5, height: 9))
        #expect(!Self.hasReplacementBox(shell.glass, width: 5, height: 15))
    }

    @Test func glyphsChangeNothingForTextMiscFixedHas() throws {
        let bytes = try Self.subset()
        var cache = HexGlyphCache(index: try HexFontIndex(bytes: bytes))
        cache.cover(Self.body, from: HexBytes(bytes))
        let pages = [
            ConfiguredPage(title: "System", body: .values([ValueLine(label: "cpu", value: "48.3\u{B0}C")])),
            ConfiguredPage(title: "Notes", body: .text("Turn the crown to scroll; a long text wraps.")),
            ConfiguredPage(title: "sensors", body: .output(lines: ["partial"], status: "timed out")),
        ]
        for page in pages {
            var with = page
            with.fallbackGlyphs = cache.font
            #expect(!with.drawsWithFallbackGlyphs)
            var plain = Bitmap(width: 120, height: 64)
            var drawn = Bitmap(width: 120, height: 64)
            page.preparingLines(width: 120).draw(into: &plain, at: .zero)
            with.preparingLines(width: 120).draw(into: &drawn, at: .zero)
            #expect(plain == drawn)
            #expect(with == page)
        }
    }
}
