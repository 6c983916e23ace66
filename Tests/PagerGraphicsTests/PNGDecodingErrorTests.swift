import PagerGraphics
import TestSupport
import Testing

@Suite("PNG decoding errors")
struct PNGDecodingErrorTests {
    static let ihdr = ("IHDR", PNGFixtures.header(width: 2, height: 2, depth: 8, colorType: 0))
    static let pixels = ("IDAT", PNGFixtures.storedZlib([0, 10, 200, 0, 30, 40]))

    func error(_ png: [UInt8]) -> PNGDecodingError? {
        do {
            _ = try PNG.decode(png)
            return nil
        } catch {
            return error
        }
    }

    @Test("bytes that are not a PNG at all")
    func notPNG() {
        #expect(error([]) == .notPNG)
        #expect(error(Array("P1\n1 1\n1\n".utf8)) == .notPNG)
        #expect(
            PNGDecodingError.notPNG.description == "not a PNG image (the file does not start with the PNG signature)")
    }

    @Test("a file cut short anywhere says it ends early")
    func truncated() throws {
        let png = try PNGFixtures.bytes("rgb-8.png")
        for length in 8..<png.count {
            guard case .truncated = error(Array(png.prefix(length))) else {
                Issue.record("cut at \(length): \(String(describing: error(Array(png.prefix(length)))))")
                continue
            }
        }
        #expect(error(Array(png.prefix(8))) == .truncated("no IEND chunk"))
        #expect(
            error(Array(png.prefix(20)))?.description
                == "the PNG file ends early: chunk IHDR at offset 8 declares 13 bytes, more than the file holds")
    }

    @Test("a damaged chunk is named with its offset")
    func badCRC() throws {
        var png = try PNGFixtures.bytes("rgb-8.png")
        png[20] ^= 0x01  // the height, inside IHDR
        #expect(error(png) == .badChunkCRC(chunk: "IHDR", offset: 8))
        #expect(error(png)?.description == "bad CRC in chunk IHDR at offset 8: the file is damaged")
    }

    @Test("chunks missing or out of place")
    func missingChunks() {
        #expect(
            error(PNGFixtures.file([Self.pixels, Self.ihdr, ("IEND", [])]))
                == .missingChunk("IHDR", detail: "the first chunk is IDAT"))
        #expect(
            error(PNGFixtures.file([Self.ihdr, ("IEND", [])]))
                == .missingChunk("IDAT", detail: "the image has no pixel data"))
        let palette = ("IHDR", PNGFixtures.header(width: 2, height: 2, depth: 8, colorType: 3))
        #expect(
            error(PNGFixtures.file([palette, Self.pixels, ("IEND", [])]))?.description
                == "missing PLTE chunk: a palette image (colour type 3) needs one")
        #expect(
            error(PNGFixtures.file([Self.ihdr, Self.ihdr, Self.pixels, ("IEND", [])]))
                == .invalidChunk("IHDR", detail: "a second IHDR chunk"))
    }

    @Test("an unknown critical chunk is refused, an unknown ancillary one skipped")
    func unknownChunks() throws {
        #expect(
            error(PNGFixtures.file([Self.ihdr, ("CRWN", [1]), Self.pixels, ("IEND", [])]))
                == .unknownCriticalChunk("CRWN"))
        #expect(
            try PNG.decode(PNGFixtures.file([Self.ihdr, ("crWn", [1]), Self.pixels, ("IEND", [])]))
                == Bitmap(rows: [".#", ".."]))
        #expect(
            error(PNGFixtures.file([Self.ihdr, ("A\u{1}CD", []), Self.pixels, ("IEND", [])]))
                == .unknownCriticalChunk("0x41014344"))
    }

    @Test(
        "invalid header fields each get their own sentence",
        arguments: [
            (
                PNGFixtures.header(width: 2, height: 2, depth: 4, colorType: 2),
                "invalid IHDR chunk: bit depth 4 is not allowed with colour type 2"
            ),
            (
                PNGFixtures.header(width: 2, height: 2, depth: 16, colorType: 3),
                "invalid IHDR chunk: bit depth 16 is not allowed with colour type 3"
            ),
            (
                PNGFixtures.header(width: 2, height: 2, depth: 8, colorType: 5),
                "invalid IHDR chunk: colour type 5 does not exist (0, 2, 3, 4 or 6)"
            ),
            (
                PNGFixtures.header(width: 2, height: 2, depth: 8, colorType: 0, methods: [1, 0, 0]),
                "invalid IHDR chunk: compression method 1 (only 0, deflate)"
            ),
            (
                PNGFixtures.header(width: 2, height: 2, depth: 8, colorType: 0, methods: [0, 1, 0]),
                "invalid IHDR chunk: filter method 1 (only 0)"
            ),
            (
                PNGFixtures.header(width: 2, height: 2, depth: 8, colorType: 0, methods: [0, 0, 2]),
                "invalid IHDR chunk: interlace method 2 (0 none or 1 Adam7)"
            ),
            (
                Array(PNGFixtures.header(width: 2, height: 2, depth: 8, colorType: 0).dropLast()),
                "invalid IHDR chunk: 12 bytes, expected 13"
            ),
            (
                PNGFixtures.header(width: 0, height: 2, depth: 8, colorType: 0),
                "unsupported PNG size 0x2 (each side must be 1 to 4096)"
            ),
            (
                PNGFixtures.header(width: 2, height: 4097, depth: 8, colorType: 0),
                "unsupported PNG size 2x4097 (each side must be 1 to 4096)"
            ),
            (
                PNGFixtures.header(width: 4096, height: 4096, depth: 16, colorType: 6),
                "the PNG is too large to decode: its pixels take 134221824 bytes, over the limit of 33554432; scale it down"
            ),
        ])
    func invalidHeader(header: [UInt8], message: String) {
        #expect(error(PNGFixtures.file([("IHDR", header), Self.pixels, ("IEND", [])]))?.description == message)
    }

    @Test("corrupt or wrong-sized pixel data")
    func corruptData() throws {
        #expect(
            error(PNGFixtures.file([Self.ihdr, ("IDAT", [0x78, 0x01, 0xFF, 0xFF]), ("IEND", [])]))
                == .corruptImageData(.reservedBlockType))
        #expect(
            error(PNGFixtures.file([Self.ihdr, ("IDAT", [0x78, 0x00]), ("IEND", [])]))?.description
                == "corrupt compressed image data (IDAT): bad zlib header: the header check bits are wrong")
        #expect(
            error(PNGFixtures.grey(width: 2, height: 2, raw: [0, 1, 2])) == .imageDataTooShort(expected: 6, found: 3))
        #expect(
            error(PNGFixtures.grey(width: 2, height: 2, raw: [0, 1, 2, 0, 3, 4, 0]))
                == .corruptImageData(.outputTooLarge(limit: 6)))
        #expect(
            error(PNGFixtures.grey(width: 2, height: 2, raw: [0, 1, 2, 5, 3, 4]))?.description
                == "scanline 1 has filter type 5 (only 0 to 4 exist)")
    }

    @Test("a decompression bomb stops at the image's size")
    func bomb() throws {
        // 16x16 grey needs 272 bytes; the stream holds a megabyte of zeros.
        let png = PNGFixtures.file([
            ("IHDR", PNGFixtures.header(width: 16, height: 16, depth: 8, colorType: 0)),
            ("IDAT", try PNGFixtures.bytes("zeros-1mb.zlib")), ("IEND", []),
        ])
        #expect(error(png) == .corruptImageData(.outputTooLarge(limit: 272)))
    }

    @Test("palette and transparency mistakes")
    func paletteErrors() {
        let header = ("IHDR", PNGFixtures.header(width: 2, height: 1, depth: 2, colorType: 3))
        let indices = ("IDAT", PNGFixtures.storedZlib([0, 0b0011_0000]))  // entries 0 and 3
        let twoColours = ("PLTE", [UInt8](repeating: 0, count: 6))
        #expect(
            error(PNGFixtures.file([header, twoColours, indices, ("IEND", [])]))?.description
                == "a pixel uses palette entry 3, but the palette has 2 entries")
        #expect(
            error(PNGFixtures.file([header, ("PLTE", [1, 2]), indices, ("IEND", [])]))
                == .invalidChunk("PLTE", detail: "2 bytes is not 1 to 256 RGB entries"))
        #expect(
            error(PNGFixtures.file([header, twoColours, ("tRNS", [0, 0, 0]), indices, ("IEND", [])]))
                == .invalidChunk("tRNS", detail: "3 alpha values for 2 palette entries"))
        #expect(
            error(PNGFixtures.file([Self.ihdr, ("tRNS", [0]), Self.pixels, ("IEND", [])]))
                == .invalidChunk("tRNS", detail: "1 bytes, expected 2 for colour type 0"))
    }
}
