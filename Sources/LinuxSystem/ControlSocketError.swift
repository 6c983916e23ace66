/// The control socket could not be created, or a client could not reach the pager through it.
package enum ControlSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `operation` on the socket at `path` failed with `errno`.
    case failed(operation: String, path: String, errno: Errno)
    /// Something other than a socket is at `path`: it is never removed to make room.
    case notASocket(path: String)
    /// A pager already listens at `path`.
    case inUse(path: String)
    /// No pager listens at `path` (`errno` says why the connection failed).
    case notListening(path: String, errno: Errno)
    /// The pager took the request but gave no answer in time, or closed without one.
    case noAnswer(path: String)

    /// Whether the failure means no pager is running there (EX_UNAVAILABLE for a client).
    package var meansNoPager: Bool {
        if case .notListening = self { return true }
        return false
    }

    /// A sentence for the operator, with the fix.
    package var description: String {
        switch self {
        case .failed(let operation, let path, let errno):
            var hint = ""
            if errno == .nameTooLong { hint = ": a socket path holds at most 107 bytes; choose a shorter one" }
            if errno == .permissionDenied || errno == .notPermitted {
                hint = ": run as root or in the crownpager group, or choose another --socket path"
            }
            if errno == .noSuchFileOrDirectory { hint = ": create the folder first, or choose another --socket path" }
            return "\(operation) \(path) failed: \(errno.sentence)\(hint)"
        case .notASocket(let path):
            return "\(path) exists and is not a socket: remove it or choose another --socket path"
        case .inUse(let path):
            return "a pager already listens on \(path): stop it first, or give this one another --socket path"
        case .notListening(let path, let errno):
            if errno == .permissionDenied {
                return "cannot reach the pager at \(path): \(errno.sentence): join the crownpager group "
                    + "(sudo adduser $USER crownpager, then log in again) or run as root"
            }
            return "no pager is running at \(path) (\(errno.sentence)): start it (systemctl start crownpager, "
                + "or crownpager run --mock), or give its --socket path"
        case .noAnswer(let path):
            return "the pager at \(path) did not answer within 5 seconds: see its journal (journalctl -u crownpager)"
        }
    }
}
