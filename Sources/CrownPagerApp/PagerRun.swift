import CrownVocabulary
import Glibc
import LinuxHardware
import MockDisplay
import PagerCore
import PagerEngine
import SSD1306

/// The pager's one run loop: configured pages, on the emulator drawn in this terminal or on a
/// real panel over I2C, turned by a knob (`PollableCrownSource`) and by the terminal's keys.
///
/// The loop sleeps in poll(2) on the signals, the knob, the terminal and the running commands'
/// pipes, with a timeout to the next deadline `PagerRunState` names (a refresh, a timer, the
/// screen saver, the bus being free for the newest frame): an idle pager uses no CPU between
/// refreshes. Every pending input (knob, keys, signals) goes into the state before each frame,
/// so no frame shows a state that input waiting beside it has made stale. A panel that stops
/// answering is retried with backoff and never ends the run.
/// SIGHUP reloads the configuration file (and ends a run without one: its terminal hung up);
/// q, SIGINT and SIGTERM end it, and the panel is blanked and switched off unless `persist`.
public final class PagerRun {
    /// The configuration file, reloaded on SIGHUP; nil for a built-in configuration.
    public let path: String?
    /// What the command line lays over the configuration, again after each reload.
    public let overrides: RunOverrides
    /// The emulator in the terminal, or the panel.
    public let target: DisplayTarget
    /// Where to record the I2C trace, if anywhere.
    public let tracePath: String?
    /// Leave the last picture on the panel at exit.
    public let persist: Bool
    /// The knob, if one is wired; the terminal's keys work too whenever standard input is a terminal.
    public var crown: (any PollableCrownSource)?
    /// When to retry a panel that stopped answering.
    public var retryPolicy = DisplayRetryPolicy()
    private var configuration: Configuration
    private let live = LiveReadings()
    private let reader = PageReader()
    private let commands = CommandRunner()
    /// The wall clock's nanoseconds at monotonic zero, modulo a day, to align refreshes to round times.
    private let wallOffset =
        (WallClock.nanosecondsSinceEpoch() &- MonotonicClock.now().nanoseconds) % 86_400_000_000_000

    /// A run of `configuration` (read from `path`, for reloads) with `overrides` laid over it, on `target`.
    public init(
        configuration: Configuration, path: String?, target: DisplayTarget, overrides: RunOverrides = RunOverrides(),
        tracePath: String? = nil, persist: Bool = false
    ) {
        self.configuration = overrides.applied(to: configuration)
        self.path = path
        self.target = target
        self.overrides = overrides
        self.tracePath = tracePath
        self.persist = persist
    }

    /// Runs until q, SIGINT or SIGTERM; only a panel that does not answer at start is an error.
    /// Returns the signal that ended the run, nil when q did.
    @discardableResult
    public func run() throws(CrownPagerError) -> Int32? {
        let signals: TerminationSignals
        do { signals = try TerminationSignals() } catch { throw .system(error) }
        if let tracePath { try TraceFile.write([], to: tracePath) }
        switch target {
        case .emulator:
            let display = configuration.display
            return try loop(bus: SSD1306Emulator(panel: display.panel, address: display.address), signals: signals)
        case .panel(let busPath):
            let bus: LinuxI2CBus
            do { bus = try LinuxI2CBus.open(path: busPath) } catch { throw .display(error) }
            return try loop(bus: bus, signals: signals)
        }
    }

    private var drawsGlass: Bool { target == .emulator }

    /// The run state of the configuration on `bus`, with time starting at `now`.
    func makeState<Base: I2CBus>(_ bus: Base, at now: Timestamp) throws(CrownPagerError) -> PagerRunState<Base> {
        PagerRunState(
            configuration: configuration, bus: bus, style: try overrides.indicatorStyle(configuration),
            clock: live.clock(at: now),
            start: now, wallOffset: wallOffset)
    }

    private func loop<Base: I2CBus>(bus: Base, signals: TerminationSignals) throws(CrownPagerError) -> Int32?
    where Base.Failure: DisplayFailure {
        var state = try makeState(bus, at: live.monotonicNow())
        for warning in state.session.warnings { printError("crownpager: warning: \(warning)") }
        // A panel that does not answer at start is a wiring or address problem: say so and stop.
        do throws(Base.Failure) { try state.session.start() } catch {
            try appendTrace(state.session.display.bus.drainTransfers())
            throw error.crownPagerError
        }
        let terminal = try beginTerminal()
        defer {
            terminal?.restore()
            commands.stopAll()
        }
        if case .panel(let busPath) = target { announce(busPath, keys: terminal != nil) }
        var loop = PagerRunLoop(signals: signals, terminal: terminal, health: DisplayHealth(policy: retryPolicy))
        var turn = RunTurn()
        while !turn.ended { turn = try step(&state, &loop, at: live.monotonicNow()) }
        if case .panel = target, !persist {
            do throws(Base.Failure) { try state.session.display.shutDown() } catch {
                printError("crownpager: could not switch the display off: \(error)")
            }
        }
        try appendTrace(state.session.display.bus.drainTransfers())
        return turn.signal
    }

