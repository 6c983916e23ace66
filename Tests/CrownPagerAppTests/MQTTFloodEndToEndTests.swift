import Foundation
import Glibc
import PagerEngine
import TestSupport
import Testing

/// `crownpager run` on the fake kernel while the broker floods a page's topic (about 10,000
/// messages a second, as issue 25 asks): the knob still turns the glass, and every detent is published.
/// How fast it answers is measured by Scripts/bench/mqtt-flood.sh, not here.
@Suite(.tags(.endToEnd), .serialized) struct MQTTFloodEndToEndTests {
    typealias Pager = MQTTEndToEndTests.Pager

    /// A publisher of a new value on `topic` for as long as it runs: a shell loop writes numbered
    /// lines into `mosquitto_pub -l`, 100 every 10 ms at most, and it publishes each as a message (QoS 0).
    struct Flood {
        let generator: Process
        let publisher: Process

        init(_ broker: MosquittoBroker, topic: String) throws {
            let lines = Pipe()
            publisher = Process()
            publisher.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
            publisher.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", topic, "-q", "0", "-l"]
            publisher.standardInput = lines
            publisher.standardError = FileHandle.nullDevice
            generator = Process()
            generator.executableURL = URL(fileURLWithPath: "/bin/sh")
            generator.arguments = [
                "-c", "i=0; while :; do seq -f 'flood %.0f' $i $((i + 99)); i=$((i + 100)); sleep 0.01; done",
            ]
            generator.standardOutput = lines
            try publisher.run()
            try generator.run()
            // Only the two children hold the pipe now: the publisher sees its end when the loop stops.
            try lines.fileHandleForWriting.close()
            try lines.fileHandleForReading.close()
        }

        /// Stops the loop; the publisher sends what it read and exits. SIGKILL: a child of the test
        /// process inherits its signal mask, in which SIGTERM may be blocked (TerminationSignals).
        func stop() {
            kill(generator.processIdentifier, SIGKILL)
            generator.waitUntilExit()
            publisher.waitUntilExit()
        }
    }

    /// The detents `events` (`{"event_type":"turn_forward","count":2}`, ...) say were turned each way.
    static func detents(in events: [String]) -> (forward: Int, back: Int) {
        // The count is the last field: `2}`.
        let counts = events.map { event in
            (event: event, count: Int(event.split(separator: ":").last?.filter(\.isNumber) ?? "") ?? 0)
        }
        let count = { (type: String) in counts.filter { $0.event.contains(type) }.map(\.count).reduce(0, +) }
        return (count("turn_forward"), count("turn_back"))
    }

    @Test func underAFloodEveryDetentIsPublishedAndTheGlassFollowsTheKnob() throws {
        let broker = try MosquittoBroker()
        try broker.publish("home/outside", #"{"sensor": {"temperature": 7.5}}"#, retain: true)
        let pager = try Pager(port: broker.port)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try MQTTEndToEndTests.waitForRetained(broker, MQTTEndToEndTests.base + "/availability", "online"))
        // Every crown event, read as it comes; every flood message the broker passes on, into a file.
        let crown = try LiveSubscription(broker, MQTTEndToEndTests.base + "/crown")
        defer { crown.stop() }
        #expect(try crown.waitUntilSubscribed())
        let floodFile = broker.scratch.path + "/flood.txt"
        #expect(FileManager.default.createFile(atPath: floodFile, contents: nil))
        let subscriber = Process()
        subscriber.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        subscriber.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "home/kitchen"]
        subscriber.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: floodFile))
        try subscriber.run()
        defer { if subscriber.isRunning { kill(subscriber.processIdentifier, SIGKILL) } }

        // The flood on the first page's topic; the knob goes to the second page, then back and
        // forth between the second and the third, each detent waited for on the glass.
        let flood = try Flood(broker, topic: "home/kitchen")
        let hall = MQTTEndToEndTests.glass(.text("hall"), onPage: 1, after: [1])
        let outside = MQTTEndToEndTests.glass(.output(lines: ["7.5"], status: nil), onPage: 2, after: [1, 1])
        var turned: [Int] = []
        for detent in [1] + Array(repeating: [1, -1], count: 8).flatMap({ $0 }) {
            pager.knob.write(FakeKnobRun.detents(detent))
            turned.append(detent)
            let page = turned.reduce(0, +)
            #expect(try pager.knob.bus.waitForGlass(page == 1 ? hall : outside, deadline: 20), "after \(turned)")
        }
        // The detents were made under the flood: it still runs, and thousands of messages went by.
        #expect(flood.generator.isRunning && flood.publisher.isRunning)
        // Each message is a line of at least 8 bytes ("flood 0\n"): more than 40,000 is more than 5,000 messages.
        let flooded = (try? FileManager.default.attributesOfItem(atPath: floodFile)[.size] as? Int) ?? 0
        #expect(flooded > 40_000, "only \(flooded) bytes of messages on home/kitchen")
        flood.stop()

        // Every detent's event came, and they add up to where the knob is.
        var events: [String] = []
        while Self.detents(in: events).forward + Self.detents(in: events).back < 17,
            let event = crown.next(seconds: 20)
        {
            events.append(event)
        }
        #expect(Self.detents(in: events) == (9, 8), "\(events)")

        // Back on the flooded page, once the backlog is through: the value last published.
        pager.knob.write(FakeKnobRun.detents(-1))
        let calm = MQTTEndToEndTests.glass(.output(lines: ["calm"], status: nil), onPage: 0, after: [1, -1])
        var shown = false
        for _ in 0..<10 where !shown {
            try broker.publish("home/kitchen", "calm")
            shown = try pager.knob.bus.waitForGlass(calm, deadline: 2)
        }
        #expect(shown)
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
        #expect(messages.contains("the crown turned 18 detents (9 forward, 9 back), 18 applied"), "\(messages)")
    }
}
