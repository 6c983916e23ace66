import Glibc
import LinuxHardware
import MockDisplay
import PagerCore
import PagerGraphics
import SSD1306

/// A crown source the run loop can poll beside its other descriptors (the GPIO line request,
/// an input device): when `pollDescriptor` is readable, `nextEvents(timeoutMilliseconds: 0)` is called.
public protocol PollableCrownSource: CrownEventSource {
    /// The descriptor that becomes readable when facts are waiting.
    var pollDescriptor: Int32 { get }
}

/// The configured pager on Linux: a real panel over I2C, or the terminal mock.
///
/// The loop sleeps in poll(2) on the signals, the crown (a `PollableCrownSource` or the
/// terminal's keys) and the running commands' pipes, with a timeout to the next deadline
/// that `PagerRunState` names (a refresh, a timer, the screen saver, the bus being free for
/// the newest frame): an idle pager uses no CPU between refreshes. SIGHUP reloads the
/// configuration file; a broken file keeps the running configuration and says why.
public final class ConfiguredRun {
    /// The configuration file, reloaded on SIGHUP; nil runs the built-in configuration.
    public let path: String?
    /// Draw in this terminal against the emulator instead of the panel on `display.bus`.
    public let mock: Bool
    /// Where to record the I2C trace, if anywhere.
    public let tracePath: String?
    /// Leave the last picture on the panel at exit.
    public let persist: Bool
    /// The knob, when not the terminal's keys.
    public var crown: (any PollableCrownSource)?
    private var configuration: Configuration
    private let live = LiveReadings()
    private let reader = PageReader()
    private let commands = CommandRunner()
    /// The wall clock's nanoseconds at monotonic zero, modulo a day, to align refreshes to round times.
    private let wallOffset = (WallClock.nanosecondsSinceEpoch() &- MonotonicClock.now().nanoseconds) % 86_400_000_000_000

    /// A run of `configuration`, read from `path` (for reloads).
    public init(configuration: Configuration, path: String?, mock: Bool, tracePath: String? = nil, persist: Bool = false) {
        self.configuration = configuration
        self.path = path
        self.mock = mock || configuration.display.bus == nil
        self.tracePath = tracePath
        self.persist = persist
    }

    /// Runs until q, SIGINT or SIGTERM.
    public func run() throws(AppError) {
        let signals: TerminationSignals
        do { signals = try TerminationSignals() } catch { throw AppError(error.description) }
        if let tracePath { try TraceFile.write([], to: tracePath) }
        if mock {
            let emulator = SSD1306Emulator(panel: configuration.display.panel, address: configuration.display.address)
            try loop(bus: emulator, signals: signals, terminalGlass: true)
        } else {
            let busPath = "/dev/i2c-\(configuration.display.bus ?? 1)"
            let bus: LinuxI2CBus
            do { bus = try LinuxI2CBus.open(path: busPath) } catch { throw AppError(error.description) }
            printError("crownpager: \(configuration.pages.count) pages from \(configuration.file) on \(configuration.display.panel.name) at \(configuration.display.address) on \(busPath)")
            try loop(bus: bus, signals: signals, terminalGlass: false)
        }
    }

    private func makeState<Base: I2CBus>(_ bus: Base, at now: Timestamp) throws(AppError) -> PagerRunState<Base> {
        PagerRunState(
            configuration: configuration, bus: bus, style: try configuration.indicatorStyle(), clock: live.clock(at: now),
            start: now, wallOffset: wallOffset)
    }

