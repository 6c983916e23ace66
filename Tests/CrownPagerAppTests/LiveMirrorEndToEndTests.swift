import CrownPagerApp
import Foundation
import GlassViews
import Glibc
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// `[web]` on the fake kernel with the real `run`: browsers see the panel's glass as it changes,
/// `/glass.png` is that glass, only the token turns the crown, and hostile clients never stall
/// the loop. (Latency, RSS and wake-up figures are Scripts/bench/mirror-stress.sh's and
/// wakeups.sh's, from the release build: not these tests'.)
@Suite(.tags(.endToEnd), .serialized) struct LiveMirrorEndToEndTests {
    static let token = "0123456789abcdef0123"

    /// Three text pages on the fake panel, the knob on the fake chip, the mirror on `port`.
    static func configuration(port: Int, token: String? = LiveMirrorEndToEndTests.token) -> String {
        """
        [display]
        bus = 1
        dim_after = "never"
        off_after = "never"
        [crown]
        source = "gpio"
        chip = "/dev/gpiochip0"
        acceleration = false
        [web]
        listen = "127.0.0.1:\(port)"
        \(token.map { "token = \"\($0)\"" } ?? "")
        [[page]]
        kind = "text"
        title = "One"
        text = "first"
        [[page]]
        kind = "text"
        title = "Two"
        text = "second"
        [[page]]
        kind = "text"
        title = "Three"
        text = "third"
        """
    }

    /// The pager running with the mirror, and what it logged once it listened.
    struct Mirrored {
        let knob: FakeKnobRun
        let process: Process
        let error: Pipe
        let port: Int
        var messages = ""

        init(token: String? = LiveMirrorEndToEndTests.token, environment: [String: String] = [:]) throws {
            knob = try FakeKnobRun()
            port = try freeTCPPort()
            let path = knob.bus.scratch.path + "/crownpager.toml"
            try LiveMirrorEndToEndTests.configuration(port: port, token: token).write(
                toFile: path, atomically: true, encoding: .utf8)
            (process, _, error) = try knob.bus.start(
                ["run", "--config", path, "--persist"], devices: "1:0x3c",
                extra: ["FAKE_GPIO_CHIPS": "0:54", "FAKE_GPIO_INPUT": knob.input].merging(environment) { $1 })
            #expect(try knob.bus.waitForFirstFrame())
        }

        /// Waits for `text` in the log.
        mutating func waitFor(_ text: String) -> Bool {
            ConfigRunEndToEndTests.waitFor(text, in: error.fileHandleForReading, collected: &messages)
        }

        /// The panel's glass once the bus fell quiet.
        func panelGlass() throws -> Bitmap {
            #expect(try MQTTPromptnessTests.waitForQuietBus(knob))
            var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
            emulator.replay(try knob.bus.transfers())
            return emulator.glass
        }

        /// The panel's glass once it stayed the same for a second (the page indicator hides a
        /// while after a turn).
        func stableGlass() throws -> Bitmap {
            var glass = try panelGlass()
            for _ in 0..<20 {
                usleep(1_000_000)
                let again = try panelGlass()
                if again == glass { return glass }
                glass = again
            }
            return glass
        }

        /// A client watching the glass, past the stream's head.
        func watcher() -> MirrorClient? {
            guard let client = MirrorClient(port: port), client.request("/events"),
                let head = client.streamHead(), head.hasPrefix("HTTP/1.1 200"), head.contains("text/event-stream")
            else { return nil }
            return client
        }

        /// `POST /crown?query` with `authorization`; the status.
        func crown(_ query: String, authorization: String?) -> Int? {
            guard let client = MirrorClient(port: port) else { return nil }
            client.request(
                "/crown?" + query, method: "POST", headers: authorization.map { ["Authorization: \($0)"] } ?? [])
            return client.answer()?.status
        }

        /// Ends the run with SIGTERM; what it logged.
        mutating func stop() -> String {
            messages += FakeBusRun.stop(process, error: error)
            return messages
        }
    }

    @Test func theBrowsersGlassIsThePanelsAndFollowsEachDetent() throws {
        var pager = try Mirrored()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        let listening = pager.waitFor("crownpager: live mirror on http://127.0.0.1:\(pager.port)/ (libmicrohttpd ")
        #expect(listening)
        let watcher = try #require(pager.watcher())
        let first = try pager.panelGlass()
        #expect(watcher.settledGlass() == first, "the glass as it is, at once")
        for step in 1...3 {
            let turned = Date()
            pager.knob.write(FakeKnobRun.detents(step == 3 ? -1 : 1))
            let event = watcher.nextGlass(seconds: 5)
            #expect(event != nil, "an event follows detent \(step)")
            #expect(Date().timeIntervalSince(turned) < 2, "detent \(step)'s event came at once")
            let settled = watcher.settledGlass()
            let panel = try pager.panelGlass()
            #expect(settled == panel, "after detent \(step), the browser's glass is the panel's")
        }
        #expect(watcher.settledGlass(quiet: 1.5, deadline: 2) == nil, "a still glass sends nothing")
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    /// The page itself, in Debian's Chromium (Scripts/web/check-mirror.py): it draws the glass the
    /// stream sends, and a real wheel event over it turns the device's crown with the token.
    @Test func inChromiumThePageShowsThePanelAndItsWheelTurnsTheCrown() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            // Chromium comes with Scripts/setup.sh --web, which the Debian 13 toolchain's runs leave out (Testing.md).
            print("LiveMirrorEndToEndTests: the page in Chromium was NOT checked: no chromium (Scripts/setup.sh --web)")
            return
        }
        var pager = try Mirrored()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        let first = try pager.stableGlass()
        let script = ConfigInstallTests.repository.appendingPathComponent("Scripts/web/check-mirror.py").path
        // Its output and errors together: `first`, `turned` and `canvas ok` lines, or what failed.
        let run = try ConfigInstallTests.run(
            "/usr/bin/python3", [script, "http://127.0.0.1:\(pager.port)/", Self.token])
        #expect(run.status == 0, "\(run.output)")
        let lines = Dictionary(
            run.output.split(separator: "\n").compactMap { line -> (String, String)? in
                let words = line.split(separator: " ", maxSplits: 1)
                return words.count == 2 ? (String(words[0]), String(words[1])) : nil
            }, uniquingKeysWith: { $1 })
        func glass(_ key: String) -> Bitmap? {
            lines[key].flatMap { Data(base64Encoded: $0) }.flatMap {
                Bitmap(width: 128, height: 64, pageBytes: Array($0))
            }
        }
        #expect(glass("first") == first, "the page drew the panel's glass")
        let turned = try pager.stableGlass()
        #expect(turned != first, "the wheel turned the device's crown")
        #expect(glass("turned") == turned, "and the page drew the panel's new glass")
        #expect(run.output.contains("canvas ok\n"), "\(run.output)")
        let messages = pager.stop()
        #expect(messages.contains("the crown turned 1 detents (1 forward, 0 back), 1 applied"), "\(messages)")
    }

    @Test func theGlassPNGIsTheEmulatorsGlass() throws {
        var pager = try Mirrored()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        pager.knob.write(FakeKnobRun.detents(1))
        let glass = try pager.panelGlass()
        let client = try #require(MirrorClient(port: pager.port))
        client.request("/glass.png")
        let answer = try #require(client.answer())
        #expect(answer.status == 200)
        #expect(answer.head.lowercased().contains("content-type: image/png"))
        #expect(answer.body == FrameFiles.png(glass, scale: 4, palette: .white))
        // The page carries the glass's colours and the stream's address.
        client.request("/")
        let page = try #require(client.answer())
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("new EventSource(\"events\")"))
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    @Test func onlyTheTokenTurnsTheCrown() throws {
        var pager = try Mirrored()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        let first = try pager.panelGlass()
        #expect(pager.crown("turn=1", authorization: nil) == 401)
        #expect(pager.crown("turn=1", authorization: "Bearer 0123456789abcdef0124") == 401)
        #expect(pager.crown("turn=1", authorization: "Basic \(Self.token)") == 401)
        #expect(pager.crown("button=press", authorization: "Bearer wrong") == 401)
        #expect(try pager.panelGlass() == first, "no request without the token moved the pages")
        #expect(pager.crown("turn=1", authorization: "Bearer \(Self.token)") == 204)
        let turned = try pager.panelGlass()
        #expect(turned != first, "the token's turn moved the pages")
        #expect(pager.crown("turn=-1", authorization: "Bearer \(Self.token)") == 204)
        #expect(try pager.knob.bus.waitForGlass(first), "and back, as a knob's detent does")
        let messages = pager.stop()
        #expect(messages.contains("the crown turned 2 detents (1 forward, 1 back), 2 applied"), "\(messages)")
    }

    @Test func aMirrorWithoutATokenShowsButNeverTurns() throws {
        var pager = try Mirrored(token: nil)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        let shows = pager.waitFor("it shows the glass, no token: the crown is not turned from browsers")
        #expect(shows)
        let first = try pager.panelGlass()
        #expect(pager.crown("turn=1", authorization: "Bearer \(Self.token)") == 403)
        #expect(try pager.panelGlass() == first)
        // A token added and the file reloaded: the mirror keeps what it started with, and says so.
        try Self.configuration(port: pager.port).write(
            toFile: pager.knob.bus.scratch.path + "/crownpager.toml", atomically: true, encoding: .utf8)
        kill(pager.process.processIdentifier, SIGHUP)
        let noted = pager.waitFor("[web] changed: the live mirror keeps its settings until a restart")
        #expect(noted)
        #expect(pager.crown("turn=1", authorization: "Bearer \(Self.token)") == 403)
        _ = pager.stop()
    }

    @Test func hostileClientsNeverStallTheLoop() throws {
        var pager = try Mirrored()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        let first = try pager.panelGlass()
        // A head of 1 MB: refused (431) or cut off, never read whole.
        let huge = try #require(MirrorClient(port: pager.port))
        huge.send(
            Array("GET / HTTP/1.1\r\nHost: x\r\nX-Big: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 1 << 20))
        if let answer = huge.answer(seconds: 5) { #expect(answer.status == 431) }
        // A slow client: half a request line, held open.
        let slow = try #require(MirrorClient(port: pager.port))
        slow.send(Array("GET /glass.png HT".utf8))
        // 100 watchers, and one that goes mid-stream.
        let watchers = (0..<100).compactMap { _ in pager.watcher() }
        #expect(watchers.count == 100)
        if let vanishing = pager.watcher() { _ = vanishing.nextGlass() }
        // The loop still turns the pages at once, and every watcher gets the new glass.
        pager.knob.write(FakeKnobRun.detents(1))
        let turned = try pager.stableGlass()
        let seen = watchers.map { $0.settledGlass(quiet: 0.05, deadline: 10) }
        #expect(turned != first)
        for (index, glass) in seen.enumerated() { #expect(glass == turned, "watcher \(index)") }
        // A body is refused unread.
        let body = try #require(MirrorClient(port: pager.port))
        body.send(
            Array(
                "POST /crown?turn=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Self.token)\r\nContent-Length: 5\r\n\r\nhello"
                    .utf8))
        #expect(body.answer()?.status == 413)
        // SIGTERM ends it at once with every connection open (the 100 ms are mirror-stress.sh's figure).
        let asked = Date()
        let messages = pager.stop()
        #expect(Date().timeIntervalSince(asked) < 2, "\(messages)")
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    /// libmicrohttpd stops watching a suspended stream's socket, so the browsers that left a still
    /// glass kept their connections, one of the limit's each, until the glass next changed.
    @Test func browsersThatLeaveAStillGlassGiveBackTheirPlaces() throws {
        var pager = try Mirrored()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        let still = try pager.stableGlass()
        let visits = LiveMirror.connectionLimit + 32
        for visit in 0..<visits {
            guard let visitor = pager.watcher(), let seen = visitor.nextGlass() else {
                Issue.record("visit \(visit) of \(visits) was refused")
                break
            }
            #expect(seen.glass == still)
        }
        #expect(try pager.panelGlass() == still, "the glass changed: departed streams were ended by a write")
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    @Test func withoutTheLibraryThePagerRunsAndSaysWhichPackage() throws {
        var pager = try Mirrored(environment: ["CROWNPAGER_LIBMICROHTTPD": "/nonexistent/libmicrohttpd.so.12"])
        defer { if pager.process.isRunning { pager.process.terminate() } }
        let warned = pager.waitFor(
            "crownpager: warning: no live mirror: libmicrohttpd could not be loaded from "
                + "CROWNPAGER_LIBMICROHTTPD=/nonexistent/libmicrohttpd.so.12")
        #expect(warned)
        pager.knob.write(FakeKnobRun.detents(1))
        #expect(try pager.panelGlass() != Bitmap(width: 128, height: 64))
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }
}
