import Glibc
import TestSupport
import Testing

@testable import LinuxSystem

/// Why libmicrohttpd could not listen is the bind's own errno, with the fix: the library's
/// cleanup does not keep it (a port refused by SocketBindDeny= came out as EBADF).
@Suite struct HTTPServerTests {
    static func server(_ address: String, _ port: Int) throws(HTTPServerError) -> HTTPServer {
        try HTTPServer(
            address: address, port: port, connections: 4, idleSeconds: 5, headBytes: 4096, handler: { _ in },
            reader: { _, _ in .end }, closed: { _ in })
    }

    /// Why a server on `address`:`port` could not start; nil when it did. (Swift 6.0's
    /// `#expect(throws:)` returns no error, so the error is caught here.)
    static func refusal(_ address: String, _ port: Int) -> HTTPServerError? {
        do throws(HTTPServerError) {
            try server(address, port).stop()
            return nil
        } catch {
            return error
        }
    }

    @Test func aPortAnotherProgramListensOnIsNamedWithTheFix() throws {
        let port = try freeTCPPort()
        let first = try Self.server("127.0.0.1", port)
        defer { first.stop() }
        let refused = Self.refusal("127.0.0.1", port)
        #expect(refused == .listen(endpoint: "127.0.0.1:\(port)", errno: Errno(rawValue: EADDRINUSE)))
        #expect(
            refused?.description.hasSuffix("another program listens there: choose another port in [web] listen") == true
        )
    }

    @Test func anAddressOfAnotherMachineIsNamedWithTheFix() throws {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
        let port = try freeTCPPort()
        let refused = Self.refusal("192.0.2.1", port)
        #expect(refused == .listen(endpoint: "192.0.2.1:\(port)", errno: Errno(rawValue: EADDRNOTAVAIL)))
        #expect(refused?.description.contains("no interface of this machine has that address") == true)
    }

    @Test func aPortTheServiceMayNotBindSaysWhichDropInAllowsIt() {
        let message = HTTPServerError.listen(endpoint: "0.0.0.0:8081", errno: Errno(rawValue: EPERM)).description
        #expect(message.hasPrefix("the live mirror could not listen on 0.0.0.0:8081: "))
        #expect(message.contains("SocketBindAllow=") && message.contains("Hardware/crownpager-web.conf.example"))
    }
}
