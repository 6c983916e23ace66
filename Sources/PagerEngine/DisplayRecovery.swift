import CrownVocabulary
import PagerCore
import SSD1306

/// When to try a display again after it stopped answering: soon at first, then less often.
public struct DisplayRetryPolicy: Hashable, Sendable {
    /// The wait after the first failure.
    public var firstDelay: TimeSpan
    /// The longest wait between attempts.
    public var maximumDelay: TimeSpan

    /// A policy; the defaults retry after 100 ms, doubling up to 5 s.
    public init(firstDelay: TimeSpan = .milliseconds(100), maximumDelay: TimeSpan = .milliseconds(5000)) {
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait after `failures` consecutive failures (1 or more): doubling, capped.
    public func delay(afterFailures failures: Int) -> TimeSpan {
        var delay = firstDelay
        for _ in 1..<max(1, min(failures, 32)) where delay < maximumDelay {
            delay = TimeSpan(nanoseconds: delay.nanoseconds * 2)
        }
        return min(delay, maximumDelay)
    }
}

/// Whether the display answers, and when to try again if not. Time is a parameter.
public struct DisplayHealth: Hashable, Sendable {
    /// The backoff.
    public let policy: DisplayRetryPolicy
    /// Consecutive failed attempts; 0 while the display answers.
    public private(set) var failures = 0
    /// When the next attempt is due while the display is lost.
    public private(set) var nextAttempt: Timestamp?

    /// A display that answers.
    public init(policy: DisplayRetryPolicy = DisplayRetryPolicy()) { self.policy = policy }

    /// Whether the display stopped answering.
    public var isLost: Bool { failures > 0 }

    /// Whether an attempt may be made at `instant`.
    public func mayAttempt(at instant: Timestamp) -> Bool { nextAttempt.map { instant >= $0 } ?? true }

    /// Records a failure at `instant`; returns when to try next.
    @discardableResult
    public mutating func recordFailure(at instant: Timestamp) -> Timestamp {
        failures += 1
        let next = instant + policy.delay(afterFailures: failures)
        nextAttempt = next
        return next
    }

    /// Records a success.
    public mutating func recordSuccess() {
        failures = 0
        nextAttempt = nil
    }
}

/// What presenting a frame did, for the loop to report.
public enum DisplayPresentation<Failure: Error> {
    /// The frame (or the part that changed) went out.
    case sent
    /// The frame equals the glass: nothing went out.
    case unchanged
    /// The display is lost; the next attempt is due at the instant given.
    case waiting(until: Timestamp)
    /// The display just stopped answering; retry at the instant given.
    case lost(Failure, retryAt: Timestamp)
    /// Another attempt failed; retry at the instant given.
    case stillLost(Failure, retryAt: Timestamp)
    /// The display answers again: initialised afresh, the whole frame resent.
    case recovered(attempts: Int)
}

extension PagerSession {
    /// Presents the frame for `instant`, and when the display stopped answering, retries with
    /// backoff: re-initialises it and resends the whole frame once it answers. Never throws:
    /// a loose wire must not end the program.
    public mutating func presentRecovering(at instant: Timestamp, health: inout DisplayHealth) -> DisplayPresentation<
        Bus.Failure
    > {
        if health.isLost {
            guard health.mayAttempt(at: instant), health.nextAttempt != nil else {
                return .waiting(until: health.nextAttempt ?? instant)
            }
            let attempts = health.failures
            do throws(Bus.Failure) {
                try start()  // RAM and registers may be gone after a power glitch: all of it again
                try present(at: instant)
            } catch {
                return .stillLost(error, retryAt: health.recordFailure(at: instant))
            }
            health.recordSuccess()
            return .recovered(attempts: attempts)
        }
        do throws(Bus.Failure) {
            return try present(at: instant) ? .sent : .unchanged
        } catch {
            display.invalidate()
            return .lost(error, retryAt: health.recordFailure(at: instant))
        }
    }
}
