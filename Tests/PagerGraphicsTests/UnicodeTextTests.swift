import Foundation
import PagerGraphics
import TestSupport
import Testing

/// The Unifont glyphs the Korean goldens need (`Fixtures/Unifont`), as the file's bytes.
func unifontSubset(filePath: String = #filePath) throws -> [UInt8] {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Unifont/subset.hex")
    return Array(try Data(contentsOf: url))
}

/// The chain pages use: the body font, then Unifont's glyphs in use from the subset.
func koreanChain(_ texts: [String], first: BitmapFont = .fixed6x10) throws -> FontChain {
    let bytes = try unifontSubset()
    var cache = HexGlyphCache(index: try HexFontIndex(bytes: bytes))
    for text in texts { cache.cover(text, besides: [first], from: HexBytes(bytes)) }
    return FontChain(first, fallbacks: [cache.font])
}

// Korean from the design texts in the seeds (Apple's page-controls guidance, translated).
let koreanTitle = "페이지 컨트롤"
let koreanBody = "페이지 컨트롤은 표시기 이미지의 행을 표시하며, 각 행은 플랫 목록의 페이지를 나타냅니다."
let mixedBody = "워치OS에 대한 추가 고려사항은 없습니다. macOS에서는 지원되지 않습니다."

@Suite struct HexFontTests {
    @Test func indexFindsEveryGlyphOfTheSubset() throws {
        let bytes = try unifontSubset()
        let index = try HexFontIndex(bytes: bytes)
        #expect(index.count == 51)
        let location = try #require(index.location(of: "페"))
        #expect(location.wide)
        #expect(index.location(of: "A") == nil)
        let glyphs = index.glyphs(for: ["페", "A"], from: HexBytes(bytes))
        #expect(glyphs.count == 1)
        #expect(glyphs.first?.boundingBox == Rect(x: 0, y: -14, width: 16, height: 16))
        #expect(glyphs.first?.advance == 16)
    }

    @Test func indexFedInChunksEqualsIndexOfTheWhole() throws {
        let bytes = try unifontSubset()
        var chunked = HexFontIndex()
        for start in stride(from: 0, to: bytes.count, by: 7) {
            bytes[start..<min(bytes.count, start + 7)].withUnsafeBufferPointer { chunked.add($0) }
        }
        try chunked.finish()
        let whole = try HexFontIndex(bytes: bytes)
        for scalar in koreanBody.unicodeScalars {
            #expect(chunked.location(of: scalar)?.offset == whole.location(of: scalar)?.offset)
        }
    }

    @Test func unsortedLinesAreSortedAndNarrowGlyphsAreEightWide() throws {
        let text = "0042:" + String(repeating: "0F", count: 16) + "\n0041:" + String(repeating: "F0", count: 16)
        let bytes = Array(text.utf8)
        let index = try HexFontIndex(bytes: bytes)
        let glyph = try #require(index.glyphs(for: ["A"], from: HexBytes(bytes)).first)
        #expect(glyph.advance == 8)
        #expect(glyph.rows == [UInt8](repeating: 0xF0, count: 16))
        #expect(index.location(of: "B")?.wide == false)
    }

    @Test func badLinesNameTheirLine() {
        let good = "0041:" + String(repeating: "00", count: 16) + "\n"
        #expect(throws: FontFileError(line: 2, "no ':' between the code point and the glyph bits")) {
            try HexFontIndex(bytes: Array((good + "0042\n").utf8))
        }
        #expect(
            throws: FontFileError(line: 2, "3 hex digits of glyph bits; Unifont's glyphs have 32 (8x16) or 64 (16x16)")
        ) {
            try HexFontIndex(bytes: Array((good + "0042:ABC\n").utf8))
        }
        #expect(throws: FontFileError.self) { try HexFontIndex(bytes: Array((good + "G042:00\n").utf8)) }
    }

    @Test func cacheDecodesOnlyTheGlyphsTextAsksFor() throws {
        let bytes = try unifontSubset()
        var cache = HexGlyphCache(index: try HexFontIndex(bytes: bytes))
        #expect(cache.font.glyphCount == 0)
        let grew = cache.cover(koreanTitle + "abc", besides: [.fixed6x10], from: HexBytes(bytes))
        #expect(grew)
        #expect(cache.font.glyphCount == 6)  // 페 이 지 컨 트 롤: not a, b, c, which misc-fixed has
        let grewAgain = cache.cover(koreanTitle, besides: [.fixed6x10], from: HexBytes(bytes))
        #expect(!grewAgain)
    }
}

