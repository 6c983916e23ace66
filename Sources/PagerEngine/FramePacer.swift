import CrownVocabulary
import PagerCore

/// Decides, at each wake of the run loop, whether to take input, draw a frame, or sleep and
/// until when. Pure and time-parameterised, so pacing is tested without sleeping.
///
/// - Input always comes first: a detent waiting is handled before any frame or refresh.
/// - A frame is drawn only when something visible changed (or an animation is under way), and
///   only once the bus has carried the previous one: frames never queue. While the bus is
///   busy, newer input updates the pager and the next frame shows the newest state, so the
///   frame that waits is always the latest (no backlog, no growing latency).
/// - With nothing changed, no animation and no deadline, the loop sleeps until input.
public struct FramePacer: Hashable, Sendable {
    /// The bus clock, in hertz.
    public var busHertz: Int
    /// Frames while a slide or bounce is under way come at most this often (about 60 a second).
    public var animationInterval: TimeSpan
    /// When the bus finishes carrying the last frame.
    public private(set) var busFreeAt = Timestamp.zero
    /// When the last frame was drawn.
    public private(set) var lastFrameAt: Timestamp?
    /// Whether something visible changed since the last frame.
    public private(set) var needsFrame = true

    /// A pacer for a bus clocked at `busHertz`.
    public init(busHertz: Int = 400_000, animationInterval: TimeSpan = FramePacer.sixtyHertz) {
        self.busHertz = max(1, busHertz)
        self.animationInterval = animationInterval
    }

    /// A frame interval of 60 a second: what `run` paces a slide at.
    public static let sixtyHertz = TimeSpan(nanoseconds: 1_000_000_000 / 60)

    /// What to do next.
    public enum Decision: Hashable, Sendable {
        /// Read and apply the pending crown input first.
        case handleInput
        /// Render and send a frame now.
        case drawFrame
        /// Sleep until this instant, or until input when nil.
        case wait(until: Timestamp?)
    }

    /// Something on the glass is to change: a turn, a refreshed value, the screen waking.
    public mutating func invalidate() { needsFrame = true }

    /// The decision at `now`, given pending input, whether an animation runs, and the next deadline of timers and refreshes.
    public func decide(at now: Timestamp, inputPending: Bool, animating: Bool, nextDeadline: Timestamp?) -> Decision {
        if inputPending { return .handleInput }
        var frameDue: Timestamp?
        if needsFrame {
            frameDue = busFreeAt
        } else if animating {
            frameDue = max(busFreeAt, (lastFrameAt ?? now) + animationInterval)
        }
        if let frameDue, now >= frameDue { return .drawFrame }
        if let deadline = nextDeadline, deadline <= now { return .drawFrame }
        let wake = [frameDue, nextDeadline].compactMap { $0 }.min()
        return .wait(until: wake)
    }

    /// Records a frame drawn at `now` whose update put `bytes` in `transactions` on the bus.
    public mutating func frameSent(bytes: Int, transactions: Int, at now: Timestamp) {
        needsFrame = false
        lastFrameAt = now
        busFreeAt = now + Self.busTime(bytes: bytes, transactions: transactions, hertz: busHertz)
    }

    /// Bus time: 9 bits per byte (8 and the ACK), and start, address byte and stop per transaction.
    public static func busTime(bytes: Int, transactions: Int, hertz: Int) -> TimeSpan {
        let bits = Int64(bytes) * 9 + Int64(transactions) * (1 + 9 + 1)
        return TimeSpan(nanoseconds: bits * 1_000_000_000 / Int64(max(1, hertz)))
    }
}

/// How the panel should look after a time without input: bright, dimmed, or switched off.
public enum ScreenState: Hashable, Sendable {
    case bright, dimmed, off
}

/// Dims the panel after `dimAfter` without input and switches it off after `offAfter` (OLEDs
/// burn in). The first turn or press on a switched-off panel only wakes it.
public struct ScreenSaver: Hashable, Sendable {
    /// Dim after this long idle; nil never.
    public var dimAfter: TimeSpan?
    /// Off after this long idle; nil never.
    public var offAfter: TimeSpan?
    /// The last turn or press.
    public private(set) var lastActivity: Timestamp

    /// A saver whose idle time starts at `start`.
    public init(dimAfter: TimeSpan?, offAfter: TimeSpan?, start: Timestamp) {
        self.dimAfter = dimAfter
        self.offAfter = offAfter
        lastActivity = start
    }

    /// The panel's state at `instant`.
    public func state(at instant: Timestamp) -> ScreenState {
        let idle = instant - lastActivity
        if let offAfter, idle >= offAfter { return .off }
        if let dimAfter, idle >= dimAfter { return .dimmed }
        return .bright
    }

    /// The next instant the state changes by itself.
    public func nextDeadline(after instant: Timestamp) -> Timestamp? {
        [dimAfter, offAfter].compactMap { $0.map { lastActivity + $0 } }.filter { $0 > instant }.min()
    }

    /// Records a turn or press at `instant`; returns true when the panel was off, so the
    /// event only wakes it and must not change the page.
    public mutating func activity(at instant: Timestamp) -> Bool {
        let wasOff = state(at: instant) == .off
        lastActivity = instant
        return wasOff
    }
}
