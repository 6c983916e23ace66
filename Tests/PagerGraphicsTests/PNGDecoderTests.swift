import PagerGraphics
import TestSupport
import Testing

@Suite("PNG decoding")
struct PNGDecoderTests {
    static let fixtures = [
        "grey-1", "grey-2", "grey-4", "grey-8", "grey-16", "grey-8-trns", "grey-16-trns",
        "rgb-8", "rgb-16", "rgb-8-trns", "palette-1", "palette-2", "palette-4", "palette-8",
        "grey-alpha-8", "grey-alpha-16", "rgba-8", "rgba-16",
        "rgb-8-filter-0", "rgb-8-filter-1", "rgb-8-filter-2", "rgb-8-filter-3", "rgb-8-filter-4",
        "rgba-8-fixed-huffman", "rgb-8-stored", "rgb-8-many-idat",
        "grey-1-adam7", "grey-8-adam7", "palette-4-adam7", "rgba-8-adam7", "rgb-16-adam7", "grey-8-adam7-3x2",
        "rgb-8-1x1", "rgb-8-300x200",
    ]

    @Test("every colour type, bit depth, filter and interlace decodes to the pattern", arguments: fixtures)
    func fixtureDecodes(name: String) throws {
        let png = try PNGFixtures.bytes(name + ".png")
        let header = try #require(try chunks(of: png).first)
        let width = Int(bigEndian(header.data[0..<4]))
        let height = Int(bigEndian(header.data[4..<8]))
        let bitmap = try PNG.decode(png)
        #expect(bitmap == PNGFixtures.pattern(width: width, height: height), "\(name):\n\(bitmap)")
    }

    @Test("the fixtures hold stored, fixed Huffman and dynamic Huffman blocks, and several IDATs")
    func fixturesCoverBlockTypes() throws {
        var blockTypes: Set<UInt8> = []
        for name in Self.fixtures {
            let idat = try chunks(of: try PNGFixtures.bytes(name + ".png")).filter { $0.type == "IDAT" }
            blockTypes.insert(idat[0].data[2] >> 1 & 3)
            if name == "rgb-8-many-idat" { #expect(idat.count > 10) }
            if name == "rgba-8-fixed-huffman" { #expect(idat[0].data[2] >> 1 & 3 == 1) }
        }
        #expect(blockTypes == [0, 1, 2])
    }

    @Test("what PNG.encode writes decodes back to the bitmap, at any scale and palette", arguments: [1, 2, 3, 9])
    func roundTripsTheEncoder(scale: Int) throws {
        var generator = SeededGenerator(seed: UInt64(40 + scale))
        // At scale 9 the bitmaps are nearly a whole 128x64 frame: more than one 64 KiB stored block.
        let (widths, heights) = scale == 9 ? (120...128, 60...64) : (1...70, 1...40)
        for _ in 0..<(scale == 9 ? 3 : 40) {
            let bitmap = randomBitmap(
                width: Int.random(in: widths, using: &generator), height: Int.random(in: heights, using: &generator),
                using: &generator)
            #expect(
                try PNG.decode(PNG.encode(bitmap, scale: scale, lit: .oledBlue, dark: .black))
                    == scaledUp(bitmap, by: scale))
        }
    }

    @Test("the threshold is on luminance: Rec. 601 weights, 128 of 255 by default")
    func threshold() throws {
        // Grey 8-bit, one row: 0, 127, 128, 255.
        let png = PNGFixtures.grey(width: 4, height: 1, raw: [0, 0, 127, 128, 255])
        #expect(try PNG.decode(png) == Bitmap(rows: ["..##"]))
        #expect(try PNG.decode(png, threshold: 200) == Bitmap(rows: ["...#"]))
        #expect(try PNG.decode(png, threshold: 0) == Bitmap(rows: [".###"]), "black is never lit")
        // Pure green is bright (0.587 * 255 = 149), pure blue dark (29), pure red dark (76).
        let rgb = PNGFixtures.file([
            ("IHDR", PNGFixtures.header(width: 3, height: 1, depth: 8, colorType: 2)),
            ("IDAT", PNGFixtures.storedZlib([0, 0, 255, 0, 0, 0, 255, 255, 0, 0])), ("IEND", []),
        ])
        #expect(try PNG.decode(rgb) == Bitmap(rows: ["#.."]))
        #expect(try PNG.decode(rgb, threshold: 60) == Bitmap(rows: ["#.#"]))
    }

    @Test("interlaced and plain versions of an image decode alike")
    func adam7MatchesPlain() throws {
        for name in ["grey-1", "grey-8", "palette-4", "rgba-8", "rgb-16"] {
            #expect(
                try PNG.decode(PNGFixtures.bytes(name + ".png")) == PNG.decode(PNGFixtures.bytes(name + "-adam7.png")))
        }
    }
}
