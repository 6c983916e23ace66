import CrownVocabulary
import LinuxSystem
import TestSupport
import Testing

@Suite("Clocks")
struct ClockTests {
    @Test("the monotonic clock never goes backwards")
    func monotonic() {
        var previous = MonotonicClock.now()
        #expect(previous > .zero)
        for _ in 0..<20_000 {
            let now = MonotonicClock.now()
            #expect(now >= previous)
            previous = now
        }
    }

    @Test("the local time now has every field in range")
    func localNow() {
        let time = LocalTime.now()
        #expect(time.year >= 2024 && time.year < 3000)
        #expect((1...12).contains(time.month))
        #expect((1...31).contains(time.day))
        #expect((0...23).contains(time.hour))
        #expect((0...59).contains(time.minute))
        #expect((0...60).contains(time.second))
        #expect((0...6).contains(time.weekday))
        #expect((0..<1_000_000_000).contains(time.nanosecond))
        #expect(abs(time.utcOffsetSeconds) <= 14 * 3600)
    }

    @Test("UTC readings of known instants")
    func knownInstants() {
        #expect(
            LocalTime.utc(secondsSinceEpoch: 0)
                == LocalTime(
                    year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, weekday: 4, nanosecond: 0))
        #expect(
            LocalTime.utc(secondsSinceEpoch: 1_700_000_000, nanosecond: 5)
                == LocalTime(
                    year: 2023, month: 11, day: 14, hour: 22, minute: 13, second: 20, weekday: 2, nanosecond: 5))
        // 29 February of a leap year, a Thursday.
        #expect(
            LocalTime.utc(secondsSinceEpoch: 1_709_251_199)
                == LocalTime(
                    year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59, weekday: 4, nanosecond: 0))
    }

    @Test("property: local time is UTC shifted by its offset")
    func localMatchesOffset() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let seconds = Int.random(in: 0...4_000_000_000, using: &random)
            let local = LocalTime.local(secondsSinceEpoch: seconds)
            let shifted = LocalTime.utc(secondsSinceEpoch: seconds + local.utcOffsetSeconds)
            #expect(
                local
                    == LocalTime(
                        year: shifted.year, month: shifted.month, day: shifted.day, hour: shifted.hour,
                        minute: shifted.minute, second: shifted.second, weekday: shifted.weekday, nanosecond: 0,
                        utcOffsetSeconds: local.utcOffsetSeconds))
        }
    }
}

@Suite("UTC offset changes")
struct OffsetChangeTests {
    /// Central Europe in 2026: CEST from 29 March 01:00 UTC to 25 October 01:00 UTC.
    static func europe(_ second: Int) -> Int { (1_774_746_000..<1_792_890_000).contains(second) ? 7200 : 3600 }

    @Test("each change is found to its second, with its direction")
    func knownChanges() {
        let spring = LocalTime.offsetChanges(
            after: 1_774_700_000, through: 1_774_700_000 + 172_800, offset: Self.europe)
        #expect(spring.map { $0.second } == [1_774_746_000] && spring.map { $0.seconds } == [3600])
        let autumn = LocalTime.offsetChanges(
            after: 1_792_800_000, through: 1_792_800_000 + 172_800, offset: Self.europe)
        #expect(autumn.map { $0.second } == [1_792_890_000] && autumn.map { $0.seconds } == [-3600])
        #expect(LocalTime.offsetChanges(after: 1_780_000_000, through: 1_780_172_800, offset: Self.europe).isEmpty)
    }

    @Test("a change at an odd second, and two in one look-ahead")
    func oddSecondsAndPairs() {
        // Lord Howe Island moves by 30 minutes; a zone's history has changes at any second.
        let offset: (Int) -> Int = { second in second >= 1_000_777 ? (second >= 1_090_001 ? 36_000 : 37_800) : 36_000 }
        let changes = LocalTime.offsetChanges(after: 1_000_000, through: 1_172_800, offset: offset)
        #expect(changes.map { $0.second } == [1_000_777, 1_090_001])
        #expect(changes.map { $0.seconds } == [1800, -1800])
    }

    @Test("property: the machine's zone changes where localtime says, and nowhere else")
    func machineZone() {
        let now = Int(WallClock.nanosecondsSinceEpoch() / 1_000_000_000)
        // Two years, in two-day looks as the shell takes them.
        var start = now
        while start < now + 2 * 366 * 86_400 {
            for change in LocalTime.offsetChanges(after: start, through: start + 172_800) {
                let before = LocalTime.local(secondsSinceEpoch: change.second - 1).utcOffsetSeconds
                let after = LocalTime.local(secondsSinceEpoch: change.second).utcOffsetSeconds
                #expect(after - before == change.seconds && change.seconds != 0)
            }
            start += 172_800
        }
    }
}
