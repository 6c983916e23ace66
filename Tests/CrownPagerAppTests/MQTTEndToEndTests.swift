import CrownPagerApp
import Foundation
import Glibc
import PagerEngine
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// `crownpager run` on the fake kernel against a real broker (Debian's mosquitto on 127.0.0.1):
/// pages fed by topics, notifications and page changes published to it, the crown and the
/// pager's availability published by it, a broker that goes away or never answers.
@Suite(.tags(.endToEnd), .serialized) struct MQTTEndToEndTests {
    static let base = "crownpager/test"

    /// The pages: a text page and a gauge fed by topics, a plain page to turn to.
    static func configuration(port: Int) -> String {
        """
        [display]
        bus = 1

        [mqtt]
        host = "127.0.0.1"
        port = \(port)
        base_topic = "\(base)"
        keepalive = "5s"

        [[page]]
        kind = "text"
        title = "Kitchen"
        source = "mqtt"
        topic = "home/kitchen"

        [[page]]
        kind = "text"
        title = "Hall"
        text = "hall"

        [[page]]
        kind = "text"
        title = "Outside"
        source = "mqtt"
        topic = "home/outside"
        json = "sensor.temperature"
        """
    }

    /// A pager with the knob on the fake chip and a control socket, run against `port`.
    struct Pager {
        let knob: FakeKnobRun
        let process: Process
        let error: Pipe
        var socket: String { knob.bus.scratch.path + "/control.sock" }

        init(port: Int) throws { try self.init(configuration: MQTTEndToEndTests.configuration(port: port)) }

        /// A pager run with `configuration` (the three pages of `configuration(port:)`, its `[mqtt]` changed).
        init(configuration: String) throws {
            knob = try FakeKnobRun()
            let path = knob.bus.scratch.path + "/crownpager.toml"
            try configuration.write(toFile: path, atomically: true, encoding: .utf8)
            let socket = knob.bus.scratch.path + "/control.sock"
            (process, _, error) = try knob.start([
                "run", "--config", path, "--no-acceleration", "--persist", "--socket", socket,
            ])
        }

        /// The `status --json` object; empty while the socket is not there yet.
        func status() throws -> [String: Any] {
            let run = try runCrownPager(["status", "--json", "--socket", socket])
            guard run.status == 0 else { return [:] }
            return try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any] ?? [:]
        }

        /// Waits, with a deadline, until `status` satisfies `condition`.
        func waitForStatus(deadline seconds: Double = 20, _ condition: ([String: Any]) -> Bool) throws -> Bool {
            try waitUntil(seconds: seconds) { condition(try status()) }
        }

        func stop() -> String { FakeBusRun.stop(process, error: error) }

        /// SIGTERM, which must end the pager cleanly within 100 ms; what it logged.
        func terminateWithin100Milliseconds() -> String {
            let started = Date()
            process.terminate()
            process.waitUntilExit()
            let took = Date().timeIntervalSince(started)
            #expect(took < 0.1, "SIGTERM took \(took) s")
            #expect(process.terminationStatus == 0)
            return String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
    }

    /// The settled glass of the three pages with `body` on the page at `index`.
    static func glass(_ body: ConfiguredPage.Body, onPage index: Int, after detents: [Int] = []) -> Bitmap {
        var pages = [
            ConfiguredPage(title: "Kitchen", body: .text("")), ConfiguredPage(title: "Hall", body: .text("hall")),
            ConfiguredPage(title: "Outside", body: .text("")),
        ]
        pages[index].body = body
        return settledFrame(pages, .ssd1306_128x64, after: detents)
    }

    /// Waits, with a deadline, until `subscription`'s retained value on `topic` is `expected`.
    static func waitForRetained(_ broker: MosquittoBroker, _ topic: String, _ expected: String) throws -> Bool {
        let end = Date().addingTimeInterval(30)
        while Date() < end {
            if try broker.retained(topic, seconds: 1) == expected { return true }
        }
        return false
    }

    @Test func aRetainedValueFillsThePageAPublishFollowsAndJunkIsMarked() throws {
        let broker = try MosquittoBroker()
        try broker.publish("home/kitchen", "21.5 C", retain: true)
        let pager = try Pager(port: broker.port)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try pager.knob.bus.waitForGlass(Self.glass(.output(lines: ["21.5 C"], status: nil), onPage: 0)))
        try broker.publish("home/kitchen", "22 C")
        #expect(try pager.knob.bus.waitForGlass(Self.glass(.output(lines: ["22 C"], status: nil), onPage: 0)))
        // Not UTF-8: each bad byte a U+FFFD, as a command's output shows it, the rest as sent.
        try broker.publish("home/kitchen", [0xFF, 0xFE, 0x41, 0x80])
        #expect(
            try pager.knob.bus.waitForGlass(
                Self.glass(.output(lines: ["\u{FFFD}\u{FFFD}A\u{FFFD}"], status: nil), onPage: 0)))
        // A JSON field on the third page.
        try broker.publish("home/outside", #"{"sensor": {"temperature": 7.5, "unit": "C"}}"#)
        try broker.publish(Self.base + "/page/set", "Outside")
        #expect(try pager.waitForStatus { $0["page"] as? Int == 3 })
        #expect(
            try pager.knob.bus.waitForGlass(Self.glass(.output(lines: ["7.5"], status: nil), onPage: 2, after: [1, 1])))
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
        #expect(!messages.contains("home/kitchen (page 1): ignored"), "\(messages)")
        #expect(messages.contains("crownpager: mqtt: connected"), "\(messages)")
    }

    @Test func notificationsPageChangesCrownEventsAndAvailability() throws {
        let broker = try MosquittoBroker()
        let pager = try Pager(port: broker.port)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try Self.waitForRetained(broker, Self.base + "/availability", "online"))
        #expect(try broker.retained(Self.base + "/page") == "Kitchen")
        #expect(try broker.retained(Self.base + "/screen") == "bright")
        try broker.publish(Self.base + "/page/set", "2")
        #expect(try pager.waitForStatus { $0["page"] as? Int == 2 })
        #expect(try Self.waitForRetained(broker, Self.base + "/page", "Hall"))
        try broker.publish(Self.base + "/notify", #"{"message": "Someone at the door", "title": "Door"}"#)
        #expect(try pager.waitForStatus { $0["notification"] as? String == "Door" })

        // The crown's events, as the fake chip's detents and a press make them.
        let crown = try LiveSubscription(broker, Self.base + "/crown")
        #expect(try crown.waitUntilSubscribed())
        pager.knob.write(FakeKnobRun.detents(1))
        let turn = crown.next(seconds: 10)
        ActionEndToEndTests.press(pager.knob)
        let events = [turn, crown.next(seconds: 10)].compactMap { $0 }
        crown.stop()
        #expect(
            events == [#"{"event_type":"turn_forward","count":1}"#, #"{"event_type":"press","count":1}"#], "\(events)")

        // SIGKILL: no clean goodbye, so the broker publishes the last will.
        kill(pager.process.processIdentifier, SIGKILL)
        pager.process.waitUntilExit()
        #expect(try Self.waitForRetained(broker, Self.base + "/availability", "offline"))
    }

    @Test func aReloadSubscribesItsNewTopicsAndFillsThePagesAgain() throws {
        let broker = try MosquittoBroker()
        try broker.publish("home/kitchen", "21.5 C", retain: true)
        try broker.publish("home/hall", "dry", retain: true)
        let pager = try Pager(port: broker.port)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try pager.knob.bus.waitForGlass(Self.glass(.output(lines: ["21.5 C"], status: nil), onPage: 0)))
        // The hall's page now takes its topic: SIGHUP reloads, the pages are made afresh.
        let path = pager.knob.bus.scratch.path + "/crownpager.toml"
        let text = Self.configuration(port: broker.port).replacingOccurrences(
            of: "text = \"hall\"", with: "source = \"mqtt\"\ntopic = \"home/hall\"")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        kill(pager.process.processIdentifier, SIGHUP)
        try broker.publish(Self.base + "/page/set", "Hall")
        let hall = Self.glass(.output(lines: ["dry"], status: nil), onPage: 1, after: [1])
        #expect(try pager.knob.bus.waitForGlass(hall), "the new topic's retained value fills its page")
        // The kitchen's value, retained, comes again with the subscription made again.
        try broker.publish(Self.base + "/page/set", "Kitchen")
        let kitchen = Self.glass(.output(lines: ["21.5 C"], status: nil), onPage: 0)
        #expect(try pager.knob.bus.waitForGlass(kitchen), "the reload's fresh page is filled again")
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    @Test func aBrokerRestartedMidRunIsReconnectedAndTheEndSaysOffline() throws {
        let broker = try MosquittoBroker()
        let pager = try Pager(port: broker.port)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try Self.waitForRetained(broker, Self.base + "/availability", "online"))
        #expect(try pager.status()["mqtt"] as? String == "connected")
        try broker.publish("home/kitchen", "19 C")
        #expect(try pager.knob.bus.waitForGlass(Self.glass(.output(lines: ["19 C"], status: nil), onPage: 0)))
        broker.stop()
        #expect(try pager.waitForStatus { ($0["mqtt"] as? String ?? "").hasPrefix("disconnected (") })
        // The pager keeps paging without its broker.
        #expect(try runCrownPager(["show", "3", "--socket", pager.socket]).status == 0)
        #expect(try pager.waitForStatus { $0["page"] as? Int == 3 })
        // A fresh broker keeps nothing: the availability it holds is the pager's after reconnecting.
        try broker.start()
        #expect(try Self.waitForRetained(broker, Self.base + "/availability", "online"))
        // The state and Home Assistant's discovery again, on the broker that lost them.
        #expect(try Self.waitForRetained(broker, Self.base + "/page", "Outside"))
        let configs = try LiveSubscription(broker, "homeassistant/device/+/config")
        #expect(try configs.waitUntilSubscribed())
        #expect(configs.received().contains { $0.payload.contains(#""unique_id""#) }, "\(configs.received())")
        configs.stop()
        // The crown is published again; the value from before the restart is still on its page.
        let crown = try LiveSubscription(broker, Self.base + "/crown")
        #expect(try crown.waitUntilSubscribed())
        pager.knob.write(FakeKnobRun.detents(-1))
        #expect(crown.next(seconds: 10) == #"{"event_type":"turn_back","count":1}"#)
        crown.stop()
        #expect(try runCrownPager(["show", "1", "--socket", pager.socket]).status == 0)
        #expect(try pager.knob.bus.waitForGlass(Self.glass(.output(lines: ["19 C"], status: nil), onPage: 0)))
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
        #expect(messages.contains("crownpager: mqtt: disconnected ("), "\(messages)")
        #expect(try broker.retained(Self.base + "/availability") == "offline")
    }

    @Test func aBrokerThatNeverAnswersLeavesTheLoopResponsive() throws {
        let silent = try TCPListener()
        let pager = try Pager(port: silent.port)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try pager.waitForStatus { $0["page"] as? Int == 1 })
        // The status says so: the CONNECT went out and nothing came back.
        #expect(try pager.status()["mqtt"] as? String == "connecting")
        for page in [2, 3, 1] {
            #expect(try runCrownPager(["show", "\(page)", "--socket", pager.socket]).status == 0)
            #expect(try pager.status()["page"] as? Int == page)
        }
        _ = pager.terminateWithin100Milliseconds()
    }
}

