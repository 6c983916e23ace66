import CrownVocabulary

/// UIKit's `UIPageControl.InteractionState`: what the person is doing with the crown.
public enum InteractionState: String, Hashable, Sendable {
    /// Not turning.
    case none
    /// Single detents: each moves one page with the animated slide (UIKit's tapping).
    case discrete
    /// Fast, sustained turning: scrubbing, the pages flick by whole, one after another, none skipped.
    case continuous
}

/// What a run of crown facts means to the pager.
public enum CrownGesture: Hashable, Sendable {
    /// Move by whole pages (positive is later), with the animated slide: a discrete interaction.
    case step(pages: Int, at: Timestamp)
    /// Move by whole pages quickly, passing each one in turn: scrubbing, a continuous interaction.
    case scrub(pages: Int, at: Timestamp)
    /// Detents short of a page were forgotten: the detent memory ran out.
    case detentsForgotten(at: Timestamp)
    /// A short press of the crown.
    case shortPress(at: Timestamp)
    /// The crown was held down for at least the long-press duration.
    case longPress(at: Timestamp)
    /// The crown stopped turning: the interaction is over.
    case idle(at: Timestamp)
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
    /// What the person is doing: none, discrete steps or scrubbing.
    public private(set) var interactionState = InteractionState.none
    private var lastDetent: Timestamp?
    private var lastDirection = 0
    private var fastRun = 0
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
            defer {
                pressStart = nil
                longPressReported = false
            }
            guard let start = pressStart, !longPressReported else { return [] }
            if at - start >= configuration.longPressDuration { return [.longPress(at: at)] }
            return [.shortPress(at: at)]
        }
    }

    /// Gestures that complete by time alone: a long press while the button is still held, idle,
    /// and leftover detents forgotten once the detent memory runs out.
    public mutating func advance(to instant: Timestamp) -> [CrownGesture] {
        var gestures: [CrownGesture] = []
        if let start = pressStart, !longPressReported, instant - start >= configuration.longPressDuration {
            longPressReported = true
            gestures.append(.longPress(at: start + configuration.longPressDuration))
        }
        if interactionState != .none, let last = lastDetent, instant - last >= configuration.idleDelay {
            interactionState = .none
            fastRun = 0
            gestures.append(.idle(at: last + configuration.idleDelay))
        }
        if pendingDetents != 0, let last = lastDetent, instant - last >= configuration.detentMemory {
            pendingDetents = 0
            gestures.append(.detentsForgotten(at: last + configuration.detentMemory))
        }
        return gestures
    }

    /// The next instant at which `advance(to:)` may report something, if any.
    public var nextDeadline: Timestamp? {
        var deadline: Timestamp?
        if let start = pressStart, !longPressReported { deadline = start + configuration.longPressDuration }
        if interactionState != .none, let last = lastDetent {
            deadline = Timestamp.earliest(deadline, last + configuration.idleDelay)
        }
        if pendingDetents != 0, let last = lastDetent {
            deadline = Timestamp.earliest(deadline, last + configuration.detentMemory)
        }
        return deadline
    }

    private mutating func rotate(detents: Int, at instant: Timestamp) -> [CrownGesture] {
        guard detents != 0 else { return [] }
        let interval = lastDetent.map { instant - $0 }
        let direction = detents > 0 ? 1 : -1
        let reversed = lastDirection != 0 && direction != lastDirection
        // A change of direction, or a long pause, starts counting afresh.
        if reversed || (interval.map { $0 >= configuration.detentMemory } ?? false) { pendingDetents = 0 }
        if let interval, interval <= configuration.scrubInterval, !reversed {
            fastRun = saturatingSum(fastRun, saturatingMagnitude(detents))
        } else {
            fastRun = saturatingMagnitude(detents)
            if interactionState == .continuous, reversed { interactionState = .discrete }
        }
        lastDetent = instant
        lastDirection = direction
        if configuration.allowsScrubbing, fastRun >= configuration.scrubDetents { interactionState = .continuous }
        if interactionState != .continuous { interactionState = .discrete }

        pendingDetents = saturatingSum(pendingDetents, saturatingProduct(detents, acceleration(interval: interval)))
        let pages = pendingDetents / configuration.detentsPerPage
        pendingDetents -= pages * configuration.detentsPerPage
        guard pages != 0 else { return [] }
        return [interactionState == .continuous ? .scrub(pages: pages, at: instant) : .step(pages: pages, at: instant)]
    }

    /// How many detents each detent counts for: more the faster the crown turns, only while scrubbing.
    private func acceleration(interval: TimeSpan?) -> Int {
        guard interactionState == .continuous, let threshold = configuration.accelerationInterval,
            let interval, interval < threshold
        else { return 1 }
        // Twice an interval that far back in time (a clock that jumped) overflows: it is still short.
        let (twice, overflow) = interval.nanoseconds.multipliedReportingOverflow(by: 2)
        return (overflow ? interval.nanoseconds < 0 : twice < threshold.nanoseconds) ? 4 : 2
    }
}
