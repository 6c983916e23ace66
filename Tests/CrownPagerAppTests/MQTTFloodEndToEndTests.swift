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

    /// The crown events mosquitto_sub wrote to `file`, and the detents they add up to (back negative).
    static func crownEvents(in file: String) -> (events: [String], detents: Int) {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        let events = text.split(separator: "\n").map(String.init)
        let detents = events.reduce(0) { sum, event in
            let count = Int(event.split(separator: ":").last?.filter(\.isNumber) ?? "") ?? 0
            return sum + (event.contains("turn_back") ? -count : event.contains("turn_forward") ? count : 0)
        }
        return (events, detents)
    }

    @Test func underAFloodEveryDetentIsPublishedAndTheGlassFollowsTheKnob() throws {
        let broker = try MosquittoBroker()
        try broker.publish("home/outside", #"{"sensor": {"temperature": 7.5}}"#, retain: true)
        let pager = try Pager(port: broker.port)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try MQTTEndToEndTests.waitForRetained(broker, MQTTEndToEndTests.base + "/availability", "online"))
        // Every crown event, and every flood message the broker passes on, into files.
        let crownFile = broker.scratch.path + "/crown.txt"
        let floodFile = broker.scratch.path + "/flood.txt"
        var subscribers: [Process] = []
        for (topic, file) in [(MQTTEndToEndTests.base + "/crown", crownFile), ("home/kitchen", floodFile)] {
            #expect(FileManager.default.createFile(atPath: file, contents: nil))
            let subscriber = Process()
            subscriber.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
            subscriber.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", topic]
            subscriber.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            try subscriber.run()
            subscribers.append(subscriber)
        }
        defer {
            for subscriber in subscribers where subscriber.isRunning { kill(subscriber.processIdentifier, SIGKILL) }
        }
        usleep(300_000)

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
        let end = Date().addingTimeInterval(20)
        while Date() < end, Self.crownEvents(in: crownFile).detents != 1 { usleep(50_000) }
        let crown = Self.crownEvents(in: crownFile)
        #expect(crown.events.count >= 1 && crown.detents == 1, "\(crown.events)")
        let forward = crown.events.filter { $0.contains("turn_forward") }.map { $0.filter(\.isNumber) }
        let back = crown.events.filter { $0.contains("turn_back") }.map { $0.filter(\.isNumber) }
        #expect(forward.compactMap { Int($0) }.reduce(0, +) == 9, "\(crown.events)")
        #expect(back.compactMap { Int($0) }.reduce(0, +) == 8, "\(crown.events)")

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