@Suite struct FontChainTests {
    @Test func eachCharacterComesFromTheFirstFontThatHasIt() throws {
        let chain = try koreanChain([koreanTitle])
        #expect(chain.glyph(for: "A")?.font == 0)
        #expect(chain.glyph(for: "페")?.font == 1)
        #expect(chain.glyph(for: "漢") == nil)
        #expect(chain.advance(of: "페") == 16)
        #expect(chain.advance(of: "漢") == 6)
        #expect(chain.lineHeight == 16)
        #expect(chain.width(of: "A페") == 22)
    }

    @Test func koreanBreaksBetweenSyllablesAndKeepsPunctuation() throws {
        let chain = try koreanChain([koreanBody])
        let lines = chain.wrap(koreanBody, width: 128)
        for line in lines { #expect(chain.width(of: line) <= 128) }
        #expect(lines.joined().filter { $0 != " " } == koreanBody.filter { $0 != " " })
        #expect(lines.allSatisfy { !$0.hasPrefix(",") && !$0.hasPrefix(".") && !$0.hasPrefix(" ") })
        #expect(lines.count == 6)
    }

    @Test func latinStillBreaksAtSpacesAndCutsLongWords() throws {
        let chain = FontChain(.fixed6x10)
        #expect(chain.wrap("page controls show dots", width: 60) == ["page", "controls", "show dots"])
        #expect(chain.wrap("abcdefghijkl", width: 30) == ["abcde", "fghij", "kl"])
        #expect(chain.wrap("a\n\nb", width: 30) == ["a", "", "b"])
        #expect(chain.wrap("page controls", width: 128) == BitmapFont.fixed6x10.wrap("page controls", width: 128))
    }

    @Test func aCharacterNoFontHasDrawsABox() {
        var bitmap = Bitmap(width: 12, height: 10)
        let advance = bitmap.drawText("漢", at: Point(x: 0, y: 0), fonts: FontChain(.fixed6x10))
        #expect(advance == 6)
        #expect(bitmap[0, 0] && bitmap[4, 8] && !bitmap[2, 4])
    }
}

@Suite struct KoreanGoldenTests {
    /// A page as the pager lays text out: a centred title, the body wrapped below it.
    func page(width: Int, height: Int, title: String, body: String) throws -> Bitmap {
        let chain = try koreanChain([title, body])
        var bitmap = Bitmap(width: width, height: height)
        bitmap.drawText(
            title, in: Rect(x: 0, y: 0, width: width, height: chain.lineHeight), fonts: chain, alignment: .center)
        bitmap.drawText(
            body, in: Rect(x: 0, y: chain.lineHeight, width: width, height: height - chain.lineHeight), fonts: chain)
        return bitmap
    }

    @Test(.tags(.golden)) func koreanPage128x64() throws {
        expectGolden(try page(width: 128, height: 64, title: koreanTitle, body: koreanBody), named: "korean-128x64")
    }

    @Test(.tags(.golden)) func koreanPage128x32() throws {
        expectGolden(try page(width: 128, height: 32, title: koreanTitle, body: koreanBody), named: "korean-128x32")
    }

    @Test(.tags(.golden)) func mixedKoreanAndLatin128x64() throws {
        expectGolden(try page(width: 128, height: 64, title: "표시기 이미지", body: mixedBody), named: "korean-mixed-128x64")
    }

    @Test func realUnifont() throws {
        let path = "/usr/share/unifont/unifont.hex"
        // Scripts/setup.sh --test installs Debian's unifont: a missing file fails, never passes unread.
        try #require(
            FileManager.default.fileExists(atPath: path),
            "\(path) is missing: run Scripts/setup.sh --test (it installs the unifont package)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let index = try HexFontIndex(bytes: bytes)
        #expect(index.count > 50_000)
        // Every Hangul syllable is there, 16 columns wide. Their drawings change between Unifont
        // releases (Debian 12 has 15.0, Debian 13 a later one), so the fixture's copies are
        // compared by shape only: as many glyphs, as wide, each with ink.
        for code in UInt32(0xAC00)...0xD7A3 {
            guard let scalar = Unicode.Scalar(code) else { continue }
            #expect(index.location(of: scalar)?.wide == true)
        }
        let subset = try unifontSubset()
        let hangul = koreanBody.unicodeScalars.filter { $0.value >= 0x80 }
        let expected = try HexFontIndex(bytes: subset).glyphs(for: hangul, from: HexBytes(subset))
        let real = index.glyphs(for: hangul, from: HexBytes(bytes))
        #expect(real.count == hangul.count)
        let shapes = real.map { "\($0.scalar) \($0.advance)" }
        let expectedShapes = expected.map { "\($0.scalar) \($0.advance)" }
        let inked = real.filter { glyph in glyph.rows.contains { $0 != 0 } }.count
        #expect(shapes == expectedShapes)
        #expect(inked == real.count)
    }
}

@Suite struct BDFFontTests {
    /// The BDF file beside the generated tables.
    func bdf(_ file: String, filePath: String = #filePath) throws -> [UInt8] {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/PagerGraphics/Fonts/BDF/\(file)").standardized
        return Array(try Data(contentsOf: url))
    }

