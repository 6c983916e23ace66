import GlassViews
import PagerGraphics
import Testing

@Suite("Frame files")
struct FrameFilesTests {
    let glass = Bitmap(rows: ["#..", ".#.", "..#"])

    @Test("PBM frames are plain P1 text, one row a line")
    func pbm() {
        #expect(FrameFiles.pbm(glass) == "P1\n3 3\n100\n010\n001\n")
        #expect(FrameFiles.pbm(glass, comment: "frame 7") == "P1\n# frame 7\n3 3\n100\n010\n001\n")
    }

    @Test("PNG frames are scaled and carry the palette's colours")
    func png() throws {
        let bytes = FrameFiles.png(glass, scale: 4, palette: .yellow)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR data starts at byte 16: width and height, big-endian.
        #expect(Array(bytes[16..<24]) == [0, 0, 0, 12, 0, 0, 0, 12])
        let plte = try #require(indexOf([0x50, 0x4C, 0x54, 0x45], in: bytes))
        #expect(Array(bytes[(plte + 4)..<(plte + 10)]) == [0, 0, 0, 0xFF, 0xD7, 0x3A])
        #expect(
            FrameFiles.png(glass, scale: 4, palette: .white) == PNG.encode(glass, scale: 4, lit: .white, dark: .black))
        #expect(
            FrameFiles.png(glass, scale: 2, palette: .blue) == PNG.encode(glass, scale: 2, lit: .oledBlue, dark: .black)
        )
    }

    @Test("palettes are found by name, ignoring case")
    func paletteNames() {
        #expect(OLEDPalette(name: "white") == .white)
        #expect(OLEDPalette(name: "Blue") == .blue)
        #expect(OLEDPalette(name: "YELLOW") == .yellow)
        #expect(OLEDPalette(name: "green") == nil)
        #expect(OLEDPalette(name: "") == nil)
    }

    @Test("frame file names sort in order")
    func fileNames() {
        #expect(FrameFiles.fileName(index: 42, extension: "pbm") == "frame-000042.pbm")
        #expect(FrameFiles.fileName(index: 1_234_567, prefix: "shot", extension: "png") == "shot-1234567.png")
        #expect(FrameFiles.fileName(index: -3, extension: "pbm") == "frame-000000.pbm")
    }

    private func indexOf(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
