import Glibc

/// Why a file could not be read a line at a time.
package enum FileLinesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Opening, reading or closing the file failed, or it is no regular file.
    case file(FileSystemError)
    /// Line `line` (counting from 1) of the file at `path` runs past `limit` bytes without ending.
    case lineTooLong(path: String, line: Int, limit: Int)

    /// A sentence for the operator, with the path and, for a long line, its number.
    package var description: String {
        switch self {
        case .file(let error): return error.description
        case .lineTooLong(let path, let line, let limit):
            return "\(path): line \(line) is longer than the \(limit) bytes a line may hold: name a text file"
        }
    }
}

/// A text file read a line at a time through a buffer of fixed size, so a file of any length
/// reads in the memory of its longest line.
///
/// Only a regular file is read, opened without blocking, as `FileSystem.readFile` does. A line
/// longer than `maximumLineBytes` is refused rather than gathered without end: a file without
/// newlines (a binary, an image named by mistake) is no file of lines.
package final class FileLines {
    /// The file.
    package let path: String
    /// The longest line accepted, in bytes, its newline not counted.
    package let maximumLineBytes: Int
    /// The number of the last line returned, counting from 1.
    package private(set) var lineNumber = 0
    /// The bytes of the lines returned so far, their newlines included.
    package private(set) var bytesRead = 0
    private var descriptor: FileDescriptor?
    /// Bytes read from the file and not yet returned: `chunk[chunkStart..<chunkEnd]`.
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private var chunkStart = 0
    private var chunkEnd = 0
    /// The line being gathered.
    private var line: [UInt8] = []
    /// Bytes the reader may still take from the file.
    private var unread: Int

    /// Opens the file at `path` to read at most `byteLimit` bytes of it (all of it by default),
    /// a line at a time.
    package init(path: String, maximumLineBytes: Int = 1 << 20, byteLimit: Int = .max) throws(FileLinesError) {
        self.path = path
        self.maximumLineBytes = maximumLineBytes
        unread = max(0, byteLimit)
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw .file(.failed(operation: .open, path: path, errno: error))
        }
        guard FileSystem.isRegularFile(file.rawValue) else {
            _ = try? file.close()
            throw .file(.notARegularFile(path: path))
        }
        descriptor = file
    }

    deinit { _ = try? descriptor?.close() }

    /// The next line without its newline, nil at the end of the file; a last line without a
    /// newline is a line too. The slice is valid until the next call.
    package func next() throws(FileLinesError) -> ArraySlice<UInt8>? {
        line.removeAll(keepingCapacity: true)
        while true {
            if let newline = chunk[chunkStart..<chunkEnd].firstIndex(of: 0x0A) {
                try gather(chunk[chunkStart..<newline])
                bytesRead += 1
                chunkStart = newline + 1
                lineNumber += 1
                return line[...]
            }
            try gather(chunk[chunkStart..<chunkEnd])
            chunkStart = chunkEnd
            guard try fill() else {
                guard !line.isEmpty else { return nil }
                lineNumber += 1
                return line[...]
            }
        }
    }

    /// Closes the file; `next()` then finds no more lines.
    package func close() throws(FileLinesError) {
        guard let open = descriptor else { return }
        descriptor = nil
        do { try open.close() } catch { throw .file(.failed(operation: .close, path: path, errno: error)) }
    }

    /// Adds `bytes` to the line, refusing a line that grows past the limit.
    private func gather(_ bytes: ArraySlice<UInt8>) throws(FileLinesError) {
        guard line.count + bytes.count <= maximumLineBytes else {
            throw .lineTooLong(path: path, line: lineNumber + 1, limit: maximumLineBytes)
        }
        line += bytes
        bytesRead += bytes.count
    }

    /// Reads the next chunk of the file; false at its end (or at the byte limit).
    private func fill() throws(FileLinesError) -> Bool {
        guard let descriptor, unread > 0 else { return false }
        let wanted = min(chunk.count, unread)
        let count: Int
        do {
            count = try chunk.withUnsafeMutableBytes {
                try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted]))
            }
        } catch {
            throw .file(.failed(operation: .read, path: path, errno: (error as? Errno) ?? .ioError))
        }
        chunkStart = 0
        chunkEnd = count
        unread -= count
        return count > 0
    }
}
