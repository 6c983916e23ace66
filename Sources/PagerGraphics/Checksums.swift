extension PNG {
    /// Adler-32 (RFC 1950, section 8.2), the checksum that ends a zlib stream.
    static func adler32(_ data: some Sequence<UInt8>) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var pending = 0
        for byte in data {
            a += UInt32(byte)
            b += a
            pending += 1
            // 5552 bytes is the most that cannot overflow 32 bits before the modulo (zlib's NMAX).
            if pending == 5552 {
                a %= 65_521
                b %= 65_521
                pending = 0
            }
        }
        return (b % 65_521) << 16 | (a % 65_521)
    }

    /// CRC-32 as PNG chunks use it (ISO 3309; PNG specification, annex D), a byte at a time from a table.
    static func crc32(_ data: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return ~crc
    }

    /// The CRC of each byte value, reflected polynomial 0xEDB88320.
    private static let crcTable: [UInt32] = (0..<256).map { (value: Int) -> UInt32 in
        var crc = UInt32(value)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }
}
