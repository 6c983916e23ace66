import CrownVocabulary

/// The give of the content when the crown turns past the first or last page: it moves a few
/// pixels the way the crown turned and springs back, a value queried at an instant.
///
/// The curve is 27/4 · t · (1 − t)², which rises to exactly 1 at a third of the way and
/// falls back to 0 with zero speed at the end: a quick give and a softer return.
public struct RubberBand: Hashable, Sendable {
    /// +1 when the crown turned towards later pages (past the last), −1 towards earlier ones.
    public let direction: Int
    /// When the bounce starts.
    public let start: Timestamp
    /// How long the give and the return take together.
    public let duration: TimeSpan
    /// How far the content gives at most, in pixels.
    public let distance: Int

    /// A bounce for a turn in `direction` at `start`.
    public init(direction: Int, start: Timestamp, duration: TimeSpan = .milliseconds(300), distance: Int = 4) {
        self.direction = direction >= 0 ? 1 : -1
        self.start = start
        self.duration = duration.nanoseconds > 0 ? duration : TimeSpan(nanoseconds: 1)
        self.distance = max(0, distance)
    }

    /// How far the content is pushed at `instant`, in pixels: negative moves it up (or left).
    public func offset(at instant: Timestamp) -> Int {
        let t = Double((instant - start).nanoseconds) / Double(duration.nanoseconds)
        guard t > 0, t < 1 else { return 0 }
        let give = 27.0 / 4.0 * t * (1 - t) * (1 - t)
        return -direction * Int((give * Double(distance)).rounded())
    }

    /// True once the content is back in place.
    public func isDone(at instant: Timestamp) -> Bool { instant - start >= duration }
}

/// How the content gives at the first and last page: soft gives far and springs back slowly,
/// stiff barely gives and springs back fast.
public enum RubberBandStiffness: String, CaseIterable, Hashable, Sendable {
    /// 8 pixels over 400 ms.
    case soft
    /// 4 pixels over 300 ms, the default.
    case medium
    /// 2 pixels over 200 ms.
    case stiff

    /// How far the content gives at most, in pixels, for a whole page of detents past the end.
    public var distance: Int {
        switch self {
        case .soft: return 8
        case .medium: return 4
        case .stiff: return 2
        }
    }

    /// How long the give and the return take together.
    public var duration: TimeSpan {
        switch self {
        case .soft: return .milliseconds(400)
        case .medium: return .milliseconds(300)
        case .stiff: return .milliseconds(200)
        }
    }

    /// A bounce for a turn in `direction` at `start`, of `fraction` of the full give (a part of a
    /// page of detents gives that part; arriving at an end gives half).
    public func band(direction: Int, start: Timestamp, fraction: Double = 1) -> RubberBand {
        let give = Int((Double(distance) * min(max(fraction, 0), 1)).rounded())
        return RubberBand(direction: direction, start: start, duration: duration, distance: max(1, give))
    }

    /// The short bounce of arriving at the first or last page by scrubbing, the haptic's stand-in:
    /// half the give in half the time, in the direction of travel.
    public func arrival(direction: Int, start: Timestamp) -> RubberBand {
        RubberBand(
            direction: direction, start: start, duration: TimeSpan(nanoseconds: duration.nanoseconds / 2),
            distance: max(1, distance / 2))
    }
}

/// Where the content of a tall page stands: how many pixels of it have scrolled off the top.
///
/// A page no taller than the screen never scrolls. The crown scrolls a tall page by
/// `step` pixels per page-detent, with the same eased slide as between pages, and pages on
/// only when the end of the page is showing (watchOS: the crown scrolls the content first).
public struct PageScroll: Hashable, Sendable {
    /// The offset the scroll is at, or heading for, in pixels from the top of the page.
    public private(set) var offset: Int = 0
    /// The furthest the page scrolls: its height less the screen's.
    public private(set) var maximum: Int = 0
    /// The scroll under way, in pixels.
    public private(set) var animation: SlideAnimation?

    /// A page scrolled to `offset` (clamped) out of `maximum`.
    public init(offset: Int = 0, maximum: Int = 0) {
        self.maximum = max(0, maximum)
        self.offset = min(max(offset, 0), self.maximum)
    }

    /// True when the page is taller than the screen.
    public var isScrollable: Bool { maximum > 0 }

    /// Whether a turn in `direction` (+1 down the page, −1 up) would scroll rather than page.
    public func canScroll(_ direction: Int) -> Bool {
        direction > 0 ? offset < maximum : offset > 0
    }

    /// Scrolls by `pixels` (clamped to the page), sliding over `duration` from where the content stands.
    public mutating func scroll(by pixels: Int, at instant: Timestamp, duration: TimeSpan) {
        let target = min(max(offset + pixels, 0), maximum)
        guard target != offset else { return }
        let from = position(at: instant)
        let velocity = animation.map { $0.velocity(at: instant) } ?? 0
        animation = SlideAnimation(
            from: from, to: Double(target), start: instant, duration: duration, initialVelocity: velocity)
        offset = target
    }

    /// The scroll position at `instant`, in pixels.
    public func position(at instant: Timestamp) -> Double {
        if let animation, !animation.isDone(at: instant) { return animation.position(at: instant) }
        return Double(offset)
    }

    /// How far down the page the screen is at `instant`, from 0 (top) to 1 (end).
    public func fraction(at instant: Timestamp) -> Double {
        maximum > 0 ? position(at: instant) / Double(maximum) : 0
    }

    /// True when no scroll is under way.
    public func isSettled(at instant: Timestamp) -> Bool { animation.map { $0.isDone(at: instant) } ?? true }
}
