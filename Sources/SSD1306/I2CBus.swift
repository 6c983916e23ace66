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
    /// The addresses a device may have: the I2C specification reserves 0x00-0x02 and 0x78-0x7f.
    public static let usable: ClosedRange<UInt8> = 0x03...0x77

    /// The one rule for writing an address, for every message about one (command line and file).
    public static let rule =
        "a 7-bit I2C address 0x03...0x77: write 0x3c or 3c (hexadecimal) or 60 (decimal); digits alone are read as decimal"

    /// An address as people type it, by `rule`: `0x3c`, `0X3C` and `3c` are hexadecimal (a `0x`
    /// prefix or a letter a-f), `60` is decimal; nil for anything else or outside `usable`.
    ///
    /// Digits alone are decimal because that is how a number reads everywhere else, TOML's
    /// `address = 60` included. The SSD1306's 3c and 3d carry a letter; an address copied from
    /// i2cdetect's table without one, such as 48, needs its 0x.
    public init?(parsing text: String) {
        var digits = Substring(text)
        var hexadecimal = false
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            digits = digits.dropFirst(2)
            hexadecimal = true
        }
        // Only ASCII digits and letters: Int(_:radix:) alone would also take a sign.
        guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit }) else { return nil }
        // Past '9' in ASCII, a hexadecimal digit is a letter.
        if digits.unicodeScalars.contains(where: { $0.value > 0x39 }) { hexadecimal = true }
        guard let value = Int64(digits, radix: hexadecimal ? 16 : 10) else { return nil }
        self.init(usable: value)
    }

    /// The address a number names (a configuration's integer, which TOML already read as `60` or
    /// `0x3c`); nil outside `usable`.
    public init?(usable value: Int64) {
        guard value >= Int64(Self.usable.lowerBound), value <= Int64(Self.usable.upperBound) else { return nil }
        self.init(UInt8(value))
    }
}
