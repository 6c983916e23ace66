import Foundation
import PagerConfig
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import Testing

@testable import PagerWeb

/// GNU Unifont handed to the browser page's pager as the module takes it (in parts, after the
/// first frame): characters the built-in fonts lack draw from it as `render` draws them.
@Suite struct WebUnifontTests {
    /// A file beside the tests, as bytes (empty when missing: the tests then fail on it).
    static func fixture(_ path: String) -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(path)
        return FileManager.default.contents(atPath: url.standardized.path).map { [UInt8]($0) } ?? []
    }

    /// The Unifont subset checked in for the graphics goldens (51 Hangul glyphs of Debian's file).
    static let subsetBytes = fixture("../PagerGraphicsTests/Fixtures/Unifont/subset.hex")

    /// The wasm tests' pages in Hangul, CJK, Cyrillic and symbols: the first page's Hangul is in
    /// the subset, the rest draw as boxes with it, in `render` as on the page.
    static let korean = String(decoding: fixture("Fixtures/unicode.toml"), as: UTF8.self)

    /// Hands `bytes` to `pager` in parts of `part` bytes, as the page does; the glyph count.
    static func hand(_ bytes: [UInt8], to pager: inout WebPager, inPartsOf part: Int = 100) throws(WebFileError)
        -> Int
    {
        try pager.beginUnifont(byteCount: bytes.count)
        for start in stride(from: 0, to: bytes.count, by: part) {
            try add(bytes[start..<min(bytes.count, start + part)], to: &pager)
        }
        return try pager.finishUnifont()
    }

    /// Hands `part` to `pager` as the next part of the font. (The error goes out of the closure
    /// as a value: Swift 6.0's `withUnsafeBufferPointer` rethrows, untyped.)
    static func add(_ part: ArraySlice<UInt8>, to pager: inout WebPager) throws(WebFileError) {
        let refused: WebFileError? = part.withUnsafeBufferPointer { buffer in
            do throws(WebFileError) {
                try pager.addUnifont(buffer)
                return nil
            } catch {
                return error
            }
        }
        if let refused { throw refused }
    }

    /// `render --frozen`'s frames of `script` on `text`, with the subset as Unifont.
    static func rendered(_ text: String, panel: SSD1306Panel? = nil, _ script: String) throws -> [Bitmap] {
        var pager = WebPager()
        _ = pager.load(text)
        pager.choose(panel: panel)
        let configuration = pager.running
        let index = try HexFontIndex(bytes: subsetBytes)
        var sampler = UnicodePageSampler(
            SamplePageSampler(), fonts: UnifontGlyphs(index: index, reader: HexBytes(subsetBytes)))
        return HeadlessRender(configuration: configuration, style: PageIndicatorStyle()).run(
            try CrownScript(parsing: script), sampler: &sampler
        )
        .frames.filter { !$0.name.contains("-frame-") }.map(\.glass)
    }

    @Test func theFontCameAfterTheFirstFrameRedrawsTheBoxesAsRenderDrawsThem() throws {
        try #require(Self.subsetBytes.count > 0 && Self.korean.count > 0, "a fixture is missing")
        var pager = WebPager()
        #expect(pager.load(Self.korean) == .good(pager.configuration.summary))
        pager.advance(by: .milliseconds(100))
        let boxes = pager.glass
        #expect(pager.sampler.unanswered.contains("페"))
        #expect(try Self.hand(Self.subsetBytes, to: &pager) == 51)
        pager.advance(by: .milliseconds(1000))
        let first = try #require(try Self.rendered(Self.korean, "wait 1s").last)
        #expect(pager.glass != boxes)
        #expect(pager.glass == first)
        #expect(pager.sampler.unanswered.isEmpty)
    }

    @Test func withTheFontTheLiveGlassAndRenderFramesAreRendersOnEveryPanel() throws {
        var pager = WebPager()
        _ = try Self.hand(Self.subsetBytes, to: &pager, inPartsOf: 4096)
        #expect(pager.load(Self.korean) == .good(pager.configuration.summary))
        for panel in [SSD1306Panel.ssd1306_128x32, .sh1107_64x128, .ssd1306_128x64] {
            // A new engine (another panel) asks again and is answered again.
            pager.choose(panel: panel)
            pager.press(true)
            pager.advance(by: .milliseconds(800))
            pager.press(false)
            for _ in 0..<100 { pager.advance(by: .milliseconds(16)) }
            let expected = try Self.rendered(Self.korean, panel: panel, "long-press,wait 1s")
            #expect(pager.glass == expected.last, "\(panel.name): the title list")
            let frames = pager.render(try CrownScript(parsing: "long-press,wait 1s"))
            #expect(frames.filter { !$0.name.contains("-frame-") }.map(\.glass) == expected, "\(panel.name)")
        }
    }

    @Test func withoutTheFontTheCharactersAreBoxesAsABareRenderDrawsThem() throws {
        let pager = {
            var pager = WebPager()
            _ = pager.load(Self.korean)
            return pager
        }()
        let withFont = try Self.rendered(Self.korean, "wait 1s")
        let bare = pager.render(try CrownScript(parsing: "wait 1s")).filter { !$0.name.contains("-frame-") }
        #expect(bare.map(\.glass) != withFont)
        var sampler = SamplePageSampler()
        let boxes = HeadlessRender(configuration: pager.running, style: PageIndicatorStyle())
            .run(try CrownScript(parsing: "wait 1s"), sampler: &sampler)
        #expect(bare.map(\.glass) == boxes.frames.filter { !$0.name.contains("-frame-") }.map { $0.glass })
    }

    @Test func textThatIsNoHexFontIsRefusedNamingTheLineAndNothingIsUsed() throws {
        var pager = WebPager()
        let bad = Array("0041:00000000000000000000000000000000\nnot a glyph\n".utf8)
        #expect(
            throws: WebFileError(
                "unifont.hex line 2: the code point before ':' must be 1 to 6 hex digits (CODE:HEXBITS a line): "
                    + "not a GNU Unifont .hex file")
        ) { try Self.hand(bad, to: &pager) }
        #expect(pager.unifont == nil)
        #expect(pager.sampler.unifont == nil)
    }

    @Test func aFontOverTheCapOrPartsWithoutABeginningAreRefused() throws {
        var pager = WebPager()
        #expect(throws: WebFileError.self) { try pager.beginUnifont(byteCount: WebFileStore.maximumFileBytes + 1) }
        #expect(throws: WebFileError.self) { try pager.beginUnifont(byteCount: -1) }
        #expect(throws: WebFileError("GNU Unifont's text ended before the page said how long it is")) {
            try pager.finishUnifont()
        }
        let part: [UInt8] = Array("0041:".utf8)
        #expect(throws: WebFileError("GNU Unifont's text came before the page said how long it is")) {
            try Self.add(part[...], to: &pager)
        }
        // A font half given is dropped when another begins; the parts may not pass 16 MiB.
        try pager.beginUnifont(byteCount: 10)
        let big = [UInt8](repeating: UInt8(ascii: "0"), count: WebFileStore.maximumFileBytes + 1)
        #expect(throws: WebFileError.self) { try Self.add(big[...], to: &pager) }
        #expect(throws: WebFileError("GNU Unifont's text ended before the page said how long it is")) {
            try pager.finishUnifont()
        }
        #expect(pager.unifont == nil)
    }

    @Test func aFontInPlaceOfAnotherDrawsFromTheNewOne() throws {
        var pager = WebPager()
        #expect(pager.load(Self.korean) == .good(pager.configuration.summary))
        // A font of the subset's glyphs under other code points: 페 drawn as 가's glyph.
        let text = String(decoding: Self.subsetBytes, as: UTF8.self)
        let moved = text.replacingOccurrences(of: "D398:", with: "D398X").replacingOccurrences(
            of: "AC00:", with: "D398:"
        )
        .replacingOccurrences(of: "D398X", with: "AC00:")
        _ = try Self.hand(Array(moved.utf8), to: &pager)
        pager.advance(by: .milliseconds(1000))
        let swapped = pager.glass
        _ = try Self.hand(Self.subsetBytes, to: &pager)
        pager.advance(by: .milliseconds(1000))
        #expect(pager.glass != swapped)
        let rendered = try Self.rendered(Self.korean, "wait 1s").last
        #expect(pager.glass == rendered)
    }

    @Test func freezingKeepsTheFont() throws {
        var pager = WebPager()
        _ = try Self.hand(Self.subsetBytes, to: &pager)
        pager.sampler.deviceAnswer = WebPageSampler.onDevice
        pager.sampler.freeze()
        #expect(pager.sampler.unifont != nil)
        #expect(pager.sampler.deviceAnswer == "42")
    }
}
