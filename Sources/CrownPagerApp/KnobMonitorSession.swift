import CrownInput
import CrownVocabulary
import LinuxSystem
import PagerCore

/// `crownpager doctor crown`: the knob's facts shown live, to check the wiring before anything else.
///
/// On a terminal one status line is rewritten in place; into a pipe or a file every fact is
/// a line of its own, with the figures so far. It stops after `count` facts, after
/// `duration`, when the source ends (q on the keyboard), or with Ctrl-C.
package struct KnobMonitorSession {
    /// Stop after this many facts.
    package var count: Int?
    /// Stop after this long.
    package var duration: TimeSpan?
    /// Rewrite one line in place (a terminal) rather than print a line per fact.
    package var live: Bool

    /// A session writing live to a terminal, or line by line elsewhere.
    package init(count: Int? = nil, duration: TimeSpan? = nil, live: Bool = StandardOutput.isTerminal) {
        self.count = count
        self.duration = duration
        self.live = live
    }

    /// Watches `source` until a stop condition; returns the final figures.
    @discardableResult
    package func run<Source: DescribedCrownSource>(
        _ source: inout Source, write: (String) -> Void = StandardOutput.write
    )
        throws(CrownPagerError) -> KnobMonitor
    where Source.Failure == CrownPagerError {
        var monitor = KnobMonitor()
        let start = MonotonicClock.now()
        let stopAt = duration.map { start + $0 }
        // Speed is measured on the events' own clock; between events it runs on with the real one.
        var lastEventTime: Timestamp?
        var lastEventWall = start
        var firstEventTime: Timestamp?
        write("watching \(source.sourceDescription)\n")
        write(live ? "turn the knob and press it; Ctrl-C stops\n" : "")
        func clockNow() -> Timestamp {
            guard let lastEventTime else { return MonotonicClock.now() }
            return lastEventTime + (MonotonicClock.now() - lastEventWall)
        }
        while count.map({ monitor.events < $0 }) ?? true {
            var timeout = 250
            if let stopAt {
                let remaining = stopAt - MonotonicClock.now()
                if remaining <= .zero { break }
                timeout = min(timeout, Int(remaining.milliseconds) + 1)
            }
            let wakeup = source.wakeup
            if let deadline = wakeup.deadline {
                timeout = min(timeout, max(0, Int((deadline - MonotonicClock.now()).nanoseconds + 999_999) / 1_000_000))
            }
            do { _ = try Readiness.wait(for: wakeup.descriptors, timeoutMilliseconds: timeout) } catch {
                throw .system(error)
            }
            guard let events = try source.facts(at: MonotonicClock.now()) else { break }
            for event in events {
                monitor.record(event)
                monitor.glitchesFiltered = source.glitchesFiltered
                lastEventTime = event.timestamp
                lastEventWall = MonotonicClock.now()
                if !live {
                    // Seconds since the first fact, on the facts' own clock (the kernel's timestamps).
                    let milliseconds = (event.timestamp - (firstEventTime ?? event.timestamp)).milliseconds
                    firstEventTime = firstEventTime ?? event.timestamp
                    let stamp = "\(milliseconds / 1000).\(String(milliseconds % 1000 + 1000).dropFirst())s"
                    write("\(stamp)  \(monitor.describe(event))  | \(monitor.summary(at: event.timestamp))\n")
                }
                if let count, monitor.events >= count { break }
            }
            monitor.glitchesFiltered = source.glitchesFiltered
            if live { write("\r\u{1B}[K" + monitor.summary(at: clockNow())) }
        }
        write(live ? "\r\n" : "")
        write("final: \(monitor.summary(at: clockNow()))\n")
        return monitor
    }
}
