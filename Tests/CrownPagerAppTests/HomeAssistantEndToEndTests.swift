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
        var configs: [String: String] = [:]
        // Each read of the retained configs waits for the broker's answer: no pause between them.
        _ = try waitUntil(every: 0) {
            configs = try retainedConfigs(broker)
            return condition(configs)
        }
        return configs
    }

    /// The device config's topic.
    static let deviceTopic = "homeassistant/device/\(node)/config"

    /// The device config's components, by key, among `configs`.
    static func components(_ configs: [String: String]) throws -> [String: [String: Any]] {
        try json(configs[deviceTopic])["components"] as? [String: [String: Any]] ?? [:]
    }

    static func json(_ text: String?) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data((text ?? "").utf8)) as? [String: Any] ?? [:]
    }

    /// Every component the five pages give, key to platform, and the camera (`camera_interval`,
    /// new since release 0.10, whose per-entity configs were at `homeassistant/<platform>/<node>/<key>/config`).
    static let expected = [
        "page": "sensor", "crown": "event", "page_select": "select", "notify": "notify",
        "notify_passive": "notify", "notify_critical": "notify", "brightness": "number", "display": "switch",
        "page_washer_mk_2": "text", "page_tank": "number", "press_restart": "button", "glass": "camera",
    ]

    /// The keys and platforms of `components`.
    static func platforms(_ components: [String: [String: Any]]) -> [String: String] {
        components.compactMapValues { $0["platform"] as? String }
    }

    @Test func theDeviceAndItsEntitiesAreAnnouncedRetainedWithTheirKeys() throws {
        let broker = try MosquittoBroker()
        let pager = try Self.start(Self.configuration(port: broker.port))
        defer { if pager.process.isRunning { pager.process.terminate() } }
        let configs = try Self.waitForConfigs(broker) {
            Self.platforms((try? Self.components($0)) ?? [:]) == Self.expected
        }
        #expect(Array(configs.keys) == [Self.deviceTopic], "one retained config: the device's")
        let components = try Self.components(configs)
        #expect(Self.platforms(components) == Self.expected, "\(components.keys.sorted())")
        #expect(components["press_reboot"] == nil, "no button without remote = true")
        #expect(configs[Self.deviceTopic]?.contains("object_id") == false, "object_id stops working in 2026.4")

        let config = try Self.json(configs[Self.deviceTopic])
        #expect(config["availability_topic"] as? String == Self.base + "/availability")
        let device = config["device"] as? [String: Any] ?? [:]
        #expect(device["identifiers"] as? [String] == [Self.node] && device["model"] as? String == "CrownPager")
        #expect((device["sw_version"] as? String ?? "").contains("."), "\(device)")
        #expect((config["origin"] as? [String: Any])?["name"] as? String == "crownpager")
        for (key, component) in components {
            #expect(component["unique_id"] as? String == "\(Self.node)_\(key)", "release 0.10's unique id")
        }
        let select = components["page_select"] ?? [:]
        #expect(select["command_topic"] as? String == Self.base + "/page/set")
        #expect(select["options"] as? [String] == ["Kitchen", Self.washer, "Tank", "Restart", "Reboot"])
        let washer = components["page_washer_mk_2"] ?? [:]
        #expect(washer["name"] as? String == Self.washer, "the title's quotes and \u{FC} escaped and read back")
        #expect(washer["command_topic"] as? String == Self.base + "/page/washer_mk_2/set")
        #expect(washer["state_topic"] as? String == Self.base + "/page/washer_mk_2/state")
        let tank = components["page_tank"] ?? [:]
        #expect(tank["min"] as? Int == 0 && tank["max"] as? Int == 200 && tank["unit_of_measurement"] as? String == "L")
        #expect(
            components["crown"]?["event_types"] as? [String] == ["turn_forward", "turn_back", "press", "long_press"])
        let notify = components["notify_critical"] ?? [:]
        #expect((notify["command_template"] as? String ?? "").contains("\"priority\": \"critical\""))

        // The crown's event as Home Assistant's event entity reads it: JSON with event_type.
        let events = try LiveSubscription(broker, Self.base + "/crown")
        #expect(try events.waitUntilSubscribed())
        pager.knob.write(FakeKnobRun.detents(1))
        #expect(events.next(seconds: 10) == #"{"event_type":"turn_forward","count":1}"#)

        // Home Assistant started again: every config comes again (after the retained one).
        let again = try LiveSubscription(broker, Self.deviceTopic)
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

    @Test func aPageRemovedAtARestartLosesItsComponent() throws {
        let broker = try MosquittoBroker()
        let extra = "\n[[page]]\nkind = \"text\"\ntitle = \"Garage door\"\ntext = \"opens\"\nsource = \"push\"\n"
        let first = try Self.start(Self.configuration(port: broker.port, extra: extra))
        defer { if first.process.isRunning { first.process.terminate() } }
        let announced = try Self.waitForConfigs(broker) { (try? Self.components($0))?["page_garage_door"] != nil }
        #expect(try Self.components(announced)["page_garage_door"] != nil)
        _ = FakeBusRun.stop(first.process, error: first.error)

        let configs = try LiveSubscription(broker, Self.deviceTopic)
        #expect(try configs.waitUntilSubscribed())
        let second = try Self.start(Self.configuration(port: broker.port))
        defer { if second.process.isRunning { second.process.terminate() } }
        let left = try Self.waitForConfigs(broker) {
            Self.platforms((try? Self.components($0)) ?? [:]) == Self.expected
        }
        #expect(Self.platforms(try Self.components(left)) == Self.expected, "\(left)")
        // On the way: the component with its platform alone, as Home Assistant is told to remove one.
        _ = configs.next(on: "homeassistant/none", seconds: 0.5)
        let removals = try configs.received().map { try Self.components([Self.deviceTopic: $0.payload]) }
            .compactMap { $0["page_garage_door"] }
        #expect(removals.contains { $0.count == 1 && $0["platform"] as? String == "text" }, "\(removals)")
        configs.stop()
        let messages = FakeBusRun.stop(second.process, error: second.error)
        #expect(second.process.terminationStatus == 0, "\(messages)")
    }

    @Test func discoveryTurnedOffClearsTheDeviceAndAnnouncesNothing() throws {
        let broker = try MosquittoBroker()
        let first = try Self.start(Self.configuration(port: broker.port))
        defer { if first.process.isRunning { first.process.terminate() } }
        #expect(try Self.waitForConfigs(broker) { $0[Self.deviceTopic] != nil }[Self.deviceTopic] != nil)
        _ = FakeBusRun.stop(first.process, error: first.error)

        let configs = try LiveSubscription(broker, "homeassistant/#")
        #expect(try configs.waitUntilSubscribed())
        let text = Self.configuration(port: broker.port).replacingOccurrences(
            of: "keepalive = \"5s\"", with: "keepalive = \"5s\"\ndiscovery = false")
        let pager = try Self.start(text)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try MQTTEndToEndTests.waitForRetained(broker, Self.base + "/availability", "online"))
        #expect(try Self.waitForConfigs(broker) { $0.isEmpty }.isEmpty, "the device config cleared")
        _ = configs.next(on: "homeassistant/none", seconds: 0.5)
        let published = configs.received().dropFirst()  // the retained device config of the first run
        #expect(published.allSatisfy { $0.payload.isEmpty || $0.payload == "(null)" }, "\(published)")
        configs.stop()
        _ = FakeBusRun.stop(pager.process, error: pager.error)
    }

    /// The retained per-entity configs release 0.10 published for the five pages (taken from its
    /// code's output before the move to device-based discovery): one `topic payload` a line.
    static func lastReleasesConfigs() throws -> [(topic: String, payload: String)] {
        let path = SettingsReferenceTests.root.appendingPathComponent(
            "Tests/CrownPagerAppTests/Fixtures/discovery-0.10.txt")
        return try String(contentsOf: path, encoding: .utf8).split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    @Test func lastReleasesPerEntityConfigsMigrateToTheDeviceConfig() throws {
        let broker = try MosquittoBroker()
        let old = try Self.lastReleasesConfigs()
        #expect(old.count == Self.expected.count - 1, "all but the camera, new since")
        for config in old { try broker.publish(config.topic, config.payload, retain: true) }
        let seen = try LiveSubscription(broker, "homeassistant/#")
        #expect(try seen.waitUntilSubscribed())
        let pager = try Self.start(Self.configuration(port: broker.port))
        defer { if pager.process.isRunning { pager.process.terminate() } }

        let configs = try Self.waitForConfigs(broker) { Array($0.keys) == [Self.deviceTopic] }
        #expect(Array(configs.keys) == [Self.deviceTopic], "the old configs cleared: \(configs.keys.sorted())")
        let components = try Self.components(configs)
        for config in old {
            // homeassistant/<platform>/<node>/<object id>/config: the component's key is the object id.
            let parts = config.topic.split(separator: "/").map(String.init)
            let component = components[parts[3]] ?? [:]
            #expect(component["platform"] as? String == parts[1], "\(config.topic)")
            let announced = try Self.json(config.payload)["unique_id"] as? String
            #expect(component["unique_id"] as? String == announced)
        }
        #expect(components.count == old.count + 1, "and the camera")

        // Home Assistant's order: migrate_discovery on each old topic, the device config, the old topics cleared.
        _ = seen.next(on: "homeassistant/none", seconds: 0.5)
        let messages = Array(seen.received().dropFirst(old.count))  // the retained set, sent at subscription
        let device = try #require(messages.firstIndex { $0.topic == Self.deviceTopic && !$0.payload.isEmpty })
        for config in old {
            let migrate = messages.firstIndex { $0.topic == config.topic && $0.payload.contains("migrate_discovery") }
            let cleared = messages.lastIndex {
                $0.topic == config.topic && ($0.payload.isEmpty || $0.payload == "(null)")
            }
            #expect(migrate.map { $0 < device } == true, "\(config.topic): \(messages)")
            #expect(cleared.map { $0 > device } == true, "\(config.topic): \(messages)")
        }
        seen.stop()
        let log = FakeBusRun.stop(pager.process, error: pager.error)
        #expect(pager.process.terminationStatus == 0, "\(log)")
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
        try waitUntil(seconds: 20) {
            var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
            emulator.replay(try knob.bus.transfers())
            return condition(emulator.registers)
        }
    }
}
