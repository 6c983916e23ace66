import Foundation
import PagerGraphics
import Testing

/// Test inputs for the PNG decoder: the committed fixtures and PNGs built chunk by chunk.
enum PNGFixtures {
    /// The bytes of `Fixtures/<name>` (written by `Fixtures/make-fixtures.py` with Python's zlib).
    static func bytes(_ name: String, filePath: String = #filePath) throws -> [UInt8] {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        return Array(try Data(contentsOf: url))
    }

    /// The pattern every fixture draws: (x, y) is lit when (7x + 3y + xy) mod 5 < 2.
    static func pattern(width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where (7 * x + 3 * y + x * y) % 5 < 2 { bitmap[x, y] = true }
        }
        return bitmap
    }

    /// A PNG file of these chunks, each with its length and a correct CRC.
    static func file(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in chunks { out += chunk(type, data) }
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndianBytes(UInt32(data.count)) + typed + bigEndianBytes(referenceCRC(typed))
    }

    /// IHDR data: size, bit depth, colour type, then compression, filter and interlace methods.
    static func header(width: Int, height: Int, depth: UInt8, colorType: UInt8, methods: [UInt8] = [0, 0, 0]) -> [UInt8]
    {
        bigEndianBytes(UInt32(width)) + bigEndianBytes(UInt32(height)) + [depth, colorType] + methods
    }

    /// An 8-bit grey image of `raw` filtered scanlines, stored uncompressed.
    static func grey(width: Int, height: Int, raw: [UInt8], extra: [(String, [UInt8])] = []) -> [UInt8] {
        file(
            [("IHDR", header(width: width, height: height, depth: 8, colorType: 0))] + extra
                + [("IDAT", storedZlib(raw)), ("IEND", [])])
    }

    /// A zlib stream of one stored deflate block, with its Adler-32.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        let length = data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return [
            0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF),
            UInt8((~length >> 8) & 0xFF),
        ]
            + data + bigEndianBytes(b << 16 | a)
    }

    static func bigEndianBytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// Recomputes every chunk's CRC, so a mutated file gets past the CRC check into the decoder proper.
    static func fixingCRCs(_ png: [UInt8]) -> [UInt8] {
        var out = png
        var offset = 8
        while offset + 12 <= out.count {
            let length = Int(bigEndian(out[offset..<(offset + 4)]))
            guard length <= out.count - offset - 12 else { break }
            let crc = referenceCRC(Array(out[(offset + 4)..<(offset + 8 + length)]))
            out.replaceSubrange((offset + 8 + length)..<(offset + 12 + length), with: bigEndianBytes(crc))
            offset += 12 + length
        }
        return out
    }
}
