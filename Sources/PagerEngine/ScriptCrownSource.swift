import CrownInput
import CrownVocabulary
import PagerCore

/// A crown script as a crown source: its facts come due at their instants on the run's clock,
/// through the same seam as a knob's.
package struct ScriptCrownSource: CrownSource, Hashable, Sendable {
    /// The facts not yet taken, oldest first.
    package private(set) var pending: [CrownEvent]
    /// When the script is over: the run may end then.
    package let end: Timestamp
    /// Whether the source ends (facts return nil) once the script is over.
    package let endsRun: Bool

    /// The facts of `script` starting at `start`; `endsRun`: the source ends when the script does.
    package init(_ script: CrownScript, start: Timestamp, endsRun: Bool = true) {
        pending = script.events(startingAt: start)
        end = start + script.duration
        self.endsRun = endsRun
    }

    /// No descriptors; the next fact's instant, or the end.
    package var wakeup: CrownWakeup {
        CrownWakeup(deadline: pending.first?.timestamp ?? (endsRun ? end : nil))
    }

    /// The facts due by `now`; nil after the end when the script ends the run.
    package mutating func facts(at now: Timestamp) -> [CrownEvent]? {
        let due = pending.prefix { $0.timestamp <= now }
        pending.removeFirst(due.count)
        if due.isEmpty, pending.isEmpty, endsRun, now >= end { return nil }
        return Array(due)
    }
}
