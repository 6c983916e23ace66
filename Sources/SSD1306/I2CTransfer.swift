/// One I2C write transaction: start, address, bytes, stop.
public struct I2CTransfer: Hashable, Sendable {
    /// The device written to.
    public var address: I2CAddress
    /// The bytes after the address, control byte first for an SSD1306.
    public var bytes: [UInt8]

    /// A transfer.
    public init(address: I2CAddress, bytes: [UInt8]) {
        self.address = address
        self.bytes = bytes
    }
}