    /// One turn of the loop at `now`: every pending input into the state first, then a frame if
    /// one is due, else a sleep in poll(2) until the next deadline or input.
    ///
    /// Input is looked for without waiting before each frame (unless the last sleep already
    /// found it): a detent that came while the bus carried a frame is in the next one, not
    /// queued behind a frame it makes stale.
    func step<Base: I2CBus>(_ state: inout PagerRunState<Base>, _ loop: inout PagerRunLoop, at now: Timestamp)
        throws(CrownPagerError) -> RunTurn
    where Base.Failure: DisplayFailure {
        var turn = RunTurn()
        refresh(&state, at: now)
        let knobDescriptors = crown?.pollDescriptors ?? []
        let inputs = loop.inputDescriptors(knob: knobDescriptors)
        let ready: InputReadiness
        if let found = loop.ready {
            ready = found
        } else {
            ready = loop.readiness(try Self.wait(for: inputs, timeoutMilliseconds: 0), knobCount: knobDescriptors.count)
        }
        loop.ready = nil
        let knobDue = crown?.nextDeadline.map { $0 <= now } ?? false
        if state.decide(at: now, inputPending: ready.any || knobDue) == .handleInput {
            turn.tookInput = true
            if let end = try takeInput(ready, knobDue: knobDue, &state, &loop, at: now) { return end }
        }
        var wake: Timestamp?
        switch state.decide(at: now, inputPending: false) {
        case .drawFrame where loop.health.nextAttempt.map({ $0 > now }) ?? false:
            wake = loop.health.nextAttempt  // the panel is lost: nothing to draw before the next attempt
        case .drawFrame, .handleInput:
            let (presentation, transfers) = state.presentRecovering(at: now, health: &loop.health)
            report(presentation, at: now)
            try appendTrace(transfers)
            if let terminal = loop.terminal, let emulator = state.session.display.bus.base as? SSD1306Emulator {
                loop.mirror.show(emulator.glass, state: state, terminal: terminal, at: now)
            }
            turn.drewFrame = true
            return turn
        case .wait(let until):
            wake = [until, loop.health.nextAttempt].compactMap { $0 }.min()
        }
        // A resized terminal is noticed within half a second (SIGWINCH is not polled).
        let deadlines = [
            wake, commands.nextDeadline(after: now), crown?.nextDeadline, drawsGlass ? now + .milliseconds(500) : nil,
        ]
        let timeout =
            deadlines.compactMap { $0 }.min().map { max(0, Int(($0 - now).nanoseconds + 999_999) / 1_000_000) } ?? -1
        let found = loop.readiness(
            try Self.wait(for: inputs + commands.descriptors, timeoutMilliseconds: timeout),
            knobCount: knobDescriptors.count)
        loop.ready = found
        if drawsGlass, let terminal = loop.terminal, !found.keys, loop.mirror.sizeChanged(terminal) {
            state.pacer.invalidate()
        }
        return turn
    }

    /// Which of `descriptors` are readable within `timeoutMilliseconds`.
    private static func wait(for descriptors: [Int32], timeoutMilliseconds: Int) throws(CrownPagerError) -> [Bool] {
        do { return try Readiness.wait(for: descriptors, timeoutMilliseconds: timeoutMilliseconds) } catch {
            throw .system(error)
        }
    }

    /// Reads every input `ready` marks (and the knob when `knobDue`) into `state`; the turn's end when one ends the run.
    private func takeInput<Base: I2CBus>(
        _ ready: InputReadiness, knobDue: Bool, _ state: inout PagerRunState<Base>, _ loop: inout PagerRunLoop,
        at now: Timestamp
    ) throws(CrownPagerError) -> RunTurn? where Base.Failure: DisplayFailure {
        let end = RunTurn(tookInput: true, ended: true)
        if ready.signal, let signal = loop.signals?.next() {
            guard signal == SIGHUP, path != nil else { return RunTurn(tookInput: true, ended: true, signal: signal) }
            reload(&state)
        }
        if let source = crown, ready.knob || knobDue {
            var knob = source
            guard let events = try knob.nextEvents(timeoutMilliseconds: 0) else { return end }
            for event in events { state.handle(event) }
        }
        guard let terminal = loop.terminal, ready.keys else { return nil }
        let input: [UInt8]
        do { input = try terminal.readInput(timeoutMilliseconds: 0) } catch { throw .terminal(error) }
        for command in input.isEmpty ? loop.decoder.flush() : loop.decoder.feed(input) {
            switch command {
            case .quit: return end
            case .redraw:
                state.session.display.invalidate()
                state.pacer.invalidate()
                loop.mirror.invalidate()
            case .turn, .press, .longPress:
                let crown = state.configuration.crown.crownConfiguration
                for event in TerminalCrown.events(for: command, at: now, longPressDuration: crown.longPressDuration) {
                    state.handle(event)
                }
            }
        }
        return nil
    }

