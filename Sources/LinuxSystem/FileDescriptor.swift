import Glibc

/// An open file descriptor, a number that only names the file: nothing closes it but `close()`.
///
/// Like `Errno`, a stand-in for its namesake in Apple's System library, with the same names and
/// call shapes for the few calls the code makes. Failed calls throw `Errno`.
package struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The descriptor number.
    package let rawValue: CInt

    /// The descriptor numbered `rawValue`, which the caller has open.
    package init(rawValue: CInt) { self.rawValue = rawValue }

    /// Standard input, descriptor 0.
    package static var standardInput: FileDescriptor { FileDescriptor(rawValue: STDIN_FILENO) }
    /// Standard output, descriptor 1.
    package static var standardOutput: FileDescriptor { FileDescriptor(rawValue: STDOUT_FILENO) }
    /// Standard error, descriptor 2.
    package static var standardError: FileDescriptor { FileDescriptor(rawValue: STDERR_FILENO) }

    /// Whether a file is opened for reading or for writing.
    struct AccessMode: RawRepresentable, Hashable, Sendable {
        var rawValue: CInt

        static let readOnly = AccessMode(rawValue: O_RDONLY)
        static let writeOnly = AccessMode(rawValue: O_WRONLY)
    }

    /// The open(2) flags besides the access mode.
    struct OpenOptions: OptionSet, Hashable, Sendable {
        var rawValue: CInt

        static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        static let append = OpenOptions(rawValue: O_APPEND)
        static let create = OpenOptions(rawValue: O_CREAT)
        static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
        static let truncate = OpenOptions(rawValue: O_TRUNC)
        static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
        static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
        static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    /// Opens `path`, retrying after signals; open(2) reads `permissions` only when it creates the file.
    static func open(
        _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: mode_t = 0,
        retryOnInterrupt: Bool = true
    ) throws(Errno) -> FileDescriptor {
        let descriptor = try checked(retryOnInterrupt) {
            Glibc.open(path, mode.rawValue | options.rawValue, permissions)
        }
        return FileDescriptor(rawValue: descriptor)
    }

    /// Reads what is there into `buffer`, at most its size; 0 means end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer, retryOnInterrupt: Bool = true) throws(Errno) -> Int {
        try Self.checked(retryOnInterrupt) { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `bytes`, in as many calls as it takes and retrying after signals; returns their count.
    @discardableResult
    func writeAll(_ bytes: [UInt8]) throws(Errno) -> Int {
        // The loop returns its failure rather than throwing it: Swift 6.0 cannot give the closure
        // a typed throw, and errno must be read inside, right after the write that set it.
        let outcome = bytes.withUnsafeBytes { buffer -> Result<Int, Errno> in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(rawValue, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written > 0 {
                    offset += written
                    continue
                }
                // A write that takes nothing of a non-empty buffer would otherwise loop forever.
                let error = written < 0 ? Errno.current : .ioError
                if error != .interrupted { return .failure(error) }
            }
            return .success(offset)
        }
        switch outcome {
        case .success(let count): return count
        case .failure(let error): throw error
        }
    }

    /// Closes the descriptor. EINTR is not retried: Linux has released the number by then,
    /// and another thread may already have been given it.
    package func close() throws(Errno) {
        guard Glibc.close(rawValue) == 0 else { throw .current }
    }

    /// The result of `call`, a system call that returns -1 and sets errno when it fails;
    /// called again after EINTR when `retryOnInterrupt` is true.
    private static func checked<Value: BinaryInteger>(_ retryOnInterrupt: Bool, _ call: () -> Value) throws(Errno)
        -> Value
    {
        while true {
            let value = call()
            if value >= 0 { return value }
            let error = Errno.current
            if retryOnInterrupt, error == .interrupted { continue }
            throw error
        }
    }
}
