/// The hardware seam for the display: one record of commands or display data.
///
/// The driver never knows which bus carries them: `I2CDisplayInterface` adds the control byte
/// (00h or 40h) and the address, an SPI bus sets D/C# from the kind, the emulator takes them as
/// they are. The error is typed, so an in-memory interface whose `Failure` is `Never` needs no `try`.
public protocol DisplayInterface {
    /// What a failed record throws.
    associatedtype Failure: Error

    /// Sends `bytes` as one record of `kind`: one transaction on I2C, one D/C# level on SPI.
    mutating func send(_ kind: DisplayRecordKind, _ bytes: ArraySlice<UInt8>) throws(Failure)
}

/// A display on I2C: each record one write transaction to `address`, its control byte first
/// (section 8.1.5.2): Co = 0 so the rest is one stream, D/C# = 0 for commands (00h) or 1 for
/// display data (40h).
public struct I2CDisplayInterface<Bus: I2CBus>: DisplayInterface {
    /// The bus, public so a test can look at a recording or an emulator behind it.
    public var bus: Bus
    /// The controller's address, usually 0x3C (SA0 low).
    public let address: I2CAddress
    /// The transaction being built, reset in place: no allocation a record.
    private var transaction: [UInt8] = []

    /// The controller at `address` on `bus`.
    public init(bus: Bus, address: I2CAddress = .ssd1306Primary) {
        self.bus = bus
        self.address = address
    }

    /// Writes the control byte of `kind` and `bytes` in one transaction.
    public mutating func send(_ kind: DisplayRecordKind, _ bytes: ArraySlice<UInt8>) throws(Bus.Failure) {
        transaction.removeAll(keepingCapacity: true)
        transaction.append(kind.controlByte)
        transaction.append(contentsOf: bytes)
        try bus.write(transaction, to: address)
    }
}

extension DisplayRecordKind {
    /// The I2C control byte that opens a record of this kind (section 8.1.5.2): Co = 0, so the
    /// rest of the transaction is one stream, and D/C#: 00h for commands, 40h for display data.
    public var controlByte: UInt8 { self == .commands ? 0x00 : 0x40 }
}

extension DisplayBatch {
    /// The I2C transfers that carry the records to `address`: exactly what `I2CDisplayInterface` writes.
    public func transfers(at address: I2CAddress) -> [I2CTransfer] {
        map { I2CTransfer(address: address, bytes: [$0.kind.controlByte] + $0.bytes) }
    }
}

extension I2CDisplayInterface: Sendable where Bus: Sendable {}

/// A display interface that forwards every record to `base` and records the ones `base` accepted,
/// for a trace (`DisplayBatch.transfers(at:)` or `SPITrace.format`).
public struct TracingDisplay<Base: DisplayInterface>: DisplayInterface {
    /// The interface the records go to.
    public var base: Base
    /// The records so far, oldest first; a record that threw is not kept.
    public private(set) var records = DisplayBatch()

    /// A recording wrapper around `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// Forwards the record, then keeps it.
    public mutating func send(_ kind: DisplayRecordKind, _ bytes: ArraySlice<UInt8>) throws(Base.Failure) {
        try base.send(kind, bytes)
        records.append(bytes, as: kind)
    }

    /// Returns the records kept and forgets them, so the next call sees only newer ones.
    public mutating func drainRecords() -> DisplayBatch {
        defer { records = DisplayBatch() }
        return records
    }
}

extension TracingDisplay: Sendable where Base: Sendable {}