    /// Raw mode for the keys: required for the mock (it draws there), used when present for a panel.
    private func beginTerminal() throws(CrownPagerError) -> TerminalSession? {
        let terminal: TerminalSession
        do { terminal = try TerminalSession() } catch {
            if drawsGlass { throw .terminal(error) }
            return nil
        }
        let enter =
            drawsGlass
            ? TerminalScreen.enterAlternateScreen + TerminalScreen.hideCursor + TerminalScreen.enableMouseReporting
                + TerminalScreen.clearScreen : ""
        let leave =
            drawsGlass
            ? TerminalScreen.disableMouseReporting + TerminalScreen.resetAttributes + TerminalScreen.showCursor
                + TerminalScreen.leaveAlternateScreen : ""
        do { try terminal.begin(enterSequence: enter, leaveSequence: leave) } catch { throw .terminal(error) }
        return terminal
    }

    /// One line for the journal: the panel, the pages, the knob and how to stop.
    private func announce(_ busPath: String, keys: Bool) {
        let display = configuration.display
        printError(
            "crownpager: driving \(display.panel.name) at \(display.address) on \(busPath): "
                + "\(configuration.pages.count) pages from \(configuration.file)"
                + (crown.map { "; the crown on \($0.sourceDescription)" } ?? "")
                + (keys ? "; Down/j and Up/k turn the crown, Enter presses, q quits" : "; SIGINT or SIGTERM stops"))
    }

    private func report<Failure: Error>(_ presentation: DisplayPresentation<Failure>, at now: Timestamp) {
        switch presentation {
        case .lost(let error, let retryAt):
            printError(
                "crownpager: the display stopped answering (\(error)); retrying in \((retryAt - now).milliseconds) ms")
        case .recovered(let attempts):
            printError(
                "crownpager: the display answers again after \(attempts) failed attempt(s): initialised afresh, whole frame resent"
            )
        case .sent, .unchanged, .waiting, .stillLost:
            break
        }
    }

    private func appendTrace(_ transfers: [I2CTransfer]) throws(CrownPagerError) {
        if let tracePath, !transfers.isEmpty { try TraceFile.append(transfers, to: tracePath) }
    }

    /// Reads what is due near the current page; starts due commands; collects finished ones.
    private func refresh<Base: I2CBus>(_ state: inout PagerRunState<Base>, at now: Timestamp) {
        for (page, result) in commands.collect(at: now) {
            state.apply(Self.reading(result, spec: state.book.specs[page]), to: page, at: now)
        }
        for page in state.duePages(at: now) {
            let spec = state.book.specs[page]
            if case .clock = spec.kind {
                state.setClock(live.clock(at: now))
                state.apply(.pending, to: page, at: now)
            } else if let reading = reader.reading(for: spec) {
                state.apply(reading, to: page, at: now)
            } else if let command = spec.command {
                commands.start(command, for: page, at: now)
                state.started(page)
            }
        }
    }

    /// A finished command as its page shows it.
    public static func reading(_ result: CommandResult, spec: PageSpec) -> PageReading {
        guard case .gauge(let gauge) = spec.kind else { return .output(text: result.output, status: result.status) }
        guard result.status == nil, let number = firstNumber(in: result.output) else {
            return .number(nil, text: result.status ?? "no number")
        }
        return .number(number, text: PageReader.gaugeText(number, unit: gauge.unit))
    }

    private func reload<Base: I2CBus>(_ state: inout PagerRunState<Base>) where Base.Failure: DisplayFailure {
        guard let path else { return }
        do throws(CrownPagerError) {
            let fresh = overrides.applied(to: try Configuration.load(path: path))
            guard fresh.display.panel == configuration.display.panel, fresh.display.bus == configuration.display.bus,
                fresh.display.address == configuration.display.address
            else {
                throw .restartNeeded
            }
            commands.stopAll()
            let previous = configuration
            configuration = fresh
            let now = live.monotonicNow()
            do throws(CrownPagerError) {
                var next = try makeState(state.session.display.bus.base, at: now)
                do throws(Base.Failure) { try next.session.start() } catch {
                    throw .displayNotAnswering(error.crownPagerError)
                }
                state = next
            } catch {
                configuration = previous
                throw error
            }
            printError("crownpager: reloaded \(path): \(fresh.pages.count) pages")
        } catch {
            printError("crownpager: kept the running configuration: \(error)")
        }
    }
}

extension PageSpec {
    /// The command a page runs, if it runs one.
    var command: CommandSpec? {
        switch kind {
        case .command(let command): return command
        case .gauge(let gauge):
            if case .command(let command) = gauge.source { return command }
            return nil
        default: return nil
        }
    }
}
