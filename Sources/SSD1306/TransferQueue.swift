/// A bus that only queues what a driver writes, for a caller to send later: the pure engine
/// drives the display through it and hands the transfers to the shell as an effect.
public struct TransferQueue: I2CBus, Hashable, Sendable {
    /// The writes not yet taken, oldest first.
    public private(set) var transfers: [I2CTransfer] = []

    /// An empty queue.
    public init() {}

    /// Queues the write; it cannot fail here (the shell's write can).
    public mutating func write(_ bytes: [UInt8], to address: I2CAddress) {
        // Room for a frame's usual transactions at once, rather than growing one at a time.
        if transfers.capacity == 0 { transfers.reserveCapacity(4) }
        transfers.append(I2CTransfer(address: address, bytes: bytes))
    }

    /// Returns the queued transfers and forgets them.
    ///
    /// The caller gets the queue's array itself, not a copy; the queue starts a new one on the next write.
    public mutating func take() -> [I2CTransfer] {
        defer { transfers = [] }
        return transfers
    }
}