    private func loop<Base: I2CBus>(bus: Base, signals: TerminationSignals, terminalGlass: Bool) throws(AppError) {
        var now = live.monotonicNow()
        var state = try makeState(bus, at: now)
        do {
            try state.session.start()
        } catch {
            throw AppError("the display does not answer: \(error)")
        }
        let terminal = try? TerminalSession()
        if let terminal {
            do {
                try terminal.begin(
                    enterSequence: terminalGlass ? TerminalScreen.enterAlternateScreen + TerminalScreen.hideCursor + TerminalScreen.clearScreen : "",
                    leaveSequence: terminalGlass ? TerminalScreen.resetAttributes + TerminalScreen.showCursor + TerminalScreen.leaveAlternateScreen : "")
            } catch {
                throw AppError(error)
            }
        }
        defer {
            terminal?.restore()
            commands.stopAll()
        }
        var mirror = GlassMirror()
        var decoder = KeyDecoder()
        var health = DisplayHealth()
        loop: while true {
            now = live.monotonicNow()
            refresh(&state, at: now)
            switch state.decide(at: now, inputPending: false) {
            case .handleInput:
                break
            case .drawFrame:
                var transfers: [I2CTransfer] = []
                do throws(Base.Failure) {
                    transfers = try state.drawFrame(at: now)
                    health.recordSuccess()
                } catch {
                    state.session.display.invalidate()
                    let retry = health.recordFailure(at: now)
                    printError("crownpager: the display stopped answering (\(error)); retrying in \((retry - now).milliseconds) ms")
                    state.pacer.invalidate()
                }
                if let tracePath { try TraceFile.append(transfers, to: tracePath) }
                if terminalGlass, let terminal, let emulator = state.session.display.bus.base as? SSD1306Emulator {
                    mirror.show(emulator.glass, state: state, terminal: terminal, at: now)
                }
            case .wait(let until):
                var timeout = until.map { max(0, Int(($0 - now).nanoseconds + 999_999) / 1_000_000) } ?? -1
                if let retry = health.nextAttempt { timeout = timeout < 0 ? max(1, Int((retry - now).milliseconds)) : min(timeout, max(1, Int((retry - now).milliseconds))) }
                if let deadline = commands.nextDeadline(after: now) {
                    let milliseconds = max(0, Int((deadline - now).nanoseconds + 999_999) / 1_000_000)
                    timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
                }
                let crownDescriptor = crown?.pollDescriptor ?? terminal?.input.rawValue
                let descriptors = [signals.descriptor] + (crownDescriptor.map { [$0] } ?? []) + commands.descriptors
                let ready: [Bool]
                do { ready = try Readiness.wait(for: descriptors, timeoutMilliseconds: timeout) } catch { throw AppError(error.description) }
                if ready[0], let signal = signals.next() {
                    guard signal == SIGHUP else { break loop }
                    reload(&state)
                    continue
                }
                guard crownDescriptor != nil, ready.count > 1, ready[1] else { continue }
                if var source = crown {
                    guard let events = try source.nextEvents(timeoutMilliseconds: 0) else { break loop }
                    crown = source
                    for event in events { state.handle(event) }
                } else if let terminal {
                    let input: [UInt8]
                    do { input = try terminal.readInput(timeoutMilliseconds: 0) } catch { throw AppError(error) }
                    let instant = live.monotonicNow()
                    for command in input.isEmpty ? decoder.flush() : decoder.feed(input) {
                        switch command {
                        case .quit: break loop
                        case .redraw:
                            state.session.display.invalidate()
                            mirror.invalidate()
                            state.pacer.invalidate()
                        case .turn, .press, .longPress:
                            for event in TerminalCrown.events(
                                for: command, at: instant, longPressDuration: state.configuration.crown.crownConfiguration.longPressDuration)
                            {
                                state.handle(event)
                            }
                        }
                    }
                }
            }
        }
        if !persist && !terminalGlass {
            do throws(Base.Failure) {
                try state.session.display.shutDown()
            } catch {
                printError("crownpager: could not switch the display off: \(error)")
            }
        }
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

    private func reload<Base: I2CBus>(_ state: inout PagerRunState<Base>) {
        guard let path else {
            printError("crownpager: SIGHUP: running the built-in configuration; nothing to reload (start with --config FILE)")
            return
        }
        do throws(AppError) {
            let fresh = try Configuration.load(path: path)
            guard fresh.display.panel == configuration.display.panel, fresh.display.bus == configuration.display.bus,
                fresh.display.address == configuration.display.address
            else {
                throw AppError("the panel, bus or address changed: restart crownpager to use them")
            }
            commands.stopAll()
            configuration = fresh
            let now = live.monotonicNow()
            var next = try makeState(state.session.display.bus.base, at: now)
            do throws(Base.Failure) { try next.session.start() } catch { throw AppError("the display does not answer: \(error)") }
            state = next
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

/// The emulator's glass drawn in the terminal, with a status line.
struct GlassMirror {
    private var screen = TerminalScreen(synchronizedOutput: true)
    private let renderer = TerminalGlassRenderer()
    private var lastSize = (columns: 0, rows: 0)

    mutating func invalidate() { screen.invalidate() }

    mutating func show<Base: I2CBus>(_ glass: Bitmap, state: PagerRunState<Base>, terminal: TerminalSession, at now: Timestamp) {
        let size = terminal.windowSize()
        if size != lastSize {
            lastSize = size
            screen.invalidate()
        }
        let (lines, layout) = renderer.render(glass, columns: size.columns, rows: max(1, size.rows - 1))
        let status = TerminalMock(panel: state.configuration.display.panel)
            .statusLine(state.session, layout: layout, columns: size.columns, at: now)
        let output = screen.lines.isEmpty ? screen.repaint(lines + [status]) : screen.update(to: lines + [status])
        try? terminal.write(output)
    }
}
