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
/// - The bus's speed is learnt from how long the shell's writes took (`written(took:)`), so a
///   wrong `display.bus_hz` or a slow bus still paces right. While a slide runs, frames come
///   every `frameInterval`: 60 a second where the bus carries the recent frames in that time,
///   fewer and larger steps (30, 20, 15 a second) where it does not.
/// - With nothing changed, no animation and no deadline, the loop sleeps until input.
package struct FramePacer: Hashable, Sendable {
    /// The bus clock the configuration names, in hertz: where `busRate` starts.
    package private(set) var busHertz: Int
    /// The shortest frame interval while a slide or bounce is under way (about 60 a second).
    package var animationInterval: TimeSpan
    /// A slide's frames come at most this many `animationInterval`s apart, however slow the bus.
    package var maximumStretch = 4
    /// The bus's speed, learnt from the writes.
    package private(set) var busRate: BusRateEstimate
    /// When the bus finishes carrying the last frame: by the learnt rate until the shell reports
    /// its write, then by the time the write took.
    package private(set) var busFreeAt = Timestamp.zero
    /// When the last frame was drawn.
    package private(set) var lastFrameAt: Timestamp?
    /// The instant the last frame showed a slide at (its lookahead's end): no later frame shows an earlier one.
    package private(set) var lastSampleAt: Timestamp?
    /// Whether something visible changed since the last frame.
    package private(set) var needsFrame = true
    /// Bits of the last frames sent, the newest at `recentNext - 1`; what the frame interval is chosen for.
    private var recentFrameBits: [Int]
    private var recentNext = 0
    /// Bits of the last frame, until the shell reports its write, and when it was drawn.
    private var pendingBits = 0
    private var pendingStart = Timestamp.zero

    /// Frames remembered for the frame interval.
    static let recentFrames = 12

    /// A pacer for a bus clocked at `busHertz`.
    package init(busHertz: Int = 400_000, animationInterval: TimeSpan = FramePacer.sixtyHertz) {
        self.busHertz = max(1, busHertz)
        self.animationInterval = animationInterval
        busRate = BusRateEstimate(hertz: self.busHertz)
        recentFrameBits = Array(repeating: 0, count: Self.recentFrames)
    }

    /// A frame interval of 60 a second: what `run` paces a slide at.
    package static let sixtyHertz = TimeSpan(nanoseconds: 1_000_000_000 / 60)

    /// What to do next.
    package enum Decision: Hashable, Sendable {
        /// Render and send a frame now.
        case drawFrame
        /// Sleep until this instant, or until input when nil.
        case wait(until: Timestamp?)
    }

    /// Something on the glass is to change: a turn, a refreshed value, the screen waking.
    package mutating func invalidate() { needsFrame = true }

    /// A new configuration's bus clock; what the writes taught stays (the bus itself has not changed).
    package mutating func configure(busHertz: Int) {
        self.busHertz = max(1, busHertz)
        if busRate.writesMeasured == 0 { busRate = BusRateEstimate(hertz: self.busHertz) }
    }

    /// The time between a slide's frames: the smallest whole number of `animationInterval`s
    /// (at most `maximumStretch`) in which the bus, at the learnt rate, carries the largest of
    /// the last 12 frames drawn while something moved. Fewer, larger steps on a slow bus, at an even pace, rather than
    /// frames that each wait for the bus and land at uneven times.
    package var frameInterval: TimeSpan {
        let busTime = busRate.time(bits: recentFrameBits.max() ?? 0)
        var steps: Int64 = 1
        while steps < Int64(maximumStretch), animationInterval * steps < busTime { steps += 1 }
        return animationInterval * steps
    }

    /// How far ahead of `now` a frame drawn now shows a slide: when it is on the glass, a frame
    /// interval on, and never short of where the last frame showed it (no step backwards when
    /// the interval shrinks).
    package func lookahead(at now: Timestamp) -> TimeSpan {
        let interval = frameInterval
        guard let lastSampleAt, lastSampleAt - now > interval else { return interval }
        return lastSampleAt - now
    }

    /// The decision at `now`, given whether an animation runs and the next deadline of timers and
    /// refreshes. No frame is drawn before the bus is free, whatever is due. Pending input is
    /// always fed before the decision (the shell drains it first), so it never waits on one.
    package func decide(at now: Timestamp, animating: Bool, nextDeadline: Timestamp?) -> Decision {
        var due: Timestamp?
        if needsFrame {
            due = busFreeAt
        } else if animating {
            due = max(busFreeAt, (lastFrameAt ?? now) + frameInterval)
        }
        if let nextDeadline {
            let deadline = max(nextDeadline, busFreeAt)
            due = min(due ?? deadline, deadline)
        }
        if let due, now >= due { return .drawFrame }
        return .wait(until: due)
    }

    /// Records a frame drawn at `now` whose update put `bytes` in `transactions` on the bus; it
    /// showed a slide `lookahead(at: now)` on. A frame of a slide (`moving`) counts towards the
    /// frame interval; a whole frame after a start or a still one does not.
    package mutating func frameSent(bytes: Int, transactions: Int, at now: Timestamp, moving: Bool = true) {
        lastSampleAt = now + lookahead(at: now)
        needsFrame = false
        lastFrameAt = now
        if moving, bytes > 0 {
            recentFrameBits[recentNext] = Self.bits(bytes: bytes, transactions: transactions)
            recentNext = (recentNext + 1) % Self.recentFrames
        }
        pendingBits = Self.bits(bytes: bytes, transactions: transactions)
        pendingStart = now
        busFreeAt = now + busRate.time(bits: pendingBits)
    }

    /// The shell wrote the frame last drawn, and the bus took `took` over it: the rate learns
    /// from it, and the bus is free `took` after the frame was drawn. Transfers that are not a
    /// frame (the initialisation, switching off) teach nothing: the shell writes them outside
    /// the frame loop, and they are not paced.
    package mutating func written(took: TimeSpan) {
        guard pendingBits > 0 else { return }
        busRate.record(bits: pendingBits, took: took)
        busFreeAt = pendingStart + max(took, .zero)
        pendingBits = 0
    }

    /// The most bytes a frame of a slide may take (address bytes counted): at 400 kHz and up,
    /// what the learnt bus carries in 5 ms, half the 10 ms from detent to glass, so that a detent
    /// waiting for the frame on the bus and then its own frame stay within it (222 bytes at
    /// 400 kHz); never more than 300 (issue 13: no frame of a slide over 300 bytes). A slower bus
    /// cannot keep 10 ms (222 bytes take 20 ms at 100 kHz): it takes fewer, larger steps of 300.
    package var frameByteBudget: Int {
        let hertz = busRate.hertz
        return hertz < Self.fastBusHertz ? Self.largestFrameBudget : min(Self.largestFrameBudget, hertz / 200 / 9)
    }

    /// The clock from which frames are held to 5 ms of the bus: 400 kHz, I2C Fast-mode.
    static let fastBusHertz = 400_000
    /// The largest frame of a slide, on any bus.
    static let largestFrameBudget = 300

    /// Records writes at `now` that change no frame (the RAM rows off the glass filled while the
    /// bus idles): the bus is busy with them, and no frame is due for them.
    package mutating func idleWriteSent(bytes: Int, transactions: Int, at now: Timestamp) {
        pendingBits = Self.bits(bytes: bytes, transactions: transactions)
        pendingStart = now
        busFreeAt = now + busRate.time(bits: pendingBits)
    }

    /// Writing the transfers last handed out failed: their time teaches nothing.
    package mutating func writeFailed() { pendingBits = 0 }

    /// Bits on the wire: 9 per byte (8 and the ACK), and start, address byte and stop per transaction.
    package static func bits(bytes: Int, transactions: Int) -> Int { bytes * 9 + transactions * (1 + 9 + 1) }

    /// Bus time: 9 bits per byte (8 and the ACK), and start, address byte and stop per transaction.
    package static func busTime(bytes: Int, transactions: Int, hertz: Int) -> TimeSpan {
        let bits = Int64(bits(bytes: bytes, transactions: transactions))
        return TimeSpan(nanoseconds: bits * 1_000_000_000 / Int64(max(1, hertz)))
    }
}

