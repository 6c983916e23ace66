/// Little-endian fields of wire structures, read and written with bounds checks: every vhost-user
/// payload and virtio ring field is little-endian, whatever the host's byte order.
extension Collection where Element == UInt8, Index == Int {
    /// The `Value` stored little-endian at `offset`, nil when it does not fit in the bytes.
    func littleEndian<Value: FixedWidthInteger & UnsignedInteger>(_: Value.Type, at offset: Int) -> Value? {
        let width = Value.bitWidth / 8
        guard offset >= 0, offset <= count - width else { return nil }
        let start = index(startIndex, offsetBy: offset)
        var value: Value = 0
        for (shift, byte) in self[start..<index(start, offsetBy: width)].enumerated() {
            value |= Value(byte) << (shift * 8)
        }
        return value
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` little-endian.
    mutating func appendLittleEndian<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) {
        for shift in stride(from: 0, to: Value.bitWidth, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// `value` as little-endian bytes.
    static func littleEndian<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(value)
        return bytes
    }
}
