import SSD1306

/// One virtio-i2c request (virtio 1.2 section 5.19, Linux's `include/uapi/linux/virtio_i2c.h`): a
/// device-readable `struct virtio_i2c_out_hdr { le16 addr; le16 padding; le32 flags; }`, the
/// message's data (device-readable for a write, device-writable for a read, absent when empty),
/// and a device-writable status byte.
public struct VirtioI2CRequest: Hashable, Sendable {
    /// VIRTIO_I2C_FLAGS_FAIL_NEXT: when this request fails, the next one fails too (a transfer's
    /// messages but the last carry it).
    public static let failNext: UInt32 = 1 << 0
    /// VIRTIO_I2C_FLAGS_M_RD: the message reads from the target.
    public static let read: UInt32 = 1 << 1
    /// The longest message: `struct i2c_msg`'s length is 16 bits.
    public static let maximumLength = 65535

    /// The target's 7-bit address; nil for a value that is not one (the header holds it shifted left by 1).
    public var address: I2CAddress?
    /// The header's flags.
    public var flags: UInt32
    /// The bytes to write (empty for a read or a zero-length write).
    public var data: [UInt8]
    /// The bytes the driver wants read.
    public var readLength: Int

    /// Whether the message reads.
    public var isRead: Bool { flags & Self.read != 0 }
    /// Whether a failure fails the next request too.
    public var failsNext: Bool { flags & Self.failNext != 0 }

    /// The request in `readable` (header and data) with `writable` device-writable bytes (data and status);
    /// nil when the header is short, or a read carries data, or the sizes are beyond any message.
    public init?(readable: [UInt8], writable: Int) {
        guard let field = readable.littleEndian(UInt16.self, at: 0),
            let flags = readable.littleEndian(UInt32.self, at: 4),
            writable >= 1
        else { return nil }
        // Linux sends `addr << 1`; a field above 0xFF would be a 10-bit address, which the driver never sends.
        address = field <= 0xFF ? I2CAddress(UInt8(field >> 1)) : nil
        self.flags = flags
        data = Array(readable.dropFirst(8))
        readLength = flags & Self.read != 0 ? writable - 1 : 0
        guard data.count <= Self.maximumLength, readLength <= Self.maximumLength, !(isRead && !data.isEmpty)
        else { return nil }
    }
}

/// VIRTIO_I2C_MSG_OK and VIRTIO_I2C_MSG_ERR: the status byte the device writes last.
public enum VirtioI2CStatus: UInt8, Hashable, Sendable {
    /// The target answered.
    case ok = 0
    /// It did not (a NACK), or the request was malformed or failed with the one before it.
    case error = 1
}
