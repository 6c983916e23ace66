import PagerGraphics
import TestSupport
import Testing

/// Damaged files must decode or throw, never crash or hang: the decoder reads files users name.
@Suite("PNG fuzzing")
struct PNGFuzzTests {
    static let seeds = [
        "rgb-8", "palette-4-adam7", "rgba-16", "grey-1", "rgba-8-fixed-huffman", "rgb-8-many-idat", "rgb-16-adam7",
    ]

    @Test("random mutations of valid PNGs, with and without fixed-up CRCs, decode or throw", arguments: seeds)
    func mutations(name: String) throws {
        let original = try PNGFixtures.bytes(name + ".png")
        var generator = SeededGenerator(seed: UInt64(original.count))
        var outcomes = (decoded: 0, threw: 0)
        for iteration in 0..<600 {
            var png = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 8..<png.count, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: png[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
                case 1: png[at] = UInt8.random(in: 0...255, using: &generator)
                case 2: png.removeSubrange(at..<min(png.count, at + Int.random(in: 1...8, using: &generator)))
                case 3: png.insert(UInt8.random(in: 0...255, using: &generator), at: at)
                default: png = Array(png.prefix(at))
                }
                if png.count <= 8 { break }
            }
            // Most mutations without fixed CRCs stop at the CRC check; fixing them reaches inflate and the filters.
            if iteration % 4 != 0 { png = PNGFixtures.fixingCRCs(png) }
            do {
                _ = try PNG.decode(png)
                outcomes.decoded += 1
            } catch {
                #expect(!error.description.isEmpty)
                outcomes.threw += 1
            }
        }
        #expect(outcomes.decoded + outcomes.threw == 600)
        #expect(outcomes.threw > 0)
        #expect(outcomes.decoded > 0, "some mutations (in ancillary chunks, in pixel values) still decode")
    }

    @Test("random bytes after a valid header never crash the inflater")
    func randomStreams() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<3000 {
            let body = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            do {
                let out = try Inflate.zlib([0x78, 0x9C] + body, maximumOutput: 512)
                #expect(out.count <= 512)
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }
}
