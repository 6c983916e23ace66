/// Why an XBM image could not be read.
public enum XBMError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `#define <name>_width N` or `_height N` line.
    case missingDimension(String)
    /// The size is zero, negative or larger than `PBM.maximumSide`.
    case unsupportedSize(width: Int, height: Int)
    /// No `{ ... }` list of bytes.
    case missingBits
    /// A value in the byte list is not a number from 0 to 255.
    case badByte(String)
    /// The byte list ends before the image does.
    case truncated(expected: Int, found: Int)

    /// A sentence for the operator.
    public var description: String {
        switch self {
        case .missingDimension(let which):
            return "not an XBM image: no '#define <name>_\(which) <number>' line"
        case .unsupportedSize(let w, let h):
            return "unsupported XBM size \(w)x\(h) (each side must be 1 to \(PBM.maximumSide))"
        case .missingBits: return "XBM image has no '{ ... }' list of bytes"
        case .badByte(let text): return "XBM byte '\(text)' is not a number from 0 to 255"
        case .truncated(let expected, let found): return "XBM data ends early: \(found) of \(expected) bytes"
        }
    }
}

/// X BitMap, the C-source image format of X11 (and of many OLED icon tools).
///
///     #define star_width 7
///     #define star_height 7
///     static unsigned char star_bits[] = { 0x08, 0x08, 0x7f, ... };
///
/// Rows are padded to whole bytes, and the first pixel of each byte is its least significant bit.
public enum XBM {
    /// Decodes XBM source text; a set bit is a lit pixel.
    public static func decode(_ text: String) throws(XBMError) -> Bitmap {
        let bytes = Array(text.utf8)
        guard let width = dimension("_width", in: bytes) else { throw .missingDimension("width") }
        guard let height = dimension("_height", in: bytes) else { throw .missingDimension("height") }
        guard (1...PBM.maximumSide).contains(width), (1...PBM.maximumSide).contains(height) else {
            throw .unsupportedSize(width: width, height: height)
        }
        guard let open = bytes.firstIndex(of: UInt8(ascii: "{")) else { throw .missingBits }
        let close = bytes[open...].firstIndex(of: UInt8(ascii: "}")) ?? bytes.endIndex
        var values: [UInt8] = []
        for field in bytes[(open + 1)..<close].split(separator: UInt8(ascii: ",")) {
            let token = field.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
            if token.isEmpty { continue }
            guard let value = number(token), value <= 255 else {
                throw .badByte(String(decoding: token, as: UTF8.self))
            }
            values.append(UInt8(value))
        }
        let rowBytes = (width + 7) / 8
        guard values.count >= rowBytes * height else {
            throw .truncated(expected: rowBytes * height, found: values.count)
        }
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where values[y * rowBytes + x / 8] & (1 << UInt8(x % 8)) != 0 {
                bitmap[x, y] = true
            }
        }
        return bitmap
    }

    /// The bitmap as XBM source text named `name`.
    public static func encode(_ bitmap: Bitmap, name: String) -> String {
        var text = "#define \(name)_width \(bitmap.width)\n#define \(name)_height \(bitmap.height)\n"
        text += "static unsigned char \(name)_bits[] = {"
        var fields: [String] = []
        for y in 0..<bitmap.height {
            for byteIndex in 0..<((bitmap.width + 7) / 8) {
                var byte: UInt8 = 0
                for bit in 0..<8 where byteIndex * 8 + bit < bitmap.width && bitmap[byteIndex * 8 + bit, y] {
                    byte |= 1 << UInt8(bit)
                }
                let hex = String(byte, radix: 16)
                fields.append("0x" + (hex.count == 1 ? "0" + hex : hex))
            }
        }
        return text + " " + fields.joined(separator: ", ") + " };\n"
    }

    /// The number after the first `#define ..<suffix>`.
    private static func dimension(_ suffix: String, in bytes: [UInt8]) -> Int? {
        let lines = bytes.split(separator: 0x0A)
        for line in lines {
            let words = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
            guard words.count >= 3, Array(words[0]) == Array("#define".utf8), words[1].count >= suffix.utf8.count,
                Array(words[1].suffix(suffix.utf8.count)) == Array(suffix.utf8)
            else { continue }
            return number(Array(words[2]))
        }
        return nil
    }

    /// A decimal or 0x-prefixed hexadecimal number, or nil.
    private static func number(_ token: [UInt8]) -> Int? {
        var digits = token[...]
        var radix = 10
        if digits.count > 2, digits.first == UInt8(ascii: "0"),
            digits.dropFirst().first.map({ $0 | 0x20 }) == UInt8(ascii: "x")
        {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var value = 0
        for byte in digits {
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            guard digit < radix else { return nil }
            value = value * radix + digit
        }
        return value
    }
}
