import CrownPagerApp
import Foundation
import Glibc
import TestSupport
import Testing

/// Two pagers with one client id on one broker (cards copied from one image with `client_id`
/// set): the broker closes the older connection each time the other connects. They back off
/// instead of taking it from each other every second, one of them says why in the journal, and
/// a pager whose connections keep being taken does not rewrite the device's discovery configs.
@Suite(.tags(.endToEnd), .serialized) struct MQTTTakeoverTests {
    static let base = "crownpager/twin"

    static func configuration(port: Int) -> String {
        brokerConfiguration(port: port, base: base, mqtt: "client_id = \"crownpager-twin\"")
    }

    @Test func twoPagersWithOneIdBackOffAndTheLoserRewritesNoDiscovery() throws {
        let broker = try MosquittoBroker()
        let configs = try LiveSubscription(broker, "homeassistant/#")
        #expect(try configs.waitUntilSubscribed())
        var pagers: [(knob: FakeKnobRun, process: Process, error: Pipe)] = []
        for _ in 0..<2 {
            let knob = try FakeKnobRun()
            let path = knob.bus.scratch.path + "/crownpager.toml"
            try Self.configuration(port: broker.port).write(toFile: path, atomically: true, encoding: .utf8)
            let (process, _, error) = try knob.start(["run", "--config", path, "--persist"])
            pagers.append((knob, process, error))
        }
        defer { for pager in pagers where pager.process.isRunning { pager.process.terminate() } }
        // 25 s of the fight. Without back-off each pager connected about once a second (50 in all);
        // doubling from 1 s, each connects at most 6 times (at 0, 1, 3, 7, 15 and 31 s, give or take).
        // Meanwhile every config published is read (a topic nobody publishes on: all 25 s).
        #expect(configs.next(on: "homeassistant/none", seconds: 25) == nil)
        configs.stop()
        let logs = pagers.map { FakeBusRun.stop($0.process, error: $0.error) }
        let connections = logs.map { $0.components(separatedBy: "crownpager: mqtt: connected").count - 1 }
        #expect(connections.allSatisfy { $0 >= 1 }, "\(logs)")
        #expect(connections.reduce(0, +) >= 3, "the two took the connection from each other: \(connections)")
        #expect(connections.reduce(0, +) <= 12, "backed off: \(connections) connections in 25 s; \(logs)")
        #expect(
            logs.contains { $0.contains("another client is probably connected with client id crownpager-twin") },
            "\(logs)")
        // The device config: by each pager's first two connections (the first, and the one after
        // the first was taken, which is what a restarted broker looks like too), then never again
        // while its connections keep being taken. Without that, about 50 times in 25 s.
        let announced = configs.received().filter { !$0.payload.isEmpty }
        #expect(Set(announced.map { $0.topic }) == ["homeassistant/device/crownpager-twin/config"], "\(announced)")
        #expect(announced.count <= 4, "\(announced.count) device configs")
    }
}
