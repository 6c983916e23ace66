import PagerGraphics
import TestSupport
import Testing

/// A PNG chunk as read back from the file.
struct Chunk {
    var type: String
    var data: [UInt8]
    var crc: UInt32
}

func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.reduce(0) { ($0 << 8) | UInt32($1) }
}

/// Splits a PNG into chunks after checking the signature.
func chunks(of png: [UInt8]) throws -> [Chunk] {
    try #require(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var result: [Chunk] = []
    var offset = 8
    while offset < png.count {
        try #require(offset + 12 <= png.count)
        let length = Int(bigEndian(png[offset..<(offset + 4)]))
        try #require(offset + 12 + length <= png.count)
        let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
        let data = Array(png[(offset + 8)..<(offset + 8 + length)])
        let crc = bigEndian(png[(offset + 8 + length)..<(offset + 12 + length)])
        result.append(Chunk(type: type, data: data, crc: crc))
        offset += 12 + length
    }
    return result
}

/// CRC-32 as PNG uses it (ISO 3309), written bit by bit, independent of the encoder's.
func referenceCRC(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        for bit in 0..<8 {
            let mix = (crc ^ UInt32(byte >> UInt8(bit))) & 1
            crc = (crc >> 1) ^ (mix == 1 ? 0xEDB8_8320 : 0)
        }
    }
    return crc ^ 0xFFFF_FFFF
}

/// Inflates a zlib stream made only of stored blocks (RFC 1950, RFC 1951 section 3.2.4).
func inflateStored(_ stream: [UInt8]) throws -> [UInt8] {
    try #require(stream.count >= 6)
    let cmf = stream[0]
    let flags = stream[1]
    try #require(cmf & 0x0F == 8, "deflate compression")
    try #require((UInt16(cmf) << 8 | UInt16(flags)) % 31 == 0, "header check")
    try #require(flags & 0x20 == 0, "no preset dictionary")
    var out: [UInt8] = []
    var offset = 2
    var final = false
    while !final {
        try #require(offset + 5 <= stream.count)
        let header = stream[offset]
        final = header & 1 == 1
        try #require(header >> 1 & 3 == 0, "stored block")
        let length = Int(stream[offset + 1]) | Int(stream[offset + 2]) << 8
        let complement = Int(stream[offset + 3]) | Int(stream[offset + 4]) << 8
        try #require(length == ~complement & 0xFFFF, "LEN and NLEN agree")
        offset += 5
        try #require(offset + length <= stream.count)
        out += stream[offset..<(offset + length)]
        offset += length
    }
    try #require(offset + 4 == stream.count, "adler32 ends the stream")
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in out {
        a = (a + UInt32(byte)) % 65_521
        b = (b + a) % 65_521
    }
    #expect(bigEndian(stream[offset..<(offset + 4)]) == b << 16 | a, "adler32")
    return out
}

/// Decodes a 1-bit indexed PNG with filter type None back into lit pixels.
func decodePNG(_ png: [UInt8]) throws -> (bitmap: Bitmap, palette: [UInt8]) {
    let all = try chunks(of: png)
    let header = try #require(all.first)
    let width = Int(bigEndian(header.data[0..<4]))
    let height = Int(bigEndian(header.data[4..<8]))
    let palette = try #require(all.first { $0.type == "PLTE" }).data
    let raw = try inflateStored(all.filter { $0.type == "IDAT" }.flatMap(\.data))
    let rowBytes = (width + 7) / 8
    try #require(raw.count == (rowBytes + 1) * height)
    var bitmap = Bitmap(width: width, height: height)
    for y in 0..<height {
        let row = y * (rowBytes + 1)
        #expect(raw[row] == 0, "filter type None")
        for x in 0..<width where raw[row + 1 + x / 8] & (0x80 >> UInt8(x % 8)) != 0 {
            bitmap[x, y] = true
        }
    }
    return (bitmap, palette)
}

@Suite("PNG")
struct PNGTests {
    @Test("the file is signature, IHDR, PLTE, IDAT, IEND, each with a correct CRC")
    func structure() throws {
        let bitmap = Bitmap(rows: ["#..#", ".##.", "#..."])
        let png = PNG.encode(bitmap, scale: 3, lit: .oledBlue, dark: .black)
        let all = try chunks(of: png)
        #expect(all.map(\.type) == ["IHDR", "PLTE", "IDAT", "IEND"])
        for chunk in all {
            #expect(chunk.crc == referenceCRC(Array(chunk.type.utf8) + chunk.data), "\(chunk.type) CRC")
        }
        // IHDR: width, height, bit depth 1, colour type 3 (indexed), deflate, filter 0, no interlace.
        #expect(all[0].data == [0, 0, 0, 12, 0, 0, 0, 9, 1, 3, 0, 0, 0])
        #expect(all[1].data == [0, 0, 0, 0x7F, 0xD8, 0xFF])
        #expect(all[3].data.isEmpty)
        #expect(referenceCRC(Array("IEND".utf8)) == 0xAE42_6082, "the well-known IEND CRC")
    }

    @Test("the pixel data decodes back to the bitmap, scaled", arguments: [1, 2, 3, 8])
    func pixelsRoundTrip(scale: Int) throws {
        var generator = SeededGenerator(seed: UInt64(scale))
        for _ in 0..<20 {
            let bitmap = randomBitmap(
                width: Int.random(in: 1...40, using: &generator), height: Int.random(in: 1...30, using: &generator),
                using: &generator)
            let decoded = try decodePNG(PNG.encode(bitmap, scale: scale)).bitmap
            #expect(decoded == scaledUp(bitmap, by: scale))
        }
    }

    @Test("data over 65535 bytes is split into several stored blocks")
    func severalBlocks() throws {
        var bitmap = Bitmap(width: 128, height: 64)
        bitmap.fillCircle(center: Point(x: 64, y: 32), radius: 30)
        // 128 * 6 = 768 pixels = 96 bytes a row plus the filter byte, times 384 rows: 37248 bytes. Scale 9: 83808.
        let png = PNG.encode(bitmap, scale: 9)
        let idat = try #require(try chunks(of: png).first { $0.type == "IDAT" }).data
        #expect(idat[2] == 0, "first stored block is not final")
        let decoded = try decodePNG(png).bitmap
        #expect(decoded.width == 128 * 9)
        #expect(decoded[64 * 9, 32 * 9] && !decoded[0, 0])
        #expect(decoded.litPixelCount == bitmap.litPixelCount * 81)
    }

    @Test("a scale below 1 is treated as 1")
    func scaleClamped() throws {
        let bitmap = Bitmap(rows: ["#.", ".#"])
        #expect(PNG.encode(bitmap, scale: 0) == PNG.encode(bitmap, scale: 1))
        #expect(PNG.encode(bitmap, scale: -3) == PNG.encode(bitmap))
    }
}
