import Glibc

/// A file operation that failed.
package enum FileOperation: String, Hashable, Sendable {
    case createDirectory = "create directory"
    case open = "open"
    case read = "read"
    case write = "write"
    case sync = "sync"
    case close = "close"
    case rename = "rename into place"
    case status = "read the status of"
}

/// A file's owner and permission bits, as stat(2) gives them.
package struct FileOwnership: Hashable, Sendable {
    /// The owner's user id (`st_uid`).
    package var userID: UInt32
    /// The permission bits (`st_mode & 0o7777`): 0o640 is rw-r-----.
    package var permissions: UInt32
}

/// Why a file operation failed, with the path and the system's reason.
package enum FileSystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The system refused `operation` on `path`.
    case failed(operation: FileOperation, path: String, errno: Errno)
    /// The file at `path` holds more than `limit` bytes.
    case tooLarge(path: String, limit: Int)
    /// `path` names a FIFO, a device, a socket or a folder: reading it could block or never end.
    case notARegularFile(path: String)
    /// `path`, given for output, names something that can be neither replaced nor written in place.
    case unsuitableOutput(path: String, kind: FileKind)

    /// The file or directory concerned.
    package var path: String {
        switch self {
        case .failed(_, let path, _), .tooLarge(let path, _), .notARegularFile(let path),
            .unsuitableOutput(let path, _):
            return path
        }
    }

    /// The system error, when the system reported one.
    package var errno: Errno? {
        if case .failed(_, _, let errno) = self { return errno }
        return nil
    }

    /// A sentence for the operator, with a hint for the usual causes.
    package var description: String {
        switch self {
        case .tooLarge(let path, let limit):
            return "\(path) is larger than the \(limit) bytes allowed"
        case .notARegularFile(let path):
            return "\(path) is not a regular file (a FIFO, a device or a folder would block or never end): name a file"
        case .unsuitableOutput(let path, .blockDevice):
            return "\(path) is a block device: writing there would overwrite a disk; name a file"
        case .unsuitableOutput(let path, let kind):
            return
                "\(path) is \(kind.rawValue), which cannot be written: name a file, a device such as /dev/null, or a FIFO"
        case .failed(let operation, let path, let errno):
            var text = "could not \(operation.rawValue) \(path): \(errno.sentence)"
            switch errno {
            case .noSuchFileOrDirectory: text += "; a folder on the path does not exist"
            case .permissionDenied: text += "; check the permissions of the file and its folder"
            case .noSpace: text += "; the disk is full"
            case .readOnlyFileSystem: text += "; the file system is mounted read-only"
            case .notDirectory: text += "; part of the path is a file, not a folder"
            default: break
            }
            return text
        }
    }
}

