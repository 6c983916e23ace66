import Glibc

/// The terminal the desktop mock draws on: raw mode in, restored out, whatever happens.
///
/// Raw mode turns off echo, line editing (ICANON), signal keys (ISIG, so Ctrl-C and Ctrl-Z
/// arrive as bytes 0x03 and 0x1A), flow control (IXON, so Ctrl-S and Ctrl-Q do not freeze
/// the screen), CR-to-NL translation (ICRNL, so Enter reads as CR) and IEXTEN.
/// Output processing (OPOST) is left on: the mock places every line with absolute cursor
/// moves, so it never needs it, but anything else printed while it runs still gets CR LF.
///
/// The original settings are put back by `restore()`, by `deinit`, and, while `begin` was
/// asked to, from a handler for SIGINT, SIGTERM, SIGHUP and the crash signals.
/// The session does not own its descriptors and never closes them.
package final class TerminalSession {
    /// Where keys and mouse reports are read.
    package let input: FileDescriptor
    /// Where the picture is written.
    package let output: FileDescriptor
    /// True between `begin` and `restore`.
    package private(set) var isRaw = false

    private var original = termios()
    private var leaveSequence: [UInt8] = []
    private var restoresOnSignals = false

    /// A session on standard input and output; throws when either is not a terminal.
    package convenience init() throws(TerminalError) {
        try self.init(input: .standardInput, output: .standardOutput)
    }

    /// A session on the given descriptors (a pseudo-terminal in tests); throws when either is not a terminal.
    package init(input: FileDescriptor, output: FileDescriptor) throws(TerminalError) {
        for (descriptor, name) in [(input, "standard input"), (output, "standard output")]
        where isatty(descriptor.rawValue) != 1 {
            let stream = descriptor.rawValue <= 2 ? name : "\(name) (descriptor \(descriptor.rawValue))"
            throw .notATerminal(stream: stream)
        }
        self.input = input
        self.output = output
    }

    deinit { restore() }

    /// Saves the terminal settings, enters raw mode and writes `enterSequence`.
    ///
    /// `leaveSequence` is written by `restore()` and by the signal handler, which is installed
    /// when `restoreOnSignals` is true (only one such session may be active at a time).
    package func begin(enterSequence: String, leaveSequence: String, restoreOnSignals: Bool = true)
        throws(TerminalError)
    {
        guard !isRaw else { return }
        if restoreOnSignals, emergencyState.pointee.armed != 0 { throw .anotherSessionActive }
        guard tcgetattr(input.rawValue, &original) == 0 else {
            throw .system(operation: "tcgetattr", errno: .current)
        }
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        // Reads return as soon as one byte is there; poll() decides when to read.
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        self.leaveSequence = Array(leaveSequence.utf8)
        if restoreOnSignals { arm() }
        // TCSAFLUSH drops keys typed before the mock started, which were meant for the shell.
        guard tcsetattr(input.rawValue, TCSAFLUSH, &raw) == 0 else {
            let error = Errno.current
            disarm()
            throw .system(operation: "tcsetattr", errno: error)
        }
        isRaw = true
        do throws(TerminalError) {
            try write(enterSequence)
        } catch {
            restore()
            throw error
        }
    }

    /// Writes the leave sequence and puts the original settings back; safe to call twice.
    package func restore() {
        guard isRaw else { return }
        isRaw = false
        // Errors are ignored on purpose: the terminal may be gone (hang-up), and there is
        // nothing better to do on the way out than try both steps.
        _ = try? output.writeAll(leaveSequence)
        _ = tcsetattr(input.rawValue, TCSADRAIN, &original)
        disarm()
    }

    /// Waits up to `timeoutMilliseconds` (negative: forever) for input and returns what arrived; [] on timeout.
    package func readInput(timeoutMilliseconds: Int) throws(TerminalError) -> [UInt8] {
        var events: Int16 = 0
        do {
            guard try input.waitUntilReadable(timeoutMilliseconds: timeoutMilliseconds, events: &events) else {
                return []
            }
        } catch {
            throw .system(operation: "poll", errno: error)
        }
        if events & Int16(POLLNVAL) != 0 { throw .system(operation: "poll", errno: .badFileDescriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count: Int
        do {
            count = try buffer.withUnsafeMutableBytes { try input.read(into: $0, retryOnInterrupt: true) }
        } catch {
            let errno = (error as? Errno) ?? .ioError
            if errno == .resourceTemporarilyUnavailable { return [] }
            // Linux reports a hung-up pseudo-terminal (its emulator or SSH session gone) as EIO.
            if errno == .ioError { throw .inputClosed }
            throw .system(operation: "read", errno: errno)
        }
        guard count > 0 else { throw .inputClosed }
        return Array(buffer[..<count])
    }

    /// The terminal's size in cells: the kernel's (TIOCGWINSZ), else `COLUMNS`/`LINES`, else 80x24.
    package func windowSize() -> (columns: Int, rows: Int) {
        var size = winsize()
        var kernel: (columns: Int, rows: Int)?
        for descriptor in [output.rawValue, input.rawValue] where ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 {
            kernel = (Int(size.ws_col), Int(size.ws_row))
            break
        }
        return Self.resolvedSize(
            kernel: kernel, columnsVariable: Self.environment("COLUMNS"), linesVariable: Self.environment("LINES"))
    }

    /// Each dimension from the kernel when it is positive, else from the variable, else 80 columns or 24 rows.
    package static func resolvedSize(
        kernel: (columns: Int, rows: Int)?, columnsVariable: String?, linesVariable: String?
    ) -> (columns: Int, rows: Int) {
        func pick(_ fromKernel: Int?, _ variable: String?, _ fallback: Int) -> Int {
            if let fromKernel, fromKernel > 0 { return fromKernel }
            if let variable, let value = Int(variable), value > 0 { return value }
            return fallback
        }
        return (pick(kernel?.columns, columnsVariable, 80), pick(kernel?.rows, linesVariable, 24))
    }

    /// Writes all of `text`, retrying after signals.
    package func write(_ text: String) throws(TerminalError) {
        try write(bytes: Array(text.utf8))
    }

    /// Writes all of `bytes`, retrying after signals.
    package func write(bytes: [UInt8]) throws(TerminalError) {
        do {
            _ = try output.writeAll(bytes)
        } catch {
            throw .system(operation: "write", errno: error)
        }
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Hands the signal handler what it needs, then installs it.
    private func arm() {
        copyLeaveSequenceForHandler()
        emergencyState.pointee.terminal = input.rawValue
        emergencyState.pointee.output = output.rawValue
        emergencyState.pointee.original = original
        emergencyState.pointee.armed = 1
        installEmergencyHandlers()
        restoresOnSignals = true
    }

    private func disarm() {
        guard restoresOnSignals else { return }
        restoresOnSignals = false
        removeEmergencyHandlers()
        emergencyState.pointee.armed = 0
    }

    /// Copies the leave sequence into memory the handler can read without ARC.
    private func copyLeaveSequenceForHandler() {
        emergencyState.pointee.armed = 0
        emergencyState.pointee.leave?.deallocate()
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, leaveSequence.count))
        copy.initialize(from: leaveSequence, count: leaveSequence.count)
        emergencyState.pointee.leave = copy
        emergencyState.pointee.leaveCount = leaveSequence.count
    }
}
