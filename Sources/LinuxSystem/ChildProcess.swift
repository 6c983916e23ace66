import CLinuxInput
import Glibc

/// A command started with posix_spawn in a process group of its own, its standard output and
/// error in one non-blocking pipe, capped.
///
/// No shell is involved: `argv[0]` is looked up on PATH and run with `argv`. The group lets a
/// timeout kill the command and anything it started (`killGroup()`); `reap()` collects its
/// exit without blocking. Signals the run loop blocks are unblocked and set to their defaults
/// in the child, its standard input is /dev/null, and its environment is minimal
/// (`inheritedVariables`). Dropping the value kills and reaps what is left.
///
/// A descendant can leave the group (`setsid`, `setpgid`): every command carries a mark in its
/// environment (`CROWNPAGER_COMMAND`), which its descendants inherit, and a process that called
/// `adoptOrphans()` becomes their parent when their own dies. `stopLeftovers()` kills the group
/// and every adopted orphan with the mark, and reaps them.
package final class ChildProcess {
    /// The environment variable that marks a command's processes.
    package static let markVariable = "CROWNPAGER_COMMAND"

    /// The process id, also its process group id.
    package let pid: pid_t
    /// This command's value of `CROWNPAGER_COMMAND`, inherited by everything it starts.
    package let mark: String
    /// The read end of the output pipe, to poll; -1 once closed.
    package private(set) var outputDescriptor: Int32
    /// Output read so far, at most `maximumOutputBytes`.
    package private(set) var output: [UInt8] = []
    /// The cap on `output`.
    package let maximumOutputBytes: Int
    /// Whether the output reached the cap (the command is then stopped: a flood must not spin the loop).
    package private(set) var isOutputCapped = false
    /// How it ended, once reaped.
    package private(set) var exit: ChildProcessExit?

    /// The process groups killed and not yet empty of our children (`stopLeftovers()`).
    private var groupsToReap: Set<pid_t> = []
    /// How many times `stopLeftovers()` has looked; nil before the first.
    private var leftoverPasses: Int?
    private var leftoversSettled = false

    private init(pid: pid_t, mark: String, outputDescriptor: Int32, maximumOutputBytes: Int) {
        self.pid = pid
        self.mark = mark
        self.outputDescriptor = outputDescriptor
        self.maximumOutputBytes = maximumOutputBytes
    }

    /// Starts `argv`; the error says whether the program is missing, not executable, or the system refused.
    package static func spawn(_ argv: [String], maximumOutputBytes: Int = 4096) throws(ChildProcessError)
        -> ChildProcess
    {
        guard let program = argv.first, !program.isEmpty else { throw .notFound(program: "") }
        var pipeEnds: [Int32] = [-1, -1]
        // pipe2 needs _GNU_SOURCE, which Swift's Glibc does not define: pipe, then close-on-exec.
        // The loop is single-threaded, so no other spawn can inherit the ends in between.
        guard pipe(&pipeEnds) == 0 else { throw .system(operation: "pipe", errno: .current) }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        // Only our end is non-blocking: the child's writes block when the pipe is full, as usual.
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        defer { close(writeEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)  // a group of its own, led by the child
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let mark = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        let arguments = argv.map { strdup($0) }
        defer { for argument in arguments { free(argument) } }
        let environment = Self.environment(marked: mark).map { strdup($0) }
        defer { for entry in environment { free(entry) } }
        let status = (arguments + [nil]).withUnsafeBufferPointer { argvPointer -> Int32 in
            (environment + [nil]).withUnsafeBufferPointer { environmentPointer -> Int32 in
                guard let base = argvPointer.baseAddress, let entries = environmentPointer.baseAddress else {
                    return EINVAL
                }
                return posix_spawnp(&pid, program, &actions, &attributes, base, entries)
            }
        }
        guard status == 0 else {
            close(readEnd)
            let errno = Errno(rawValue: status)
            switch errno {
            case .noSuchFileOrDirectory, .notDirectory: throw .notFound(program: program)
            case .permissionDenied, .execFormatError: throw .notExecutable(program: program, errno: errno)
            default: throw .system(operation: "posix_spawn \(program)", errno: errno)
            }
        }
        return ChildProcess(
            pid: pid, mark: mark, outputDescriptor: readEnd, maximumOutputBytes: max(1, maximumOutputBytes))
    }

    /// The variables a command inherits from this process: where programs are, whose home, the
    /// locale and the time zone. Nothing else: no LD_PRELOAD or LD_LIBRARY_PATH, no secrets
    /// a service manager or a shell happened to pass.
    package static let inheritedVariables = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ"]
    /// The PATH a command gets when this process has none (systemd's default for services).
    package static let defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

    /// The minimal environment of a command: `inheritedVariables` and the `LC_*` locale variables
    /// this process has, a default PATH when it has none, and `CROWNPAGER_COMMAND` set to `mark`.
    static func environment(marked mark: String) -> [String] {
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            let name = text.prefix { $0 != "=" }
            if inheritedVariables.contains(String(name)) || name.hasPrefix("LC_") { entries.append(text) }
            cursor += 1
        }
        if !entries.contains(where: { $0.hasPrefix("PATH=") }) { entries.append("PATH=" + defaultPath) }
        return entries + [markVariable + "=" + mark]
    }

    /// Makes this process a child subreaper (prctl `PR_SET_CHILD_SUBREAPER`): a command's
    /// descendant whose parent dies re-parents to it, where `stopLeftovers()` finds it, rather
    /// than to init. Once per process is enough; false if the kernel refused.
    @discardableResult
    package static func adoptOrphans() -> Bool {
        crownpager_become_child_subreaper() == 0
    }

    /// Whether this process is a child subreaper.
    package static var adoptsOrphans: Bool { crownpager_is_child_subreaper() == 1 }

    /// Reads what the pipe holds without blocking; true once the output is finished (end of file, or capped).
    @discardableResult
    package func readAvailable() -> Bool {
        guard outputDescriptor >= 0 else { return true }
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(outputDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                let room = maximumOutputBytes - output.count
                output += chunk[..<min(count, room)]
                if count >= room {
                    isOutputCapped = true
                    killGroup()
                    closeOutput()
                    return true
                }
                continue
            }
            if count == 0 {
                closeOutput()
                return true
            }
            let error = Errno.current
            if error == .interrupted { continue }
            if error == .wouldBlock || error == .resourceTemporarilyUnavailable { return false }
            closeOutput()
            return true
        }
    }

    /// Collects the exit status if the command has ended; never blocks.
    @discardableResult
    package func reap() -> ChildProcessExit? {
        if let exit { return exit }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else {
            // ECHILD: someone else reaped it; report it as gone rather than waiting forever.
            if result < 0, Errno.current == .noChildProcess { exit = .signalled(signal: 0) }
            return exit
        }
        // The <sys/wait.h> macros, spelled out: Swift does not import them.
        let termination = status & 0x7F
        exit = termination == 0 ? .exited(status: (status >> 8) & 0xFF) : .signalled(signal: termination)
        return exit
    }

    /// Sends SIGKILL to the command's whole process group: it and anything it started.
    package func killGroup() {
        guard exit == nil || outputDescriptor >= 0 else { return }
        _ = kill(-pid, SIGKILL)
    }

    /// Once the command has ended (`reap()`), kills what it left running and reaps it; never
    /// blocks. That is its process group, and the orphans this process adopted (`adoptOrphans()`)
    /// that carry its mark, whichever group or session they moved to. Call again until it
    /// answers true: nothing is left, or it gave up after 500 calls (an unkillable process).
    package func stopLeftovers() -> Bool {
        guard exit != nil else { return false }  // the command's own status first
        if leftoversSettled { return true }
        let passes = leftoverPasses ?? 0
        if leftoverPasses == nil {
            _ = kill(-pid, SIGKILL)
            groupsToReap.insert(pid)
        }
        leftoverPasses = passes + 1
        // Alive, ours, marked: an orphan of this command, adopted; kill it, then reap its group.
        var found = false
        let marked = Array((Self.markVariable + "=" + mark).utf8)
        for child in ProcessStatus.children(of: getpid()) where child.state != "Z" {
            guard child.pid != pid, ProcessStatus.environment(of: child.pid).contains(marked) else { continue }
            _ = kill(child.pid, SIGKILL)
            groupsToReap.insert(child.group)
            found = true
        }
        for group in groupsToReap where Self.reapGroup(group) { groupsToReap.remove(group) }
        leftoversSettled = (!found && groupsToReap.isEmpty) || passes + 1 >= 500
        return leftoversSettled
    }

    /// Reaps our children in `group` without blocking; true once none is left (ECHILD).
    private static func reapGroup(_ group: pid_t) -> Bool {
        var status: Int32 = 0
        while true {
            let result = waitpid(-group, &status, WNOHANG)
            if result > 0 { continue }
            if result < 0, Errno.current == .interrupted { continue }
            return result < 0
        }
    }

    /// Stops the leftovers of each of `processes` (`stopLeftovers()`), looking every 2 ms for at
    /// most `milliseconds`; answers those not settled by then.
    package static func stopLeftovers(of processes: [ChildProcess], waitingAtMost milliseconds: Int) -> [ChildProcess] {
        var left = processes.filter { $0.reap() == nil || !$0.stopLeftovers() }
        var waited = 0
        while !left.isEmpty, waited < milliseconds {
            usleep(2000)
            waited += 2
            left.removeAll { $0.reap() != nil && $0.stopLeftovers() }
        }
        return left
    }

    private func closeOutput() {
        if outputDescriptor >= 0 { close(outputDescriptor) }
        outputDescriptor = -1
    }

    deinit {
        if exit == nil {
            _ = kill(-pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)  // after SIGKILL this returns at once
            exit = .signalled(signal: SIGKILL)
        }
        _ = stopLeftovers()  // one pass: the adopted orphans are killed, maybe not yet reaped
        closeOutput()
    }
}