/// Small file helpers for the app: folders, atomic writes of frames, trace logs, capped reads.
package enum FileSystem {
    /// Creates the directory at `path` and any missing parents; an existing directory is fine.
    package static func createDirectory(atPath path: String, permissions: UInt32 = 0o755) throws(FileSystemError) {
        guard !path.isEmpty else {
            throw .failed(operation: .createDirectory, path: path, errno: .noSuchFileOrDirectory)
        }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? String(component) : "/" + component
            guard mkdir(prefix, mode_t(permissions)) != 0 else { continue }
            let error = Errno.current
            // EEXIST is fine only for a directory; a file in the way is reported as ENOTDIR.
            guard error == .fileExists else { throw .failed(operation: .createDirectory, path: prefix, errno: error) }
            var status = stat()
            guard stat(prefix, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                throw .failed(operation: .createDirectory, path: prefix, errno: .notDirectory)
            }
        }
    }

    /// Whether anything (a file, a folder, a device node) is at `path`.
    package static func exists(atPath path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether this process may write into the file or folder at `path` (access(2) with W_OK).
    package static func isWritable(atPath path: String) -> Bool {
        access(path, W_OK) == 0
    }

    /// Who owns the file at `path` and its permission bits (the low 12 bits of `st_mode`), from stat(2).
    package static func ownership(atPath path: String) throws(FileSystemError) -> FileOwnership {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .failed(operation: .status, path: path, errno: Errno(rawValue: errno))
        }
        return FileOwnership(userID: status.st_uid, permissions: UInt32(status.st_mode) & 0o7777)
    }

    /// Replaces the file at `path` with `bytes` so readers see the old or the new file, never half of one.
    ///
    /// The bytes go to a temporary file in the same directory, which is then renamed over
    /// `path` (rename(2) is atomic within a file system). `durable` adds an fsync first,
    /// which survives power loss but costs milliseconds per file. Only a regular file or nothing
    /// is replaced: a device, FIFO or socket is written in place (`OutputPath`).
    package static func writeAtomically(
        _ bytes: [UInt8], toPath path: String, permissions: UInt32 = 0o644, durable: Bool = false
    ) throws(FileSystemError) {
        let destination = try OutputPath.classify(path)
        if let stream = try destination.openInPlace(naming: path) {
            try write(bytes, to: stream, path: path)
            return
        }
        guard case .replaceable(let target) = destination else { return }
        let temporary = temporaryPath(beside: target)
        let file = try open(temporary, .writeOnly, options: [.create, .exclusiveCreate], permissions: permissions)
        do throws(FileSystemError) {
            try attempt(.write, temporary) { _ = try file.writeAll(bytes) }
            if durable, fsync(file.rawValue) != 0 {
                throw FileSystemError.failed(operation: .sync, path: temporary, errno: .current)
            }
            try attempt(.close, temporary) { try file.close() }
        } catch {
            _ = try? file.close()
            unlink(temporary)
            throw error
        }
        guard rename(temporary, target) == 0 else {
            let error = Errno.current
            unlink(temporary)
            throw .failed(operation: .rename, path: path, errno: error)
        }
        // The rename is an entry of the folder: until the folder is synced, a power cut may
        // bring back the old file after the new one was written durably.
        if durable { try syncFolder(of: target) }
    }

    /// fsync(2)s the folder holding `path`, so a rename in it survives a power cut.
    private static func syncFolder(of path: String) throws(FileSystemError) {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let directory = try open(folder, .readOnly, options: [.directory], permissions: 0)
        defer { _ = try? directory.close() }
        if fsync(directory.rawValue) != 0 { throw .failed(operation: .sync, path: folder, errno: .current) }
    }

    /// Writes `text` to `path` atomically, as UTF-8.
    package static func writeAtomically(_ text: String, toPath path: String, permissions: UInt32 = 0o644)
        throws(FileSystemError)
    {
        try writeAtomically(Array(text.utf8), toPath: path, permissions: permissions)
    }

    /// `path` opened for writing without harming what is there: a regular file (or a new one) is
    /// opened with `options` (append or truncate), a device, FIFO or socket in place (`OutputPath`).
    static func openForOutput(_ path: String, options: FileDescriptor.OpenOptions, permissions: UInt32)
        throws(FileSystemError) -> FileDescriptor
    {
        let destination = try OutputPath.classify(path)
        if let stream = try destination.openInPlace(naming: path) { return stream }
        guard case .replaceable(let target) = destination else {
            throw .failed(operation: .open, path: path, errno: .invalidArgument)
        }
        return try open(target, .writeOnly, options: options.union(.create), permissions: permissions)
    }

    /// Writes all of `bytes` to `file` and closes it, closing it on failure too.
    private static func write(_ bytes: [UInt8], to file: FileDescriptor, path: String) throws(FileSystemError) {
        do throws(FileSystemError) {
            try attempt(.write, path) { _ = try file.writeAll(bytes) }
        } catch {
            _ = try? file.close()
            throw error
        }
        try attempt(.close, path) { try file.close() }
    }

    /// The whole file at `path`; throws `tooLarge` past `maximumBytes`, so a wrong path cannot eat memory.
    ///
    /// It reads until end of file rather than trusting the size from stat, which is 0 for /proc files.
    ///
    /// Only a regular file is read, opened without blocking: a FIFO or a device named by mistake (or
    /// on purpose) is refused at once and never hangs the caller.
    package static func readFile(atPath path: String, maximumBytes: Int = 1 << 20) throws(FileSystemError) -> [UInt8] {
        let file = try open(path, .readOnly, options: [.nonBlocking], permissions: 0)
        guard isRegularFile(file.rawValue) else {
            _ = try? file.close()
            throw .notARegularFile(path: path)
        }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        do throws(FileSystemError) {
            while true {
                let count = try attempt(.read, path) {
                    try chunk.withUnsafeMutableBytes { try file.read(into: $0, retryOnInterrupt: true) }
                }
                if count == 0 { break }
                guard contents.count + count <= maximumBytes else {
                    throw FileSystemError.tooLarge(path: path, limit: maximumBytes)
                }
                contents += chunk[..<count]
            }
        } catch {
            _ = try? file.close()
            throw error
        }
        try attempt(.close, path) { try file.close() }
        return contents
    }

    /// The whole file at `path` as UTF-8 text (invalid bytes become U+FFFD).
    package static func readText(atPath path: String, maximumBytes: Int = 1 << 20) throws(FileSystemError) -> String {
        String(decoding: try readFile(atPath: path, maximumBytes: maximumBytes), as: UTF8.self)
    }

    /// Whether the open descriptor `fd` is a regular file (files in /proc and /sys are).
    static func isRegularFile(_ fd: CInt) -> Bool {
        var status = stat()
        return fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// A name no other writer uses, in the directory of `path` so the rename stays on one file system.
    static func temporaryPath(beside path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        return "\(directory).\(name).\(getpid())-\(tag).tmp"
    }

    private static func open(
        _ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions, permissions: UInt32
    ) throws(FileSystemError) -> FileDescriptor {
        try attempt(.open, path) {
            try FileDescriptor.open(path, mode, options: options.union(.closeOnExec), permissions: mode_t(permissions))
        }
    }

    /// Runs `FileDescriptor` calls, naming `operation` and `path` in the error it throws.
    private static func attempt<T>(_ operation: FileOperation, _ path: String, _ body: () throws -> T)
        throws(FileSystemError) -> T
    {
        do {
            return try body()
        } catch let error as FileSystemError {
            throw error
        } catch {
            throw .failed(operation: operation, path: path, errno: (error as? Errno) ?? .ioError)
        }
    }
}
