import Glibc

/// What a signal handler needs to put the terminal back: plain values and raw pointers only,
/// so reading it involves no reference counting, locks or allocation.
struct EmergencyRestoreState {
    /// 1 while a session is in raw mode and wants restoring; written only outside handlers.
    var armed: Int32 = 0
    /// Where the termios settings go back.
    var terminal: Int32 = -1
    /// Where the leave sequence is written.
    var output: Int32 = -1
    var original = termios()
    var leave: UnsafeMutablePointer<UInt8>?
    var leaveCount = 0
    var signalCount = 0
}

/// The signals after which the terminal is restored before the process goes.
///
/// SIGINT, SIGTERM and SIGHUP are the polite ones (`kill`, a closed SSH session); the
/// crash signals are here so a trap does not leave the shell without echo, and their
/// previous handler (Swift's backtracer, when enabled) still runs afterwards.
let emergencySignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGILL, SIGTRAP, SIGFPE, SIGBUS, SIGSEGV]

// Why `nonisolated(unsafe)` is safe for these three globals: each is a `let` holding a
// pointer that never changes, to memory that is never freed. The memory is written only by
// `TerminalSession.begin` and `restore` on the thread that owns the session, and always
// while `armed` is 0 or before the handlers are installed (begin) and after they are
// removed (restore); the signal handler only reads it. They are touched in `begin` before
// any handler exists, so their lazy initialisation never runs inside a handler.
nonisolated(unsafe) let emergencyState: UnsafeMutablePointer<EmergencyRestoreState> = {
    let pointer = UnsafeMutablePointer<EmergencyRestoreState>.allocate(capacity: 1)
    pointer.initialize(to: EmergencyRestoreState())
    return pointer
}()
/// The handled signal numbers, `emergencyState.pointee.signalCount` of them.
nonisolated(unsafe) let emergencySignalNumbers = UnsafeMutablePointer<Int32>.allocate(capacity: 16)
/// The action each handled signal had before, restored before re-raising it.
nonisolated(unsafe) let emergencyPreviousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 16)

/// Writes the leave sequence and puts the saved termios back, using only
/// async-signal-safe calls (`write`, `tcsetattr`; POSIX.1-2017 section 2.4.3).
func emergencyRestoreTerminal() {
    let state = emergencyState
    guard state.pointee.armed != 0 else { return }
    let output = state.pointee.output
    if let leave = state.pointee.leave {
        var offset = 0
        while offset < state.pointee.leaveCount {
            let written = Glibc.write(output, leave + offset, state.pointee.leaveCount - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
    }
    var original = state.pointee.original
    // TCSANOW: waiting for output to drain (TCSADRAIN) could block a dying process forever.
    _ = tcsetattr(state.pointee.terminal, TCSANOW, &original)
}

/// The handler for every signal in `emergencySignals`: restore, then let the signal do
/// what it did before (by default, end the process with the signal's status).
func emergencySignalHandler(_ number: Int32) {
    let savedErrno = errno
    emergencyRestoreTerminal()
    var index = 0
    var reinstalled = false
    while index < emergencyState.pointee.signalCount {
        if emergencySignalNumbers[index] == number {
            _ = sigaction(number, emergencyPreviousActions + index, nil)
            reinstalled = true
        }
        index += 1
    }
    if !reinstalled { _ = signal(number, SIG_DFL) }
    errno = savedErrno
    // The signal is blocked while its handler runs, so this delivers it on return.
    _ = raise(number)
}

/// Points the handled signals at `emergencySignalHandler`, saving their previous actions.
/// A signal that was ignored (e.g. SIGHUP under `nohup`) stays ignored.
func installEmergencyHandlers() {
    var index = 0
    for number in emergencySignals {
        var previous = sigaction()
        guard sigaction(number, nil, &previous) == 0 else { continue }
        if unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        {
            continue
        }
        emergencySignalNumbers[index] = number
        emergencyPreviousActions[index] = previous
        index += 1
    }
    emergencyState.pointee.signalCount = index
    for slot in 0..<index {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = emergencySignalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        _ = sigaction(emergencySignalNumbers[slot], &action, nil)
    }
}

/// Gives every handled signal back its previous action.
func removeEmergencyHandlers() {
    for slot in 0..<emergencyState.pointee.signalCount {
        _ = sigaction(emergencySignalNumbers[slot], emergencyPreviousActions + slot, nil)
    }
    emergencyState.pointee.signalCount = 0
}
