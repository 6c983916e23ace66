import PagerGraphics
import TestSupport
import Testing

@Suite struct XBMTests {
    @Test func decodesLeastSignificantBitFirstWithPaddedRows() throws {
        let text = """
            /* a 9x2 test */
            #define test_width 9
            #define test_height 2
            static unsigned char test_bits[] = {
               0x01, 0x01, 0xfe, 0x00 };
            """
        let bitmap = try XBM.decode(text)
        #expect(bitmap == Bitmap(rows: ["#.......#", ".#######."]))
    }

    @Test func encodeAndDecodeRoundTrip() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<100 {
            var bitmap = Bitmap(
                width: Int.random(in: 1...20, using: &generator), height: Int.random(in: 1...20, using: &generator))
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width where Bool.random(using: &generator) { bitmap[x, y] = true }
            }
            #expect(try XBM.decode(XBM.encode(bitmap, name: "glyph")) == bitmap)
        }
    }

    @Test(arguments: [
        ("static char x_bits[] = { 0x00 };", XBMError.missingDimension("width")),
        ("#define x_width 8\nstatic char x_bits[] = { 0x00 };", .missingDimension("height")),
        ("#define x_width 0\n#define x_height 1\n{ 0 }", .unsupportedSize(width: 0, height: 1)),
        ("#define x_width 8\n#define x_height 1\n", .missingBits),
        ("#define x_width 8\n#define x_height 1\n{ 0x1ff }", .badByte("0x1ff")),
        ("#define x_width 8\n#define x_height 1\n{ zz }", .badByte("zz")),
        ("#define x_width 16\n#define x_height 2\n{ 0x00, 0x01 }", .truncated(expected: 4, found: 2)),
    ])
    func badInputSaysWhatIsWrong(text: String, error: XBMError) {
        #expect(throws: error) { try XBM.decode(text) }
        #expect(!error.description.isEmpty)
    }
}
