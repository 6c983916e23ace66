/// What a run of crown facts means to the pager.
public enum CrownGesture: Hashable, Sendable {
    /// Move by whole pages (positive is later), with the animated slide: a discrete interaction.
    case step(pages: Int, at: Timestamp)
    /// A short press of the crown.
    case shortPress(at: Timestamp)
    /// The crown was held down for at least the long-press duration.
    case longPress(at: Timestamp)
}

/// How crown facts turn into gestures.
public struct CrownConfiguration: Hashable, Sendable {
    /// Detents needed to move one page (sensitivity): 1 moves a page per click.
    public var detentsPerPage: Int
    /// How long the button must be held to count as a long press.
    public var longPressDuration: TimeSpan
    /// Leftover detents older than this are forgotten, so a half-turn yesterday does not count today.
    public var detentMemory: TimeSpan

    /// Creates a configuration with defaults that feel right on a 20-detent encoder.
    public init(
        detentsPerPage: Int = 1, longPressDuration: TimeSpan = .milliseconds(600),
        detentMemory: TimeSpan = .milliseconds(800)
    ) {
        self.detentsPerPage = max(1, detentsPerPage)
        self.longPressDuration = longPressDuration
        self.detentMemory = detentMemory
    }
}

/// Turns timestamped crown facts (detents, button edges) into gestures.
///
/// Drivers only report facts; meaning is decided here, in pure code, so the real knob
/// and the terminal's keys behave the same and tests replay sessions exactly.
public struct CrownInterpreter: Sendable {
    /// Sensitivity and timing.
    public var configuration: CrownConfiguration
    /// Detents turned that do not yet add up to a page, with the sign of their direction.
    public private(set) var pendingDetents = 0
    private var lastDetent: Timestamp?
    private var pressStart: Timestamp?
    private var longPressReported = false

    /// An interpreter in its resting state.
    public init(configuration: CrownConfiguration = CrownConfiguration()) {
        self.configuration = configuration
    }

    /// Whether the button is down.
    public var isPressed: Bool { pressStart != nil }

    /// The gestures `event` completes.
    public mutating func interpret(_ event: CrownEvent) -> [CrownGesture] {
        switch event {
        case .rotated(let detents, let at):
            return rotate(detents: detents, at: at)
        case .pressed(let at):
            pressStart = at
            longPressReported = false
            return []
        case .released(let at):
            defer { pressStart = nil; longPressReported = false }
            guard let start = pressStart, !longPressReported else { return [] }
            if at - start >= configuration.longPressDuration { return [.longPress(at: at)] }
            return [.shortPress(at: at)]
        }
    }

    /// Gestures that complete by time alone: a long press is reported while the button is still held.
    public mutating func advance(to instant: Timestamp) -> [CrownGesture] {
        guard let start = pressStart, !longPressReported, instant - start >= configuration.longPressDuration else {
            return []
        }
        longPressReported = true
        return [.longPress(at: start + configuration.longPressDuration)]
    }

    /// The next instant at which `advance(to:)` may report something, if any.
    public var nextDeadline: Timestamp? {
        guard let start = pressStart, !longPressReported else { return nil }
        return start + configuration.longPressDuration
    }

    private mutating func rotate(detents: Int, at instant: Timestamp) -> [CrownGesture] {
        guard detents != 0 else { return [] }
        // A change of direction, or a long pause, starts counting afresh.
        if let last = lastDetent, instant - last > configuration.detentMemory { pendingDetents = 0 }
        if pendingDetents != 0, (pendingDetents > 0) != (detents > 0) { pendingDetents = 0 }
        lastDetent = instant
        pendingDetents += detents
        let pages = pendingDetents / configuration.detentsPerPage
        pendingDetents -= pages * configuration.detentsPerPage
        return pages == 0 ? [] : [.step(pages: pages, at: instant)]
    }
}