/// How the panel should look after a time without input: bright, dimmed, or switched off.
package enum ScreenState: Hashable, Sendable {
    case bright, dimmed, off
}

/// Dims the panel after `dimAfter` without input and switches it off after `offAfter` (OLEDs
/// burn in). The first turn or press on a switched-off panel only wakes it.
package struct ScreenSaver: Hashable, Sendable {
    /// Dim after this long idle; nil never.
    package var dimAfter: TimeSpan?
    /// Off after this long idle; nil never.
    package var offAfter: TimeSpan?
    /// The last turn or press.
    package private(set) var lastActivity: Timestamp

    /// A saver whose idle time starts at `start`.
    package init(dimAfter: TimeSpan?, offAfter: TimeSpan?, start: Timestamp) {
        self.dimAfter = dimAfter
        self.offAfter = offAfter
        lastActivity = start
    }

    /// The panel's state at `instant`.
    package func state(at instant: Timestamp) -> ScreenState {
        let idle = instant - lastActivity
        if let offAfter, idle >= offAfter { return .off }
        if let dimAfter, idle >= dimAfter { return .dimmed }
        return .bright
    }

    /// The next instant the state changes by itself.
    package func nextDeadline(after instant: Timestamp) -> Timestamp? {
        [dimAfter, offAfter].compactMap { $0.map { lastActivity + $0 } }.filter { $0 > instant }.min()
    }

    /// Records a turn or press at `instant`; returns true when the panel was off, so the
    /// event only wakes it and must not change the page.
    package mutating func activity(at instant: Timestamp) -> Bool {
        let wasOff = state(at: instant) == .off
        lastActivity = instant
        return wasOff
    }
}
