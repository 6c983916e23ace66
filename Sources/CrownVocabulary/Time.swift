/// A point on a monotonic clock, in nanoseconds since an arbitrary origin.
///
/// The core never reads a clock: every instant is handed in by the caller, so a test
/// can replay a session exactly. Kernel event timestamps (CLOCK_MONOTONIC) fit directly.
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    /// Creates an instant from nanoseconds.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The instant `milliseconds` after the origin.
    public static func milliseconds(_ milliseconds: Int64) -> Timestamp {
        Timestamp(nanoseconds: milliseconds * 1_000_000)
    }

    /// The origin.
    public static let zero = Timestamp(nanoseconds: 0)

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The instant `span` later.
    public static func + (lhs: Timestamp, rhs: TimeSpan) -> Timestamp {
        Timestamp(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    /// The instant `span` earlier.
    public static func - (lhs: Timestamp, rhs: TimeSpan) -> Timestamp {
        Timestamp(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: Timestamp, rhs: Timestamp) -> TimeSpan {
        TimeSpan(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    /// The earlier of two optional instants; nil only when both are. Deadlines are taken one by
    /// one this way, not from an array: the frame loop asks for them every tick without allocating.
    public static func earliest(_ first: Timestamp?, _ second: Timestamp?) -> Timestamp? {
        guard let first else { return second }
        guard let second else { return first }
        return min(first, second)
    }
}

/// A length of time, in nanoseconds.
public struct TimeSpan: Hashable, Comparable, Sendable {
    /// The length in nanoseconds; negative spans point backwards.
    public var nanoseconds: Int64

    /// Creates a span from nanoseconds.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// A span of whole milliseconds.
    public static func milliseconds(_ value: Int64) -> TimeSpan { TimeSpan(nanoseconds: value * 1_000_000) }
    /// A span of whole seconds.
    public static func seconds(_ value: Int64) -> TimeSpan { TimeSpan(nanoseconds: value * 1_000_000_000) }
    /// No time at all.
    public static let zero = TimeSpan(nanoseconds: 0)

    /// The span in (fractional) seconds.
    public var seconds: Double { Double(nanoseconds) / 1_000_000_000 }
    /// The span in whole milliseconds, rounded towards zero.
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public static func + (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan {
        TimeSpan(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }
    public static func * (lhs: TimeSpan, rhs: Int64) -> TimeSpan { TimeSpan(nanoseconds: lhs.nanoseconds &* rhs) }
}
