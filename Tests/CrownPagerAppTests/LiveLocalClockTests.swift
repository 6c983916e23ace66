import CrownPagerApp
import CrownVocabulary
import PagerEngine
import Testing

/// The local clock the Linux shell hands the night schedule agrees with the clock pages' reading.
@Suite struct LiveLocalClockTests {
    @Test func theLocalClockReadsTheClockPagesTimeOfDay() {
        let live = LiveReadings()
        let now = live.monotonicNow()
        let clock = live.localClock(at: now)
        let reading = live.clock(at: now)
        #expect(clock.readAt == now && clock.knownUntil == now + LocalClock.lookAhead)
        #expect(
            clock.nanosecondOfDay(at: now) / 1_000_000_000
                == Int64(reading.hour * 3600 + reading.minute * 60 + reading.second))
        // An hour on, the two agree again (unless an offset change falls between: then the shift says so).
        let later = now + .seconds(3600)
        let laterReading = live.clock(at: later)
        #expect(
            clock.nanosecondOfDay(at: later) / 1_000_000_000
                == Int64(laterReading.hour * 3600 + laterReading.minute * 60 + laterReading.second))
        #expect(clock.shifts.allSatisfy { $0.at > now && $0.at <= clock.knownUntil && $0.seconds != 0 })
    }
}
