import Glibc
import Testing

@testable import LinuxSystem

/// A pseudo-terminal pair: the test plays the terminal emulator on `controller`,
/// the session under test runs on `device` (the side a shell would have).
final class PseudoTerminal {
    private(set) var controller: Int32
    let device: Int32

    init() throws {
        // posix_openpt/grantpt/unlockpt/ptsname are hidden from Swift's Glibc module (they
        // need _XOPEN_SOURCE), so this does what glibc does: open the multiplexer, clear the
        // lock with TIOCSPTLCK and ask for the device number with TIOCGPTN (pty(7), ioctl_tty(2)).
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard controller >= 0 else { throw Errno(rawValue: errno) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        let setLock: UInt = 0x4004_5431  // TIOCSPTLCK = _IOW('T', 0x31, int)
        let getNumber: UInt = 0x8004_5430  // TIOCGPTN = _IOR('T', 0x30, unsigned int)
        guard ioctl(controller, setLock, &unlock) == 0, ioctl(controller, getNumber, &number) == 0 else {
            let error = Errno(rawValue: errno)
            close(controller)
            throw error
        }
        let device = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard device >= 0 else {
            let error = Errno(rawValue: errno)
            close(controller)
            throw error
        }
        self.controller = controller
        self.device = device
    }

    deinit {
        close(device)
        if controller >= 0 { close(controller) }
    }

    /// Closes the terminal emulator's side, as when a terminal window or SSH connection goes away.
    func hangUp() {
        close(controller)
        controller = -1
    }

    func settings() -> termios {
        var current = termios()
        _ = tcgetattr(device, &current)
        return current
    }

    /// What the terminal received: everything written so far, waiting at most `timeout` ms for the first byte.
    func received(timeout: Int32 = 1000) -> String {
        var bytes: [UInt8] = []
        var request = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
        var wait = timeout
        while poll(&request, 1, wait) > 0, request.revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(controller, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[..<count]
            wait = 0
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }
}

@Suite("Terminal session", .serialized)
struct TerminalSessionTests {
    @Test("a pipe is not a terminal")
    func pipeIsNotATerminal() {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        #expect(throws: TerminalError.notATerminal(stream: "standard input (descriptor \(ends[0]))")) {
            try TerminalSession(input: FileDescriptor(rawValue: ends[0]), output: FileDescriptor(rawValue: ends[1]))
        }
        #expect(TerminalError.notATerminal(stream: "standard input").description.contains("interactive terminal"))
    }

    @Test("begin enters raw mode and writes the enter sequence; restore puts everything back")
    func rawModeRoundTrip() throws {
        let pty = try PseudoTerminal()
        let original = pty.settings()
        let descriptor = FileDescriptor(rawValue: pty.device)
        let session = try TerminalSession(input: descriptor, output: descriptor)
        try session.begin(enterSequence: "<enter>", leaveSequence: "<leave>", restoreOnSignals: false)
        #expect(session.isRaw)
        let raw = pty.settings()
        #expect(raw.c_lflag & tcflag_t(ECHO | ICANON | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(IXON | ICRNL) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) != 0)
        #expect(pty.received() == "<enter>")

        session.restore()
        #expect(!session.isRaw)
        let restored = pty.settings()
        #expect(restored.c_lflag == original.c_lflag)
        #expect(restored.c_iflag == original.c_iflag)
        #expect(restored.c_oflag == original.c_oflag)
        #expect(restored.c_cflag == original.c_cflag)
        #expect(pty.received() == "<leave>")
        session.restore()
        #expect(pty.received(timeout: 0) == "")
    }

    @Test("readInput returns the bytes typed, unprocessed, and [] on timeout")
    func readInput() throws {
        let pty = try PseudoTerminal()
        let descriptor = FileDescriptor(rawValue: pty.device)
        let session = try TerminalSession(input: descriptor, output: descriptor)
        try session.begin(enterSequence: "", leaveSequence: "", restoreOnSignals: false)
        defer { session.restore() }
        #expect(try session.readInput(timeoutMilliseconds: 0) == [])
        pty.type("q\r\u{03}\u{1B}[B")
        #expect(try session.readInput(timeoutMilliseconds: 1000) == [0x71, 0x0D, 0x03, 0x1B, 0x5B, 0x42])
        // Raw mode: nothing was echoed back to the terminal.
        #expect(pty.received(timeout: 0) == "")
        try session.write("frame")
        #expect(pty.received() == "frame")
    }

    @Test("the window size comes from the kernel")
    func windowSize() throws {
        let pty = try PseudoTerminal()
        var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(pty.controller, UInt(TIOCSWINSZ), &size) == 0)
        let descriptor = FileDescriptor(rawValue: pty.device)
        let session = try TerminalSession(input: descriptor, output: descriptor)
        #expect(session.windowSize() == (columns: 100, rows: 30))
    }

    @Test("without a kernel size, COLUMNS and LINES, then 80x24")
    func sizeFallback() {
        #expect(
            TerminalSession.resolvedSize(kernel: (120, 40), columnsVariable: "90", linesVariable: "20") == (120, 40))
        #expect(TerminalSession.resolvedSize(kernel: (0, 0), columnsVariable: "90", linesVariable: "20") == (90, 20))
        #expect(TerminalSession.resolvedSize(kernel: nil, columnsVariable: "wide", linesVariable: "-3") == (80, 24))
        #expect(TerminalSession.resolvedSize(kernel: (132, 0), columnsVariable: nil, linesVariable: nil) == (132, 24))
    }

    @Test("the signal path restores the terminal, and only one session may hold it")
    func signalRestore() throws {
        let pty = try PseudoTerminal()
        let original = pty.settings()
        let descriptor = FileDescriptor(rawValue: pty.device)
        let session = try TerminalSession(input: descriptor, output: descriptor)
        var before = sigaction()
        sigaction(SIGTERM, nil, &before)
        try session.begin(enterSequence: "", leaveSequence: "<bye>", restoreOnSignals: true)
        var during = sigaction()
        sigaction(SIGTERM, nil, &during)
        #expect(handlerAddress(during) != handlerAddress(before))

        let other = try TerminalSession(input: descriptor, output: descriptor)
        #expect(throws: TerminalError.anotherSessionActive) {
            try other.begin(enterSequence: "", leaveSequence: "", restoreOnSignals: true)
        }

        // What the handler does before re-raising, called directly so the test process lives.
        emergencyRestoreTerminal()
        #expect(pty.settings().c_lflag == original.c_lflag)
        #expect(pty.received() == "<bye>")

        session.restore()
        var after = sigaction()
        sigaction(SIGTERM, nil, &after)
        #expect(handlerAddress(after) == handlerAddress(before))
        #expect(emergencyState.pointee.armed == 0)
    }

    @Test("a hung-up terminal is an error, not an endless stream of nothing")
    func hangUp() throws {
        let pty = try PseudoTerminal()
        let descriptor = FileDescriptor(rawValue: pty.device)
        let session = try TerminalSession(input: descriptor, output: descriptor)
        pty.hangUp()
        #expect(throws: TerminalError.inputClosed) { try session.readInput(timeoutMilliseconds: 1000) }
    }

    private func handlerAddress(_ action: sigaction) -> Int {
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
    }
}
