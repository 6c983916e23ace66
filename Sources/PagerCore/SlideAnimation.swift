import CrownVocabulary

/// The page position during a slide, a value queried at an instant (never a timer).
///
/// Position is measured in pages: 2.0 is page 2 exactly, 2.5 is halfway to page 3.
/// The curve is a cubic Hermite segment that starts with the speed the previous slide
/// had (so a detent in mid-slide does not jerk), eases out, and ends exactly on `to`
/// with zero speed. Its starting slope is kept between 1.5 and 3 times the distance,
/// where a cubic with zero end slope is monotone: the slide never overshoots the page.
///
/// A stepped slide (scrubbing, `stepping(from:to:start:pageInterval:)`) has no curve: it stands
/// on whole pages only and passes through every page between `from` and `to`, in order, one
/// each `pageInterval`, the first at once.
public struct SlideAnimation: Hashable, Sendable {
    /// Where the slide starts, in pages.
    public let from: Double
    /// Where it ends, exactly, in pages.
    public let to: Double
    /// When it starts.
    public let start: Timestamp
    /// How long it takes.
    public let duration: TimeSpan
    /// For a stepped slide, how long each page stands; nil for a sliding one.
    public let pageInterval: TimeSpan?
    /// Starting slope in pages per unit of normalised time.
    let initialSlope: Double

    /// Whether the slide stands on whole pages only, passing each one in turn.
    public var isStepped: Bool { pageInterval != nil }

    /// A stepped slide from `from` to the whole page `to`, starting at `start`: the page after the
    /// one nearest `from` at once (a slide under way already shows that one), then one more each
    /// `pageInterval` until `to`, which it reaches at `end`.
    public static func stepping(from: Double, to: Double, start: Timestamp, pageInterval: TimeSpan) -> SlideAnimation {
        let steps = abs(to - (from + 0.5).rounded(.down))
        let interval = max(1, pageInterval.nanoseconds)
        let duration = TimeSpan(nanoseconds: Int64(max(0, steps - 1)) * interval)
        return SlideAnimation(from: from, to: to, start: start, duration: duration, stepInterval: interval)
    }

    private init(from: Double, to: Double, start: Timestamp, duration: TimeSpan, stepInterval: Int64) {
        self.from = from
        self.to = to
        self.start = start
        self.duration = duration.nanoseconds > 0 ? duration : TimeSpan(nanoseconds: 1)
        pageInterval = TimeSpan(nanoseconds: stepInterval)
        initialSlope = 0
    }

    /// A slide from `from` to `to`, starting at `start` with `initialVelocity` pages per second.
    public init(from: Double, to: Double, start: Timestamp, duration: TimeSpan, initialVelocity: Double = 0) {
        self.from = from
        self.pageInterval = nil
        self.to = to
        self.start = start
        self.duration = duration.nanoseconds > 0 ? duration : TimeSpan(nanoseconds: 1)
        let distance = to - from
        let carried = initialVelocity * self.duration.seconds
        // Keep the slope pointing at the target and within the monotone range [1.5, 3] x distance.
        let low = 1.5 * distance
        let high = 3 * distance
        self.initialSlope = distance >= 0 ? min(max(carried, low), high) : max(min(carried, low), high)
    }

    /// The position at `instant`: `from` before the start, exactly `to` once done.
    public func position(at instant: Timestamp) -> Double {
        if let pageInterval { return step(at: instant, interval: pageInterval) }
        let t = progress(at: instant)
        if t >= 1 { return to }
        if t <= 0 { return from }
        // Hermite basis with end slope 0: p(t) = h00*from + h10*m0 + h01*to.
        let t2 = t * t
        let t3 = t2 * t
        let h00 = 2 * t3 - 3 * t2 + 1
        let h10 = t3 - 2 * t2 + t
        let h01 = -2 * t3 + 3 * t2
        return h00 * from + h10 * initialSlope + h01 * to
    }

    /// The speed at `instant`, in pages per second (0 before the start and once done).
    public func velocity(at instant: Timestamp) -> Double {
        // A stepped slide has no speed to carry on: it stands on a page between steps.
        guard pageInterval == nil else { return 0 }
        let t = progress(at: instant)
        guard t > 0, t < 1 else { return 0 }
        let t2 = t * t
        let dh00 = 6 * t2 - 6 * t
        let dh10 = 3 * t2 - 4 * t + 1
        let dh01 = -6 * t2 + 6 * t
        return (dh00 * from + dh10 * initialSlope + dh01 * to) / duration.seconds
    }

    /// True once the slide has reached `to`.
    public func isDone(at instant: Timestamp) -> Bool {
        instant - start >= duration
    }

    /// The instant the slide ends.
    public var end: Timestamp { start + duration }

    /// The whole page a stepped slide stands on at `instant`.
    private func step(at instant: Timestamp, interval: TimeSpan) -> Double {
        let elapsed = (instant - start).nanoseconds
        guard elapsed >= 0 else { return from }
        let nearest = (from + 0.5).rounded(.down)
        let steps = abs(to - nearest)
        let taken = min(steps, 1 + Double(elapsed / max(1, interval.nanoseconds)))
        return to >= nearest ? nearest + taken : nearest - taken
    }

    private func progress(at instant: Timestamp) -> Double {
        Double((instant - start).nanoseconds) / Double(duration.nanoseconds)
    }
}
