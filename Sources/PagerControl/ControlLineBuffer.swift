/// The bytes a connection has sent and no line has taken yet, bounded: a client that sends more
/// than a line's worth without a newline gets `tooLong` and is closed, never buffered further.
package struct ControlLineBuffer: Sendable {
    /// What one `take` found in the bytes so far.
    package enum Item: Hashable, Sendable {
        /// A whole line and the request it holds, or why it holds none.
        case request(Result<ControlRequest, ControlRequestError>)
        /// More than a line's worth without a newline: answer `tooLong` and close.
        case overflow
    }

    private var pending: [UInt8] = []
    /// Whether the connection went over the limit: what comes after is not read.
    package private(set) var overflowed = false

    /// An empty buffer.
    package init() {}

    /// Whether half a line waits for its end.
    package var holdsPartialLine: Bool { !pending.isEmpty }

    /// Adds `bytes` and returns the lines they complete, in order; `overflow` last when the rest
    /// is over the limit (and nothing after it).
    package mutating func append(_ bytes: some Collection<UInt8>) -> [Item] {
        guard !overflowed else { return [] }
        var items: [Item] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                items.append(
                    .request(Result { () throws(ControlRequestError) in try ControlRequest(parsing: pending) }))
                pending.removeAll(keepingCapacity: true)
                continue
            }
            guard pending.count + 1 < ControlProtocol.maximumLineBytes else {
                overflowed = true
                pending = []
                items.append(.overflow)
                return items
            }
            pending.append(byte)
        }
        return items
    }
}
