import CrownVocabulary
import PagerCore
import PagerSettings
import PagerTools
import Testing

@testable import PagerEngine

/// When an idle engine asks to be woken (`nextDeadline`): never for a page that cannot change,
/// once a minute on the minute for a minute clock, never for a page that is not on the glass.
@Suite struct IdleDeadlineTests {
    /// Monotonic zero is 12:00:17.250 on the wall clock: the next minute turns at 42.75 s, the next second at 0.75 s.
    static let wallOffset: Int64 = 43_217_250_000_000

    static func clock(_ pattern: String) throws -> PageSpec {
        try PageSpec(
            title: "Clock", kind: .clock(time: ClockFormat.parse(pattern).get(), date: ClockFormat.parse("").get()))
    }

    static func configuration(_ pages: [PageSpec], offAfter: TimeSpan? = nil) -> Configuration {
        var configuration = ConfigPacingTests.configuration(pages: pages)
        configuration.display.offAfter = offAfter
        return configuration
    }

    /// An engine started at zero whose first frame is up, the clock read as the shell reads it.
    static func started(_ configuration: Configuration) -> DeviceEngine {
        var engine = DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero,
            wallOffset: wallOffset)
        _ = engine.handle(.start, at: .zero)
        turn(&engine, at: .zero)
        return engine
    }

    /// What the shell does when woken at `instant`: ticks, answers the clock, until nothing more is due then.
    /// Returns whether the clock was read.
    @discardableResult
    static func turn(_ engine: inout DeviceEngine, at instant: Timestamp) -> Bool {
        var readClock = false
        for second in 0..<8 {
            let effects = engine.handle(.tick, at: instant)
            if effects.readsClock {
                readClock = true
                var reading = SampleReadings.clock
                reading.second = (reading.second + second + Int(instant.nanoseconds / 1_000_000_000)) % 60
                _ = engine.handle(.clock(reading), at: instant)
            }
            guard let next = engine.nextDeadline, next <= instant else { break }
        }
        return readClock
    }

    static let staticPage = PageSpec(title: "Static", kind: .text("nothing here changes"))

    @Test func aStaticPageSetsNoDeadline() {
        let engine = Self.started(Self.configuration([Self.staticPage]))
        #expect(engine.nextDeadline == nil)
    }

    @Test func aMinuteClockWakesOnceAMinuteOnTheMinute() throws {
        var engine = Self.started(Self.configuration([try Self.clock("%H:%M")]))
        #expect(engine.nextDeadline == .milliseconds(42_750))
        #expect(Self.turn(&engine, at: .milliseconds(42_750)))
        #expect(engine.nextDeadline == .milliseconds(102_750))
        #expect(Self.turn(&engine, at: .milliseconds(102_750)))
        #expect(engine.nextDeadline == .milliseconds(162_750))
    }

    @Test func aSecondsClockWakesOnceASecondOnTheSecond() throws {
        var engine = Self.started(Self.configuration([try Self.clock("%H:%M:%S")]))
        #expect(engine.nextDeadline == .milliseconds(750))
        #expect(Self.turn(&engine, at: .milliseconds(750)))
        #expect(engine.nextDeadline == .milliseconds(1750))
    }

    @Test func aHiddenClockNeverSetsTheDeadline() throws {
        // The seconds clock is the neighbour (and, wrapping, the page before): read at the start, never woken for.
        var configuration = Self.configuration([Self.staticPage, try Self.clock("%H:%M:%S"), Self.staticPage])
        configuration.crown.wrap = true
        var engine = Self.started(configuration)
        #expect(engine.shownPages == [0] && engine.nearbyPages.contains(1))
        #expect(engine.nextDeadline == nil)

        // Turned to it, it sets the deadline; the static page it left does not.
        _ = engine.handle(.crown(.rotated(detents: 1, at: .milliseconds(5000))), at: .milliseconds(5000))
        var now = Timestamp.milliseconds(5000)
        while let next = engine.nextDeadline, next < .milliseconds(8000) {
            now = max(now, next)
            Self.turn(&engine, at: now)
        }
        #expect(engine.presenter.pager.currentPage == 1 && engine.shownPages == [1])
        #expect(engine.nextDeadline.map { ($0.nanoseconds + Self.wallOffset) % 1_000_000_000 } == 0)
    }

    @Test func aSwitchedOffPanelWakesForNothingAndReadsTheClockWhenWoken() throws {
        var engine = Self.started(Self.configuration([try Self.clock("%H:%M")], offAfter: .seconds(120)))
        #expect(engine.nextDeadline == .milliseconds(42_750))
        Self.turn(&engine, at: .milliseconds(42_750))
        Self.turn(&engine, at: .milliseconds(102_750))
        #expect(engine.nextDeadline == .milliseconds(120_000))  // the screen saver's
        Self.turn(&engine, at: .milliseconds(120_000))
        #expect(engine.screen == .off && engine.shownPages.isEmpty)
        #expect(engine.nextDeadline == nil)

        // The detent that wakes it reads the clock (due since 162.75 s) before the frame that shows it.
        let wake = Timestamp.milliseconds(500_000)
        _ = engine.handle(.crown(.rotated(detents: 1, at: wake)), at: wake)
        let effects = engine.handle(.tick, at: wake)
        #expect(effects.readsClock && effects.display.isEmpty)
    }
}
