import Foundation
import Glibc
import LinuxSystem
import TestSupport
import Testing

/// The control socket of the built `crownpager run` on the fake kernel's panel: the commands
/// through it, and clients that send too much, junk, half a line or nothing, none of which
/// blocks the loop.
@Suite(.tags(.endToEnd), .serialized) struct ControlSocketEndToEndTests {
    static let configuration = """
        [display]
        bus = 1

        [[page]]
        kind = "text"
        title = "Hello"
        text = "fixed"

        [[page]]
        kind = "text"
        title = "Washer"
        source = "push"
        stale_after = "300ms"

        [[page]]
        kind = "gauge"
        title = "Tank"
        source = "push"
        unit = "%"
        """

    /// A running pager with its socket, and the way to ask it.
    struct Pager {
        let fake: FakeBusRun
        let process: Process
        let error: Pipe
        var socket: String { fake.scratch.path + "/control.sock" }

        /// `crownpager run` of `configuration`, with `environment` settings added (STATE_DIRECTORY).
        init(_ configuration: String = ControlSocketEndToEndTests.configuration, environment: [String: String] = [:])
            throws
        {
            fake = try FakeBusRun()
            let path = fake.scratch.path + "/crownpager.toml"
            try configuration.write(toFile: path, atomically: true, encoding: .utf8)
            (process, _, error) = try fake.start(
                ["run", "--config", path, "--keyboard", "--socket", fake.scratch.path + "/control.sock"],
                devices: "1:0x3c", extra: environment)
        }

        /// `crownpager ARGUMENTS --socket` this pager's socket.
        func ask(_ arguments: [String]) throws -> ProgramRun {
            try runCrownPager(arguments + ["--socket", socket])
        }

        /// Waits, with a deadline, until the pager answers `status`.
        func waitUntilListening(deadline seconds: Double = 30) throws -> Bool {
            try waitUntil(seconds: seconds) {
                try FileManager.default.fileExists(atPath: socket) && ask(["status"]).status == 0
            }
        }

        /// The `status --json` object.
        func status() throws -> [String: Any] {
            let run = try ask(["status", "--json"])
            #expect(run.status == 0, "\(run.standardError)")
            let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
            return object as? [String: Any] ?? [:]
        }

        func stop() -> String { FakeBusRun.stop(process, error: error) }
    }

    @Test func showSetNotifyAndStatusThroughTheSocket() throws {
        let pager = try Pager()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try pager.waitUntilListening())
        var run = try pager.ask(["status"])
        #expect(run.standardOutput == "page 1 of 3: Hello\nscreen: bright\nno notification shown, 0 queued\n")

        #expect(try pager.ask(["show", "tank"]).status == 0)
        #expect(try pager.status()["page"] as? Int == 3)
        #expect(try pager.ask(["show", "2"]).status == 0)
        let framesBefore = try pager.fake.transfers().filter { $0.bytes.first == 0x40 }.count
        #expect(try pager.ask(["set", "Washer", "12 min\nleft"]).status == 0)
        #expect(try pager.ask(["set", "Tank", "42.5"]).status == 0)
        #expect(
            try pager.ask(["notify", "Someone at the door", "--title", "Door", "--priority", "critical"]).status == 0)
        // The engine shows it at once (critical), and the status says so.
        let shown = try pager.status()
        #expect(shown["notification"] as? String == "Door" && shown["queuedNotifications"] as? Int == 0)

        // Refused requests: 65, the reason on standard error, nothing changed.
        run = try pager.ask(["set", "Hello", "x"])
        #expect(run.status == 65)
        #expect(run.standardError.contains("the pager refused (not-pushed): page 1 (Hello) takes no pushed value"))
        run = try pager.ask(["set", "Tank", "full"])
        #expect(run.status == 65)
        #expect(run.standardError.contains("(bad-value)"))
        run = try pager.ask(["show", "Kitchen"])
        #expect(run.status == 65)
        #expect(run.standardError.contains("no page \"Kitchen\": use a title or a number from 1 to 3"))
        #expect(try pager.status()["page"] as? Int == 2)

        // The pushed text went to the panel; then, not set again, it goes stale.
        var stale: [Int] = []
        _ = try waitUntil(every: 0.05) {
            stale = try pager.status()["stalePages"] as? [Int] ?? []
            return stale == [2]
        }
        #expect(stale == [2])
        #expect(try pager.fake.transfers().filter { $0.bytes.first == 0x40 }.count > framesBefore)
        let status = try pager.status()
        #expect(status["titles"] as? [String] == ["Hello", "Washer", "Tank"])
        #expect(status["screen"] as? String == "bright")
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
        // Each connection's peer is in the journal; the socket is gone with the run.
        #expect(messages.contains("crownpager: control: connection from pid "))
        #expect(!FileManager.default.fileExists(atPath: pager.socket))
    }

    @Test func nothingListeningIsUnavailableAndABadCommandLineIsUsage() throws {
        let scratch = try ScratchDirectory()
        let run = try runCrownPager(["status", "--socket", scratch.path + "/none.sock"])
        #expect(run.status == 69)
        #expect(run.standardError.contains("no pager is running at \(scratch.path)/none.sock"))
        #expect(try runCrownPager(["notify", "hi", "--priority", "urgent"]).status == 64)
        for command in ["notify", "show", "set", "status", "brightness", "display", "press"] {
            let help = try runCrownPager([command, "--help"])
            #expect(help.status == 0 && help.standardOutput.contains("--socket"), "\(command)")
        }
    }

    @Test func floodsJunkHalfLinesAndStalledClientsNeverBlockTheLoop() throws {
        let pager = try Pager()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try pager.waitUntilListening())

        // 1 MB without a newline: refused after 4 KiB and closed, so the rest cannot be sent.
        let flood = try RawClient(path: pager.socket)
        #expect(flood.sendAll([UInt8](repeating: 0x61, count: 1 << 20), deadline: 10) < 1 << 20)

        // Binary junk, with newlines in it: each line is answered with an error.
        let junk = try RawClient(path: pager.socket)
        var bytes: [UInt8] = []
        var seed: UInt32 = 24
        for index in 0..<3000 {
            seed = seed &* 1_103_515_245 &+ 12345
            let random = UInt8(truncatingIfNeeded: seed >> 16)
            // Six lines: a newline every 500 bytes and nowhere else.
            bytes.append(index % 500 == 499 ? 0x0A : random == 0x0A ? 0x0B : random)
        }
        #expect(junk.sendAll(bytes, deadline: 10) == bytes.count)
        junk.shutdownWrite()
        let answers = junk.readToEnd(deadline: 10)
        #expect(answers.count == 6)
        #expect(answers.allSatisfy { $0.hasPrefix("error code=") }, "\(answers)")

        // Half a line, then the write side closed: dropped, nothing done.
        let half = try RawClient(path: pager.socket)
        _ = half.sendAll(Array("show page=2".utf8), deadline: 10)
        half.shutdownWrite()
        #expect(half.readToEnd(deadline: 10) == [])
        #expect(try pager.status()["page"] as? Int == 1)
        // A whole line, then the write side closed: answered.
        let whole = try RawClient(path: pager.socket)
        _ = whole.sendAll(Array("show page=3\n".utf8), deadline: 10)
        whole.shutdownWrite()
        #expect(whole.readToEnd(deadline: 10) == ["ok"])
        #expect(try pager.status()["page"] as? Int == 3)

        // A client that stalls halfway through a line holds nothing up: SIGTERM still ends the run at once.
        let stalled = try RawClient(path: pager.socket)
        _ = stalled.sendAll(Array("show pa".utf8), deadline: 10)
        #expect(try pager.status()["page"] as? Int == 3)
        let started = Date()
        kill(pager.process.processIdentifier, SIGTERM)
        while pager.process.isRunning, Date().timeIntervalSince(started) < 10 { usleep(1000) }
        let took = Date().timeIntervalSince(started)
        #expect(!pager.process.isRunning)
        #expect(took < 0.1, "SIGTERM took \(took) s")
        _ = pager.stop()
        #expect(pager.process.terminationStatus == 0)
    }

    @Test func aClientThatStallsIsClosedAtItsDeadlineAndTheNinthIsBusy() throws {
        let pager = try Pager()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try pager.waitUntilListening())
        let stalled = try RawClient(path: pager.socket)
        _ = stalled.sendAll(Array("show pa".utf8), deadline: 10)
        // Closed 2 s after its last byte, with the reason.
        #expect(
            stalled.readToEnd(deadline: 30) == [
                "error code=malformed message=the\\sline\\sdid\\snot\\send\\swithin\\s2000\\sms"
            ])
        let clients = try (0..<8).map { _ in try RawClient(path: pager.socket) }
        let ninth = try RawClient(path: pager.socket)
        #expect(ninth.readToEnd(deadline: 30).first?.hasPrefix("error code=busy") == true)
        #expect(clients.count == 8)
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }
}

/// A raw client of the control socket, for what the commands never send.
final class RawClient {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = try UnixSocket.stream(at: path, "connect") { connect($0, $1, $2) }
    }

    deinit { close(descriptor) }

    /// Sends `bytes` until all went, the peer closed, or `deadline` seconds passed; how many went.
    func sendAll(_ bytes: [UInt8], deadline: Double) -> Int {
        let end = Date().addingTimeInterval(deadline)
        var sent = 0
        while sent < bytes.count, Date() < end {
            let count = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
            } else if errno == EAGAIN || errno == EINTR {
                var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&request, 1, 100)
            } else {
                break
            }
        }
        return sent
    }

    func shutdownWrite() { _ = shutdown(descriptor, Int32(SHUT_WR)) }

    /// The lines read until the pager closes the connection (or `deadline` seconds pass).
    func readToEnd(deadline: Double) -> [String] {
        let end = Date().addingTimeInterval(deadline)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < end {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 4096, 0) }
            if count <= 0 { break }
            bytes += buffer.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