    @Test func runtimeBDFDrawsAsTheGeneratedFont() throws {
        let font = try BDFFont.decode(try bdf("6x10.bdf"), name: "6x10")
        let generated = BitmapFont.fixed6x10
        #expect(font.ascent == generated.ascent && font.descent == generated.descent)
        #expect(font.cellWidth == generated.cellWidth)
        for scalar in generated.scalars {
            let mine = try #require(font.glyph(for: scalar))
            let theirs = try #require(generated.glyph(for: scalar))
            #expect(mine.advance == theirs.advance)
            var a = Bitmap(width: 12, height: 12)
            var b = Bitmap(width: 12, height: 12)
            a.drawGlyph(mine, at: Point(x: 3, y: 9), font: font)
            b.drawGlyph(theirs, at: Point(x: 3, y: 9), font: generated)
            #expect(a == b, "glyph U+\(String(scalar.value, radix: 16))")
        }
    }

    static let header = "STARTFONT 2.1\nFONT test\nSIZE 8 75 75\nFONTBOUNDINGBOX 4 4 0 0\nCHARS 1\n"

    @Test func smallFontParses() throws {
        let text = Self.header + "STARTCHAR A\nENCODING 65\nDWIDTH 5 0\nBBX 4 2 0 1\nBITMAP\nF0\n90\nENDCHAR\nENDFONT\n"
        let font = try BDFFont.decode(Array(text.utf8), name: "test")
        let glyph = try #require(font.glyph(for: "A"))
        #expect(glyph.advance == 5)
        #expect(glyph.boundingBox == Rect(x: 0, y: -3, width: 4, height: 2))
        #expect(font.isInked(glyph, x: 3, y: 1) && !font.isInked(glyph, x: 1, y: 1))
        #expect(font.ascent == 4 && font.descent == 0)
    }

    @Test func badBDFNamesTheLine() {
        let glyph = "STARTCHAR A\nENCODING 65\nBBX 4 2 0 0\nBITMAP\n"
        #expect(throws: FontFileError(line: 1, "a BDF file starts with STARTFONT, found 'hello'; is this a BDF font?"))
        {
            try BDFFont.decode(Array("hello\n".utf8), name: "x")
        }
        #expect(throws: FontFileError(line: 10, "'ZZ' is not hexadecimal")) {
            try BDFFont.decode(Array((Self.header + glyph + "ZZ\nF0\nENDCHAR\nENDFONT\n").utf8), name: "x")
        }
        #expect(throws: FontFileError(line: 11, "1 BITMAP rows where the BBX height says 2")) {
            try BDFFont.decode(Array((Self.header + glyph + "F0\nENDCHAR\nENDFONT\n").utf8), name: "x")
        }
        #expect(throws: FontFileError(line: 10, "the file ends where ENDCHAR was expected; is it cut short?")) {
            try BDFFont.decode(Array((Self.header + glyph + "F0\n").utf8), name: "x")
        }
        #expect(throws: FontFileError(line: 4, "FONTBOUNDINGBOX 100000x4 is outside 0 to 256 pixels a side")) {
            try BDFFont.decode(
                Array((Self.header.replacingOccurrences(of: "BOX 4 4", with: "BOX 100000 4") + glyph).utf8), name: "x")
        }
        #expect(throws: FontFileError(line: 8, "BBX: 'x' is not a whole number")) {
            try BDFFont.decode(Array((Self.header + "STARTCHAR A\nENCODING 65\nBBX x 2 0 0\n").utf8), name: "x")
        }
    }
}
