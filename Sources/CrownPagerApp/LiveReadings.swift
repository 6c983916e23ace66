import CrownVocabulary
import LinuxSystem
import PagerCore
import PagerEngine

/// Readings of this machine for the demo pages: the local time and /proc.
///
/// A reading that cannot be had shows as a placeholder: a page never takes the pager down.
package struct LiveReadings: Sendable {
    private let epochNanosecondsAtStart: Int64
    private let monotonicAtStart: Timestamp
    private let proc = SystemReadings()

    /// Readings anchored to the wall clock now.
    package init() {
        epochNanosecondsAtStart = WallClock.nanosecondsSinceEpoch()
        monotonicAtStart = MonotonicClock.now()
    }

    /// The monotonic clock now.
    package func monotonicNow() -> Timestamp { MonotonicClock.now() }

    /// The local time at monotonic `instant`: the wall clock at start plus the monotonic time since.
    package func clock(at instant: Timestamp) -> ClockReading {
        let time = LocalTime.local(secondsSinceEpoch: Int(wallNanoseconds(at: instant) / 1_000_000_000))
        return ClockReading(
            year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute,
            second: time.second, weekday: time.weekday)
    }

    /// The local clock at monotonic `instant`, with the time zone's offset changes over the
    /// engine's look-ahead (`LocalClock.lookAhead`), for the night schedule.
    package func localClock(at instant: Timestamp) -> LocalClock {
        let wall = wallNanoseconds(at: instant)
        let second = Int(wall / 1_000_000_000)
        let time = LocalTime.local(secondsSinceEpoch: second)
        let lookAhead = LocalClock.lookAhead
        let changes = LocalTime.offsetChanges(
            after: second, through: second + Int(lookAhead.nanoseconds / 1_000_000_000))
        // The change's instant in monotonic time: as far from `instant` as its second from the wall clock's.
        let shifts = changes.map { change in
            LocalClock.Shift(
                at: instant + TimeSpan(nanoseconds: Int64(change.second) * 1_000_000_000 - wall),
                seconds: change.seconds)
        }
        return LocalClock(
            readAt: instant, localNanoseconds: wall + Int64(time.utcOffsetSeconds) * 1_000_000_000, shifts: shifts,
            knownUntil: instant + lookAhead)
    }

    private func wallNanoseconds(at instant: Timestamp) -> Int64 {
        epochNanosecondsAtStart &+ (instant - monotonicAtStart).nanoseconds
    }

    /// Host name, load, memory and uptime now.
    package func system() -> SystemReading {
        let load = try? proc.loadAverage()
        let memory = try? proc.memory()
        let uptime = try? proc.uptime()
        return SystemReading(
            hostname: (try? SystemReadings.hostname()) ?? "this host",
            load1: Double(load?.oneMinuteHundredths ?? 0) / 100,
            load5: Double(load?.fiveMinutesHundredths ?? 0) / 100,
            load15: Double(load?.fifteenMinutesHundredths ?? 0) / 100,
            memoryTotalBytes: UInt64(max(0, memory?.totalBytes ?? 0)),
            memoryAvailableBytes: UInt64(max(0, memory?.availableBytes ?? 0)),
            uptimeSeconds: (uptime?.nanoseconds ?? 0) / 1_000_000_000)
    }
}
