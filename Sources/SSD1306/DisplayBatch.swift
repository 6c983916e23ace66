/// Whether a record's bytes are commands or display data: the controller's D/C# (section 8.1).
public enum DisplayRecordKind: Hashable, Sendable {
    /// Commands and their arguments (D/C# low; control byte 00h on I2C).
    case commands
    /// Display data for GDDRAM (D/C# high; control byte 40h on I2C).
    case data
}

/// Command and data records in order, their bytes in one buffer: what the driver sends through
/// a `DisplayQueue` and the engine hands its shell. No address, no control byte: the display
/// interface adds its own framing (`I2CDisplayInterface`, the SPI bus's D/C# line).
///
/// The engine fills one batch again and again, reset in place: once the shell has let go of the
/// batch it was handed, the next frame's bytes go into the same storage, and a frame allocates
/// nothing. A shell that keeps records (a trace) copies them (`append(contentsOf:)`): that copy
/// is the shell's allocation, not the frame's.
public struct DisplayBatch: RandomAccessCollection, Hashable, Sendable {
    /// One record of a batch, its bytes a slice of the batch's buffer (no copy).
    public struct Record: Hashable, Sendable {
        /// Commands or display data.
        public var kind: DisplayRecordKind
        /// The bytes, without framing.
        public var bytes: ArraySlice<UInt8>

        /// A record of `bytes`.
        public init(kind: DisplayRecordKind, bytes: ArraySlice<UInt8>) {
            self.kind = kind
            self.bytes = bytes
        }
    }

    /// Where one record's bytes end in `buffer`, and its kind.
    private struct End: Hashable, Sendable {
        var kind: DisplayRecordKind
        var end: Int
    }

    /// Every record's bytes, one after the other.
    private var buffer: [UInt8] = []
    private var ends: [End] = []

    /// No records.
    public init() {}

    /// The batch of `records`, in order.
    public init(_ records: some Sequence<Record>) {
        for record in records { append(record.bytes, as: record.kind) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.count }

    public subscript(position: Int) -> Record {
        let start = position == 0 ? 0 : ends[position - 1].end
        return Record(kind: ends[position].kind, bytes: buffer[start..<ends[position].end])
    }

    /// Bytes of every record, without framing.
    public var byteCount: Int { buffer.count }

    /// Bytes of every record with one control byte each: what an I2C bus carries after the
    /// addresses, the measure the frame pacer and the benchmarks count a batch in.
    public var framedByteCount: Int { buffer.count + ends.count }

    /// Adds a record of `bytes`.
    public mutating func append(_ bytes: some Collection<UInt8>, as kind: DisplayRecordKind) {
        buffer.append(contentsOf: bytes)
        ends.append(End(kind: kind, end: buffer.count))
    }

    /// Adds the records of `other`, in order.
    public mutating func append(contentsOf other: DisplayBatch) {
        for record in other { append(record.bytes, as: record.kind) }
    }

    /// Forgets every record, keeping the storage for the next ones.
    public mutating func removeAll() {
        buffer.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }
}

extension DisplayInterface {
    /// Sends each record of `batch` in order; stops at the first failure.
    public mutating func send(_ batch: DisplayBatch) throws(Failure) {
        for record in batch { try send(record.kind, record.bytes) }
    }
}
