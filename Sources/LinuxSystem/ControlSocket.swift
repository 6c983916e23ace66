import Glibc

/// The listening end of the control socket (`crownpager notify`, `show`, `set`, `status`): a
/// non-blocking Unix stream socket, mode 0660, group `crownpager` when that group exists.
///
/// Made so that it never harms what the path holds: something that is not a socket is refused,
/// a socket a pager still listens on is refused, and only a socket nobody answers on (a killed
/// run's) is removed first. At the end the path is removed only while it is still this socket.
package final class ControlListener {
    /// Where it listens.
    package let path: String
    /// The listening descriptor, to poll for connections.
    package let descriptor: FileDescriptor
    /// Why the socket did not get the `crownpager` group, if it did not; for the journal.
    package private(set) var groupWarning: String?
    /// The socket's inode, so that the end removes this socket and nothing put there since.
    private let inode: (device: UInt64, inode: UInt64)

    /// Binds and listens at `path`, its group `group` when that group exists.
    package init(path: String, group: String = "crownpager") throws(ControlSocketError) {
        self.path = path
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
            do throws(ControlSocketError) {
                _ = try ControlConnection(connectingTo: path)
                throw .inUse(path: path)
            } catch {
                guard case .notListening(_, let errno) = error, errno.rawValue == ECONNREFUSED else { throw error }
            }
            // A socket nobody listens on: a previous run's, killed before it could remove it.
            unlink(path)
        }
        // The mode is right from the first instant: no client connects while it is wider.
        let previous = umask(0o117)
        let socket: CInt
        do throws(UnixSocketError) {
            socket = try UnixSocket.stream(at: path, "bind", nonBlocking: true) { bind($0, $1, $2) }
        } catch {
            umask(previous)
            throw Self.converted(error)
        }
        umask(previous)
        guard listen(socket, 8) == 0, lstat(path, &status) == 0 else {
            let error = Errno.current
            Glibc.close(socket)
            unlink(path)
            throw .failed(operation: "listen", path: path, errno: error)
        }
        inode = (UInt64(status.st_dev), UInt64(status.st_ino))
        descriptor = FileDescriptor(rawValue: socket)
        // A service whose own group it is has it already, and its system call filter refuses chown.
        if let entry = getgrnam(group), entry.pointee.gr_gid != status.st_gid {
            if chown(path, uid_t.max, entry.pointee.gr_gid) != 0 {
                groupWarning = "\(path) keeps its group: chown to \(group) failed: \(Errno.current.sentence)"
            }
        }
    }

    /// Closes the socket and removes its path, if the path is still this socket.
    deinit {
        _ = try? descriptor.close()
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK, UInt64(status.st_dev) == inode.device,
            UInt64(status.st_ino) == inode.inode
        {
            unlink(path)
        }
    }

    /// The next waiting connection, non-blocking; nil when none waits.
    package func accept() throws(ControlSocketError) -> ControlConnection? {
        while true {
            let connection = Glibc.accept(descriptor.rawValue, nil, nil)
            if connection >= 0 {
                // Accepted sockets inherit neither flag on Linux.
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
                return ControlConnection(descriptor: FileDescriptor(rawValue: connection), path: path)
            }
            let error = Errno.current
            if error == .interrupted { continue }
            // A client that gave up between poll(2) and accept(2) is no failure of the pager.
            if error == .wouldBlock || error == .resourceTemporarilyUnavailable || error.rawValue == ECONNABORTED {
                return nil
            }
            throw .failed(operation: "accept", path: path, errno: error)
        }
    }

    private static func converted(_ error: UnixSocketError) -> ControlSocketError {
        switch error {
        case .failed(let operation, let path, let errno): return .failed(operation: operation, path: path, errno: errno)
        case .notASocket(let path): return .notASocket(path: path)
        case .truncated(let path): return .noAnswer(path: path)
        }
    }
}

/// Who is at the other end of a connection, as the kernel says (SO_PEERCRED).
package struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    package var pid: Int32
    package var uid: UInt32
    package var gid: UInt32

    /// `pid 1234, uid 1000, gid 1000`.
    package var description: String { "pid \(pid), uid \(uid), gid \(gid)" }
}

