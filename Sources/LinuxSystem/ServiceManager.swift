import CrownVocabulary
import Glibc

/// One thing told to the service manager: an assignment of sd_notify(3)'s protocol.
package enum ServiceNotification: Hashable, Sendable {
    /// READY=1: started up; systemd's `Type=notify` waits for this.
    case ready
    /// STOPPING=1: shutting down.
    case stopping
    /// WATCHDOG=1: alive, for `WatchdogSec=`.
    case watchdog
    /// STATUS=: one line `systemctl status` shows.
    case status(String)

    /// The assignment, `KEY=VALUE`; a status's line breaks become spaces, since each line of a
    /// datagram is an assignment of its own.
    package var assignment: String {
        switch self {
        case .ready: return "READY=1"
        case .stopping: return "STOPPING=1"
        case .watchdog: return "WATCHDOG=1"
        case .status(let text):
            return "STATUS=" + String(text.map { $0.isNewline ? " " : $0 })
        }
    }

    /// The datagram telling `notifications` at once: their assignments, one a line.
    package static func message(_ notifications: [ServiceNotification]) -> String {
        notifications.map(\.assignment).joined(separator: "\n")
    }
}

/// Why the service manager could not be told something.
package enum ServiceManagerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// NOTIFY_SOCKET names neither a path ('/...') nor an abstract socket ('@...'), or too long a one.
    case unsupportedSocket(String)
    /// socket(2) failed.
    case socket(Errno)
    /// sendto(2) to the socket failed.
    case send(socket: String, Errno)

    /// What went wrong, and what to do about a NOTIFY_SOCKET that cannot work.
    package var description: String {
        switch self {
        case .unsupportedSocket(let name):
            return "NOTIFY_SOCKET '\(name)' is neither a socket path nor an abstract name ('@...') of at most "
                + "107 bytes: systemd sets it for Type=notify services; unset it when not run by systemd"
        case .socket(let errno):
            return "cannot open a socket to notify systemd: \(errno)"
        case .send(let socket, let errno):
            return "cannot notify systemd through \(socket): \(errno)"
        }
    }
}

/// The service manager's notification socket, named by NOTIFY_SOCKET: sd_notify(3)'s protocol,
/// reimplemented (systemd documents it as stable and meant to be), so the program links no
/// libsystemd. Each notification is one datagram to an AF_UNIX socket.
package final class ServiceManagerSocket {
    /// NOTIFY_SOCKET as systemd set it.
    package let name: String
    /// `sun_path`'s bytes: the path, or a NUL and the name for an abstract socket.
    private let path: [UInt8]
    private let descriptor: FileDescriptor

    /// The socket NOTIFY_SOCKET names; nil when it is unset or empty (not run by systemd, or not as `Type=notify`).
    package static func fromEnvironment() throws(ServiceManagerError) -> ServiceManagerSocket? {
        guard let value = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return try ServiceManagerSocket(name: value)
    }

    /// A socket that sends to `name`: a path, or an abstract name after '@'.
    package init(name: String) throws(ServiceManagerError) {
        guard let path = Self.socketPath(name) else { throw .unsupportedSocket(name) }
        let raw = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw .socket(.current) }
        self.name = name
        self.path = path
        descriptor = FileDescriptor(rawValue: raw)
    }

    deinit { close(descriptor.rawValue) }

    /// `sun_path`'s bytes for NOTIFY_SOCKET's `name`: an absolute path, or an abstract name ('@'
    /// becomes the leading NUL); nil for anything else (systemd's `vsock:` addresses included) or
    /// a name `sun_path` cannot hold (108 bytes, a path's terminating NUL among them).
    package static func socketPath(_ name: String) -> [UInt8]? {
        let bytes = Array(name.utf8)
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        switch bytes.first {
        case UInt8(ascii: "/") where bytes.count < capacity: return bytes
        case UInt8(ascii: "@") where bytes.count <= capacity && bytes.count > 1: return [0] + bytes.dropFirst()
        default: return nil
        }
    }

    /// The watchdog's timeout from WATCHDOG_USEC (`microseconds`), nil when there is none for
    /// this process: unset, not a positive number, or WATCHDOG_PID (`process`) names another one.
    package static func watchdogTimeout(microseconds: String?, process: String?, ownProcess: Int32) -> TimeSpan? {
        guard let microseconds, let value = Int64(microseconds), value > 0, value <= Int64.max / 1000 else {
            return nil
        }
        if let process, !process.isEmpty, Int32(process) != ownProcess { return nil }
        return TimeSpan(nanoseconds: value * 1000)
    }

    /// The watchdog's timeout this process was started with (`WatchdogSec=`), nil without one.
    package static func watchdogTimeoutFromEnvironment() -> TimeSpan? {
        watchdogTimeout(
            microseconds: getenv("WATCHDOG_USEC").map { String(cString: $0) },
            process: getenv("WATCHDOG_PID").map { String(cString: $0) }, ownProcess: getpid())
    }

    /// Sends `notifications` as one datagram. It never waits: a service manager too busy to take it
    /// (its queue full) is an error like any other, and the caller carries on.
    package func send(_ notifications: [ServiceNotification]) throws(ServiceManagerError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        // A path is counted with its terminating NUL, an abstract name without one (unix(7)).
        let length = MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1)
        let message = Array(ServiceNotification.message(notifications).utf8)
        while true {
            let sent = message.withUnsafeBytes { bytes in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(
                            descriptor.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), $0,
                            socklen_t(length))
                    }
                }
            }
            if sent >= 0 { return }
            let error = Errno.current
            if error != .interrupted { throw .send(socket: name, error) }
        }
    }
}
