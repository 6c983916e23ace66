import CrownVocabulary
import PagerCore

/// When each page's values are read again. Pure: time and the current page are parameters.
///
/// Only the current page and its neighbours (the pages a turn shows next) are refreshed, and only
/// the shown page's due time is a deadline (the engine asks `nextDeadline(near:)` of it alone):
/// an idle pager wakes only for what is on the glass, and reads the neighbours when awake anyway.
/// A page whose read is under way (a running command) is not due again until it has finished:
/// reads never pile up.
/// Due times are aligned to the wall clock, so pages with the same interval share one wake and
/// a clock turns over on the second.
public struct RefreshSchedule: Hashable, Sendable {
    /// Each page's refresh interval; nil for a page that never changes.
    public let intervals: [TimeSpan?]
    /// The wall clock's nanoseconds at monotonic zero, modulo a day: aligns refreshes to round times.
    public let wallOffset: Int64
    private var due: [Timestamp?]
    private var inFlight: [Bool]

    /// A schedule where every page with an interval is due at once.
    public init(intervals: [TimeSpan?], wallOffset: Int64 = 0) {
        self.intervals = intervals
        self.wallOffset = wallOffset
        due = intervals.map { $0 == nil ? nil : Timestamp.zero }
        inFlight = intervals.map { _ in false }
    }

    /// The pages shown at or next to `current`.
    public static func neighbourhood(of current: Int, count: Int, wraps: Bool) -> [Int] {
        guard count > 0 else { return [] }
        var pages = [current]
        for offset in [1, -1] {
            var page = current + offset
            if wraps { page = (page + count) % count }
            if page >= 0, page < count, !pages.contains(page) { pages.append(page) }
        }
        return pages
    }

    /// Pages near `current` whose read is due at `now`.
    public func duePages(at now: Timestamp, near pages: [Int]) -> [Int] {
        pages.filter { due.indices.contains($0) && !inFlight[$0] && (due[$0].map { $0 <= now } ?? false) }
    }

    /// The earliest due time of `pages` not being read now: the shell's wake for them.
    public func nextDeadline(near pages: [Int]) -> Timestamp? {
        pages.compactMap { due.indices.contains($0) && !inFlight[$0] ? due[$0] : nil }.min()
    }

    /// A read of `page` started at `now` and goes on (a command): not due again until it finishes.
    public mutating func started(_ page: Int) {
        guard inFlight.indices.contains(page) else { return }
        inFlight[page] = true
    }

    /// `page` was read at `now`: due again at the next aligned multiple of its interval.
    public mutating func finished(_ page: Int, at now: Timestamp) {
        guard due.indices.contains(page) else { return }
        inFlight[page] = false
        guard let interval = intervals[page], interval.nanoseconds > 0 else {
            due[page] = nil
            return
        }
        let wall = (now.nanoseconds &+ wallOffset) % interval.nanoseconds
        let remainder = wall < 0 ? wall + interval.nanoseconds : wall
        due[page] = now + TimeSpan(nanoseconds: interval.nanoseconds - remainder)
    }

    /// Whether a read of `page` is under way.
    public func isInFlight(_ page: Int) -> Bool { inFlight.indices.contains(page) && inFlight[page] }
}
