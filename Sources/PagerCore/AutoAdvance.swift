import CrownVocabulary

/// Timed pages, like UIKit's `UIPageControlTimerProgress`: each page stays for its duration,
/// the current dot fills to show how much of it has passed, and a turn of the crown pauses it.
public struct AutoAdvance: Hashable, Sendable {
    /// When the current page's time started.
    public private(set) var pageStart: Timestamp
    /// True once a turn of the crown paused the timer; it stays paused until `resume(at:)`.
    public private(set) var isPaused = false

    /// A timer whose first page starts at `start`.
    public init(start: Timestamp) { pageStart = start }

    /// How much of `duration` has passed at `instant`, from 0 to 1; 0 while paused.
    public func progress(at instant: Timestamp, duration: TimeSpan) -> Double {
        guard !isPaused, duration.nanoseconds > 0 else { return 0 }
        let elapsed = Double((instant - pageStart).nanoseconds) / Double(duration.nanoseconds)
        return min(max(elapsed, 0), 1)
    }

    /// The instant the page's time runs out, or nil while paused.
    public func deadline(duration: TimeSpan) -> Timestamp? {
        isPaused ? nil : pageStart + duration
    }

    /// Starts the time of a new page.
    public mutating func restart(at instant: Timestamp) { pageStart = instant }

    /// Stops the timer where it is: a person turning the crown wants to stay in control.
    public mutating func pause() { isPaused = true }

    /// Starts the timer again, with the current page's full time.
    public mutating func resume(at instant: Timestamp) {
        isPaused = false
        pageStart = instant
    }
}
