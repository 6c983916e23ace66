import Glibc

/// A listening Unix stream socket at a path, for a front-end such as QEMU's vhost-user chardev to connect to.
package final class UnixListener {
    /// Where it listens.
    package let path: String
    /// The listening descriptor, to poll for a connection.
    package let descriptor: FileDescriptor

    /// Binds and listens at `path`; a stale socket there (a previous run's) is replaced, anything else refused.
    package init(path: String) throws(UnixSocketError) {
        self.path = path
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
            unlink(path)
        }
        let socket = try UnixSocket.stream(at: path, "bind") { bind($0, $1, $2) }
        guard listen(socket, 1) == 0 else {
            let error = Errno.current
            Glibc.close(socket)
            throw .failed(operation: "listen", path: path, errno: error)
        }
        descriptor = FileDescriptor(rawValue: socket)
    }

    /// Closes the socket and removes its path.
    deinit {
        _ = try? descriptor.close()
        unlink(path)
    }

    /// The next connection, waiting for one.
    package func accept() throws(UnixSocketError) -> UnixSocket {
        while true {
            // accept4 needs _GNU_SOURCE, which Glibc's module lacks: close-on-exec set afterwards.
            let connection = Glibc.accept(descriptor.rawValue, nil, nil)
            if connection >= 0 {
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                return UnixSocket(descriptor: FileDescriptor(rawValue: connection), path: path)
            }
            guard Errno.current == .interrupted else { throw .failed(operation: "accept", path: path, errno: .current) }
        }
    }
}

