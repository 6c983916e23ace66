import Glibc
import Testing

@testable import LinuxSystem

/// The project's own `FileDescriptor` and `Errno`, which stand in for Apple's System library.
@Suite("System call shim")
struct SystemCallShimTests {
    @Test("writeAll and read round-trip through a pipe, and end of file reads as 0")
    func pipeRoundTrip() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let (reader, writer) = (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
        defer { _ = try? reader.close() }
        #expect(try writer.writeAll(Array("crown".utf8)) == 5)
        try writer.close()
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        #expect(Array(buffer[..<count]) == Array("crown".utf8))
        #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == 0)
    }

    @Test("a descriptor that is not open throws EBADF for writes, reads and close")
    func notOpen() {
        // -1, not a closed number: tests run in parallel, and another could be handed that number.
        let descriptor = FileDescriptor(rawValue: -1)
        var buffer = [UInt8](repeating: 0, count: 1)
        #expect(throws: Errno.badFileDescriptor) { try descriptor.writeAll([1]) }
        #expect(throws: Errno.badFileDescriptor) { try buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) } }
        #expect(throws: Errno.badFileDescriptor) { try descriptor.close() }
    }

    @Test("open reports ENOENT and EEXIST, and creates a file with the permissions asked")
    func openErrors() throws {
        let root = try TemporaryDirectory()
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileDescriptor.open(root.path + "/none", .readOnly) }
        let path = root.path + "/made"
        try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600).close()
        var status = stat()
        try #require(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(throws: Errno.fileExists) {
            try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
        }
    }

    @Test("errors read the system's wording, and EWOULDBLOCK is EAGAIN on Linux")
    func errnoWording() {
        #expect(Errno.permissionDenied.description == "Permission denied")
        #expect(Errno(rawValue: 4095).description == "Unknown error 4095")
        #expect(Errno.wouldBlock == .resourceTemporarilyUnavailable)
    }
}
