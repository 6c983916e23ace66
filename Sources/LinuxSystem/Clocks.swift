import CrownVocabulary
import Glibc

/// The system's monotonic clock (CLOCK_MONOTONIC): never jumps when the wall clock is set,
/// and is the clock the kernel stamps GPIO edge events with.
package enum MonotonicClock {
    /// The current instant.
    package static func now() -> Timestamp {
        var time = timespec()
        // CLOCK_MONOTONIC cannot fail on Linux with a valid pointer (clock_gettime(2)).
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        return Timestamp(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }
}

/// A wall-clock reading broken into calendar fields, for the clock page.
package struct LocalTime: Sendable, Hashable {
    /// The year, e.g. 2025.
    package var year: Int
    /// The month, 1 (January) to 12.
    package var month: Int
    /// The day of the month, 1 to 31.
    package var day: Int
    /// The hour, 0 to 23.
    package var hour: Int
    /// The minute, 0 to 59.
    package var minute: Int
    /// The second, 0 to 60 (60 during a leap second).
    package var second: Int
    /// The day of the week, 0 (Sunday) to 6 (Saturday), as `tm_wday`.
    package var weekday: Int
    /// The nanoseconds past `second`, 0 to 999,999,999.
    package var nanosecond: Int
    /// Seconds east of UTC, e.g. 3600 for CET.
    package var utcOffsetSeconds: Int

    /// Creates a reading from its fields.
    package init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
        weekday: Int, nanosecond: Int, utcOffsetSeconds: Int = 0
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.weekday = weekday
        self.nanosecond = nanosecond
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The local time now (CLOCK_REALTIME in the time zone `TZ` or /etc/localtime names).
    package static func now() -> LocalTime {
        var time = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &time)
        return local(secondsSinceEpoch: Int(time.tv_sec), nanosecond: Int(time.tv_nsec))
    }

    /// The local time at `secondsSinceEpoch` (Unix time).
    package static func local(secondsSinceEpoch: Int, nanosecond: Int = 0) -> LocalTime {
        // localtime_r need not read TZ again (POSIX); tzset makes a changed TZ count.
        tzset()
        var seconds = time_t(secondsSinceEpoch)
        var fields = tm()
        guard localtime_r(&seconds, &fields) != nil else {
            return utc(secondsSinceEpoch: secondsSinceEpoch, nanosecond: nanosecond)
        }
        return LocalTime(fields, nanosecond: nanosecond)
    }

    /// The changes of the local UTC offset (daylight saving, or the zone's own history) after
    /// `start` up to `end` (Unix seconds), in order: the second each takes effect and by how many
    /// seconds the local clock moves (3600 forward, -3600 back).
    ///
    /// The C library has no call that lists them, so the offset is read (localtime_r's
    /// `tm_gmtoff`) every 15 minutes, less than any zone keeps an offset, and each change found
    /// is narrowed to its second by halving. Two days cost about 200 readings.
    package static func offsetChanges(after start: Int, through end: Int) -> [(second: Int, seconds: Int)] {
        tzset()
        return offsetChanges(after: start, through: end) { second in
            var seconds = time_t(second)
            var fields = tm()
            guard localtime_r(&seconds, &fields) != nil else { return 0 }
            return Int(fields.tm_gmtoff)
        }
    }

    /// The changes of `offset` (seconds east of UTC at a Unix second) after `start` up to `end`,
    /// found as `offsetChanges(after:through:)` finds the C library's.
    package static func offsetChanges(
        after start: Int, through end: Int, offset: (Int) -> Int
    ) -> [(second: Int, seconds: Int)] {
        var changes: [(second: Int, seconds: Int)] = []
        var from = start
        var fromOffset = offset(start)
        while from < end {
            let to = min(from + 900, end)
            let toOffset = offset(to)
            if toOffset != fromOffset {
                // The first second of the new offset, between `from` (old) and `to` (new).
                var old = from
                var new = to
                while new - old > 1 {
                    let middle = old + (new - old) / 2
                    if offset(middle) == fromOffset { old = middle } else { new = middle }
                }
                changes.append((new, toOffset - fromOffset))
            }
            from = to
            fromOffset = toOffset
        }
        return changes
    }

    /// The time in UTC at `secondsSinceEpoch`, independent of the machine's time zone.
    package static func utc(secondsSinceEpoch: Int, nanosecond: Int = 0) -> LocalTime {
        var seconds = time_t(secondsSinceEpoch)
        var fields = tm()
        guard gmtime_r(&seconds, &fields) != nil else {
            // Only years that do not fit in an Int32 fail; the epoch is the honest fallback.
            return LocalTime(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, weekday: 4, nanosecond: 0)
        }
        return LocalTime(fields, nanosecond: nanosecond)
    }

    private init(_ fields: tm, nanosecond: Int) {
        self.init(
            year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
            hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec),
            weekday: Int(fields.tm_wday), nanosecond: nanosecond, utcOffsetSeconds: Int(fields.tm_gmtoff))
    }
}
