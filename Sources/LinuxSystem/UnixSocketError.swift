/// A Unix socket, shared mapping or eventfd call of the vhost-user back-end failed.
package enum UnixSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `operation` on the socket at `path` failed with `errno`.
    case failed(operation: String, path: String, errno: Errno)
    /// Something other than a socket is at `path`: it is not removed to make room.
    case notASocket(path: String)
    /// The peer sent more file descriptors than the message has room for, or a truncated message.
    case truncated(path: String)

    /// A sentence for the operator, with the fix where there is one.
    package var description: String {
        switch self {
        case .failed(let operation, let path, let errno):
            var hint = ""
            if errno == .nameTooLong { hint = ": a socket path holds at most 107 bytes; choose a shorter one" }
            if errno == .permissionDenied || errno == .notPermitted { hint = ": choose a folder you can write" }
            if errno == .noSuchFileOrDirectory { hint = ": create the folder first" }
            return "\(operation) \(path) failed: \(errno.sentence)\(hint)"
        case .notASocket(let path):
            return "\(path) exists and is not a socket: remove it or choose another --socket path"
        case .truncated(let path):
            return "a message on \(path) came truncated or with more file descriptors than it may carry"
        }
    }
}
