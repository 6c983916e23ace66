import PagerGraphics

/// What each browser watching the mirror is sent: the glass as it changes, one Server-Sent Event
/// per frame the panel accepted, and only the newest to a client that fell behind.
///
/// A stream is read when its socket can take more. It then gets the rest of the event it was
/// sent last, or the newest glass it has not seen, or nothing: it sleeps until the glass changes
/// (`update`), so a mirror of a still glass sends nothing and wakes nothing. A slow client never
/// makes a queue grow: it skips the frames it missed, as a glance at the panel would.
package struct MirrorFeed: Sendable {
    /// The glass's number: 0 before the first, one more for each glass that differs from the last.
    package private(set) var sequence = 0
    /// The newest glass; nil before the first frame.
    package private(set) var glass: Bitmap?
    /// The newest glass's event, as sent.
    private var event: [UInt8] = []
    /// Each stream's glass number sent (or being sent), and the bytes of it still to go.
    private var streams: [UInt64: (sequence: Int, pending: ArraySlice<UInt8>)] = [:]
    /// The next stream's number.
    private var nextStream: UInt64 = 1
    /// How soon a browser tries again after the stream breaks, in milliseconds (the event stream's `retry`).
    package static let retryMilliseconds = 1000

    /// An empty feed: no glass yet, no stream.
    package init() {}

    /// How many streams are open.
    package var streamCount: Int { streams.count }

    /// Takes the glass as it is now; true when it differs from the last (the sleeping streams
    /// then have something to read: wake them).
    package mutating func update(_ glass: Bitmap) -> Bool {
        guard glass != self.glass else { return false }
        self.glass = glass
        sequence += 1
        event = Self.event(glass, sequence: sequence)
        return true
    }

    /// A new stream's number; it starts with the reconnect delay, then the glass as it is.
    package mutating func open() -> UInt64 {
        let id = nextStream
        nextStream += 1
        streams[id] = (0, ArraySlice(Array("retry: \(Self.retryMilliseconds)\n\n".utf8)))
        return id
    }

    /// Forgets stream `id`: its client went.
    package mutating func close(_ id: UInt64) {
        streams[id] = nil
    }

    /// At most `capacity` bytes for stream `id` to send now; empty when it has seen the newest
    /// glass (it sleeps), nil when there is no such stream (it ends).
    package mutating func read(_ id: UInt64, capacity: Int) -> [UInt8]? {
        guard var stream = streams[id] else { return nil }
        if stream.pending.isEmpty, stream.sequence < sequence {
            stream = (sequence, event[...])
        }
        let count = min(max(capacity, 0), stream.pending.count)
        let bytes = Array(stream.pending.prefix(count))
        stream.pending = stream.pending.dropFirst(count)
        streams[id] = stream
        return bytes
    }

    /// `event: glass`, the glass's number as its `id`, and `data:` of its width, height and
    /// GDDRAM bytes (pages of 8 rows, least significant bit at the top) in base64.
    package static func event(_ glass: Bitmap, sequence: Int) -> [UInt8] {
        var text = "event: glass\nid: \(sequence)\ndata: \(glass.width) \(glass.height) "
        text += Base64.encode(glass.bytes)
        text += "\n\n"
        return Array(text.utf8)
    }
}

/// RFC 4648 base64, with padding: the event stream is text.
package enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64.
    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value =
                (UInt32(chunk[chunk.startIndex]) << 16)
                | (chunk.count > 1 ? UInt32(chunk[chunk.startIndex + 1]) << 8 : 0)
                | (chunk.count > 2 ? UInt32(chunk[chunk.startIndex + 2]) : 0)
            for position in 0..<4 {
                out.append(
                    position <= chunk.count
                        ? alphabet[Int((value >> UInt32(18 - 6 * position)) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
