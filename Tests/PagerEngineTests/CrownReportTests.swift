import CrownVocabulary
import PagerCore
import PagerSettings
import PagerTools
import Testing

@testable import PagerEngine

/// `CrownReport`, MQTT's crown events, as the engine takes the crown, in virtual time: turns with
/// their detents, a short press at its release, a long press once held the long-press duration
/// (the pager's own rule, reported while still held, woken for), nothing after it at the release;
/// every fact counts, a turn that only wakes the panel too; without a broker, nothing and no deadline.
@Suite struct CrownReportTests {
    static func engine(broker: String? = "broker", offAfter: TimeSpan? = nil) -> DeviceEngine {
        var configuration = DeviceEngineTests.configuration(pages: 3)
        configuration.mqtt.host = broker
        configuration.display.offAfter = offAfter
        return IdleDeadlineTests.started(configuration)
    }

    static func crown(_ engine: inout DeviceEngine, _ event: CrownEvent) -> [CrownReport] {
        engine.handle(.crown(event), at: event.timestamp).crownReports
    }

    /// Ticks at every deadline up to `end`; the reports on the way, with when they came.
    static func run(_ engine: inout DeviceEngine, until end: Timestamp) -> [(CrownReport, Timestamp)] {
        var reports: [(CrownReport, Timestamp)] = []
        while let next = engine.nextDeadline, next <= end {
            reports += engine.handle(.tick, at: next).crownReports.map { ($0, next) }
        }
        return reports
    }

    @Test func turnsPressesAndALongPressOnceHeld() {
        var engine = Self.engine()
        #expect(Self.crown(&engine, .rotated(detents: 2, at: .milliseconds(1000))) == [.turned(detents: 2)])
        #expect(Self.crown(&engine, .rotated(detents: -1, at: .milliseconds(1100))) == [.turned(detents: -1)])
        _ = Self.run(&engine, until: .milliseconds(5000))
        // A short press: reported at its release.
        #expect(Self.crown(&engine, .pressed(at: .milliseconds(6000))).isEmpty)
        #expect(Self.crown(&engine, .released(at: .milliseconds(6200))) == [.pressed])
        _ = Self.run(&engine, until: .milliseconds(9000))
        // Held: the engine wakes at 0.6 s and reports the long press then; the release adds nothing.
        #expect(Self.crown(&engine, .pressed(at: .milliseconds(10_000))).isEmpty)
        let held = Self.run(&engine, until: .milliseconds(12_000))
        #expect(held.map { $0.0 } == [.longPressed])
        #expect(held.first?.1 == .milliseconds(10_600), "woken for it, at the long-press duration")
        #expect(Self.crown(&engine, .released(at: .milliseconds(12_500))).isEmpty)
    }

    @Test func aTurnThatWakesTheSwitchedOffPanelIsStillReported() {
        var engine = Self.engine(offAfter: .milliseconds(1000))
        _ = Self.run(&engine, until: .milliseconds(5000))
        #expect(engine.snapshot.screen == .off)
        #expect(Self.crown(&engine, .rotated(detents: 1, at: .milliseconds(6000))) == [.turned(detents: 1)])
    }

    @Test func withoutABrokerNothingIsReportedAndAHeldButtonSetsNoDeadlineOfItsOwn() {
        var engine = Self.engine(broker: nil)
        #expect(Self.crown(&engine, .rotated(detents: 1, at: .milliseconds(1000))).isEmpty)
        _ = Self.run(&engine, until: .milliseconds(5000))
        #expect(Self.crown(&engine, .pressed(at: .milliseconds(6000))).isEmpty)
        #expect(engine.crownReportDeadline == nil)
        #expect(Self.run(&engine, until: .milliseconds(8000)).isEmpty)
    }
}
