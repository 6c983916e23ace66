import CrownPagerApp
import Foundation
import Glibc
import PagerControl
import TestSupport
import Testing

/// Every state the pager publishes for a pushed page satisfies the schema it announced, whatever
/// path set the value: random texts and numbers through MQTT, `crownpager set` and the control
/// socket's own line, each state checked against the entity's retained discovery config by Home
/// Assistant's MQTT platform rules (`text`: at most `max` code points; `number`: a float within
/// `min` and `max`).
@Suite(.tags(.endToEnd), .serialized) struct HomeAssistantSchemaEndToEndTests {
    static let base = "crownpager/schema"

    static func configuration(port: Int) -> String {
        brokerConfiguration(port: port, base: base, mqtt: "client_id = \"crownpager-schema\"")
            + pushedPages(text: "Note", gauge: "Tank")
    }

    /// The announced device config's components, as JSON, by key.
    static func components(_ configs: LiveSubscription) throws -> [String: [String: Any]] {
        let text = configs.next(on: "homeassistant/device/crownpager-schema/config", seconds: 20)
        let config = try JSONSerialization.jsonObject(with: Data((text ?? "{}").utf8)) as? [String: Any]
        return config?["components"] as? [String: [String: Any]] ?? [:]
    }

    @Test func randomValuesThroughEveryPathGiveStatesTheAnnouncedSchemaHolds() throws {
        let broker = try MosquittoBroker()
        let knob = try FakeKnobRun()
        let path = knob.bus.scratch.path + "/crownpager.toml"
        try Self.configuration(port: broker.port).write(toFile: path, atomically: true, encoding: .utf8)
        let socket = knob.bus.scratch.path + "/control.sock"
        let (process, _, error) = try knob.start(["run", "--config", path, "--persist", "--socket", socket])
        defer { if process.isRunning { process.terminate() } }
        let configs = try LiveSubscription(broker, "homeassistant/#")
        let states = try LiveSubscription(broker, Self.base + "/page/#")
        #expect(try states.waitUntilSubscribed())
        let components = try Self.components(configs)
        let text = components["page_note"] ?? [:]
        let number = components["page_tank"] ?? [:]
        #expect(text["platform"] as? String == "text" && number["platform"] as? String == "number")
        configs.stop()
        let textMaximum = try #require(text["max"] as? Int)
        let (minimum, maximum) = (try #require(number["min"] as? Double), try #require(number["max"] as? Double))
        #expect(text["json_attributes_topic"] as? String == Self.base + "/page/note/attributes")

        var generator = SeededGenerator(seed: 0x5C4E3A)
        for index in 0..<18 {
            let gauge = Bool.random(using: &generator)
            let value: String
            if gauge {
                let numbers = ["1e3", "-5", "150", "\(index).5", "-0.25e2", "99.9999999", "\(index * 7)", "1E2"]
                value = numbers[index % numbers.count]
            } else {
                // Distinct from the last: the index first, then up to 399 random pieces.
                value = "\(index) " + EntityStateCorpus.randomText(&generator)
            }
            let page = gauge ? "Tank" : "Note"
            switch index % 3 {
            case 0: try broker.publish(Self.base + "/page/\(page.lowercased())/set", value)
            case 1:
                let set = try runCrownPager(["set", "--socket", socket, "--", page, value])
                #expect(set.status == 0, "\(set.standardError)")
            default:
                let client = try RawClient(path: socket)
                let line = ControlField.line("set", [ControlField("page", page), ControlField("value", value)])
                #expect(client.sendAll(Array(line.utf8), deadline: 10) == line.utf8.count)
                #expect(client.readToEnd(deadline: 10).first?.hasPrefix("ok") == true)
            }
            let state = try #require(
                states.next(on: Self.base + "/page/\(page.lowercased())/state", seconds: 10), "\(index): \(value)")
            if gauge {
                let parsed = Double(state)
                #expect(parsed.map { (minimum...maximum).contains($0) } == true, "\(value) gave \(state)")
            } else {
                #expect(state.unicodeScalars.count <= textMaximum, "\(value.count) characters gave \(state.count)")
                #expect(value.hasPrefix(String(state.dropLast())) || state == value)
            }
        }
        states.stop()
        let messages = FakeBusRun.stop(process, error: error)
        #expect(process.terminationStatus == 0, "\(messages)")
    }
}

/// The random texts of `EntityStateTests`, for the end-to-end check.
enum EntityStateCorpus {
    static let pieces: [String] = [
        "a", "Z", " ", "7", "e\u{301}", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{1F1E9}\u{1F1EA}",
        "\u{1100}\u{1161}\u{11A8}", "\u{6F22}", "\u{2764}\u{FE0F}",
    ]

    static func randomText(_ generator: inout SeededGenerator) -> String {
        let count = Int.random(in: 0...399, using: &generator)
        return (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "a" }.joined()
    }
}
