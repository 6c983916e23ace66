import Foundation
import Glibc
import PagerGraphics
import Testing

/// A browser's side of the live mirror for the tests: one TCP connection to 127.0.0.1, a request
/// written as bytes, the answer read with a deadline. What it reads it only splits at the blank
/// line after the head; libmicrohttpd is the one HTTP parser under test.
final class MirrorClient {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connected to `port`; nil when nothing listens there.
    init?(port: Int) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, connected == 0 else {
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes`; false when the server closed the connection first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// `GET path` (or another method), with `headers`.
    @discardableResult
    func request(_ path: String, method: String = "GET", headers: [String] = []) -> Bool {
        send(
            Array(
                ([method + " " + path + " HTTP/1.1", "Host: 127.0.0.1"] + headers + ["", ""]).joined(separator: "\r\n")
                    .utf8))
    }

    /// Reads what comes within `seconds`, until `enough` says so; false at the deadline or the end.
    private func read(seconds: Double, until enough: ([UInt8]) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !enough(buffer) {
            let left = Int32(max(0, end.timeIntervalSinceNow * 1000))
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, left) > 0 else { return false }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer += chunk[..<count]
        }
        return true
    }

    /// A whole answer with a Content-Length: its status, head and body; nil at the deadline.
    func answer(seconds: Double = 10) -> (status: Int, head: String, body: [UInt8])? {
        var split: (head: String, bodyStart: Int, length: Int)?
        let complete = read(seconds: seconds) { bytes in
            guard let blank = Self.blankLine(in: bytes) else { return false }
            let head = String(decoding: bytes[..<blank], as: UTF8.self)
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            split = (head, blank + 4, length)
            return bytes.count >= blank + 4 + length
        }
        guard complete, let split else { return nil }
        let body = Array(buffer[split.bodyStart..<(split.bodyStart + split.length)])
        buffer.removeFirst(split.bodyStart + split.length)
        let status = split.head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, split.head, body)
    }

    /// The head of a streamed answer (its status and headers), leaving the stream to `nextGlass`.
    func streamHead(seconds: Double = 10) -> String? {
        guard read(seconds: seconds, until: { Self.blankLine(in: $0) != nil }), let blank = Self.blankLine(in: buffer)
        else { return nil }
        let head = String(decoding: buffer[..<blank], as: UTF8.self)
        buffer.removeFirst(blank + 4)
        return head
    }

    /// The next `glass` event's glass and number, within `seconds`; nil at the deadline. What
    /// comes before it (the stream's `retry`, chunked encoding's size lines) is skipped.
    func nextGlass(seconds: Double = 10) -> (sequence: Int, glass: Bitmap)? {
        var found: (Int, Bitmap)?
        _ = read(seconds: seconds) { _ in
            while found == nil, let event = self.takeEvent() { found = Self.glass(of: event) }
            return found != nil
        }
        return found
    }

    /// The text up to the buffer's first blank line (an event's end), taken out of the buffer.
    private func takeEvent() -> Substring? {
        let text = String(decoding: buffer, as: UTF8.self)
        guard let end = text.range(of: "\n\n") else { return nil }
        buffer.removeFirst(text[..<end.upperBound].utf8.count)
        return text[..<end.lowerBound]
    }

    /// The glass and number of a `glass` event's lines; nil for anything else.
    private static func glass(of event: Substring) -> (Int, Bitmap)? {
        guard let start = event.range(of: "event: glass\n") else { return nil }
        let lines = event[start.upperBound...].split(separator: "\n")
        let sequence = lines.first { $0.hasPrefix("id: ") }.flatMap { Int($0.dropFirst(4)) } ?? 0
        let data = lines.first { $0.hasPrefix("data: ") }.map { $0.dropFirst(6).split(separator: " ") } ?? []
        guard data.count == 3, let width = Int(data[0]), let height = Int(data[1]),
            let bytes = Data(base64Encoded: String(data[2])),
            let glass = Bitmap(width: width, height: height, pageBytes: Array(bytes))
        else { return nil }
        return (sequence, glass)
    }

    /// The newest glass sent within `seconds` of quiet: the events that come until none follows.
    func settledGlass(quiet seconds: Double = 1, deadline: Double = 20) -> Bitmap? {
        var last: Bitmap?
        let end = Date().addingTimeInterval(deadline)
        while Date() < end, let next = nextGlass(seconds: seconds) { last = next.glass }
        return last
    }

    static func blankLine(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first {
            bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
        }
    }
}
