import Glibc

/// A file written piece by piece as a run goes (an animated recording), so it never sits whole in memory.
///
/// It writes in place rather than atomically: a run stopped by SIGKILL or a power cut still
/// leaves everything written so far on disk.
package final class OutputFile {
    /// Where it is.
    package let path: String
    private var descriptor: FileDescriptor?

    /// Creates the file at `path`, or empties it if it is a regular file; a device, FIFO or socket
    /// is written in place, and a folder or block device refused (`OutputPath`).
    package init(creating path: String, permissions: UInt32 = 0o644) throws(FileSystemError) {
        self.path = path
        descriptor = try FileSystem.openForOutput(path, options: .truncate, permissions: permissions)
    }

    deinit { _ = try? descriptor?.close() }

    /// Appends `bytes`; after `close()` there is nothing to write to and it throws EBADF.
    package func write(_ bytes: [UInt8]) throws(FileSystemError) {
        guard !bytes.isEmpty else { return }
        guard let descriptor else { throw .failed(operation: .write, path: path, errno: .badFileDescriptor) }
        do { _ = try descriptor.writeAll(bytes) } catch { throw .failed(operation: .write, path: path, errno: error) }
    }

    /// Closes it; an error here (a full disk on NFS) means the end may not have reached the disk.
    package func close() throws(FileSystemError) {
        guard let open = descriptor else { return }
        descriptor = nil
        do { try open.close() } catch { throw .failed(operation: .close, path: path, errno: error) }
    }
}
