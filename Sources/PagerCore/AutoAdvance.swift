import CrownVocabulary

/// Timed pages, like UIKit's `UIPageControlTimerProgress`: each page stays for its duration,
/// the current dot fills to show how much of it has passed, a turn or press pauses it, and
/// it starts again, with the page's full time, once the crown has been left alone.
public struct AutoAdvance: Hashable, Sendable {
    /// What the timer is doing.
    public enum Phase: Hashable, Sendable {
        /// Counting the current page's time since `pageStart` (UIKit's `isRunning`).
        case running
        /// Stopped by a turn or press; `resume(at:)` starts the page's full time again.
        case paused
        /// Stopped after the last page's time, because the pages do not loop.
        case finished
    }

    /// When the current page's time started.
    public private(set) var pageStart: Timestamp
    /// Running, paused or finished.
    public private(set) var phase = Phase.running

    /// A timer whose first page starts at `start`.
    public init(start: Timestamp) { pageStart = start }

    /// True while a turn or press keeps the timer stopped.
    public var isPaused: Bool { phase == .paused }
    /// True while the timer counts the current page's time.
    public var isRunning: Bool { phase == .running }

    /// How much of `duration` has passed at `instant`, from 0 to 1; 0 while paused, 1 once finished.
    public func progress(at instant: Timestamp, duration: TimeSpan) -> Double {
        switch phase {
        case .paused: return 0
        case .finished: return 1
        case .running:
            guard duration.nanoseconds > 0 else { return 0 }
            let elapsed = Double((instant - pageStart).nanoseconds) / Double(duration.nanoseconds)
            return min(max(elapsed, 0), 1)
        }
    }

    /// How many of `steps` equal parts of `duration` have passed at `instant`, from 0 to `steps - 1`
    /// (the page moves on when the last part ends); 0 unless running. Whole nanoseconds, so it
    /// changes exactly at `stepDeadline`.
    public func step(at instant: Timestamp, duration: TimeSpan, steps: Int) -> Int {
        guard phase == .running, steps > 1, duration.nanoseconds > 0 else { return 0 }
        let elapsed = max(0, (instant - pageStart).nanoseconds)
        let (scaled, overflow) = elapsed.multipliedReportingOverflow(by: Int64(steps))
        guard !overflow else { return steps - 1 }
        return Int(min(scaled / duration.nanoseconds, Int64(steps - 1)))
    }

    /// The first instant after `instant` at which `step` grows, before the page's time runs out; nil if none.
    public func stepDeadline(after instant: Timestamp, duration: TimeSpan, steps: Int) -> Timestamp? {
        guard phase == .running, steps > 1, duration.nanoseconds > 0 else { return nil }
        let next = step(at: instant, duration: duration, steps: steps) + 1
        guard next < steps else { return nil }
        // The step is `elapsed * steps / duration` rounded down: it reaches `next` at the ceiling of `duration * next / steps`.
        let (scaled, overflow) = duration.nanoseconds.multipliedReportingOverflow(by: Int64(next))
        guard !overflow else { return nil }
        let offset = (scaled + Int64(steps) - 1) / Int64(steps)
        return pageStart + TimeSpan(nanoseconds: offset)
    }

    /// The instant the page's time runs out, or nil unless running.
    public func deadline(duration: TimeSpan) -> Timestamp? {
        phase == .running ? pageStart + duration : nil
    }

    /// Starts the time of a new page (a paused or finished timer stays so).
    public mutating func restart(at instant: Timestamp) { pageStart = instant }

    /// Stops the timer where it is: a person at the crown wants to stay in control.
    public mutating func pause() { phase = .paused }

    /// Starts the timer again, with the current page's full time.
    public mutating func resume(at instant: Timestamp) {
        phase = .running
        pageStart = instant
    }

    /// Stops the timer for good on the last page (until a turn or press and its resume).
    public mutating func finish() { phase = .finished }
}

/// How the current dot shows the timer; without one (no timer, or finished) it is the plain solid dot.
public enum TimerLook: Hashable, Sendable {
    /// Running: hollow with a lit centre, filled from the bottom by `step` of `steps` parts.
    case running(step: Int, steps: Int)
    /// Paused by a turn or press: solid, split down the middle by a dark gap (a pause sign).
    case paused
}
