import CrownVocabulary
import PagerSettings

/// The local wall clock as a function of the engine's time, for the night schedule: where it
/// stood when the shell read it, and the changes of its UTC offset (daylight saving) the shell
/// found ahead, up to `knownUntil`.
///
/// The engine never reads a clock or a time zone; the shell reads both (`Effects.readsLocalClock`,
/// answered with `EngineInput.localClock`). With the offset changes ahead, the engine finds when
/// the night begins or ends in its own time, exactly, across a change, and sleeps until then.
package struct LocalClock: Hashable, Sendable {
    /// A change of the UTC offset: from `at` on, the local clock reads `seconds` more
    /// (3600 when clocks go forward in spring, -3600 when they go back).
    package struct Shift: Hashable, Sendable {
        /// The instant of the change, in the engine's time.
        package var at: Timestamp
        /// How far the local clock jumps, in seconds: positive forward.
        package var seconds: Int

        /// A change of `seconds` at `at`.
        package init(at: Timestamp, seconds: Int) {
            self.at = at
            self.seconds = seconds
        }
    }

    /// The instant the shell read the clock.
    package var readAt: Timestamp
    /// The local time at `readAt`, in nanoseconds since a local midnight (any: only the time of day is used).
    package var localNanoseconds: Int64
    /// The offset changes after `readAt`, in order.
    package var shifts: [Shift]
    /// How far ahead the shell looked for changes: at this instant the clock must be read again.
    package var knownUntil: Timestamp

    /// How far ahead a shell looks for offset changes: past the next edge of any night (at most a
    /// day and an hour away), so the clock is read again at an edge, not for the look-ahead.
    package static let lookAhead = TimeSpan.seconds(2 * 86_400)

    /// Nanoseconds in a day without a change.
    static let dayNanoseconds: Int64 = 86_400_000_000_000

    /// A clock reading `secondOfDay` (0 to 86,399) at `readAt`, with the `shifts` ahead found up to `knownUntil`.
    package init(readAt: Timestamp, secondOfDay: Int, shifts: [Shift] = [], knownUntil: Timestamp) {
        self.init(
            readAt: readAt, localNanoseconds: Int64(secondOfDay) * 1_000_000_000, shifts: shifts, knownUntil: knownUntil
        )
    }

    /// A clock reading `localNanoseconds` past a local midnight at `readAt`.
    package init(readAt: Timestamp, localNanoseconds: Int64, shifts: [Shift], knownUntil: Timestamp) {
        self.readAt = readAt
        self.localNanoseconds = localNanoseconds
        self.shifts = shifts.filter { $0.at > readAt }.sorted { $0.at < $1.at }
        self.knownUntil = knownUntil
    }

    /// The local time of day at `instant` (not before `readAt`), in nanoseconds since midnight.
    package func nanosecondOfDay(at instant: Timestamp) -> Int64 {
        var local = localNanoseconds &+ (instant - readAt).nanoseconds
        for shift in shifts where shift.at <= instant { local &+= Int64(shift.seconds) * 1_000_000_000 }
        let rest = local % Self.dayNanoseconds
        return rest < 0 ? rest + Self.dayNanoseconds : rest
    }

    /// Whether `night` holds at `instant`.
    package func isNight(_ night: NightSchedule, at instant: Timestamp) -> Bool {
        night.contains(secondOfDay: Int(nanosecondOfDay(at: instant) / 1_000_000_000))
    }

    /// The first instant after `instant` at which `night` begins or ends, or `knownUntil` when
    /// neither happens before it (the clock must then be read again).
    ///
    /// Between offset changes the local clock runs with the engine's, so the next edge is where it
    /// reaches the start or the end. A change that jumps over an edge (spring forward over a
    /// 02:30 that does not exist that day) makes the change itself the edge; one that goes back
    /// over an edge (autumn) makes the hour it repeats count again, by the wall clock.
    package func nextEdge(of night: NightSchedule, after instant: Timestamp) -> Timestamp {
        var from = instant
        var isNight = isNight(night, at: from)
        for end in shifts.map({ $0.at }).filter({ $0 > instant }) + [knownUntil] {
            guard from < end else { continue }
            let target = Int64(isNight ? night.end : night.start) * 60_000_000_000
            var wait = (target - nanosecondOfDay(at: from)) % Self.dayNanoseconds
            if wait <= 0 { wait += Self.dayNanoseconds }
            let edge = from + TimeSpan(nanoseconds: wait)
            if edge < end { return edge }
            if end == knownUntil { break }
            // The offset changes at `end`: the night may begin or end with the jump.
            if self.isNight(night, at: end) != isNight { return end }
            from = end
            isNight = self.isNight(night, at: end)
        }
        return knownUntil
    }
}
