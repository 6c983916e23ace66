/// Writes bitmaps as PNG images, for people to look at (frames, README pictures).
///
/// The image is 1-bit indexed colour with a two-entry palette, so a frame can look like
/// a white, blue or yellow OLED. The pixel data is stored with uncompressed deflate
/// blocks: a 512x256 frame is about 8 KiB, and the encoder stays a page of code.
public enum PNG {
    /// An RGB colour for the palette.
    public struct Color: Hashable, Sendable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        /// Creates a colour from its components.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// Black: the unlit OLED.
        public static let black = Color(red: 0, green: 0, blue: 0)
        /// White.
        public static let white = Color(red: 255, green: 255, blue: 255)
        /// The pale blue of a blue OLED module.
        public static let oledBlue = Color(red: 0x7F, green: 0xD8, blue: 0xFF)

        /// The colour written as `#RRGGBB` or `RRGGBB` (hex digits in either case); nil for anything else.
        public init?(hex text: String) {
            var digits = Substring(text)
            if digits.hasPrefix("#") { digits = digits.dropFirst() }
            // Hex digits only: UInt32(_:radix:) would also take a sign.
            let isHexDigit: (UInt8) -> Bool = { (0x30...0x39).contains($0) || (0x41...0x46).contains($0 & 0xDF) }
            guard digits.utf8.count == 6, digits.utf8.allSatisfy(isHexDigit), let value = UInt32(digits, radix: 16)
            else { return nil }
            self.init(
                red: UInt8(truncatingIfNeeded: value >> 16), green: UInt8(truncatingIfNeeded: value >> 8),
                blue: UInt8(truncatingIfNeeded: value))
        }
    }

    /// PNG bytes of `bitmap`, each pixel drawn as a `scale` x `scale` square.
    public static func encode(_ bitmap: Bitmap, scale: Int = 1, lit: Color = .white, dark: Color = .black) -> [UInt8] {
        let factor = max(1, scale)
        let width = bitmap.width * factor
        let height = bitmap.height * factor
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [1, 3, 0, 0, 0]  // bit depth 1, indexed colour, deflate, adaptive filter, no interlace
        appendChunk("IHDR", header, to: &out)
        appendChunk("PLTE", [dark.red, dark.green, dark.blue, lit.red, lit.green, lit.blue], to: &out)

        let rowBytes = (width + 7) / 8
        var raw: [UInt8] = []
        raw.reserveCapacity((rowBytes + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter type None
            var byte: UInt8 = 0
            for x in 0..<width {
                if bitmap[x / factor, y / factor] { byte |= 0x80 >> UInt8(x & 7) }
                if x & 7 == 7 {
                    raw.append(byte)
                    byte = 0
                }
            }
            if width & 7 != 0 { raw.append(byte) }
        }
        appendChunk("IDAT", zlibStored(raw), to: &out)
        appendChunk("IEND", [], to: &out)
        return out
    }

    private static func appendChunk(_ type: StaticString, _ data: [UInt8], to out: inout [UInt8]) {
        out.appendBigEndian(UInt32(data.count))
        var typed: [UInt8] = []
        type.withUTF8Buffer { typed.append(contentsOf: $0) }
        typed += data
        out += typed
        out.appendBigEndian(crc32(typed))
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951, section 3.2.4).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let length = min(65_535, data.count - start)
            let final: UInt8 = start + length >= data.count ? 1 : 0
            out.append(final)
            out.append(UInt8(length & 0xFF))
            out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF))
            out.append(UInt8((~length >> 8) & 0xFF))
            out += data[start..<(start + length)]
            start += length
        } while start < data.count
        out.appendBigEndian(adler32(data))
        return out
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(value >> 24))
        append(UInt8((value >> 16) & 0xFF))
        append(UInt8((value >> 8) & 0xFF))
        append(UInt8(value & 0xFF))
    }
}
