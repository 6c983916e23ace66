/// Why a zlib stream could not be inflated.
public enum InflateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The two zlib header bytes are wrong (RFC 1950, section 2.2).
    case badHeader(String)
    /// The stream ends in the middle of a block or before its Adler-32.
    case truncated
    /// A block header says type 3, which RFC 1951 reserves.
    case reservedBlockType
    /// A stored block's LEN and NLEN are not each other's complement.
    case storedLengthMismatch
    /// A Huffman table or code in the stream is invalid.
    case badCode(String)
    /// A back-reference points before the start of the output.
    case distanceTooFar(distance: Int, available: Int)
    /// The stream would inflate past `limit` bytes: corrupt, or a decompression bomb.
    case outputTooLarge(limit: Int)
    /// The Adler-32 at the end does not match the inflated bytes.
    case checksumMismatch(expected: UInt32, computed: UInt32)

    /// A sentence for the operator.
    public var description: String {
        switch self {
        case .badHeader(let detail): return "bad zlib header: \(detail)"
        case .truncated: return "the compressed data ends early"
        case .reservedBlockType: return "a deflate block has the reserved type 3"
        case .storedLengthMismatch: return "a stored deflate block's length and its complement disagree"
        case .badCode(let detail): return "invalid Huffman code: \(detail)"
        case .distanceTooFar(let distance, let available):
            return "a back-reference reaches \(distance) bytes back, but only \(available) bytes were written"
        case .outputTooLarge(let limit): return "the data inflates past the \(limit) bytes expected"
        case .checksumMismatch(let expected, let computed):
            return
                "Adler-32 checksum mismatch (stored 0x\(String(expected, radix: 16)), computed 0x\(String(computed, radix: 16)))"
        }
    }
}

/// A zlib (RFC 1950) and deflate (RFC 1951) decompressor: stored, fixed and dynamic Huffman blocks.
///
/// It follows Mark Adler's `puff.c` (the reference inflater in zlib's contrib): canonical Huffman
/// codes decoded a bit at a time from per-length counts, which is small and obviously bounded.
/// The caller states how many bytes it expects, and inflating stops with an error past that.
public enum Inflate {
    /// The bytes of the zlib stream `data`, refusing to produce more than `maximumOutput` bytes.
    public static func zlib(_ data: [UInt8], maximumOutput: Int) throws(InflateError) -> [UInt8] {
        guard data.count >= 2 else { throw .truncated }
        let cmf = data[0]
        let flags = data[1]
        guard cmf & 0x0F == 8 else { throw .badHeader("compression method \(cmf & 0x0F), expected 8 (deflate)") }
        guard cmf >> 4 <= 7 else { throw .badHeader("window size 2^\(Int(cmf >> 4) + 8) is over 32 KiB") }
        guard (UInt16(cmf) << 8 | UInt16(flags)) % 31 == 0 else { throw .badHeader("the header check bits are wrong") }
        guard flags & 0x20 == 0 else { throw .badHeader("a preset dictionary is not allowed") }
        var reader = BitReader(bytes: data, offset: 2)
        let out = try deflate(&reader, maximumOutput: maximumOutput)
        reader.alignToByte()
        guard let stored = reader.bigEndianUInt32() else { throw .truncated }
        let computed = PNG.adler32(out)
        guard stored == computed else { throw .checksumMismatch(expected: stored, computed: computed) }
        return out
    }

