/// A display interface that only queues what a driver sends, for a caller to send later: the
/// pure engine drives the display through it and hands the records to the shell as an effect.
public struct DisplayQueue: DisplayInterface, Hashable, Sendable {
    /// The queued records, taken or not: reset in place by the first record after a take.
    private var batch = DisplayBatch()
    /// Whether `batch` was taken: the next record starts it afresh.
    private var taken = false

    /// An empty queue.
    public init() {}

    /// The records not yet taken, oldest first.
    public var records: DisplayBatch { taken ? DisplayBatch() : batch }

    /// Queues the record; it cannot fail here (the shell's send can).
    public mutating func send(_ kind: DisplayRecordKind, _ bytes: ArraySlice<UInt8>) {
        if taken {
            // In place once the taker has let go of the batch: no allocation a frame.
            batch.removeAll()
            taken = false
        }
        batch.append(bytes, as: kind)
    }

    /// Returns the queued records and forgets them.
    ///
    /// The caller gets the queue's storage itself, not a copy; the next record reuses it (copied
    /// then only if the caller still holds it).
    public mutating func take() -> DisplayBatch {
        guard !taken else { return DisplayBatch() }
        taken = true
        return batch
    }

    public static func == (lhs: DisplayQueue, rhs: DisplayQueue) -> Bool {
        lhs.records == rhs.records
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(records)
    }
}
