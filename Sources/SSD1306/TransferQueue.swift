/// A bus that only queues what a driver writes, for a caller to send later: the pure engine
/// drives the display through it and hands the transfers to the shell as an effect.
public struct TransferQueue: I2CBus, Hashable, Sendable {
    /// The queued writes, taken or not: reset in place by the first write after a take.
    private var batch = TransferBatch()
    /// Whether `batch` was taken: the next write starts it afresh.
    private var taken = false

    /// An empty queue.
    public init() {}

    /// The writes not yet taken, oldest first.
    public var transfers: TransferBatch { taken ? TransferBatch() : batch }

    /// Queues the write; it cannot fail here (the shell's write can).
    public mutating func write(_ bytes: [UInt8], to address: I2CAddress) {
        if taken {
            // In place once the taker has let go of the batch: no allocation a frame.
            batch.removeAll()
            taken = false
        }
        batch.append(bytes, to: address)
    }

    /// Returns the queued transfers and forgets them.
    ///
    /// The caller gets the queue's storage itself, not a copy; the next write reuses it (copied
    /// then only if the caller still holds it).
    public mutating func take() -> TransferBatch {
        guard !taken else { return TransferBatch() }
        taken = true
        return batch
    }

    public static func == (lhs: TransferQueue, rhs: TransferQueue) -> Bool {
        lhs.transfers == rhs.transfers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(transfers)
    }
}
