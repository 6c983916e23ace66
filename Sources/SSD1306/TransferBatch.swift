/// I2C write transactions in order, their bytes in one buffer: what the engine hands its shell.
///
/// The engine fills one batch again and again, reset in place: once the shell has let go of the
/// batch it was handed, the next frame's bytes go into the same storage, and a frame allocates
/// nothing. A shell that keeps transfers (a trace) copies them with `I2CTransfer(_:)`: that copy
/// is the shell's allocation, not the frame's.
public struct TransferBatch: RandomAccessCollection, Hashable, Sendable {
    /// One transaction of a batch, its bytes a slice of the batch's buffer (no copy).
    public struct Transfer: Hashable, Sendable {
        /// The device written to.
        public var address: I2CAddress
        /// The bytes after the address, control byte first for an SSD1306.
        public var bytes: ArraySlice<UInt8>
    }

    /// Where one transaction's bytes end in `buffer`, and its device.
    private struct Record: Hashable, Sendable {
        var address: I2CAddress
        var end: Int
    }

    /// Every transaction's bytes, one after the other.
    private var buffer: [UInt8] = []
    private var records: [Record] = []

    /// No transfers.
    public init() {}

    /// The batch of `transfers`, in order.
    public init(_ transfers: some Sequence<I2CTransfer>) {
        for transfer in transfers { append(transfer.bytes, to: transfer.address) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    public subscript(position: Int) -> Transfer {
        let start = position == 0 ? 0 : records[position - 1].end
        return Transfer(address: records[position].address, bytes: buffer[start..<records[position].end])
    }

    /// Bytes of every transaction, address bytes not counted.
    public var byteCount: Int { buffer.count }

    /// Adds a transaction of `bytes` to `address`.
    public mutating func append(_ bytes: some Collection<UInt8>, to address: I2CAddress) {
        buffer.append(contentsOf: bytes)
        records.append(Record(address: address, end: buffer.count))
    }

    /// Adds the transactions of `other`, in order.
    public mutating func append(contentsOf other: TransferBatch) {
        for transfer in other { append(transfer.bytes, to: transfer.address) }
    }

    /// Forgets every transaction, keeping the storage for the next ones.
    public mutating func removeAll() {
        buffer.removeAll(keepingCapacity: true)
        records.removeAll(keepingCapacity: true)
    }
}

extension I2CTransfer {
    /// A copy of `transfer`, its bytes in an array of their own, to keep.
    public init(_ transfer: TransferBatch.Transfer) {
        self.init(address: transfer.address, bytes: Array(transfer.bytes))
    }
}

extension I2CBus {
    /// Writes each transfer of `batch` in order; stops at the first failure.
    public mutating func replay(_ batch: TransferBatch) throws(Failure) {
        for transfer in batch {
            try write(Array(transfer.bytes), to: transfer.address)
        }
    }
}
