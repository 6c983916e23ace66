import Foundation
import Glibc

/// Why a test's notification socket could not be set up.
public struct NotificationListenerError: Error, CustomStringConvertible {
    /// What failed, with errno's words.
    public var description: String
}

/// A datagram socket standing in for systemd's notification socket (NOTIFY_SOCKET): bound to a
/// path or, for a name starting with '@', to an abstract name; it hands back each datagram as text.
public final class NotificationListener {
    /// What NOTIFY_SOCKET must say to reach this socket.
    public let name: String
    private let descriptor: Int32

    /// A socket bound to `name`: a path (removed again with the listener), or "@..." for an abstract name.
    public init(name: String) throws {
        let raw = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else {
            throw NotificationListenerError(description: "socket: \(String(cString: strerror(errno)))")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(raw)
            throw NotificationListenerError(description: "\(name) is too long for a socket address")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(raw, $0, length) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(raw)
            throw NotificationListenerError(description: "bind \(name): \(reason)")
        }
        self.name = name
        descriptor = raw
    }

    deinit {
        close(descriptor)
        if !name.hasPrefix("@") { unlink(name) }
    }

    /// The next datagram, waiting for it until `deadline` seconds from now; nil when none came.
    public func receive(within deadline: Double) -> String? {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let end = Date().addingTimeInterval(deadline)
        while true {
            let left = Int32(max(0, end.timeIntervalSinceNow * 1000).rounded(.up))
            let ready = poll(&request, 1, left)
            if ready > 0 { break }
            if ready == 0 || errno != EINTR { return nil }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count >= 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
    }

    /// The datagrams until one satisfies `wanted` (that one last), or until `deadline` seconds pass.
    public func receive(until wanted: (String) -> Bool, within deadline: Double) -> (all: [String], found: Bool) {
        let end = Date().addingTimeInterval(deadline)
        var all: [String] = []
        while let message = receive(within: max(0, end.timeIntervalSinceNow)) {
            all.append(message)
            if wanted(message) { return (all, true) }
        }
        return (all, false)
    }

    /// Every datagram already waiting, without waiting for more.
    public func drain() -> [String] {
        var all: [String] = []
        while let message = receive(within: 0) { all.append(message) }
        return all
    }
}
