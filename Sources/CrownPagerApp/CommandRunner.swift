import CrownVocabulary
import LinuxSystem
import PagerCore
import PagerEngine
import PagerSettings

/// What a command page's run produced.
package struct CommandResult: Hashable, Sendable {
    /// Its output (standard output and error together), capped.
    package var output: String
    /// Nil when it exited with status 0; else why not: `exit status 3`, `timed out after 2s`, `not found`...
    package var status: String?
    /// Whether it was a page's action (`PageRead.Source.action`) rather than its reading.
    package var isAction = false

    /// A result.
    package init(output: String, status: String?, isAction: Bool = false) {
        self.output = output
        self.status = status
        self.isAction = isAction
    }

    /// The engine's input for it, on `page`.
    package func finished(page: Int) -> EngineInput {
        isAction
            ? .actionFinished(page: page, output: output, status: status)
            : .commandFinished(page: page, output: output, status: status)
    }
}

/// Runs the commands of command pages and the pages' actions: one of each at a time per page,
/// killed with their process group at their timeout, output capped, always reaped. Never blocks:
/// the run loop polls `descriptors` and calls `collect(at:)` when one is readable or a deadline passes.
///
/// The runner makes this process a child subreaper, so a command's descendant that escaped its
/// group (`setsid`) re-parents here when its parent dies: when a command ends (it finished, timed
/// out, flooded, or `stopAll()`), whatever it left running is killed and reaped, group and escapees.
package final class CommandRunner {
    private struct Running {
        var process: ChildProcess
        var spec: CommandSpec
        var startedAt: Timestamp
    }

    /// A run's key: its page, and whether it is the page's action (which may run beside its reading).
    private struct Job: Hashable, Comparable {
        var page: Int
        var isAction: Bool

        static func < (lhs: Job, rhs: Job) -> Bool {
            (lhs.page, lhs.isAction ? 1 : 0) < (rhs.page, rhs.isAction ? 1 : 0)
        }
    }

    private var running: [Job: Running] = [:]
    /// Ended commands whose process or leftovers are not yet reaped; reaped on later calls,
    /// never waited for.
    private var unreaped: [ChildProcess] = []
    private var finishedNow: [(page: Int, result: CommandResult)] = []

    /// A runner with nothing running; makes this process a child subreaper (`ChildProcess.adoptOrphans()`).
    package init() {
        ChildProcess.adoptOrphans()
    }

    /// Whether `page`'s command runs now.
    package func isRunning(_ page: Int) -> Bool { running[Job(page: page, isAction: false)] != nil }

    /// How many commands run now.
    package var runningCount: Int { running.count }

    /// Starts `spec` for `page` unless it already runs; a command that cannot start finishes at once.
    package func start(_ spec: CommandSpec, for page: Int, at now: Timestamp) {
        start(spec, Job(page: page, isAction: false), at: now)
    }

    /// Starts what `read` asks for (a page's command or its action) unless it already runs.
    package func start(_ spec: CommandSpec, for read: PageRead, at now: Timestamp) {
        if case .action = read.source {
            start(spec, Job(page: read.page, isAction: true), at: now)
        } else {
            start(spec, for: read.page, at: now)
        }
    }

    private func start(_ spec: CommandSpec, _ job: Job, at now: Timestamp) {
        guard running[job] == nil else { return }
        do {
            let process = try ChildProcess.spawn(spec.argv, maximumOutputBytes: spec.maximumOutputBytes)
            running[job] = Running(process: process, spec: spec, startedAt: now)
        } catch {
            finishedNow.append(
                (job.page, CommandResult(output: "", status: error.description, isAction: job.isAction)))
        }
    }

    /// The output pipes to poll.
    package var descriptors: [Int32] {
        running.values.map { $0.process.outputDescriptor }.filter { $0 >= 0 }
    }

    /// When a running command times out next, or (while one has closed its output but not yet
    /// exited) when to look again.
    package func nextDeadline(after now: Timestamp) -> Timestamp? {
        var deadlines = running.values.map { $0.startedAt + $0.spec.timeout }
        if running.values.contains(where: { $0.process.outputDescriptor < 0 }) || !unreaped.isEmpty
            || !finishedNow.isEmpty
        {
            deadlines.append(now + .milliseconds(10))
        }
        return deadlines.min()
    }

    /// Reads what the commands wrote, reaps those that ended, kills those past their timeout;
    /// returns the pages whose command or action finished, with the result.
    package func collect(at now: Timestamp) -> [(page: Int, result: CommandResult)] {
        var finished = finishedNow
        finishedNow = []
        for job in running.keys.sorted() {
            guard let run = running[job] else { continue }
            let page = job.page
            let process = run.process
            let outputDone = process.readAvailable()
            if outputDone, let exit = process.reap() {
                running[job] = nil
                unreaped.append(process)  // what it left running
                finished.append(
                    (
                        page,
                        Self.result(process, job, status: Self.status(exit, capped: process.isOutputCapped, process))
                    ))
            } else if now >= run.startedAt + run.spec.timeout {
                process.killGroup()
                running[job] = nil
                unreaped.append(process)
                let seconds = fixed(
                    Double(run.spec.timeout.nanoseconds) / 1e9,
                    run.spec.timeout.nanoseconds % 1_000_000_000 == 0 ? 0 : 1)
                finished.append((page, Self.result(process, job, status: "timed out after \(seconds)s: killed")))
            } else if outputDone, process.isOutputCapped {
                // Capped: the group was killed; report now, reap later.
                running[job] = nil
                unreaped.append(process)
                finished.append(
                    (page, Self.result(process, job, status: "output cut at \(process.maximumOutputBytes) bytes")))
            }
        }
        unreaped.removeAll { $0.reap() != nil && $0.stopLeftovers() }
        return finished
    }

    /// Kills every running command and what it started (on exit or reload), waiting at most
    /// 100 ms for them to be reaped; later `collect(at:)` calls reap any left.
    package func stopAll() {
        for run in running.values {
            run.process.killGroup()
            unreaped.append(run.process)
        }
        running = [:]
        unreaped = ChildProcess.stopLeftovers(of: unreaped, waitingAtMost: 100)
    }

    private static func status(_ exit: ChildProcessExit, capped: Bool, _ process: ChildProcess) -> String? {
        if capped { return "output cut at \(process.maximumOutputBytes) bytes" }
        if case .exited(0) = exit { return nil }
        return exit.description
    }

    private static func result(_ process: ChildProcess, _ job: Job, status: String?) -> CommandResult {
        CommandResult(output: String(decoding: process.output, as: UTF8.self), status: status, isAction: job.isAction)
    }
}
