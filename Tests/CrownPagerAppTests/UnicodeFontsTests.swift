import CrownPagerApp
import Foundation
import PagerEngine
import PagerGraphics
import PagerTools
import Testing

/// Unifont read from a file as the shell reads it: indexed in chunks, glyphs read back on demand.
@Suite struct UnicodeFontsTests {
    /// The Unifont subset checked in for the graphics goldens.
    static let subset = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PagerGraphicsTests/Fixtures/Unifont/subset.hex").standardized.path

    @Test func theSubsetFileGivesHangulGlyphs() throws {
        var fonts = UnicodeFonts(unifontPath: Self.subset)
        var warnings: [String] = []
        let chain = fonts.chain(for: ["페이지 컨트롤"], first: .fixed6x10) { warnings.append($0) }
        #expect(warnings.isEmpty)
        #expect(chain.fonts.count == 2)
        #expect(chain.glyph(for: "페")?.font == 1)
        #expect(chain.glyph(for: "A")?.font == 0)
        #expect(chain.advance(of: "페") == 16)
        let file = try UnifontFile(path: Self.subset)
        #expect(file.index.count == 51)
    }

    @Test func aMissingFileWarnsOnceNamingThePackage() {
        var fonts = UnicodeFonts(unifontPath: "/nonexistent/unifont.hex")
        var warnings: [String] = []
        let first = fonts.chain(for: ["페이지"], first: .fixed6x10) { warnings.append($0) }
        let second = fonts.chain(for: ["컨트롤"], first: .fixed5x8) { warnings.append($0) }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("sudo apt install unifont") == true)
        #expect(warnings.first?.contains("/nonexistent/unifont.hex") == true)
        #expect(first.glyph(for: "페") == nil)
        #expect(second.fonts.count == 2)
        // The replacement box: the first font's cell.
        #expect(second.advance(of: "컨") == BitmapFont.fixed5x8.cellWidth)
    }

    @Test func theEnginesGlyphRequestsAreAnsweredWithEveryGlyphSoFar() {
        var sampler = UnicodePageSampler(SamplePageSampler(), fonts: UnicodeFonts(unifontPath: Self.subset))
        let first = sampler.glyphs(for: Array("페이지".unicodeScalars))
        // Nothing new: no answer, so the engine does not redraw for nothing.
        let again = sampler.glyphs(for: Array("페이".unicodeScalars))
        let second = sampler.glyphs(for: Array("컨트롤".unicodeScalars))
        #expect(first?.glyphCount == 3)
        #expect(again == nil)
        #expect(second?.glyphCount == 6)
        #expect(second?.glyph(for: "페") != nil)
        #expect(sampler.warnings.isEmpty)

        var missing = UnicodePageSampler(
            SamplePageSampler(), fonts: UnicodeFonts(unifontPath: "/nonexistent/unifont.hex"))
        let none = missing.glyphs(for: Array("페이지".unicodeScalars))
        let stillNone = missing.glyphs(for: Array("컨트롤".unicodeScalars))
        #expect(none == nil && stillNone == nil)
        #expect(missing.warnings.count == 1)
        #expect(missing.warnings.first?.contains("sudo apt install unifont") == true)
    }

    @Test func aFileThatIsNoHexFontSaysWhichLine() throws {
        let path = NSTemporaryDirectory() + "crownpager-unifont-" + UUID().uuidString + ".hex"
        try Data("0041:00000000000000000000000000000000\nnot a glyph\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: UnifontError.malformed(
                path: path,
                FontFileError(line: 2, "the code point before ':' must be 1 to 6 hex digits (CODE:HEXBITS a line)"))
        ) {
            try UnifontFile(path: path)
        }
    }

    @Test func theInstalledUnifont() throws {
        // Scripts/setup.sh --test installs Debian's unifont: a missing file fails, never passes unread.
        try #require(
            FileManager.default.fileExists(atPath: UnifontFile.defaultPath),
            "\(UnifontFile.defaultPath) is missing: run Scripts/setup.sh --test (it installs the unifont package)")
        let file = try UnifontFile()
        #expect(file.index.count > 50_000)
        var fonts = UnicodeFonts()
        let chain = fonts.chain(for: ["워치OS에 대한 추가 고려사항은 없습니다."], first: .fixed6x10) { _ in }
        for scalar in "워치에대한추가고려사항은없습니다".unicodeScalars {
            #expect(chain.glyph(for: scalar)?.glyph.advance == 16)
        }
    }
}
