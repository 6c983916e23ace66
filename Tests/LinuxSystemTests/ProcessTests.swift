import Glibc
import Testing

@testable import LinuxSystem

/// Waits (bounded: 5 s) until `process` has finished its output and been reaped.
private func finish(_ process: ChildProcess) -> ChildProcessExit? {
    for _ in 0..<500 {
        if process.readAvailable(), let exit = process.reap() { return exit }
        usleep(10_000)
    }
    return nil
}

private func isAlive(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

/// The fields of `/proc/<pid>/stat` after the name: state, ppid, pgrp, session, ...; nil once the
/// process is gone (reaped: a zombie still has its entry).
private func statFields(_ pid: pid_t) -> [Substring]? {
    guard let line = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = line.lastIndex(of: ")")
    else { return nil }
    return line[line.index(after: close)...].split(separator: " ")
}

/// Commands for command pages: posix_spawn in their own process group, one capped pipe, no shell.
@Suite struct ProcessTests {
    @Test func runsArgvWithoutAShellAndCollectsOutputAndStatus() throws {
        let process = try ChildProcess.spawn(["printf", "%s|%s", "a b", "$HOME"])
        #expect(finish(process) == .exited(status: 0))
        #expect(String(decoding: process.output, as: UTF8.self) == "a b|$HOME")  // no shell expanded anything
    }

    @Test func standardErrorJoinsTheOutputAndAFailureShowsItsStatus() throws {
        let process = try ChildProcess.spawn(["sh", "-c", "echo oops >&2; exit 3"])
        #expect(finish(process) == .exited(status: 3))
        #expect(String(decoding: process.output, as: UTF8.self) == "oops\n")
    }

    @Test func aMissingProgramIsATypedError() {
        #expect(throws: ChildProcessError.notFound(program: "crownpager-no-such-program")) {
            try ChildProcess.spawn(["crownpager-no-such-program"])
        }
        #expect(throws: ChildProcessError.notFound(program: "/nonexistent/tool")) {
            try ChildProcess.spawn(["/nonexistent/tool"])
        }
        #expect(
            ChildProcessError.notFound(program: "vcgencmd").description
                == "vcgencmd: not found on PATH (give the full path, e.g. /usr/bin/vcgencmd)")
    }

    @Test func aFloodIsCappedAndStopped() throws {
        let process = try ChildProcess.spawn(["yes", "flood"], maximumOutputBytes: 1000)
        #expect(finish(process) == .signalled(signal: SIGKILL))
        #expect(process.output.count == 1000 && process.isOutputCapped)
    }

    @Test func killingTheGroupTakesItsChildrenToo() throws {
        // The shell starts a sleeping grandchild and prints its pid; both must die with the group.
        let process = try ChildProcess.spawn(["sh", "-c", "sleep 30 & echo $!; wait"])
        var grandchild: pid_t = 0
        for _ in 0..<500 where grandchild == 0 {
            process.readAvailable()
            grandchild = pid_t(
                String(decoding: process.output, as: UTF8.self).split(separator: "\n").first.flatMap { Int32($0) } ?? 0)
            usleep(10_000)
        }
        #expect(grandchild > 0 && isAlive(grandchild))
        #expect(process.reap() == nil)  // still running: reap never blocks
        process.killGroup()
        #expect(finish(process) == .signalled(signal: SIGKILL))
        // The grandchild is not ours to reap (init adopts it); wait until it is gone.
        var gone = false
        for _ in 0..<500 where !gone {
            gone =
                !isAlive(grandchild)
                || (try? String(contentsOfFile: "/proc/\(grandchild)/stat", encoding: .utf8))?.contains(") Z") == true
            usleep(10_000)
        }
        #expect(gone)
    }

    @Test func aDescendantThatLeftTheGroupIsAdoptedKilledAndReaped() throws {
        // setsid puts the sleep in a session of its own: the group kill misses it. Adopted (this
        // process is a child subreaper), it carries the command's mark, and stopLeftovers ends it.
        #expect(ChildProcess.adoptOrphans() && ChildProcess.adoptsOrphans)
        let process = try ChildProcess.spawn(["sh", "-c", "setsid sleep 29.5 & echo $!"])
        var escapee: pid_t = 0
        for _ in 0..<500 where escapee == 0 {
            process.readAvailable()
            escapee = pid_t(
                String(decoding: process.output, as: UTF8.self).split(separator: "\n").first.flatMap { Int32($0) } ?? 0)
            usleep(10_000)
        }
        #expect(escapee > 0)
        // The shell exits at once; the sleep holds the pipe, so the output never ends.
        for _ in 0..<500 where process.reap() == nil { usleep(10_000) }
        #expect(process.reap() == .exited(status: 0))
        #expect(process.readAvailable() == false)
        var fields: [Substring]? = nil
        for _ in 0..<500 {
            fields = statFields(escapee)
            if fields?[3] == Substring(String(escapee)), fields?[1] == Substring(String(getpid())) { break }
            usleep(10_000)  // setsid may not have run yet
        }
        #expect(fields?[0] != "Z" && fields?[1] == Substring(String(getpid())))  // alive, adopted by us
        // Its own group and session.
        #expect(fields?[2] == Substring(String(escapee)) && fields?[3] == Substring(String(escapee)))
        #expect(process.mark.count >= 8)

        process.killGroup()  // the timeout
        var settled = false
        for _ in 0..<500 where !settled {
            settled = process.stopLeftovers()
            if !settled { usleep(10_000) }
        }
        #expect(settled)
        #expect(statFields(escapee) == nil)  // killed and reaped: no sleep, no zombie
        #expect(process.readAvailable())  // the pipe's last writer is gone
    }

    @Test func processStatusReadsAStatLineWhateverTheName() {
        let status = ProcessStatus(statLine: "4242 (a (b) c) S 17 4242 4242 0 -1 4194560 96 0 0 0")
        #expect(status?.pid == 4242 && status?.state == "S" && status?.parent == 17 && status?.group == 4242)
        #expect(ProcessStatus(statLine: "") == nil && ProcessStatus(statLine: "12 (x) Z") == nil)
        #expect(ProcessStatus.children(of: getppid()).contains { $0.pid == getpid() })
    }

    @Test func theChildGetsAMinimalEnvironment() throws {
        // The test process has more (swift test's own, the CI's): only the allowed ones pass.
        let process = try ChildProcess.spawn(["env"])
        #expect(finish(process) == .exited(status: 0))
        let names = String(decoding: process.output, as: UTF8.self).split(separator: "\n")
            .map { String($0.prefix { $0 != "=" }) }
        #expect(names.contains("PATH") && names.contains(ChildProcess.markVariable))
        let allowed = Set(ChildProcess.inheritedVariables + [ChildProcess.markVariable])
        #expect(names.allSatisfy { allowed.contains($0) || $0.hasPrefix("LC_") }, "\(names)")
    }

    @Test func theChildGetsDefaultSignalsAndNullInput() throws {
        // The run loop blocks SIGTERM for its signalfd; the child must not inherit that.
        var mask = sigset_t()
        var previous = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &mask, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let process = try ChildProcess.spawn(["sh", "-c", "grep SigBlk /proc/self/status; cat"])
        #expect(finish(process) == .exited(status: 0))
        #expect(String(decoding: process.output, as: UTF8.self) == "SigBlk:\t0000000000000000\n")
    }
}
