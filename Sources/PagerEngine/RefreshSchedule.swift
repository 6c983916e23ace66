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
package struct RefreshSchedule: Hashable, Sendable {
    /// Each page's refresh interval; nil for a page that never changes.
    package let intervals: [TimeSpan?]
    /// The wall clock's nanoseconds at monotonic zero, modulo a day: aligns refreshes to round times.
    package let wallOffset: Int64
    private var due: [Timestamp?]
    private var inFlight: [Bool]

    /// A schedule where every page with an interval is due at once.
    package init(intervals: [TimeSpan?], wallOffset: Int64 = 0) {
        self.intervals = intervals
        self.wallOffset = wallOffset
        due = intervals.map { $0 == nil ? nil : Timestamp.zero }
        inFlight = intervals.map { _ in false }
    }

    /// The pages shown at or next to `current`.
    package static func neighbourhood(of current: Int, count: Int, wraps: Bool) -> PageList {
        var pages = PageList()
        guard count > 0 else { return pages }
        pages.append(current)
        for offset in stride(from: 1, through: -1, by: -2) {
            var page = current + offset
            if wraps { page = (page + count) % count }
            if page >= 0, page < count, !pages.contains(page) { pages.append(page) }
        }
        return pages
    }

    /// Whether `page`'s read is due at `now` and not under way.
    package func isDue(_ page: Int, at now: Timestamp) -> Bool {
        due.indices.contains(page) && !inFlight[page] && (due[page].map { $0 <= now } ?? false)
    }

    /// Pages near `current` whose read is due at `now`.
    package func duePages(at now: Timestamp, near pages: some Sequence<Int>) -> [Int] {
        pages.filter { isDue($0, at: now) }
    }

    /// The earliest due time of `pages` not being read now: the shell's wake for them.
    package func nextDeadline(near pages: some Sequence<Int>) -> Timestamp? {
        var earliest: Timestamp?
        for page in pages where due.indices.contains(page) && !inFlight[page] {
            earliest = Timestamp.earliest(earliest, due[page])
        }
        return earliest
    }

    /// A read of `page` started at `now` and goes on (a command): not due again until it finishes.
    package mutating func started(_ page: Int) {
        guard inFlight.indices.contains(page) else { return }
        inFlight[page] = true
    }

    /// `page` was read at `now`: due again at the next aligned multiple of its interval.
    package mutating func finished(_ page: Int, at now: Timestamp) {
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
    package func isInFlight(_ page: Int) -> Bool { inFlight.indices.contains(page) && inFlight[page] }
}

/// Up to three page indices, in order, held inline rather than in an array: the current page and
/// its neighbours, asked for every tick without allocating.
package struct PageList: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
    private var first = 0
    private var second = 0
    private var third = 0
    /// How many pages it holds, 0 to 3.
    private var size = 0

    /// No pages.
    package init() {}

    /// The pages listed, the first three of them.
    package init(arrayLiteral pages: Int...) {
        for page in pages { append(page) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { size }

    package subscript(position: Int) -> Int {
        switch position {
        case 0: first
        case 1: second
        default: third
        }
    }

    /// Adds `page` at the end; a fourth page is not kept (no list here needs more than three).
    package mutating func append(_ page: Int) {
        switch size {
        case 0: first = page
        case 1: second = page
        case 2: third = page
        default: return
        }
        size += 1
    }
}
