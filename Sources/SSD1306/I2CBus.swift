/// A 7-bit I2C device address.
public struct I2CAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address without the read/write bit, 0x00 to 0x7F.
    public let rawValue: UInt8

    /// An address; nil outside the 7-bit range.
    public init?(_ rawValue: UInt8) {
        guard rawValue <= 0x7F else { return nil }
        self.rawValue = rawValue
    }

    /// The SSD1306's usual address with SA0 tied low (datasheet section 8.1.5).
    public static let ssd1306Primary = I2CAddress(unchecked: 0x3C)
    /// The SSD1306's address with SA0 tied high.
    public static let ssd1306Secondary = I2CAddress(unchecked: 0x3D)

    private init(unchecked rawValue: UInt8) { self.rawValue = rawValue }

    /// The address as i2c-tools print it, e.g. `0x3c`.
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return "0x" + (hex.count < 2 ? "0" + hex : hex)
    }
}

/// The hardware seam for the display: one addressed write of bytes, as one I2C transaction
/// (start, address, the bytes, stop).
///
/// Everything above it (control bytes, chunking, page packing) is pure code. The error is
/// typed, so an in-memory bus whose `Failure` is `Never` needs no `try`.
public protocol I2CBus {
    /// What a failed transfer throws.
    associatedtype Failure: Error

    /// Sends `bytes` to the device at `address` in one transaction.
    mutating func write(_ bytes: [UInt8], to address: I2CAddress) throws(Failure)
}

extension I2CAddress {
    /// An address as people type it: `0x3c`, `3c`, `0x3D`; nil for anything else or above 0x7f.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        let digits = lowered.hasPrefix("0x") ? String(lowered.dropFirst(2)) : lowered
        guard !digits.isEmpty, digits.count <= 2, let value = UInt8(digits, radix: 16) else { return nil }
        self.init(value)
    }
}