/// A connected Unix stream socket that carries file descriptors (SCM_RIGHTS) beside its bytes.
package final class UnixSocket {
    /// The socket's path, for messages.
    package let path: String
    /// The connected descriptor, to poll.
    package let descriptor: FileDescriptor

    init(descriptor: FileDescriptor, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Connects to the socket listening at `path`.
    package convenience init(connectingTo path: String) throws(UnixSocketError) {
        let socket = try Self.stream(at: path, "connect") { connect($0, $1, $2) }
        self.init(descriptor: FileDescriptor(rawValue: socket), path: path)
    }

    deinit { _ = try? descriptor.close() }

    /// Ends the connection both ways: the peer reads its end, as when a process exits.
    package func shutdown() { _ = Glibc.shutdown(descriptor.rawValue, CInt(SHUT_RDWR)) }

    /// Reads exactly `count` bytes and the descriptors that come with them (at most
    /// `maximumDescriptors`, received close-on-exec); nil when the peer closed before the first byte.
    package func receive(_ count: Int, maximumDescriptors: Int = 0) throws(UnixSocketError)
        -> (bytes: [UInt8], descriptors: [FileDescriptor])?
    {
        var bytes = [UInt8](repeating: 0, count: count)
        var descriptors: [FileDescriptor] = []
        var received = 0
        let controlSize = Self.controlSpace(maximumDescriptors)
        var control = [UInt8](repeating: 0, count: controlSize)
        while received < count {
            var flags: CInt = 0
            let result = bytes.withUnsafeMutableBytes { buffer in
                control.withUnsafeMutableBytes { controlBuffer in
                    var vector = iovec(iov_base: buffer.baseAddress.map { $0 + received }, iov_len: count - received)
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        var header = msghdr()
                        header.msg_iov = vectorPointer
                        header.msg_iovlen = 1
                        header.msg_control = controlSize > 0 ? controlBuffer.baseAddress : nil
                        header.msg_controllen = controlSize
                        let read = recvmsg(descriptor.rawValue, &header, CInt(MSG_CMSG_CLOEXEC))
                        flags = header.msg_flags
                        if read > 0 {
                            descriptors += Self.descriptors(in: controlBuffer, length: header.msg_controllen)
                        }
                        return read
                    }
                }
            }
            if result < 0 {
                if Errno.current == .interrupted { continue }
                let error = Errno.current
                Self.close(descriptors)
                // A peer that went away mid-stream (QEMU killed) is an end, like an orderly close.
                if error.rawValue == ECONNRESET { return nil }
                throw .failed(operation: "recvmsg", path: path, errno: error)
            }
            if result == 0 {
                Self.close(descriptors)
                if received == 0 { return nil }
                throw .truncated(path: path)
            }
            if flags & CInt(MSG_CTRUNC) != 0 || descriptors.count > maximumDescriptors {
                Self.close(descriptors)
                throw .truncated(path: path)
            }
            received += result
        }
        return (bytes, descriptors)
    }

    /// Sends all of `bytes`, `descriptors` with the first of them (SCM_RIGHTS).
    package func send(_ bytes: [UInt8], descriptors: [FileDescriptor] = []) throws(UnixSocketError) {
        var sent = 0
        var control = [UInt8](repeating: 0, count: Self.controlSpace(descriptors.count))
        if !descriptors.isEmpty {
            control.withUnsafeMutableBytes { buffer in
                var header = cmsghdr()
                header.cmsg_len = Self.controlLength(descriptors.count)
                header.cmsg_level = SOL_SOCKET
                header.cmsg_type = CInt(SCM_RIGHTS)
                buffer.storeBytes(of: header, as: cmsghdr.self)
                for (index, file) in descriptors.enumerated() {
                    buffer.storeBytes(
                        of: file.rawValue, toByteOffset: Self.headerSpace + index * MemoryLayout<CInt>.size,
                        as: CInt.self)
                }
            }
        }
        while sent < bytes.count || (bytes.isEmpty && sent == 0 && !descriptors.isEmpty) {
            let withDescriptors = sent == 0 && !descriptors.isEmpty
            let result = bytes.withUnsafeBytes { buffer in
                control.withUnsafeMutableBytes { controlBuffer in
                    var vector = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress.map { $0 + sent }),
                        iov_len: bytes.count - sent)
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        var header = msghdr()
                        header.msg_iov = vectorPointer
                        header.msg_iovlen = 1
                        header.msg_control = withDescriptors ? controlBuffer.baseAddress : nil
                        header.msg_controllen = withDescriptors ? controlBuffer.count : 0
                        return sendmsg(descriptor.rawValue, &header, CInt(MSG_NOSIGNAL))
                    }
                }
            }
            if result < 0 {
                if Errno.current == .interrupted { continue }
                throw .failed(operation: "sendmsg", path: path, errno: .current)
            }
            sent += result
            if bytes.isEmpty { break }
        }
    }

    /// CMSG_ALIGN(sizeof(struct cmsghdr)): where a control message's data starts.
    private static let headerSpace = align(MemoryLayout<cmsghdr>.size)

    private static func align(_ length: Int) -> Int {
        let word = MemoryLayout<Int>.size
        return (length + word - 1) / word * word
    }

    /// CMSG_LEN and CMSG_SPACE for `count` descriptors.
    private static func controlLength(_ count: Int) -> Int { headerSpace + count * MemoryLayout<CInt>.size }
    private static func controlSpace(_ count: Int) -> Int {
        count == 0 ? 0 : headerSpace + align(count * MemoryLayout<CInt>.size)
    }

    /// The descriptors of the SCM_RIGHTS messages in the first `length` bytes of `control`.
    private static func descriptors(in control: UnsafeMutableRawBufferPointer, length: Int) -> [FileDescriptor] {
        var found: [FileDescriptor] = []
        var offset = 0
        let length = min(length, control.count)
        while offset + headerSpace <= length {
            let header = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
            let messageLength = Int(header.cmsg_len)
            guard messageLength >= headerSpace, offset + messageLength <= length else { break }
            if header.cmsg_level == SOL_SOCKET, header.cmsg_type == CInt(SCM_RIGHTS) {
                let count = (messageLength - headerSpace) / MemoryLayout<CInt>.size
                for index in 0..<count {
                    let number = control.loadUnaligned(
                        fromByteOffset: offset + headerSpace + index * MemoryLayout<CInt>.size, as: CInt.self)
                    found.append(FileDescriptor(rawValue: number))
                }
            }
            offset += align(messageLength)
        }
        return found
    }

    private static func close(_ descriptors: [FileDescriptor]) {
        for file in descriptors { _ = try? file.close() }
    }

    /// A new stream socket (non-blocking when asked) given to `call` (bind or connect) with `path`'s
    /// address; closed again if that fails.
    package static func stream(
        at path: String, _ operation: String, nonBlocking: Bool = false,
        _ call: (CInt, UnsafePointer<sockaddr>, socklen_t) -> CInt
    ) throws(UnixSocketError) -> CInt {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw .failed(operation: operation, path: path, errno: .nameTooLong)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let flags = CInt(SOCK_CLOEXEC.rawValue) | (nonBlocking ? CInt(SOCK_NONBLOCK.rawValue) : 0)
        let socket = Glibc.socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | flags, 0)
        guard socket >= 0 else { throw .failed(operation: "socket", path: path, errno: .current) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                call(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let error = Errno.current
            Glibc.close(socket)
            throw .failed(operation: operation, path: path, errno: error)
        }
        return socket
    }
}