/// One connection to the control socket: non-blocking reads and writes of what is there.
package final class ControlConnection {
    /// The socket's path, for messages.
    package let path: String
    /// The connected descriptor, to poll.
    package let descriptor: FileDescriptor

    init(descriptor: FileDescriptor, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// A client's connection to the pager listening at `path` (blocking, for the commands).
    package convenience init(connectingTo path: String) throws(ControlSocketError) {
        do throws(UnixSocketError) {
            let socket = try UnixSocket.stream(at: path, "connect", nonBlocking: false) { connect($0, $1, $2) }
            self.init(descriptor: FileDescriptor(rawValue: socket), path: path)
        } catch {
            guard case .failed(_, _, let errno) = error else { throw .noAnswer(path: path) }
            let absent = [ENOENT, ECONNREFUSED, EACCES, ENOTDIR, ENOTSOCK].contains(errno.rawValue)
            throw absent
                ? .notListening(path: path, errno: errno) : .failed(operation: "connect", path: path, errno: errno)
        }
    }

    deinit { _ = try? descriptor.close() }

    /// The peer's process, user and group; nil when the kernel does not say.
    package var credentials: PeerCredentials? {
        // struct ucred needs _GNU_SOURCE, which Glibc's module lacks: the same three fields by hand.
        var fields: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: fields))
        guard getsockopt(descriptor.rawValue, SOL_SOCKET, SO_PEERCRED, &fields, &length) == 0,
            Int(length) == MemoryLayout.size(ofValue: fields)
        else { return nil }
        return PeerCredentials(pid: fields.0, uid: fields.1, gid: fields.2)
    }

    /// What a read found.
    package enum Received: Hashable, Sendable {
        /// Bytes.
        case bytes([UInt8])
        /// Nothing yet.
        case nothing
        /// The peer closed its end (or reset it).
        case closed
    }

    /// Up to `maximum` bytes that are there, without waiting.
    package func receive(maximum: Int) throws(ControlSocketError) -> Received {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor.rawValue, $0.baseAddress, maximum, CInt(MSG_DONTWAIT))
            }
            if count > 0 { return .bytes(Array(buffer.prefix(count))) }
            if count == 0 { return .closed }
            let error = Errno.current
            if error == .interrupted { continue }
            if error == .wouldBlock || error == .resourceTemporarilyUnavailable { return .nothing }
            if error.rawValue == ECONNRESET { return .closed }
            throw .failed(operation: "recv", path: path, errno: error)
        }
    }

    /// Sends what fits without waiting; whether all of `bytes` went (a reply is small: a client
    /// that does not read it is dropped rather than waited for).
    package func sendWithoutWaiting(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(
                    descriptor.rawValue, $0.baseAddress.map { $0 + sent }, bytes.count - sent,
                    CInt(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
                continue
            }
            if count < 0, Errno.current == .interrupted { continue }
            return false
        }
        return true
    }

    /// Sends `line` and reads the one-line answer, waiting at most `timeoutMilliseconds` (a client).
    package func exchange(_ line: String, timeoutMilliseconds: Int = 5000) throws(ControlSocketError) -> String {
        let bytes = Array(line.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(descriptor.rawValue, $0.baseAddress.map { $0 + sent }, bytes.count - sent, CInt(MSG_NOSIGNAL))
            }
            if count < 0 {
                if Errno.current == .interrupted { continue }
                // The pager closed early: its answer, if any, is still there to read.
                break
            }
            sent += count
        }
        var answer: [UInt8] = []
        while !answer.contains(UInt8(ascii: "\n")) {
            var events: Int16 = 0
            let readable: Bool
            do throws(Errno) {
                readable = try descriptor.waitUntilReadable(timeoutMilliseconds: timeoutMilliseconds, events: &events)
            } catch {
                throw .failed(operation: "poll", path: path, errno: error)
            }
            guard readable else { throw .noAnswer(path: path) }
            switch try receive(maximum: 4096) {
            case .bytes(let more): answer += more
            case .nothing: continue
            case .closed:
                guard !answer.isEmpty else { throw .noAnswer(path: path) }
                return String(decoding: answer, as: UTF8.self)
            }
        }
        let end = answer.firstIndex(of: UInt8(ascii: "\n")) ?? answer.endIndex
        return String(decoding: answer[..<end], as: UTF8.self)
    }
}
