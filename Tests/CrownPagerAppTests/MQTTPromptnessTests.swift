import CrownPagerApp
import Foundation
import Glibc
import TestSupport
import Testing

/// What the pager owes the broker goes out before its loop sleeps: a change that draws nothing
/// (a value pushed to a page not shown, the brightness set while dimmed) and a crown event whose
/// edges started a deadline reach the broker at once, not at the next wake-up for something else.
///
/// The keepalive is the default 60 s, so a state left for the next unrelated wake-up would wait a
/// quarter of it (15 s); each test allows 5 s, well above the loop's milliseconds and well below
/// that. (The figures are `Scripts/bench/mqtt-latency.sh`'s, not these tests'.)
@Suite(.tags(.endToEnd), .serialized) struct MQTTPromptnessTests {
    static let base = "crownpager/prompt"

    /// Kitchen (shown), a pushed text page and a pushed gauge (not shown); `display` lines added.
    static func configuration(port: Int, display: String = "") -> String {
        brokerConfiguration(port: port, base: base, display: display) + pushedPages(text: "Washer", gauge: "Tank")
    }

    /// The pager on the fake kernel, connected, with a subscription to everything under its base.
    struct Connected {
        let broker: MosquittoBroker
        let knob: FakeKnobRun
        let process: Process
        let error: Pipe
        let states: LiveSubscription

        init(display: String = "") throws {
            broker = try MosquittoBroker()
            knob = try FakeKnobRun()
            let path = knob.bus.scratch.path + "/crownpager.toml"
            try MQTTPromptnessTests.configuration(port: broker.port, display: display).write(
                toFile: path, atomically: true, encoding: .utf8)
            (process, _, error) = try knob.start(["run", "--config", path, "--no-acceleration", "--persist"])
            states = try LiveSubscription(broker, MQTTPromptnessTests.base + "/#")
            #expect(try states.waitUntilSubscribed())
            #expect(states.next(on: MQTTPromptnessTests.base + "/availability", seconds: 20) == "online")
        }

        /// Stops the pager; what it logged.
        func stop() -> String {
            states.stop()
            return FakeBusRun.stop(process, error: error)
        }
    }

    @Test func aValueSetOnAPageNotShownReachesItsStateAtOnce() throws {
        let pager = try Connected()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        // Settled on Kitchen: nothing moves, nothing is due before the keepalive's quarter.
        #expect(pager.states.next(on: Self.base + "/page", seconds: 10) == "Kitchen")
        try pager.broker.publish(Self.base + "/page/washer/set", "Hidden")
        #expect(pager.states.next(on: Self.base + "/page/washer/state", seconds: 5) == "Hidden")
        try pager.broker.publish(Self.base + "/page/tank/set", "42")
        #expect(pager.states.next(on: Self.base + "/page/tank/state", seconds: 5) == "42")
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    @Test func theBrightnessSetWhileDimmedReachesItsStateAtOnce() throws {
        let pager = try Connected(display: "dim_after = \"1s\"")
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(pager.states.next(on: Self.base + "/screen", seconds: 10) == "bright")
        #expect(pager.states.next(on: Self.base + "/screen", seconds: 10) == "dimmed")
        #expect(pager.states.next(on: Self.base + "/brightness", seconds: 5) == "80", "the level configured")
        try pager.broker.publish(Self.base + "/brightness/set", "40")
        #expect(pager.states.next(on: Self.base + "/brightness", seconds: 5) == "40")
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    @Test func aLongPressIsPublishedOnceHeldAndTheReleaseAfterItWaitsForNothing() throws {
        let pager = try Connected()
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(pager.states.next(on: Self.base + "/page", seconds: 10) == "Kitchen")
        // Held for two seconds: the long press shows the titles while it is held.
        let now = MonotonicClockForTests.now().nanoseconds
        pager.knob.command("0 22 0 \(now - 2_000_000_000)")
        #expect(try Self.waitForQuietBus(pager.knob), "the titles were drawn and the bus fell quiet")
        // The long press went out as the engine took it, while held (one rule: CrownInterpreter's).
        #expect(pager.states.next(on: Self.base + "/crown", seconds: 5) == #"{"event_type":"long_press","count":1}"#)
        // Released now: the release settles after its debounce, a deadline the edge itself starts
        // and no frame follows. The loop sleeps for it, not for the keepalive; it reports nothing more.
        pager.knob.command("0 22 1")
        #expect(pager.states.next(on: Self.base + "/crown", seconds: 2) == nil, "no press after a long press")
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    /// Waits, with a deadline, until a frame went out and then none for 0.5 s.
    static func waitForQuietBus(_ knob: FakeKnobRun, deadline seconds: Double = 20) throws -> Bool {
        var count = -1
        var since = Date()
        return try waitUntil(seconds: seconds, every: 0.05) {
            let now = try knob.bus.transfers().count
            guard now == count else {
                count = now
                since = Date()
                return false
            }
            return Date().timeIntervalSince(since) >= 0.5
        }
    }
}
