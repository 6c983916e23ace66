import Foundation
import Glibc
import LinuxSystem
import Testing

@Suite("Files read a line at a time")
struct FileLinesTests {
    /// Every line of the file at `path`, as text.
    private func allLines(_ lines: FileLines) throws -> [String] {
        var result: [String] = []
        while let line = try lines.next() { result.append(String(decoding: line, as: UTF8.self)) }
        return result
    }

    @Test("lines come without their newline, numbered from 1; a last line without a newline counts")
    func linesAndNumbers() throws {
        let root = try TemporaryDirectory()
        let path = root.path + "/t.txt"
        try "one\n\nthree\r\nfour".write(toFile: path, atomically: true, encoding: .utf8)
        let lines = try FileLines(path: path)
        #expect(try lines.next().map(Array.init) == Array("one".utf8))
        #expect(lines.lineNumber == 1)
        #expect(try allLines(lines) == ["", "three\r", "four"])
        #expect(lines.lineNumber == 4)
        #expect(lines.bytesRead == 16)
        #expect(try lines.next() == nil)
        try lines.close()

        try "a\nb\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try allLines(FileLines(path: path)) == ["a", "b"])
        try "".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try allLines(FileLines(path: path)) == [])
    }

    @Test("lines longer than the buffer read whole; a line past the limit is refused with its number")
    func longLines() throws {
        let root = try TemporaryDirectory()
        let path = root.path + "/long.txt"
        let long = String(repeating: "0x00 ", count: 40_000)  // 200,000 bytes: several reads
        try "w1@0x3c 0x00\n\(long)\nlast\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try allLines(FileLines(path: path)) == ["w1@0x3c 0x00", long, "last"])
        #expect(try allLines(FileLines(path: path, maximumLineBytes: long.utf8.count)).count == 3)

        let lines = try FileLines(path: path, maximumLineBytes: long.utf8.count - 1)
        #expect(try lines.next() != nil)
        let refused = FileLinesError.lineTooLong(path: path, line: 2, limit: long.utf8.count - 1)
        #expect(throws: refused) { try lines.next() }
        #expect(
            refused.description == "\(path): line 2 is longer than the 199999 bytes a line may hold: name a text file")

        // A file without newlines is refused at the limit, not gathered to its end.
        let noNewlines = root.path + "/blob"
        try Data(count: 3 << 20).write(to: URL(fileURLWithPath: noNewlines))
        #expect(throws: FileLinesError.lineTooLong(path: noNewlines, line: 1, limit: 1 << 20)) {
            try allLines(FileLines(path: noNewlines))
        }
    }

    @Test("a byte limit stops where an earlier reading stopped")
    func byteLimit() throws {
        let root = try TemporaryDirectory()
        let path = root.path + "/t.txt"
        try "one\ntwo\nthree\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try allLines(FileLines(path: path, byteLimit: 8)) == ["one", "two"])
        #expect(try allLines(FileLines(path: path, byteLimit: 10)) == ["one", "two", "th"])
        #expect(try allLines(FileLines(path: path, byteLimit: 0)) == [])
    }

    @Test("a missing file, a FIFO or a folder fails as FileSystem.readFile does")
    func fileErrors() throws {
        let root = try TemporaryDirectory()
        #expect(
            throws: FileLinesError.file(
                .failed(operation: .open, path: "/nonexistent/t", errno: .noSuchFileOrDirectory))
        ) {
            try FileLines(path: "/nonexistent/t")
        }
        let fifo = root.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // No writer: a blocking open or read would hang here for ever.
        #expect(throws: FileLinesError.file(.notARegularFile(path: fifo))) { try FileLines(path: fifo) }
        #expect(throws: FileLinesError.file(.notARegularFile(path: root.path))) { try FileLines(path: root.path) }
        #expect(
            FileLinesError.file(.notARegularFile(path: fifo)).description
                == FileSystemError.notARegularFile(path: fifo).description)
    }
}
