import Foundation
import Glibc
import LinuxSystem
import Testing

@Suite("File system helpers")
struct FileSystemTests {
    @Test("createDirectory makes parents and accepts an existing folder")
    func createDirectory() throws {
        let root = try TemporaryDirectory()
        let nested = root.path + "/a/b/c"
        try FileSystem.createDirectory(atPath: nested)
        try FileSystem.createDirectory(atPath: nested)
        try FileSystem.createDirectory(atPath: root.path + "/a/b/c/")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: nested, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test("a FIFO or a folder is refused at once, never read: it would block or never end")
    func onlyRegularFilesAreRead() throws {
        let root = try TemporaryDirectory()
        let fifo = root.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // No writer: a blocking open or read would hang here for ever.
        #expect(throws: FileSystemError.notARegularFile(path: fifo)) { try FileSystem.readFile(atPath: fifo) }
        #expect(throws: FileSystemError.notARegularFile(path: fifo)) {
            try FileSystem.readTail(atPath: fifo, maximumBytes: 100)
        }
        #expect(throws: FileSystemError.notARegularFile(path: root.path)) { try FileSystem.readText(atPath: root.path) }
        #expect(FileSystemError.notARegularFile(path: fifo).description.contains("not a regular file"))
        // /proc's files are regular, with no size.
        #expect(try !FileSystem.readText(atPath: "/proc/self/stat").isEmpty)
    }

    @Test("a file in the way of a directory is reported with its path")
    func fileInTheWay() throws {
        let root = try TemporaryDirectory()
        try FileSystem.writeAtomically("x", toPath: root.path + "/file")
        #expect(
            throws: FileSystemError.failed(operation: .createDirectory, path: root.path + "/file", errno: .notDirectory)
        ) {
            try FileSystem.createDirectory(atPath: root.path + "/file/sub")
        }
        #expect(throws: FileSystemError.failed(operation: .createDirectory, path: "", errno: .noSuchFileOrDirectory)) {
            try FileSystem.createDirectory(atPath: "")
        }
    }

    @Test("atomic writes round-trip, replace the old file and leave no temporary file")
    func atomicRoundTrip() throws {
        let root = try TemporaryDirectory()
        let path = root.path + "/frame.pbm"
        let bytes: [UInt8] = (0..<1000).map { UInt8($0 % 251) }
        try FileSystem.writeAtomically(bytes, toPath: path)
        #expect(try FileSystem.readFile(atPath: path) == bytes)
        try FileSystem.writeAtomically("P1\n1 1\n1\n", toPath: path)
        #expect(try FileSystem.readText(atPath: path) == "P1\n1 1\n1\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["frame.pbm"])
    }

    @Test("an atomic write into a missing folder names the path and ENOENT")
    func missingParent() throws {
        let root = try TemporaryDirectory()
        do throws(FileSystemError) {
            try FileSystem.writeAtomically([1, 2, 3], toPath: root.path + "/missing/frame.png")
            Issue.record("writing into a missing folder succeeded")
        } catch {
            #expect(error.errno == .noSuchFileOrDirectory)
            #expect(error.path.hasPrefix(root.path + "/missing/"))
            #expect(error.description.contains("a folder on the path does not exist"))
        }
    }

    @Test("a folder in the way is refused before anything is written: no temporary file behind")
    func folderInTheWay() throws {
        let root = try TemporaryDirectory()
        try FileSystem.createDirectory(atPath: root.path + "/taken/inner")
        #expect(throws: FileSystemError.unsuitableOutput(path: root.path + "/taken", kind: .directory)) {
            try FileSystem.writeAtomically([1], toPath: root.path + "/taken")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["taken"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path + "/taken") == ["inner"])
    }

    @Test("a folder without write permission gives EACCES, with a hint")
    func permissionDenied() throws {
        let root = try TemporaryDirectory()
        // Root ignores permission bits, but not sysfs, which refuses new files to everyone.
        let folder = geteuid() == 0 ? "/sys" : root.path + "/locked"
        if geteuid() != 0 { try FileSystem.createDirectory(atPath: folder, permissions: 0o500) }
        defer { chmod(root.path + "/locked", 0o700) }
        do throws(FileSystemError) {
            try FileSystem.writeAtomically([1], toPath: folder + "/frame.pbm")
            Issue.record("writing into \(folder) succeeded")
        } catch {
            #expect(error.errno == .permissionDenied)
            #expect(error.path.hasPrefix(folder + "/"))
            #expect(error.description.contains("check the permissions"))
        }
    }

    @Test("reads are capped, and /proc files (which report size 0) read whole")
    func readCap() throws {
        let root = try TemporaryDirectory()
        let path = root.path + "/big"
        try FileSystem.writeAtomically([UInt8](repeating: 7, count: 40_000), toPath: path)
        #expect(try FileSystem.readFile(atPath: path, maximumBytes: 40_000).count == 40_000)
        #expect(throws: FileSystemError.tooLarge(path: path, limit: 39_999)) {
            try FileSystem.readFile(atPath: path, maximumBytes: 39_999)
        }
        #expect(try !FileSystem.readText(atPath: "/proc/self/status").isEmpty)
        #expect(
            throws: FileSystemError.failed(operation: .open, path: root.path + "/none", errno: .noSuchFileOrDirectory)
        ) {
            try FileSystem.readFile(atPath: root.path + "/none")
        }
    }

    @Test("errno sentences name the error")
    func errnoSentence() {
        #expect(Errno.noSuchFileOrDirectory.sentence == "No such file or directory (ENOENT, errno 2)")
        #expect(Errno(rawValue: 4095).sentence.hasSuffix("(errno 4095)"))
    }
}
