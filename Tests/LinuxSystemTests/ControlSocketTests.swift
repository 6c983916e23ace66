import Foundation
import Glibc
import TestSupport
import Testing

@testable import LinuxSystem

/// The control socket's listening end is made without harming what its path holds, with mode
/// 0660; its connections never wait; a client reaches it, or learns that nothing listens.
@Suite struct ControlSocketTests {
    static func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : 0
    }

    @Test func somethingThatIsNotASocketIsNeverReplaced() throws {
        let scratch = try ScratchDirectory()
        let file = scratch.path + "/control.sock"
        try "keep me".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(throws: ControlSocketError.notASocket(path: file)) { try ControlListener(path: file) }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")
        let fifo = scratch.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: ControlSocketError.notASocket(path: fifo)) { try ControlListener(path: fifo) }
        #expect(Self.mode(fifo) & S_IFMT == S_IFIFO)
    }

    @Test func aLiveSocketIsRefusedAStaleOneReplaced() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/control.sock"
        var listener: ControlListener? = try ControlListener(path: path)
        #expect(Self.mode(path) & S_IFMT == S_IFSOCK)
        #expect(Self.mode(path) & 0o777 == 0o660)
        // Another pager listens there: refused, and the socket stays.
        #expect(throws: ControlSocketError.inUse(path: path)) { try ControlListener(path: path) }
        #expect(Self.mode(path) & S_IFMT == S_IFSOCK)
        // A killed run's socket: nobody listens, so it is replaced.
        listener = nil
        #expect(Self.mode(path) == 0)
        let stale = try UnixSocket.stream(at: path, "bind") { bind($0, $1, $2) }
        listener = try ControlListener(path: path)
        #expect(listener != nil)
        close(stale)
    }

    @Test func theEndRemovesOnlyItsOwnSocket() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/control.sock"
        do {
            let listener = try ControlListener(path: path)
            #expect(listener.path == path)
            // Someone put a file there meanwhile: it stays when the listener ends.
            unlink(path)
            try "theirs".write(toFile: path, atomically: false, encoding: .utf8)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theirs")
    }

    @Test func aClientExchangesALineAndLearnsWhenNothingListens() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/control.sock"
        #expect(throws: ControlSocketError.notListening(path: path, errno: .noSuchFileOrDirectory)) {
            try ControlConnection(connectingTo: path)
        }
        let listener = try ControlListener(path: path)
        #expect(try listener.accept() == nil)
        let client = try ControlConnection(connectingTo: path)
        let server = try #require(try listener.accept())
        #expect(server.credentials == PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid()))
        // Nothing sent yet: the read does not wait.
        #expect(try server.receive(maximum: 64) == .nothing)
        #expect(server.sendWithoutWaiting(Array("ok\n".utf8)))
        #expect(try client.exchange("status\n", timeoutMilliseconds: 5000) == "ok")
        #expect(try server.receive(maximum: 64) == .bytes(Array("status\n".utf8)))
        // The client gone, the server reads the end.
        _ = consume client
        #expect(try server.receive(maximum: 64) == .closed)
    }
}
