import PagerGraphics
import TestSupport
import Testing

@Suite("PBM")
struct PBMTests {
    let sample = Bitmap(rows: [
        "#.........",
        ".#######.#",
        "..........",
    ])

    @Test("plain PBM writes one row per line, with the comment in the header")
    func plainFormat() {
        #expect(
            PBM.plain(sample, comment: "two\nlines") == "P1\n# two\n# lines\n10 3\n1000000000\n0111111101\n0000000000\n"
        )
        #expect(PBM.plain(Bitmap(width: 0, height: 0)) == "P1\n0 0\n")
    }

    @Test("raw PBM packs each row most significant bit first, padded to a byte")
    func rawFormat() {
        #expect(PBM.raw(sample) == Array("P4\n10 3\n".utf8) + [0x80, 0x00, 0x7F, 0x40, 0x00, 0x00])
    }

    @Test("decode(plain(b)) and decode(raw(b)) give back b, for random sizes and pixels")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 99)
        for iteration in 0..<300 {
            // Heights are often not a multiple of 8 and widths often not a multiple of 8 either.
            let width = Int.random(in: 1...70, using: &generator)
            let height =
                iteration % 3 == 0
                ? 8 * Int.random(in: 1...6, using: &generator) : Int.random(in: 1...70, using: &generator)
            let bitmap = randomBitmap(width: width, height: height, using: &generator)
            #expect(try PBM.decode(Array(PBM.plain(bitmap, comment: "round trip").utf8)) == bitmap)
            #expect(try PBM.decode(PBM.raw(bitmap)) == bitmap)
        }
    }

    @Test("the decoder takes any white space and comments Netpbm allows")
    func lenientInput() throws {
        let text =
            "P1 # comment after the magic number\n 10\t# the width\n3\r\n1 0 0 0 0 0 0 0 0 0\n01111111 # mid-row\n01\n0000000000"
        #expect(try PBM.decode(Array(text.utf8)) == sample)
        let raw: [UInt8] = Array("P4\n# made by hand\n10 3\n".utf8) + [0x80, 0x3F, 0x7F, 0x40, 0x00, 0x01]
        // Padding bits at the end of each raw row are ignored.
        #expect(try PBM.decode(raw) == sample)
    }

    @Test("a decoded bitmap's padding rows are dark, so it equals a drawn one")
    func paddingStaysDark() throws {
        let decoded = try PBM.decode(Array("P1\n3 3\n111\n111\n111\n".utf8))
        var drawn = Bitmap(width: 3, height: 3)
        drawn.fillRect(drawn.bounds)
        #expect(decoded == drawn)
        #expect(decoded.pageBytes(0) == [0x07, 0x07, 0x07])
    }

    @Test(
        "malformed input throws the matching PBMError",
        arguments: [
            ("", PBMError.notPBM),
            ("P", .notPBM),
            ("GIF89a", .notPBM),
            ("P2\n1 1\n0\n", .notPBM),
            ("p1\n1 1\n0\n", .notPBM),
            ("P1\n", .malformedHeader("expected the width as a decimal number")),
            ("P1\n4", .malformedHeader("expected the height as a decimal number")),
            ("P1\nx 4\n", .malformedHeader("expected the width as a decimal number")),
            ("P1\n4 -4\n", .malformedHeader("expected the height as a decimal number")),
            ("P1\n12345678901 1\n", .malformedHeader("width has too many digits")),
            ("P1\n0 5\n", .unsupportedSize(width: 0, height: 5)),
            ("P1\n5 0\n", .unsupportedSize(width: 5, height: 0)),
            ("P1\n4097 1\n", .unsupportedSize(width: 4097, height: 1)),
            ("P4\n1 999999999\n", .unsupportedSize(width: 1, height: 999_999_999)),
            ("P1\n2 2\n101", .truncated(expected: 4, found: 3)),
            ("P1\n2 2\n", .truncated(expected: 4, found: 0)),
            ("P1\n2 2\n10\n1x", .unexpectedCharacter(UInt8(ascii: "x"), offset: 11)),
            ("P1\n2 2\n10\n12", .unexpectedCharacter(UInt8(ascii: "2"), offset: 11)),
            ("P4\n9 2\n\u{1}\u{2}\u{3}", .truncated(expected: 18, found: 9)),
            ("P4\n8 1\n", .truncated(expected: 8, found: 0)),
        ])
    func errors(input: String, expected: PBMError) {
        #expect(throws: expected) { try PBM.decode(Array(input.utf8)) }
    }

    @Test("errors read as sentences for the operator")
    func errorDescriptions() {
        #expect(PBMError.notPBM.description == "not a PBM image (expected the magic number P1 or P4)")
        #expect(
            PBMError.unsupportedSize(width: 0, height: 3).description
                == "unsupported PBM size 0x3 (each side must be 1 to 4096)")
        #expect(PBMError.truncated(expected: 4, found: 3).description == "PBM pixel data ends early: 3 of 4 pixels")
        #expect(
            PBMError.unexpectedCharacter(0x78, offset: 11).description
                == "unexpected byte 0x78 at offset 11 in plain PBM data")
    }
}