    /// Inflates deflate blocks from `reader` until the final one.
    static func deflate(_ reader: inout BitReader, maximumOutput: Int) throws(InflateError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(maximumOutput, 1 << 20))
        var final = false
        while !final {
            final = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0: try stored(&reader, into: &out, maximumOutput: maximumOutput)
            case 1: try codes(&reader, Huffman.fixed, into: &out, maximumOutput: maximumOutput)
            case 2: try codes(&reader, try dynamicTables(&reader), into: &out, maximumOutput: maximumOutput)
            default: throw .reservedBlockType
            }
        }
        return out
    }

    /// A stored block (RFC 1951, section 3.2.4): byte-aligned LEN, NLEN, then LEN literal bytes.
    private static func stored(_ reader: inout BitReader, into out: inout [UInt8], maximumOutput: Int)
        throws(InflateError)
    {
        reader.alignToByte()
        guard reader.offset + 4 <= reader.bytes.count else { throw .truncated }
        let length = Int(reader.bytes[reader.offset]) | Int(reader.bytes[reader.offset + 1]) << 8
        let complement = Int(reader.bytes[reader.offset + 2]) | Int(reader.bytes[reader.offset + 3]) << 8
        guard length == ~complement & 0xFFFF else { throw .storedLengthMismatch }
        reader.offset += 4
        guard reader.offset + length <= reader.bytes.count else { throw .truncated }
        guard out.count + length <= maximumOutput else { throw .outputTooLarge(limit: maximumOutput) }
        out += reader.bytes[reader.offset..<(reader.offset + length)]
        reader.offset += length
    }

    // RFC 1951, section 3.2.5: the base and extra bits of length codes 257...285 and distance codes 0...29.
    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193,
        12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// Literals and length/distance pairs until the end-of-block code 256.
    private static func codes(
        _ reader: inout BitReader, _ tables: (lengths: Huffman, distances: Huffman), into out: inout [UInt8],
        maximumOutput: Int
    ) throws(InflateError) {
        while true {
            let symbol = try tables.lengths.decode(&reader)
            if symbol < 256 {
                guard out.count < maximumOutput else { throw .outputTooLarge(limit: maximumOutput) }
                out.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let index = symbol - 257
            guard index < lengthBase.count else { throw .badCode("length symbol \(symbol)") }
            let length = lengthBase[index] + Int(try reader.bits(lengthExtra[index]))
            let distanceSymbol = try tables.distances.decode(&reader)
            guard distanceSymbol < distanceBase.count else { throw .badCode("distance symbol \(distanceSymbol)") }
            let distance = distanceBase[distanceSymbol] + Int(try reader.bits(distanceExtra[distanceSymbol]))
            guard distance <= out.count else { throw .distanceTooFar(distance: distance, available: out.count) }
            guard out.count + length <= maximumOutput else { throw .outputTooLarge(limit: maximumOutput) }
            // Byte by byte: the source may overlap what this copy writes (a run when distance < length).
            let start = out.count - distance
            for step in 0..<length { out.append(out[start + step]) }
        }
    }

    /// The order code-length code lengths are sent in (RFC 1951, section 3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Reads the code lengths of a dynamic block and builds its two tables.
    private static func dynamicTables(_ reader: inout BitReader) throws(InflateError) -> (
        lengths: Huffman, distances: Huffman
    ) {
        let literalCount = Int(try reader.bits(5)) + 257
        let distanceCount = Int(try reader.bits(5)) + 1
        let codeLengthCount = Int(try reader.bits(4)) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw .badCode("\(literalCount) literal/length and \(distanceCount) distance codes (at most 286 and 30)")
        }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengthLengths[codeLengthOrder[index]] = Int(try reader.bits(3)) }
        let codeLengthCode = try Huffman(lengths: codeLengthLengths)

        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengthCode.decode(&reader)
            var repeated = 0
            var count = 0
            switch symbol {
            case 0...15:
                lengths.append(symbol)
                continue
            case 16:
                guard let previous = lengths.last else { throw .badCode("a repeat code with no previous length") }
                repeated = previous
                count = 3 + Int(try reader.bits(2))
            case 17: count = 3 + Int(try reader.bits(3))
            default: count = 11 + Int(try reader.bits(7))
            }
            guard lengths.count + count <= literalCount + distanceCount else {
                throw .badCode("code lengths repeat past the end")
            }
            lengths += repeatElement(repeated, count: count)
        }
        guard lengths[256] != 0 else { throw .badCode("no end-of-block code") }
        return (
            try Huffman(lengths: Array(lengths[..<literalCount])), try Huffman(lengths: Array(lengths[literalCount...]))
        )
    }
}

/// A canonical Huffman code: how many codes have each length, and the symbols in code order.
struct Huffman {
    static let maximumBits = 15
    var counts: [Int]
    var symbols: [Int]

    /// Builds the code from each symbol's code length (0: unused); refuses an over-subscribed set.
    init(lengths: [Int]) throws(InflateError) {
        var counts = [Int](repeating: 0, count: Self.maximumBits + 1)
        for length in lengths { counts[length] += 1 }
        var left = 1
        for length in 1...Self.maximumBits {
            left = left * 2 - counts[length]
            guard left >= 0 else { throw .badCode("over-subscribed code lengths") }
        }
        // An incomplete code is allowed (RFC 1951 permits one distance code); unused codes fail in decode.
        self.init(checkedLengths: lengths)
    }

    /// Builds the code from lengths known not to over-subscribe it.
    private init(checkedLengths lengths: [Int]) {
        counts = [Int](repeating: 0, count: Self.maximumBits + 1)
        for length in lengths { counts[length] += 1 }
        var offsets = [Int](repeating: 0, count: Self.maximumBits + 2)
        for length in 1...Self.maximumBits { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }

    /// The fixed literal/length and distance codes of block type 1 (RFC 1951, section 3.2.6).
    static let fixed: (lengths: Huffman, distances: Huffman) = {
        let lengths =
            [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24)
            + [Int](repeating: 8, count: 8)
        // Both sets of lengths are the RFC's own, complete codes: no check needed.
        return (Huffman(checkedLengths: lengths), Huffman(checkedLengths: [Int](repeating: 5, count: 30)))
    }()

    /// The next symbol: Huffman codes are packed most significant bit first (RFC 1951, section 3.1.1).
    func decode(_ reader: inout BitReader) throws(InflateError) -> Int {
        var code = 0
        var first = 0
        var index = 0
        for length in 1...Self.maximumBits {
            code |= Int(try reader.bits(1))
            let count = counts[length]
            if code - first < count { return symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw .badCode("a code matches no symbol")
    }
}

/// Bits from a byte array, least significant bit of each byte first (RFC 1951, section 3.1.1).
struct BitReader {
    let bytes: [UInt8]
    var offset: Int
    private var buffer: UInt32 = 0
    private var bufferedBits = 0

    init(bytes: [UInt8], offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The next `count` bits (at most 16) as a number, the first bit read the least significant.
    mutating func bits(_ count: Int) throws(InflateError) -> UInt32 {
        while bufferedBits < count {
            guard offset < bytes.count else { throw .truncated }
            buffer |= UInt32(bytes[offset]) << UInt32(bufferedBits)
            offset += 1
            bufferedBits += 8
        }
        let value = buffer & ((1 << UInt32(count)) - 1)
        buffer >>= UInt32(count)
        bufferedBits -= count
        return value
    }

    /// Drops the rest of the current byte; bytes are only ever loaded whole, so none are lost.
    mutating func alignToByte() {
        buffer = 0
        bufferedBits = 0
    }

    /// Four bytes, most significant first, at the byte position; nil if the data ends.
    mutating func bigEndianUInt32() -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        defer { offset += 4 }
        return bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
