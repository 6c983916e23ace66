import Glibc

extension FileSystem {
    /// Streams the regular file at `path` to `body` in chunks of at most `chunkSize` bytes, so a
    /// large file (a font's 9 MB) is scanned without being held in memory.
    package static func readChunks(
        atPath path: String, chunkSize: Int = 65_536, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(FileSystemError) {
        let file = try openRegularFile(path)
        defer { _ = Glibc.close(file) }
        var chunk = [UInt8](repeating: 0, count: max(1, chunkSize))
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
            if count < 0 {
                if Glibc.errno == EINTR { continue }
                throw .failed(operation: .read, path: path, errno: .current)
            }
            if count == 0 { return }
            chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// Up to `count` bytes of the regular file at `path` from `offset` (fewer at its end).
    package static func readBytes(atPath path: String, offset: Int, count: Int) throws(FileSystemError) -> [UInt8] {
        let file = try openRegularFile(path)
        defer { _ = Glibc.close(file) }
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes {
                Glibc.pread(file, $0.baseAddress.map { $0 + filled }, $0.count - filled, off_t(offset + filled))
            }
            if got < 0 {
                if Glibc.errno == EINTR { continue }
                throw .failed(operation: .read, path: path, errno: .current)
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    /// A descriptor of the regular file at `path`, opened read-only without blocking, close-on-exec.
    private static func openRegularFile(_ path: String) throws(FileSystemError) -> CInt {
        var file: CInt
        repeat {
            file = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } while file < 0 && Glibc.errno == EINTR
        guard file >= 0 else { throw .failed(operation: .open, path: path, errno: .current) }
        guard isRegularFile(file) else {
            _ = Glibc.close(file)
            throw .notARegularFile(path: path)
        }
        return file
    }
}
