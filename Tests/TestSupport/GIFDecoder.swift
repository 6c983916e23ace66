/// A GIF89a reader for the tests, written from the specification apart from the encoder, so a
/// mistake in one is not repeated in the other: every frame is decoded and drawn over the canvas.
public struct DecodedGIF {
    /// The logical screen.
    public var width = 0
    /// The logical screen.
    public var height = 0
    /// The global colour table, as RGB triples.
    public var colors: [[UInt8]] = []
    /// The NETSCAPE2.0 loop count (0: forever), nil without the extension.
    public var loopCount: Int?
    /// Each frame: its delay in hundredths, its rectangle, and the whole canvas (colour indices,
    /// row by row) once it is drawn.
    public var frames: [(delay: Int, x: Int, y: Int, width: Int, height: Int, canvas: [UInt8])] = []
    /// Whether the file ends with its trailer (3Bh).
    public var hasTrailer = false
}

/// What is wrong with a GIF the tests read.
public struct GIFDecodingError: Error, CustomStringConvertible {
    public var description: String
}

extension DecodedGIF {
    /// Reads `bytes`, or throws on anything a strict reader would refuse.
    public init(decoding bytes: [UInt8]) throws {
        var reader = ByteReader(bytes: bytes)
        guard try reader.take(6) == Array("GIF89a".utf8) else {
            throw GIFDecodingError(description: "no GIF89a signature")
        }
        width = try reader.word()
        height = try reader.word()
        let packed = try reader.byte()
        _ = try reader.take(2)  // background index, aspect ratio
        guard packed & 0x80 != 0 else { throw GIFDecodingError(description: "no global colour table") }
        let tableSize = 2 << Int(packed & 0x07)
        for _ in 0..<tableSize { colors.append(try reader.take(3)) }
        var canvas = [UInt8](repeating: 0, count: width * height)
        var delay = 0
        while true {
            let introducer = try reader.byte()
            switch introducer {
            case 0x3B:
                hasTrailer = true
                guard reader.offset == bytes.count else {
                    throw GIFDecodingError(description: "bytes after the trailer")
                }
                return
            case 0x21:
                let label = try reader.byte()
                let blocks = try reader.subBlocks()
                if label == 0xF9 {
                    guard let block = blocks.first, block.count == 4 else {
                        throw GIFDecodingError(description: "a graphic control extension of the wrong size")
                    }
                    delay = Int(block[1]) | Int(block[2]) << 8
                    guard (block[0] >> 2) & 0x07 <= 1 else {
                        throw GIFDecodingError(description: "a disposal other than 0 or 1")
                    }
                } else if label == 0xFF, let first = blocks.first, first == Array("NETSCAPE2.0".utf8), blocks.count > 1
                {
                    loopCount = Int(blocks[1][1]) | Int(blocks[1][2]) << 8
                }
            case 0x2C:
                let x = try reader.word()
                let y = try reader.word()
                let w = try reader.word()
                let h = try reader.word()
                let flags = try reader.byte()
                guard flags & 0xC0 == 0 else { throw GIFDecodingError(description: "a local table or interlace") }
                guard x + w <= width, y + h <= height, w > 0, h > 0 else {
                    throw GIFDecodingError(description: "a frame outside the screen: \(x),\(y) \(w)x\(h)")
                }
                let minimumCodeSize = Int(try reader.byte())
                let data = try reader.subBlocks().flatMap { $0 }
                let pixels = try Self.lzwDecode(data, minimumCodeSize: minimumCodeSize, count: w * h)
                for row in 0..<h {
                    for column in 0..<w { canvas[(y + row) * width + x + column] = pixels[row * w + column] }
                }
                frames.append((delay, x, y, w, h, canvas))
                delay = 0
            default:
                throw GIFDecodingError(description: "unknown block \(introducer) at \(reader.offset - 1)")
            }
        }
    }

    /// The LZW decoding of GIF89a appendix F: `count` colour indices, exactly, then the end code.
    static func lzwDecode(_ data: [UInt8], minimumCodeSize: Int, count: Int) throws -> [UInt8] {
        guard (2...8).contains(minimumCodeSize) else {
            throw GIFDecodingError(description: "minimum code size \(minimumCodeSize)")
        }
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        func roots() -> [[UInt8]] { (0..<clear).map { [UInt8($0)] } + [[], []] }
        var table = roots()
        var codeSize = minimumCodeSize + 1
        var bitOffset = 0
        var output: [UInt8] = []
        var previous: [UInt8]?
        func readCode() throws -> Int {
            guard bitOffset + codeSize <= data.count * 8 else {
                throw GIFDecodingError(description: "data ends without an end code")
            }
            var code = 0
            for bit in 0..<codeSize {
                let position = bitOffset + bit
                if data[position / 8] >> (position % 8) & 1 == 1 { code |= 1 << bit }
            }
            bitOffset += codeSize
            return code
        }
        while true {
            let code = try readCode()
            if code == clear {
                table = roots()
                codeSize = minimumCodeSize + 1
                previous = nil
                continue
            }
            if code == end { break }
            let entry: [UInt8]
            if code < table.count, code != clear, code != end {
                entry = table[code]
            } else if code == table.count, let previous {
                entry = previous + [previous[0]]
            } else {
                throw GIFDecodingError(description: "code \(code) not in a table of \(table.count)")
            }
            output += entry
            if let previous, table.count < 4096 {
                table.append(previous + [entry[0]])
                if table.count == 1 << codeSize, codeSize < 12 { codeSize += 1 }
            }
            previous = entry
        }
        guard output.count == count else { throw GIFDecodingError(description: "\(output.count) pixels, not \(count)") }
        // The padding after the end code must be less than a byte.
        guard (data.count * 8 - bitOffset) < 8 else { throw GIFDecodingError(description: "data after the end code") }
        return output
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw GIFDecodingError(description: "the file ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func take(_ count: Int) throws -> [UInt8] {
        guard offset + count <= bytes.count else { throw GIFDecodingError(description: "the file ends early") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func word() throws -> Int {
        let low = try byte()
        return Int(low) | Int(try byte()) << 8
    }

    mutating func subBlocks() throws -> [[UInt8]] {
        var blocks: [[UInt8]] = []
        while true {
            let size = Int(try byte())
            if size == 0 { return blocks }
            blocks.append(try take(size))
        }
    }
}
