import CrownVocabulary
import PagerCore

/// When to try a display again after it stopped answering: soon at first, then less often.
package struct DisplayRetryPolicy: Hashable, Sendable {
    /// The wait after the first failure.
    package var firstDelay: TimeSpan
    /// The longest wait between attempts.
    package var maximumDelay: TimeSpan

    /// A policy; the defaults retry after 100 ms, doubling up to 5 s.
    package init(firstDelay: TimeSpan = .milliseconds(100), maximumDelay: TimeSpan = .milliseconds(5000)) {
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait after `failures` consecutive failures (1 or more): doubling, capped.
    package func delay(afterFailures failures: Int) -> TimeSpan {
        var delay = firstDelay
        for _ in 1..<max(1, min(failures, 32)) where delay < maximumDelay {
            delay = TimeSpan(nanoseconds: delay.nanoseconds * 2)
        }
        return min(delay, maximumDelay)
    }
}

/// Whether the display answers, and when to try again if not. Time is a parameter.
package struct DisplayHealth: Hashable, Sendable {
    /// The backoff.
    package let policy: DisplayRetryPolicy
    /// Consecutive failed attempts; 0 while the display answers.
    package private(set) var failures = 0
    /// When the next attempt is due while the display is lost.
    package private(set) var nextAttempt: Timestamp?

    /// A display that answers.
    package init(policy: DisplayRetryPolicy = DisplayRetryPolicy()) { self.policy = policy }

    /// Whether the display stopped answering.
    package var isLost: Bool { failures > 0 }

    /// Whether an attempt may be made at `instant`.
    package func mayAttempt(at instant: Timestamp) -> Bool { nextAttempt.map { instant >= $0 } ?? true }

    /// Records a failure at `instant`; returns when to try next.
    @discardableResult
    package mutating func recordFailure(at instant: Timestamp) -> Timestamp {
        failures += 1
        let next = instant + policy.delay(afterFailures: failures)
        nextAttempt = next
        return next
    }

    /// Records a success.
    package mutating func recordSuccess() {
        failures = 0
        nextAttempt = nil
    }
}
