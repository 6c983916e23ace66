import Glibc
import LinuxSystem
import Testing

/// `TerminationSignals`, the run loop's signalfd(2): the terminal mock sleeps until SIGWINCH
/// instead of waking to look at the window's size.
///
/// The tests share the process's threads: a thread started while another test blocked the
/// signals inherits that mask, and may hold a SIGWINCH a test raised there. Each test first
/// makes its thread's SIGWINCH what it expects.
@Suite struct TerminationSignalsTests {
    /// Unblocks SIGWINCH in this thread: one pending is delivered, and ignored by its default action.
    static func unblockWindowChanges() {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGWINCH)
        _ = pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    @Test func aWindowChangeMakesTheDescriptorReadableWhenAskedFor() throws {
        Self.unblockWindowChanges()
        let signals = try TerminationSignals(windowChanges: true)
        #expect(try Readiness.wait(for: [signals.descriptor], timeoutMilliseconds: 0) == [false])
        // raise(3) sends it to this thread, where the signals are blocked: it waits in the descriptor.
        #expect(raise(SIGWINCH) == 0)
        #expect(try Readiness.wait(for: [signals.descriptor], timeoutMilliseconds: 0) == [true])
        #expect(signals.next() == .windowChange)
        #expect(signals.next() == nil)
    }

    @Test func withoutAskingAWindowChangeIsIgnoredAndTheEndStillComes() throws {
        Self.unblockWindowChanges()
        let signals = try TerminationSignals()
        // SIGWINCH is not blocked: its default action discards it, and nothing wakes the loop.
        #expect(raise(SIGWINCH) == 0)
        #expect(try Readiness.wait(for: [signals.descriptor], timeoutMilliseconds: 0) == [false])
        #expect(raise(SIGHUP) == 0)
        #expect(try Readiness.wait(for: [signals.descriptor], timeoutMilliseconds: 0) == [true])
        #expect(signals.next() == .hangUp)
    }
}

/// `ProcessSignal`: the names the loops match on, and the numbers an exit status adds to 128.
@Suite struct ProcessSignalTests {
    @Test func eachSignalIsItsLinuxNumberAndBack() {
        let all: [ProcessSignal] = [.hangUp, .interrupt, .terminate, .windowChange, .user1, .user2]
        #expect(all.map(\.number) == [SIGHUP, SIGINT, SIGTERM, SIGWINCH, SIGUSR1, SIGUSR2])
        #expect(all.map { ProcessSignal(number: $0.number) } == all)
        // SIGKILL cannot be caught, so no loop names it.
        #expect(ProcessSignal(number: SIGKILL) == nil)
    }
}
