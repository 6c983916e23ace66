import CrownPagerApp
import Foundation
import Glibc
import PagerEngine
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// Home Assistant's MQTT discovery against a real broker: `crownpager run` on the fake kernel
/// announces its device and entities (retained), takes Home Assistant's commands as the control
/// socket's inputs (page, brightness, display, a pushed value, a remote press), clears the
/// configs of pages gone, and announces again when Home Assistant comes online.
@Suite(.tags(.endToEnd), .serialized) struct HomeAssistantEndToEndTests {
    static let base = "crownpager/ha"
    /// The client id given, `.` not being a node id's: the node is `crownpager-test_1`.
    static let node = "crownpager-test_1"
    static let washer = "Washer \"Mk 2\" \u{FC}"

    /// Five pages: plain, a pushed text (a title with quotes and a non-ASCII letter), a pushed
    /// gauge, an action Home Assistant may press, one it may not; and `extra` pages after them.
    static func configuration(port: Int, extra: String = "") -> String {
        """
        [display]
        bus = 1

        [mqtt]
        host = "127.0.0.1"
        port = \(port)
        base_topic = "\(base)"
        client_id = "crownpager-test.1"
        keepalive = "5s"

        [[page]]
        kind = "text"
        title = "Kitchen"
        text = "kitchen"

        [[page]]
        kind = "text"
        title = "Washer \\"Mk 2\\" \u{FC}"
        source = "push"

        [[page]]
        kind = "gauge"
        title = "Tank"
        source = "push"
        min = 0
        max = 200
        unit = "L"

        [[page]]
        kind = "text"
        title = "Restart"
        text = "restarts foo"
        action = ["/bin/echo", "restarted"]
        remote = true

        [[page]]
        kind = "text"
        title = "Reboot"
        text = "reboots"
        action = ["/bin/true"]
        \(extra)
        """
    }

    /// A pager run with `text` as its configuration, its knob on the fake chip.
    static func start(_ text: String) throws -> (knob: FakeKnobRun, process: Process, error: Pipe) {
        let knob = try FakeKnobRun()
        let path = knob.bus.scratch.path + "/crownpager.toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let socket = knob.bus.scratch.path + "/control.sock"
        let (process, _, error) = try knob.start([
            "run", "--config", path, "--no-acceleration", "--persist", "--socket", socket,
        ])
        return (knob, process, error)
    }

    /// Every retained message under the discovery prefix, by topic: what the broker sends a new
    /// subscriber before anything published after it subscribed (mosquitto_sub's `-W` needs
    /// SIGALRM, which the test runner's children may have blocked).
    static func retainedConfigs(_ broker: MosquittoBroker) throws -> [String: String] {
        let subscription = try LiveSubscription(broker, "homeassistant/#")
        defer { subscription.stop() }
        #expect(try subscription.waitUntilSubscribed())
        return Dictionary(subscription.received().map { ($0.topic, $0.payload) }, uniquingKeysWith: { $1 })
    }

    /// Waits, with a deadline, until the retained configs satisfy `condition`; returns the last seen.
    static func waitForConfigs(_ broker: MosquittoBroker, _ condition: ([String: String]) -> Bool) throws
        -> [String: String]
    {
        let end = Date().addingTimeInterval(30)
        var configs: [String: String] = [:]
        while Date() < end {
            configs = try retainedConfigs(broker)
            if condition(configs) { return configs }
        }
        return configs
    }

    static func topic(_ component: String, _ objectID: String) -> String {
        "homeassistant/\(component)/\(node)/\(objectID)/config"
    }

    static func json(_ text: String?) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data((text ?? "").utf8)) as? [String: Any] ?? [:]
    }

    /// Every entity the five pages give.
    static let expected = [
        topic("sensor", "page"), topic("event", "crown"), topic("select", "page_select"), topic("notify", "notify"),
        topic("notify", "notify_passive"), topic("notify", "notify_critical"), topic("number", "brightness"),
        topic("switch", "display"), topic("text", "page_washer_mk_2"), topic("number", "page_tank"),
        topic("button", "press_restart"),
    ]

    @Test func theDeviceAndItsEntitiesAreAnnouncedRetainedWithTheirKeys() throws {
        let broker = try MosquittoBroker()
        let pager = try Self.start(Self.configuration(port: broker.port))
        defer { if pager.process.isRunning { pager.process.terminate() } }
        let configs = try Self.waitForConfigs(broker) { Set($0.keys) == Set(Self.expected) }
        #expect(Set(configs.keys) == Set(Self.expected), "\(configs.keys.sorted())")
        #expect(configs[Self.topic("button", "press_reboot")] == nil, "no button without remote = true")

        for (topic, text) in configs {
            let config = try Self.json(text)
            let objectID = topic.split(separator: "/")[3]
            #expect(config["unique_id"] as? String == "\(Self.node)_\(objectID)")
            #expect(config["availability_topic"] as? String == Self.base + "/availability")
            let device = config["device"] as? [String: Any] ?? [:]
            #expect(device["identifiers"] as? [String] == [Self.node] && device["model"] as? String == "CrownPager")
            #expect((device["sw_version"] as? String ?? "").contains("."), "\(device)")
            #expect((config["origin"] as? [String: Any])?["name"] as? String == "crownpager")
        }
        let select = try Self.json(configs[Self.topic("select", "page_select")])
        #expect(select["command_topic"] as? String == Self.base + "/page/set")
        #expect(select["options"] as? [String] == ["Kitchen", Self.washer, "Tank", "Restart", "Reboot"])
        let washer = try Self.json(configs[Self.topic("text", "page_washer_mk_2")])
        #expect(washer["name"] as? String == Self.washer, "the title's quotes and \u{FC} escaped and read back")
        #expect(washer["command_topic"] as? String == Self.base + "/page/washer_mk_2/set")
        #expect(washer["state_topic"] as? String == Self.base + "/page/washer_mk_2/state")
        let tank = try Self.json(configs[Self.topic("number", "page_tank")])
        #expect(tank["min"] as? Int == 0 && tank["max"] as? Int == 200 && tank["unit_of_measurement"] as? String == "L")
        let crown = try Self.json(configs[Self.topic("event", "crown")])
        #expect(crown["event_types"] as? [String] == ["turn_forward", "turn_back", "press", "long_press"])
        let notify = try Self.json(configs[Self.topic("notify", "notify_critical")])
        #expect((notify["command_template"] as? String ?? "").contains("\"priority\": \"critical\""))

        // The crown's event as Home Assistant's event entity reads it: JSON with event_type.
        let events = try LiveSubscription(broker, Self.base + "/crown")
        #expect(try events.waitUntilSubscribed())
        pager.knob.write(FakeKnobRun.detents(1))
        #expect(events.next(seconds: 10) == #"{"event_type":"turn_forward","count":1}"#)

        // Home Assistant started again: every config comes again (after the retained one).
        let again = try LiveSubscription(broker, Self.topic("sensor", "page"))
        #expect(try again.waitUntilSubscribed())
        #expect(again.next(seconds: 10)?.contains("\"unique_id\"") == true, "the retained config")
        try broker.publish("homeassistant/status", "online")
        #expect(again.next(seconds: 10)?.contains("\"unique_id\"") == true, "published again")
        events.stop()
        again.stop()
        let messages = FakeBusRun.stop(pager.process, error: pager.error)
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    @Test func homeAssistantsCommandsAreTheEnginesInputs() throws {
        let broker = try MosquittoBroker()
        let pager = try Self.start(Self.configuration(port: broker.port))
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try MQTTEndToEndTests.waitForRetained(broker, Self.base + "/availability", "online"))
        #expect(try broker.retained(Self.base + "/brightness") == "80")
        #expect(try broker.retained(Self.base + "/display") == "ON")

        // The brightness number: Set Contrast Control (81h) at 40% on the fake bus.
        try broker.publish(Self.base + "/brightness/set", "40")
        #expect(try Self.waitForRegisters(pager.knob) { $0.contrast == UInt8(40 * 255 / 100) })
        #expect(try MQTTEndToEndTests.waitForRetained(broker, Self.base + "/brightness", "40"))
        // The display switch: Set Display OFF (AEh), then ON (AFh).
        try broker.publish(Self.base + "/display/set", "OFF")
        #expect(try Self.waitForRegisters(pager.knob) { !$0.isDisplayOn })
        #expect(try MQTTEndToEndTests.waitForRetained(broker, Self.base + "/display", "OFF"))
        try broker.publish(Self.base + "/display/set", "ON")
        #expect(try Self.waitForRegisters(pager.knob) { $0.isDisplayOn })

        // The select shows the washer's page; its text set from Home Assistant shows and is its state.
        let state = try LiveSubscription(broker, Self.base + "/page/washer_mk_2/state")
        #expect(try state.waitUntilSubscribed())
        try broker.publish(Self.base + "/page/set", Self.washer)
        #expect(try MQTTEndToEndTests.waitForRetained(broker, Self.base + "/page", Self.washer))
        try broker.publish(Self.base + "/page/washer_mk_2/set", "Spin 1200")
        #expect(try pager.knob.bus.waitForGlass(Self.glass(.output(lines: ["Spin 1200"], status: nil), onPage: 1)))
        #expect(state.next(seconds: 10) == "Spin 1200")
        // A value set at the pager's control socket is Home Assistant's state too.
        let socket = pager.knob.bus.scratch.path + "/control.sock"
        #expect(try runCrownPager(["set", Self.washer, "Rinse", "--socket", socket]).status == 0)
        #expect(state.next(seconds: 10) == "Rinse")
        state.stop()

        // The button runs the remote action at once; the page without remote = true has no press topic.
        try broker.publish(Self.base + "/page/set", "Restart")
        try broker.publish(Self.base + "/page/reboot/press", "PRESS")
        try broker.publish(Self.base + "/page/restart/press", "PRESS")
        let result = ConfiguredPage.Body.output(lines: ["exit status 0", "restarted"], status: nil)
        #expect(try pager.knob.bus.waitForGlass(Self.glass(result, onPage: 3)))

        // The same controls from the command line, through the control socket.
        #expect(try runCrownPager(["brightness", "20", "--socket", socket]).status == 0)
        #expect(try Self.waitForRegisters(pager.knob) { $0.contrast == UInt8(20 * 255 / 100) })
        let refused = try runCrownPager(["press", "Reboot", "--socket", socket])
        #expect(refused.status == 65 && refused.standardError.contains("give it remote = true"), "\(refused)")
        #expect(try runCrownPager(["display", "off", "--socket", socket]).status == 0)
        #expect(try Self.waitForRegisters(pager.knob) { !$0.isDisplayOn })
        let messages = FakeBusRun.stop(pager.process, error: pager.error)
        #expect(pager.process.terminationStatus == 0, "\(messages)")
        #expect(!messages.contains("reboot"), "\(messages)")
    }

    @Test func aPageRemovedAtARestartLosesItsEntity() throws {
        let broker = try MosquittoBroker()
        let extra = "\n[[page]]\nkind = \"text\"\ntitle = \"Garage door\"\ntext = \"opens\"\nsource = \"push\"\n"
        let gone = Self.topic("text", "page_garage_door")
        let first = try Self.start(Self.configuration(port: broker.port, extra: extra))
        defer { if first.process.isRunning { first.process.terminate() } }
        #expect(try Self.waitForConfigs(broker) { $0[gone] != nil }[gone] != nil)
        _ = FakeBusRun.stop(first.process, error: first.error)

        let second = try Self.start(Self.configuration(port: broker.port))
        defer { if second.process.isRunning { second.process.terminate() } }
        let configs = try Self.waitForConfigs(broker) { $0[gone] == nil && Set($0.keys) == Set(Self.expected) }
        #expect(configs[gone] == nil && Set(configs.keys) == Set(Self.expected), "\(configs.keys.sorted())")
        let messages = FakeBusRun.stop(second.process, error: second.error)
        #expect(second.process.terminationStatus == 0, "\(messages)")
    }

    @Test func withoutDiscoveryNothingIsAnnounced() throws {
        let broker = try MosquittoBroker()
        let text = Self.configuration(port: broker.port).replacingOccurrences(
            of: "keepalive = \"5s\"", with: "keepalive = \"5s\"\ndiscovery = false")
        let pager = try Self.start(text)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try MQTTEndToEndTests.waitForRetained(broker, Self.base + "/availability", "online"))
        #expect(try Self.retainedConfigs(broker).isEmpty)
        _ = FakeBusRun.stop(pager.process, error: pager.error)
    }

    /// The settled glass of the five pages with `body` on the page at `index`, shown from the first.
    static func glass(_ body: ConfiguredPage.Body, onPage index: Int) -> Bitmap {
        var pages = [
            ConfiguredPage(title: "Kitchen", body: .text("kitchen")), ConfiguredPage(title: washer, body: .text("")),
            ConfiguredPage(title: "Tank", body: .text("")),
            ConfiguredPage(title: "Restart", body: .text("restarts foo")),
            ConfiguredPage(title: "Reboot", body: .text("reboots")),
        ]
        pages[index].body = body
        return settledFrame(pages, .ssd1306_128x64, after: Array(repeating: 1, count: index))
    }

    /// Waits, with a deadline, until the registers the fake bus's transfers leave satisfy `condition`.
    static func waitForRegisters(_ knob: FakeKnobRun, _ condition: (SSD1306Registers) -> Bool) throws -> Bool {
        let end = Date().addingTimeInterval(20)
        while Date() < end {
            var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
            emulator.replay(try knob.bus.transfers())
            if condition(emulator.registers) { return true }
            usleep(20_000)
        }
        return false
    }
}
