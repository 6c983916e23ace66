import CI2C
import Glibc

/// A signal the loops take through ``TerminationSignals``, named for what it asks.
package enum ProcessSignal: Hashable, Sendable {
    /// SIGHUP: read the configuration again (the service), or the terminal went away (a mock).
    case hangUp
    /// SIGINT: Ctrl-C.
    case interrupt
    /// SIGTERM: systemd's stop.
    case terminate
    /// SIGWINCH: the terminal's window changed size.
    case windowChange
    /// SIGUSR1: a tool's first order (the I2C backend's "panel absent" toggle).
    case user1
    /// SIGUSR2: a tool's second order (the I2C backend's glass dump).
    case user2

    /// The signal's number on Linux (signal(7)); an exit after it is 128 plus this.
    package var number: Int32 {
        switch self {
        case .hangUp: SIGHUP
        case .interrupt: SIGINT
        case .terminate: SIGTERM
        case .windowChange: SIGWINCH
        case .user1: SIGUSR1
        case .user2: SIGUSR2
        }
    }

    /// The signal numbered `number`; nil for one no loop asks for.
    package init?(number: Int32) {
        let all: [Self] = [.hangUp, .interrupt, .terminate, .windowChange, .user1, .user2]
        guard let signal = all.first(where: { $0.number == number }) else { return nil }
        self = signal
    }
}

/// SIGINT, SIGTERM and SIGHUP as a descriptor to poll (signalfd(2)) instead of handlers, so a
/// run loop finishes its work (blank the display, switch it off) before the process ends; and
/// SIGWINCH when asked, so a loop drawing in the terminal sleeps until the window changes
/// instead of waking to look at its size.
///
/// The signals are blocked in the calling thread while the value lives; create it on the main
/// thread before any other starts. `deinit` closes the descriptor and unblocks them.
///
/// With `userSignals`, SIGUSR1 and SIGUSR2 come through it too, for a tool that takes orders by signal.
package final class TerminationSignals {
    /// The descriptor that becomes readable when a signal is pending.
    package let descriptor: Int32
    private var previousMask = sigset_t()

    /// Blocks the signals (SIGWINCH too when `windowChanges`, SIGUSR1 and SIGUSR2 when
    /// `userSignals`) and opens the descriptor.
    package init(windowChanges: Bool = false, userSignals: Bool = false) throws(EventLoopError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        let signals: [ProcessSignal] =
            [.interrupt, .terminate, .hangUp] + (windowChanges ? [.windowChange] : [])
            + (userSignals ? [.user1, .user2] : [])
        for signal in signals { sigaddset(&mask, signal.number) }
        guard pthread_sigmask(SIG_BLOCK, &mask, &previousMask) == 0 else {
            throw .system(operation: "pthread_sigmask", errno: Errno(rawValue: Glibc.errno))
        }
        let fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else {
            let error = Errno(rawValue: Glibc.errno)
            _ = pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            throw .system(operation: "signalfd", errno: error)
        }
        descriptor = fd
    }

    deinit {
        _ = Glibc.close(descriptor)
        _ = pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// The next pending signal, or nil when none is pending.
    package func next() -> ProcessSignal? {
        // Only the blocked signals reach the descriptor, and each of them has a name.
        while true {
            var info = signalfd_siginfo()
            let count = withUnsafeMutableBytes(of: &info) { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count == MemoryLayout<signalfd_siginfo>.size else { return nil }
            if let signal = ProcessSignal(number: Int32(bitPattern: info.ssi_signo)) { return signal }
        }
    }
}

/// Waiting for any of several descriptors, with a timeout.
package enum Readiness {
    /// Which of `descriptors` are readable (or hung up) within `timeoutMilliseconds` (negative:
    /// no timeout); all false on timeout or when a signal interrupted the wait. Those also in
    /// `writing` count as ready when they can be written too: bytes queued for a socket (an MQTT
    /// publish the kernel's buffer could not take whole) go out when it drains, not at a later
    /// wake-up for something else.
    package static func wait(
        for descriptors: [Int32], writing: Set<Int32> = [], timeoutMilliseconds: Int
    ) throws(EventLoopError) -> [Bool] {
        var requests = descriptors.map {
            pollfd(fd: $0, events: Int16(writing.contains($0) ? POLLIN | POLLOUT : POLLIN), revents: 0)
        }
        // A negative timeout is poll(2)'s "wait until something happens": a loop with no deadline
        // sleeps until an event instead of spinning.
        let timeout = timeoutMilliseconds < 0 ? -1 : Int32(clamping: timeoutMilliseconds)
        let ready = poll(&requests, nfds_t(requests.count), timeout)
        if ready < 0 {
            guard Glibc.errno == EINTR else { throw .system(operation: "poll", errno: Errno(rawValue: Glibc.errno)) }
            return descriptors.map { _ in false }
        }
        return requests.map { $0.revents & Int16(POLLIN | POLLOUT | POLLHUP | POLLERR) != 0 }
    }
}

/// A system call of the run loop itself failed.
package enum EventLoopError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `operation` failed with `errno`.
    case system(operation: String, errno: Errno)

    /// A sentence for the operator.
    package var description: String {
        switch self {
        case .system(let operation, let errno): return "\(operation) failed: \(errno.sentence)"
        }
    }
}