/// `[mqtt]`'s secrets, the password file and the client certificate's key, are refused at start
/// when others may read them, with the fix.
@Suite(.tags(.endToEnd)) struct MQTTPasswordFileTests {
    @Test(arguments: ["password_file", "keyfile"]) func aSecretFileOthersMayReadIsRefusedWithTheFix(setting: String)
        throws
    {
        let fake = try FakeBusRun()
        let secret = fake.scratch.path + "/mqtt-secret"
        try "hunter2\n".write(toFile: secret, atomically: true, encoding: .utf8)
        #expect(chmod(secret, 0o644) == 0)
        let path = fake.scratch.path + "/crownpager.toml"
        let naming =
            setting == "keyfile"
            ? "tls = true\ncertfile = \"\(secret).crt\"\nkeyfile = \"\(secret)\""
            : "username = \"pager\"\npassword_file = \"\(secret)\""
        let text = "[display]\nbus = 1\n\n[mqtt]\nhost = \"127.0.0.1\"\n" + naming + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (status, _, error) = try fake.run(["run", "--config", path], devices: "1:0x3c")
        #expect(status == 78, "\(error)")
        #expect(
            error.contains("\(setting) \(secret) may be read by others (mode 644): chmod 640 \(secret)"), "\(error)")
    }
}

