import Glibc

extension FileSystem {
    /// The last `maximumBytes` of the file at `path` as UTF-8 text: the end of a log without reading all of it.
    ///
    /// Files that report no size (/proc, /sys) are read from the start, up to the same limit. Only a
    /// regular file is read, opened without blocking: a FIFO cannot stall the run loop.
    package static func readTail(atPath path: String, maximumBytes: Int) throws(FileSystemError) -> String {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .failed(operation: .open, path: path, errno: .current) }
        defer { Glibc.close(fd) }
        guard isRegularFile(fd) else { throw .notARegularFile(path: path) }
        var status = stat()
        if fstat(fd, &status) == 0, status.st_size > maximumBytes {
            _ = lseek(fd, off_t(status.st_size) - off_t(maximumBytes), SEEK_SET)
        }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while contents.count < maximumBytes {
            let count = chunk.withUnsafeMutableBytes {
                read(fd, $0.baseAddress, min($0.count, maximumBytes - contents.count))
            }
            if count == 0 { break }
            if count < 0 {
                if Errno.current == .interrupted { continue }
                throw .failed(operation: .read, path: path, errno: .current)
            }
            contents += chunk[..<count]
        }
        return String(decoding: contents, as: UTF8.self)
    }
}
