import Glibc

/// What an output path names, which decides how the program may write there without harming the host.
///
/// Writing a file whole beside its target and renaming it over the target keeps readers from
/// seeing half a file, but rename(2) replaces whatever the name held: as root, `--trace /dev/null`
/// would turn the system's /dev/null into a regular file until the next boot. So only a regular
/// file, or nothing, is ever replaced; what streams (a terminal, /dev/null, a FIFO, a socket) is
/// written in place, and anything else is refused before a byte is written.
package enum OutputPath: Equatable, Sendable {
    /// Nothing is there yet, or a regular file: it may be replaced at this path (a symbolic link's target).
    case replaceable(String)
    /// A character device, a FIFO or a socket: opened where it is and written in place.
    case stream(String, kind: FileKind)
    /// A name for a descriptor this process has open (`/dev/stdout`, `/dev/fd/N`): written through a duplicate.
    case descriptor(CInt)

    /// Finds what `path` names; throws `.unsuitableOutput` for a folder, a block device or a link to nothing.
    package static func classify(_ path: String) throws(FileSystemError) -> OutputPath {
        if let descriptor = openDescriptor(named: path) { return .descriptor(descriptor) }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let error = Errno.current
            // Nothing there: a new file. Any other failure (EACCES, ENOTDIR) is the open's to report.
            if error == .noSuchFileOrDirectory { return .replaceable(path) }
            throw .failed(operation: .open, path: path, errno: error)
        }
        var target = path
        if status.st_mode & S_IFMT == S_IFLNK {
            // Replacing the link would leave its target stale: write what it points to instead.
            guard stat(path, &status) == 0, let resolved = realpath(path, nil) else {
                throw .unsuitableOutput(path: path, kind: .danglingLink)
            }
            target = String(cString: resolved)
            free(resolved)
        }
        let kind = FileKind(mode: status.st_mode)
        switch kind {
        case .regularFile: return .replaceable(target)
        case .characterDevice, .fifo, .socket: return .stream(target, kind: kind)
        case .directory, .blockDevice, .danglingLink, .other: throw .unsuitableOutput(path: path, kind: kind)
        }
    }

    /// Opens a `.stream` or `.descriptor` for writing in place; a `.replaceable` path is the caller's to create.
    func openInPlace(naming path: String) throws(FileSystemError) -> FileDescriptor? {
        switch self {
        case .replaceable:
            return nil
        case .descriptor(let number):
            let copy = fcntl(number, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { throw .failed(operation: .open, path: path, errno: .current) }
            return FileDescriptor(rawValue: copy)
        case .stream(let target, .socket):
            return try Self.connect(toSocketAt: target, naming: path)
        case .stream(let target, _):
            // No O_CREAT, no O_TRUNC: the node stays as it is. A FIFO's open waits for its reader, as `>` does.
            let file: FileDescriptor
            do {
                file = try FileDescriptor.open(target, .writeOnly, options: [.closeOnExec, .noControllingTerminal])
            } catch {
                throw .failed(operation: .open, path: path, errno: error)
            }
            // The node could have been swapped between the look and the open: never write a disk.
            var status = stat()
            guard fstat(file.rawValue, &status) == 0, status.st_mode & S_IFMT != S_IFBLK else {
                _ = try? file.close()
                throw .unsuitableOutput(path: path, kind: .blockDevice)
            }
            return file
        }
    }

    /// The descriptor `path` names when it is `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or
    /// `/proc/self/fd/N` and that descriptor is open: opening such a name again fails for a
    /// socket (ENXIO), and for a regular file it would start a new offset over what the shell wrote.
    static func openDescriptor(named path: String) -> CInt? {
        let number: CInt?
        switch path {
        case "/dev/stdout": number = STDOUT_FILENO
        case "/dev/stderr": number = STDERR_FILENO
        default:
            let prefixes = ["/dev/fd/", "/proc/self/fd/"]
            guard let prefix = prefixes.first(where: { path.hasPrefix($0) }) else { return nil }
            number = CInt(path.dropFirst(prefix.count))
        }
        guard let number, number >= 0, fcntl(number, F_GETFD) != -1 else { return nil }
        return number
    }

    /// A connection to the Unix socket at `target`: a stream socket, or a datagram one (such as /dev/log).
    private static func connect(toSocketAt target: String, naming path: String) throws(FileSystemError)
        -> FileDescriptor
    {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(target.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw .failed(operation: .open, path: path, errno: .nameTooLong) }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        var failure = Errno.ioError
        for type in [SOCK_STREAM, SOCK_DGRAM] {
            let socket = Glibc.socket(AF_UNIX, CInt(type.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else { throw .failed(operation: .open, path: path, errno: .current) }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if connected == 0 { return FileDescriptor(rawValue: socket) }
            failure = .current
            Glibc.close(socket)
            // EPROTOTYPE: the socket is of the other type; try that one.
            guard failure.rawValue == EPROTOTYPE else { break }
        }
        throw .failed(operation: .open, path: path, errno: failure)
    }
}

/// The kind of node at a path, in stat(2)'s terms.
package enum FileKind: String, Equatable, Sendable {
    case regularFile = "a regular file"
    case directory = "a folder"
    case characterDevice = "a character device"
    case blockDevice = "a block device"
    case fifo = "a FIFO"
    case socket = "a socket"
    case danglingLink = "a symbolic link to nothing"
    case other = "neither a file nor a device"

    /// The kind `st_mode` gives.
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .directory
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        default: self = .other
        }
    }
}
