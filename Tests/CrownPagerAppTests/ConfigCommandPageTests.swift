import CrownPagerApp
import CrownVocabulary
import Glibc
import PagerCore
import PagerEngine
import PagerSettings
import SSD1306
import Testing

/// Command pages that cannot hurt: hangs, floods, failures and missing programs, none of which stalls the knob.
@Suite struct ConfigCommandPageTests {
    static func spec(_ argv: [String], timeout: Int64 = 300) -> CommandSpec {
        CommandSpec(argv: argv, refresh: .milliseconds(1000), timeout: .milliseconds(timeout), maximumOutputBytes: 512)
    }

    /// Polls the runner with the real clock until every page has a result (bounded: 5 s).
    static func collectAll(_ runner: CommandRunner, pages: Int, onEachPass: () -> Void = {}) -> [Int: CommandResult] {
        var results: [Int: CommandResult] = [:]
        let start = MonotonicClockForTests.now()
        var now = start
        while results.count < pages, now - start < .milliseconds(5000) {
            for (page, result) in runner.collect(at: now) { results[page] = result }
            onEachPass()
            usleep(5000)
            now = MonotonicClockForTests.now()
        }
        return results
    }

    @Test func hangFloodFailureAndMissingProgramEachShowWhatHappened() {
        let runner = CommandRunner()
        let start = MonotonicClockForTests.now()
        runner.start(Self.spec(["sleep", "30"]), for: 0, at: start)
        runner.start(Self.spec(["yes"]), for: 1, at: start)
        runner.start(Self.spec(["sh", "-c", "echo broken; exit 7"]), for: 2, at: start)
        runner.start(Self.spec(["crownpager-vanished-tool"]), for: 3, at: start)
        runner.start(Self.spec(["echo", "fine"]), for: 4, at: start)
        #expect(runner.runningCount == 4)  // the missing program never ran

        // The knob while they run: the pager takes every detent at once, whatever the commands do.
        var session = PanelPresenter(
            pages: (0..<5).map { ConfiguredPage(title: "p\($0)", body: .text("")) }, panel: .ssd1306_128x64)
        var detents = 0
        let results = Self.collectAll(runner, pages: 5) {
            detents += 1
            session.handle(.rotated(detents: 1, at: .milliseconds(Int64(detents) * 500)))
        }
        #expect(session.pager.currentPage == min(4, detents))

        #expect(results[0]?.status == "timed out after 0.3s: killed")
        #expect(results[1]?.status == "output cut at 512 bytes" && results[1]?.output.count == 512)
        #expect(results[2] == CommandResult(output: "broken\n", status: "exit status 7"))
        #expect(
            results[3]?.status
                == "crownpager-vanished-tool: not found on PATH (give the full path, e.g. /usr/bin/crownpager-vanished-tool)"
        )
        #expect(results[4] == CommandResult(output: "fine\n", status: nil))
        #expect(runner.runningCount == 0)
    }

    /// Whether `/proc/<pid>` is still there: the process runs, or is a zombie not yet reaped.
    static func hasProcessEntry(_ pid: pid_t) -> Bool {
        access("/proc/\(pid)/stat", F_OK) == 0
    }

    /// Calls `collect` until nothing is left to reap (bounded: 5 s).
    static func settle(_ runner: CommandRunner) {
        var now = MonotonicClockForTests.now()
        let start = now
        while runner.nextDeadline(after: now) != nil, now - start < .milliseconds(5000) {
            _ = runner.collect(at: now)
            usleep(5000)
            now = MonotonicClockForTests.now()
        }
    }

    @Test func aCommandThatCallsSetsidDoesNotOutliveItsTimeout() {
        // The sleep leaves the process group (a session of its own) and keeps the output pipe open.
        let runner = CommandRunner()
        runner.start(
            Self.spec(["sh", "-c", "setsid sleep 29.5 & echo $!"], timeout: 300), for: 0,
            at: MonotonicClockForTests.now())
        let results = Self.collectAll(runner, pages: 1)
        #expect(results[0]?.status == "timed out after 0.3s: killed")
        let escapee = pid_t(results[0]?.output.split(separator: "\n").first.flatMap { Int32($0) } ?? 0)
        #expect(escapee > 0)
        Self.settle(runner)
        #expect(runner.nextDeadline(after: MonotonicClockForTests.now()) == nil)
        #expect(escapee > 0 && !Self.hasProcessEntry(escapee))  // no sleep, no zombie
    }

    @Test func aDaemonThatDoubleForksIsStoppedWithAllItStarted() {
        // A session of its own whose leader waits on a sleep: the leader is killed first, then the
        // sleep, orphaned in its turn and adopted.
        let runner = CommandRunner()
        let daemon = "setsid sh -c 'sleep 29.6 & echo $!; wait' & sleep 0.1"
        runner.start(Self.spec(["sh", "-c", daemon], timeout: 300), for: 0, at: MonotonicClockForTests.now())
        let results = Self.collectAll(runner, pages: 1)
        #expect(results[0]?.status == "timed out after 0.3s: killed")
        let sleeper = pid_t(results[0]?.output.split(separator: "\n").first.flatMap { Int32($0) } ?? 0)
        #expect(sleeper > 0)
        Self.settle(runner)
        #expect(sleeper > 0 && !Self.hasProcessEntry(sleeper))
    }

    @Test func whatAFinishedCommandLeftRunningIsStoppedToo() {
        let runner = CommandRunner()
        runner.start(
            Self.spec(["sh", "-c", "setsid sleep 29.5 >/dev/null 2>&1 & echo $!"], timeout: 5000), for: 0,
            at: MonotonicClockForTests.now())
        let results = Self.collectAll(runner, pages: 1)
        #expect(results[0]?.status == nil)
        let escapee = pid_t(results[0]?.output.split(separator: "\n").first.flatMap { Int32($0) } ?? 0)
        #expect(escapee > 0)
        Self.settle(runner)
        #expect(escapee > 0 && !Self.hasProcessEntry(escapee))
    }

    @Test func aPageRunsOneCommandAtATime() {
        let runner = CommandRunner()
        let now = MonotonicClockForTests.now()
        runner.start(Self.spec(["sleep", "30"], timeout: 100), for: 0, at: now)
        runner.start(Self.spec(["sleep", "30"], timeout: 100), for: 0, at: now)
        #expect(runner.runningCount == 1 && runner.descriptors.count == 1)
        runner.stopAll()
        #expect(runner.runningCount == 0)
    }

    @Test func commandsRunOnlyNearTheCurrentPageAndNeverPileUp() {
        var schedule = RefreshSchedule(intervals: [nil, .milliseconds(1000), nil, .milliseconds(1000)])
        let near = RefreshSchedule.neighbourhood(of: 0, count: 4, wraps: false)
        #expect(near == [0, 1])
        #expect(schedule.duePages(at: .zero, near: near) == [1])  // page 3 is two turns away: not run
        schedule.started(1)
        // Running longer than its refresh: it is not started again until it has finished.
        #expect(schedule.duePages(at: .milliseconds(5000), near: near) == [])
        #expect(schedule.nextDeadline(near: near) == nil)
        schedule.finished(1, at: .milliseconds(5200))
        #expect(schedule.nextDeadline(near: near) == .milliseconds(6000))
        #expect(RefreshSchedule.neighbourhood(of: 0, count: 4, wraps: true) == [0, 1, 3])
    }

    @Test func gaugeCommandsShowTheirNumberOrWhyNot() {
        let gauge = PageSpec(
            title: "t",
            kind: .gauge(
                GaugeSpec(
                    source: .command(Self.spec(["x"])), minimum: 0, maximum: 100, unit: "%", isDial: false,
                    refresh: .milliseconds(1000))))
        #expect(
            gauge.reading(commandOutput: "temp=48.3'C", status: nil)
                == .number(48.3, text: "48.3%"))
        #expect(
            gauge.reading(commandOutput: "", status: "exit status 1")
                == .number(nil, text: "exit status 1"))
    }
}

enum MonotonicClockForTests {
    static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Timestamp(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }
}
