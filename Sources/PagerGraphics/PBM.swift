/// Why a PBM image could not be read.
public enum PBMError: Error, Equatable, Sendable {
    /// The file does not start with `P1` or `P4`.
    case notPBM
    /// The header ends early or a number in it is not a number.
    case malformedHeader(String)
    /// The size is zero, negative or larger than `PBM.maximumSide`.
    case unsupportedSize(width: Int, height: Int)
    /// The pixel data ends before `expected` pixels were read.
    case truncated(expected: Int, found: Int)
    /// A character other than `0`, `1`, white space or a comment in a plain PBM.
    case unexpectedCharacter(UInt8, offset: Int)
}

extension PBMError: CustomStringConvertible {
    /// A sentence for the operator.
    public var description: String {
        switch self {
        case .notPBM: return "not a PBM image (expected the magic number P1 or P4)"
        case .malformedHeader(let detail): return "malformed PBM header: \(detail)"
        case .unsupportedSize(let w, let h):
            return "unsupported PBM size \(w)x\(h) (each side must be 1 to \(PBM.maximumSide))"
        case .truncated(let expected, let found):
            return "PBM pixel data ends early: \(found) of \(expected) pixels"
        case .unexpectedCharacter(let byte, let offset):
            return "unexpected byte 0x\(String(byte, radix: 16)) at offset \(offset) in plain PBM data"
        }
    }
}

/// The Netpbm bitmap format: `1` is a lit pixel, as on the glass.
///
/// Plain PBM (P1) is text, so golden frames diff as pictures: we write one image row
/// per line with no spaces between pixels, which the format allows.
public enum PBM {
    /// The largest side accepted when reading, to keep hostile files from exhausting memory.
    public static let maximumSide = 4096

    /// The bitmap as plain PBM text (P1), one row per line, with an optional comment.
    public static func plain(_ bitmap: Bitmap, comment: String? = nil) -> String {
        var text = "P1\n"
        if let comment {
            for line in comment.split(separator: "\n", omittingEmptySubsequences: false) {
                text += "# \(line)\n"
            }
        }
        text += "\(bitmap.width) \(bitmap.height)\n"
        text.reserveCapacity(text.utf8.count + (bitmap.width + 1) * bitmap.height)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width { text.append(bitmap[x, y] ? "1" : "0") }
            text.append("\n")
        }
        return text
    }

    /// The bitmap as raw PBM bytes (P4): rows packed 8 pixels a byte, most significant bit first.
    public static func raw(_ bitmap: Bitmap) -> [UInt8] {
        var out = Array("P4\n\(bitmap.width) \(bitmap.height)\n".utf8)
        let rowBytes = (bitmap.width + 7) / 8
        out.reserveCapacity(out.count + rowBytes * bitmap.height)
        for y in 0..<bitmap.height {
            for byteIndex in 0..<rowBytes {
                var byte: UInt8 = 0
                for bit in 0..<8 where bitmap[byteIndex * 8 + bit, y] {
                    byte |= 0x80 >> UInt8(bit)
                }
                out.append(byte)
            }
        }
        return out
    }

    /// Reads a plain (P1) or raw (P4) PBM image.
    public static func decode(_ data: some Collection<UInt8>) throws(PBMError) -> Bitmap {
        var reader = HeaderReader(bytes: Array(data))
        guard reader.bytes.count >= 2, reader.bytes[0] == UInt8(ascii: "P") else { throw .notPBM }
        let kind = reader.bytes[1]
        guard kind == UInt8(ascii: "1") || kind == UInt8(ascii: "4") else { throw .notPBM }
        reader.offset = 2
        let width = try reader.number(named: "width")
        let height = try reader.number(named: "height")
        guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else {
            throw .unsupportedSize(width: width, height: height)
        }
        var bitmap = Bitmap(width: width, height: height)
        if kind == UInt8(ascii: "1") {
            try readPlain(&reader, into: &bitmap)
        } else {
            try readRaw(&reader, into: &bitmap)
        }
        return bitmap
    }

    private static func readPlain(_ reader: inout HeaderReader, into bitmap: inout Bitmap) throws(PBMError) {
        let total = bitmap.width * bitmap.height
        var index = 0
        while index < total, reader.offset < reader.bytes.count {
            let byte = reader.bytes[reader.offset]
            switch byte {
            case UInt8(ascii: "0"), UInt8(ascii: "1"):
                if byte == UInt8(ascii: "1") { bitmap[index % bitmap.width, index / bitmap.width] = true }
                index += 1
                reader.offset += 1
            case UInt8(ascii: "#"):
                reader.skipComment()
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                reader.offset += 1
            default:
                throw .unexpectedCharacter(byte, offset: reader.offset)
            }
        }
        guard index == total else { throw .truncated(expected: total, found: index) }
    }

    private static func readRaw(_ reader: inout HeaderReader, into bitmap: inout Bitmap) throws(PBMError) {
        // Exactly one white-space byte separates the header from the raster.
        reader.offset += 1
        let rowBytes = (bitmap.width + 7) / 8
        let needed = rowBytes * bitmap.height
        let available = max(0, reader.bytes.count - reader.offset)
        guard available >= needed else {
            throw .truncated(expected: bitmap.width * bitmap.height, found: (available / rowBytes) * bitmap.width)
        }
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let byte = reader.bytes[reader.offset + y * rowBytes + x / 8]
                if byte & (0x80 >> UInt8(x % 8)) != 0 { bitmap[x, y] = true }
            }
        }
    }

    /// Walks the Netpbm header: numbers separated by white space and `#` comments.
    struct HeaderReader {
        let bytes: [UInt8]
        var offset = 0

        mutating func skipComment() {
            while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
        }

        mutating func number(named name: String) throws(PBMError) -> Int {
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "#") {
                    skipComment()
                } else if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    offset += 1
                } else {
                    break
                }
            }
            var value = 0
            var digits = 0
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
                value = value * 10 + Int(bytes[offset] - UInt8(ascii: "0"))
                digits += 1
                offset += 1
                // Past this many digits the value is absurd; stop before it overflows.
                guard digits <= 9 else { throw .malformedHeader("\(name) has too many digits") }
            }
            guard digits > 0 else { throw .malformedHeader("expected the \(name) as a decimal number") }
            return value
        }
    }
}