/// `crownpager doctor mqtt` against a real broker, and against a port nobody listens on.
@Suite(.tags(.endToEnd)) struct MQTTDoctorTests {
    @Test func theDoctorTriesTheBrokerAndSaysWhatIsWrong() throws {
        let broker = try MosquittoBroker()
        let path = broker.scratch.path + "/crownpager.toml"
        let file = { (port: Int) in "[mqtt]\nhost = \"127.0.0.1\"\nport = \(port)\nbase_topic = \"doctor/test\"\n" }
        try file(broker.port).write(toFile: path, atomically: true, encoding: .utf8)
        let worked = try runCrownPager(["doctor", "mqtt", "--config", path, "--timeout", "10"])
        #expect(worked.status == 0, "\(worked.standardOutput)\(worked.standardError)")
        #expect(worked.standardOutput.contains("mqtt: subscribed, published and received"), "\(worked.standardOutput)")
        broker.stop()
        let failed = try runCrownPager(["doctor", "mqtt", "--config", path, "--timeout", "2"])
        #expect(failed.status == 69)
        #expect(failed.standardOutput.contains("mqtt: failed: "), "\(failed.standardOutput)")
        try "".write(toFile: path, atomically: true, encoding: .utf8)
        let off = try runCrownPager(["doctor", "mqtt", "--config", path])
        #expect(off.status == 69 && off.standardOutput.contains("[mqtt] has no host"), "\(off.standardOutput)")
    }

    /// A name with an IPv6 and an IPv4 address, the broker on the IPv4 one only (as a broker
    /// bound to 0.0.0.0): the next address is tried. The name is one of a hosts file put over
    /// /etc/hosts in a mount namespace of the doctor's own; where none can be made (a chroot, as
    /// the fresh root's tests run in), `localhost`, which is `::1` first there (Debian's
    /// /etc/hosts), and the test checks that it is.
    @Test func aNameWhoseFirstAddressRefusesIsReachedAtItsNext() throws {
        let broker = try MosquittoBroker()
        let hosts = broker.scratch.path + "/hosts"
        try "::1 broker.crownpager.test\n127.0.0.1 broker.crownpager.test\n".write(
            toFile: hosts, atomically: true, encoding: .utf8)
        let path = broker.scratch.path + "/crownpager.toml"
        let file = { (host: String) in
            "[mqtt]\nhost = \"\(host)\"\nport = \(broker.port)\nbase_topic = \"doctor/test\"\n"
        }
        try file("broker.crownpager.test").write(toFile: path, atomically: true, encoding: .utf8)
        let doctor = "mount --bind \"$1\" /etc/hosts && exec \"$2\" doctor mqtt --config \"$3\" --timeout 10"
        var run = try runProgram(
            "/usr/bin/unshare",
            [geteuid() == 0 ? "-m" : "-rm", "sh", "-c", doctor, "sh", hosts, crownPagerExecutable().path, path])
        if run.standardError.hasPrefix("unshare: ") {
            let order = try runProgram("/usr/bin/getent", ["ahostsv6", "localhost"]).standardOutput
            #expect(order.hasPrefix("::1 "), "no mount namespace here (\(run.standardError)), nor ::1 localhost")
            try file("localhost").write(toFile: path, atomically: true, encoding: .utf8)
            let direct = try runCrownPager(["doctor", "mqtt", "--config", path, "--timeout", "10"])
            run = (direct.status, direct.standardOutput, direct.standardError)
        }
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("mqtt: subscribed, published and received"), "\(run.standardOutput)")
    }

    @Test func wrongCredentialsAreNamed() throws {
        let broker = try MosquittoBroker(user: "pager", password: "right")
        let secret = broker.scratch.path + "/mqtt-password"
        let path = broker.scratch.path + "/crownpager.toml"
        let file =
            "[mqtt]\nhost = \"127.0.0.1\"\nport = \(broker.port)\nusername = \"pager\"\npassword_file = \"\(secret)\"\n"
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        for (password, status) in [("wrong", Int32(69)), ("right", 0)] {
            try (password + "\n").write(toFile: secret, atomically: true, encoding: .utf8)
            #expect(chmod(secret, 0o600) == 0)
            let run = try runCrownPager(["doctor", "mqtt", "--config", path, "--timeout", "5"])
            #expect(run.status == status, "\(run.standardOutput)\(run.standardError)")
            if status != 0 {
                #expect(
                    run.standardOutput.contains(
                        "the broker refused the connection: Connection Refused: not authorised."),
                    "\(run.standardOutput)")
            }
        }
    }
}
