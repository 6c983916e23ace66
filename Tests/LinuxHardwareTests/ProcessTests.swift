import Glibc
import LinuxHardware
import Testing

/// Waits (bounded: 5 s) until `process` has finished its output and been reaped.
private func finish(_ process: ChildProcess) -> ChildProcessExit? {
    for _ in 0..<500 {
        if process.readAvailable(), let exit = process.reap() { return exit }
        usleep(10_000)
    }
    return nil
}

private func isAlive(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

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
