import PagerGraphics
import TestSupport
import Testing

@Suite("Inflate")
struct InflateTests {
    /// The text `make-fixtures.py` compressed.
    static let text = Array((0..<400).map { "page \($0) of the crown; " }.joined().utf8)

    @Test(
        "streams from zlib itself inflate: dynamic and fixed Huffman blocks",
        arguments: ["text-dynamic.zlib", "text-fixed.zlib"])
    func zlibStreams(name: String) throws {
        let stream = try PNGFixtures.bytes(name)
        #expect(try Inflate.zlib(stream, maximumOutput: Self.text.count) == Self.text)
        #expect(throws: InflateError.outputTooLarge(limit: Self.text.count - 1)) {
            try Inflate.zlib(stream, maximumOutput: Self.text.count - 1)
        }
    }

    @Test("stored blocks round trip, empty too")
    func stored() throws {
        var generator = SeededGenerator(seed: 3)
        for count in [0, 1, 100, 5000] {
            let data = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(try Inflate.zlib(PNGFixtures.storedZlib(data), maximumOutput: count) == data)
        }
    }

    @Test("a megabyte of zeros in a kilobyte is inflated only up to the limit")
    func bomb() throws {
        let stream = try PNGFixtures.bytes("zeros-1mb.zlib")
        #expect(throws: InflateError.outputTooLarge(limit: 4096)) { try Inflate.zlib(stream, maximumOutput: 4096) }
        #expect(try Inflate.zlib(stream, maximumOutput: 1 << 20) == [UInt8](repeating: 0, count: 1 << 20))
    }

    @Test("each damage has its own error")
    func errors() throws {
        let good = PNGFixtures.storedZlib([1, 2, 3])
        func failure(_ stream: [UInt8]) -> InflateError? {
            do {
                _ = try Inflate.zlib(stream, maximumOutput: 100)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure([0x78]) == .truncated)
        #expect(failure([0x79, 0x9C]) == .badHeader("compression method 9, expected 8 (deflate)"))
        #expect(failure([0x88, 0x98]) == .badHeader("window size 2^16 is over 32 KiB"))
        #expect(failure([0x78, 0x9D]) == .badHeader("the header check bits are wrong"))
        #expect(failure([0x78, 0xBB]) == .badHeader("a preset dictionary is not allowed"))
        #expect(failure(Array(good.dropLast())) == .truncated)
        var badChecksum = good
        badChecksum[badChecksum.count - 1] ^= 1
        #expect(failure(badChecksum)?.description.hasPrefix("Adler-32 checksum mismatch") == true)
        var badLength = good
        badLength[5] ^= 1
        #expect(failure(badLength) == .storedLengthMismatch)
        #expect(failure([0x78, 0x9C, 0x07]) == .reservedBlockType)
        // Fixed Huffman: literal 'a', then length 3 at distance 2, which reaches before the start.
        #expect(failure([0x78, 0x9C, 0x4B, 0x04, 0x42, 0x00]) == .distanceTooFar(distance: 2, available: 1))
        // Dynamic block with every code-length code length zero: over- or under-subscribed nonsense.
        #expect(
            failure([0x78, 0x9C, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00])?.description.hasPrefix("invalid Huffman code")
                == true)
    }
}
