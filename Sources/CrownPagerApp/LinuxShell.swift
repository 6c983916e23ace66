import CrownInput
import CrownVocabulary
import GlassViews
import LinuxSystem
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import SSD1306

/// The Linux shell around the engine behind `crownpager run`: configured pages, on the emulator
/// drawn in this terminal or on a real panel over I2C, turned by a knob and by the terminal's keys.
///
/// It only does I/O. Each turn it hands the engine (`DeviceEngine`) every pending input (the
/// signals, the keys, the knob, finished commands), then a tick, and does the effects: writes
/// the display's records through its interface, reads the values asked for, starts and stops commands, prints the
/// log. Then it sleeps in poll(2) until input or the engine's next deadline: an idle pager uses
/// no CPU. SIGHUP reloads the configuration file (and ends a run without one: its terminal hung
/// up); q, SIGINT and SIGTERM end it, and the panel is blanked and switched off unless `persist`.
package final class LinuxShell {
    /// The configuration file, reloaded on SIGHUP; nil for a built-in configuration.
    package let path: String?
    /// What the command line lays over the configuration, again after each reload.
    package let overrides: RunOverrides
    /// The emulator in the terminal, or the panel.
    package let target: DisplayTarget
    /// Where to record the I2C trace, if anywhere.
    package let tracePath: String?
    /// The trace, open while the run goes (`appendTrace`, `closeTrace`).
    var trace: TraceFile?
    /// Leave the last picture on the panel at exit.
    package let persist: Bool
    /// Records the glass into an animated GIF (`--record`), if anywhere.
    package var recorder: GlassRecorder?
    /// The knob, if one is wired; the terminal's keys work too whenever standard input is a terminal.
    package var knob: Knob?
    /// How often to look for a knob's GPIO chip or input device that went away mid-run.
    package var knobRetryInterval = TimeSpan.milliseconds(1000)
    /// A knob whose chip or device went away, and when to try opening it again.
    var lostKnob: (knob: LostKnob, retryAt: Timestamp, lastFailure: String?)?
    /// When to retry a panel that stopped answering.
    package var retryPolicy = DisplayRetryPolicy()
    /// Frames while something moves come at most this often.
    package var animationInterval = FramePacer.sixtyHertz
    /// Where the notifications not dismissed yet survive a restart; nil keeps none.
    package var notificationStore: NotificationStore?
    let configuration: Configuration
    /// The MQTT broker's connection (`[mqtt]`), if one is configured.
    var mqtt: MQTTBridge?
    /// The release number, for Home Assistant's device and origin (`crownpager --version`'s first line).
    package var softwareVersion = "unknown"
    /// The colours of the MQTT camera's pictures (`run --palette`).
    package var cameraPalette = OLEDPalette.white
    let live = LiveReadings()
    let sampler = PageSampling()
    let commands = CommandRunner()
    /// Where the control socket listens (`crownpager notify`, `show`, `set`, `status`); nil for none.
    package var controlSocketPath: String?
    /// The control socket's connections while the run goes.
    var control: ControlServer?
    /// The browsers' live mirror (`[web]`), while it listens.
    var liveMirror: LiveMirror?
    /// The live mirror's colours (`--palette`, `--unlit`) and pixel size (`--scale`) for its page and PNG.
    package var mirrorPalette = OLEDPalette.white
    package var mirrorScale = 4
    /// GNU Unifont, opened when the pages first ask for a glyph misc-fixed lacks.
    package var unicodeFonts = UnicodeFonts()
    /// The wall clock's nanoseconds at monotonic zero, modulo a day, to align refreshes to round times.
    private let wallOffset =
        (WallClock.nanosecondsSinceEpoch() &- MonotonicClock.now().nanoseconds) % 86_400_000_000_000

    /// A run of `configuration` (read from `path`, for reloads) with `overrides` laid over it, on `target`.
    package init(
        configuration: Configuration, path: String?, target: DisplayTarget, overrides: RunOverrides = RunOverrides(),
        tracePath: String? = nil, persist: Bool = false
    ) {
        self.configuration = overrides.applied(to: configuration)
        self.path = path
        self.target = target
        self.overrides = overrides
        self.tracePath = tracePath
        self.persist = persist
        notificationStore = NotificationStore.forRun(mock: target == .emulator)
    }

    /// Runs until q, SIGINT or SIGTERM; only a panel that does not answer at start is an error.
    /// Returns the signal that ended the run, nil when q did.
    @discardableResult
    package func run() throws(CrownPagerError) -> ProcessSignal? {
        let signals: TerminationSignals
        // The mock redraws the glass when the window changes: SIGWINCH wakes it, nothing polls the size.
        let windowChanges = target == .emulator
        do { signals = try TerminationSignals(windowChanges: windowChanges) } catch { throw .system(error) }
        defer { if let trace { closeTrace(trace) } }
        switch target {
        case .emulator:
            let display = configuration.display
            let terminal = try beginTerminal()
            defer { terminal?.restore() }
            var loop = LinuxShellState(
                display: .emulator(SSD1306Emulator(panel: display.panel, address: display.address)), signals: signals,
                terminal: terminal)
            return try run(&loop)
        case .panel(let busPath):
            let bus: LinuxI2CBus
            do { bus = try LinuxI2CBus.open(path: busPath) } catch { throw .display(error) }
            let terminal = try beginTerminal()
            defer { terminal?.restore() }
            announce(busPath, keys: terminal != nil)
            var loop = LinuxShellState(
                display: .i2c(I2CDisplayInterface(bus: bus, address: configuration.display.address)), signals: signals,
                terminal: terminal, stopwatch: MonotonicClock.now)
            return try run(&loop)
        case .spiPanel(let devicePath):
            let wiring = configuration.display.spiWiring(devicePath: devicePath)
            let bus: SPIDisplayInterface
            do { bus = try SPIDisplayInterface.open(wiring) } catch { throw .spiDisplay(error) }
            let terminal = try beginTerminal()
            defer { terminal?.restore() }
            announce(wiring.description, keys: terminal != nil)
            var loop = LinuxShellState(
                display: .spi(bus), signals: signals, terminal: terminal, stopwatch: MonotonicClock.now)
            return try run(&loop)
        }
    }

    /// The engine for the configuration, with time starting at `now`.
    func makeEngine(at now: Timestamp) throws(CrownPagerError) -> DeviceEngine {
        DeviceEngine(
            configuration: configuration, style: try overrides.indicatorStyle(configuration),
            clock: live.clock(at: now), start: now, wallOffset: wallOffset, retryPolicy: retryPolicy,
            animationInterval: animationInterval)
    }

    private func run(_ loop: inout LinuxShellState) throws(CrownPagerError) -> ProcessSignal? {
        var engine = try makeEngine(at: live.monotonicNow())
        defer { commands.stopAll() }
        // First: a password file refused ends the run before the control socket is made.
        try openMQTT()
        defer { closeMQTT() }
        openControl()
        // Its path goes with it, now: a program's exit runs no deinit.
        defer { control = nil }
        openLiveMirror()
        defer { closeLiveMirror() }
        loop.service = ServiceNotifier.fromEnvironment()
        do throws(CrownPagerError) { try start(&engine, &loop, at: live.monotonicNow()) } catch {
            loop.service.failed("\(error)")
            throw error
        }
        loop.service.ready(ServiceStatus(engine), at: live.monotonicNow())
        var turn = RunTurn()
        while !turn.ended {
            let now = live.monotonicNow()
            // The watchdog's ping comes from the turn itself: a loop stuck anywhere stops sending it.
            loop.service.turn(ServiceStatus(engine), at: now)
            turn = try step(&engine, &loop, at: now)
        }
        loop.service.stopping()
        // The recording ends on the last picture, not on the blank panel of the stop.
        if let recorder {
            do throws(CrownPagerError) { try recorder.finish(at: live.monotonicNow()) } catch {
                OperatorLog.warning("crownpager: warning: the recording may be incomplete: \(error)")
            }
        }
        let last = engine.handle(.stop(persist: persist || target == .emulator), at: live.monotonicNow())
        OperatorLog.info("crownpager: stopping: \(Self.describe(engine.snapshot.crownTally))")
        do throws(CrownPagerError) { try loop.display.send(last.display) } catch {
            OperatorLog.error("crownpager: could not switch the display off: \(error)")
        }
        try appendTrace(loop.display.drainRecords())
        return turn.signal
    }

    /// Initialises the panel and shows the first frame; one that does not answer at start is a wiring or address problem: say so and stop.
    func start(_ engine: inout DeviceEngine, _ loop: inout LinuxShellState, at now: Timestamp) throws(CrownPagerError) {
        if trace == nil, let tracePath { trace = try TraceFile(path: tracePath, format: .of(configuration.display)) }
        if let notificationStore { engine.restoreNotifications(notificationStore.load()) }
        let effects = engine.handle(.start, at: now)
        do throws(CrownPagerError) { try loop.display.send(effects.display) } catch {
            try appendTrace(loop.display.drainRecords())
            throw error
        }
        var logged = Effects()
        logged.log = effects.log
        logged.glyphsWanted = effects.glyphsWanted
        _ = try perform(logged, &engine, &loop, at: now)
        // The first page goes up before any input is read: the engine draws it once its values are in.
        _ = try perform(engine.handle(.tick, at: now), &engine, &loop, at: now)
    }

    /// One turn at `now`: every pending input into the engine first, then a tick and its effects;
    /// a sleep in poll(2) until input or the next deadline when nothing is due.
    ///
    /// Input is looked for without waiting before each tick (unless the last sleep already
    /// found it): a detent that came while the bus carried a frame is in the next one, not
    /// queued behind a frame it makes stale.
    func step(_ engine: inout DeviceEngine, _ loop: inout LinuxShellState, at now: Timestamp) throws(CrownPagerError)
        -> RunTurn
    {
        var turn = RunTurn()
        for (page, result) in commands.collect(at: now) {
            let effects = engine.handle(result.finished(page: page), at: now)
            turn.drewFrame = try perform(effects, &engine, &loop, at: now) || turn.drewFrame
        }
        reopenKnob(at: now)
        let knob = self.knob?.wakeup ?? CrownWakeup()
        let controlDescriptors = (control?.descriptors ?? []) + mqttDescriptors + liveMirrorDescriptors
        let inputs = loop.inputDescriptors(knob: knob.descriptors) + controlDescriptors
        var ready = InputReadiness()
        if let found = loop.ready {
            ready = found
        } else {
            ready = loop.readiness(
                try Self.wait(for: inputs, timeoutMilliseconds: 0), knobCount: knob.descriptors.count,
                control: controlDescriptors)
        }
        loop.ready = nil
        let knobDue = knob.deadline.map { $0 <= now } ?? false
        if !ready.control.isEmpty || control?.nextDeadline.map({ $0 <= now }) == true {
            turn.drewFrame = try serveControl(ready.control, &engine, &loop, at: now) || turn.drewFrame
        }
        turn.drewFrame = try serveMQTT(ready.control, &engine, &loop, at: now) || turn.drewFrame
        try serveLiveMirror(ready.control, &engine, &loop, at: now)
        if ready.any || knobDue {
            turn.tookInput = true
            if let end = try takeInput(ready, knobDue: knobDue, &engine, &loop, at: now) { return end }
        }
        turn.drewFrame = try perform(engine.handle(.tick, at: now), &engine, &loop, at: now) || turn.drewFrame
        // Whatever this turn changed goes to the broker now, drawn or not: a value pushed to a page
        // not shown, a brightness set while dimmed. Waiting for the next turn waited for an unrelated
        // wake-up, up to a quarter keepalive.
        publishMQTT(engine, at: now)
        if turn.drewFrame || engine.nextDeadline.map({ $0 <= now }) ?? false { return turn }
        // The knob as it is now: the edges just read may have started a debounce or a long press
        // whose deadline the wake-up taken before them did not have.
        let sleepKnob = self.knob?.wakeup ?? CrownWakeup()
        let deadlines: [Timestamp?] = [
            engine.nextDeadline, commands.nextDeadline(after: now), sleepKnob.deadline, lostKnob?.retryAt,
            loop.service.nextDeadline, control?.nextDeadline, mqtt?.client.nextDeadline(after: now),
            liveMirror?.nextDeadline(after: now),
        ]
        let timeout = Self.milliseconds(until: deadlines.compactMap { $0 }.min(), from: now)
        // The control socket's clients as they are now: serving them may have closed or accepted some.
        let sleepControl = (control?.descriptors ?? []) + mqttDescriptors + liveMirrorDescriptors
        loop.ready = loop.readiness(
            try Self.wait(
                for: loop.inputDescriptors(knob: sleepKnob.descriptors) + sleepControl + commands.descriptors,
                writing: mqttWriting, timeoutMilliseconds: timeout),
            knobCount: sleepKnob.descriptors.count, control: sleepControl)
        return turn
    }

    /// Does what the engine asked, through the `EngineRunner`: sends the display's records, reads
    /// the values, starts and stops commands, prints the log. Returns whether records went out.
    func perform(
        _ effects: Effects, _ engine: inout DeviceEngine, _ loop: inout LinuxShellState, at now: Timestamp
    ) throws(CrownPagerError) -> Bool {
        // The loop goes into the shell for the effects and comes back after: a copy, whose first
        // write copies the emulator's 1 KiB of RAM in the mock (`consume` of an inout parameter
        // is a compiler error in Swift 6.0.3). The cause is not known here and the Linux shell's
        // sends do not depend on it (the virtual panel's do).
        var shell = RunShell(run: self, loop: loop, pacingHertz: engine.configuration.display.pacingHertz)
        var reads = RunReads(run: self)
        let sent = EngineRunner.perform(effects, of: .tick, at: now, engine: &engine, shell: &shell, sampler: &reads)
        loop = shell.loop
        if let error = shell.traceError { throw error }
        if sent, let glass = loop.display.base.glass, let terminal = loop.terminal {
            loop.mirror.show(glass, engine: engine, terminal: terminal.terminal, at: now)
        }
        return sent
    }

    /// poll(2)'s timeout for a sleep from `now` until `deadline`, rounded up; -1 (no timeout) without one.
    static func milliseconds(until deadline: Timestamp?, from now: Timestamp) -> Int {
        guard let deadline else { return -1 }
        let nanoseconds = max(0, (deadline - now).nanoseconds)
        return Int(min(nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 > 0 ? 1 : 0), Int64(Int32.max)))
    }

    /// Which of `descriptors` are readable (or, for those in `writing`, writable) within `timeoutMilliseconds`.
    private static func wait(
        for descriptors: [Int32], writing: Set<Int32> = [], timeoutMilliseconds: Int
    ) throws(CrownPagerError) -> [Bool] {
        do {
            return try Readiness.wait(for: descriptors, writing: writing, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw .system(error)
        }
    }

    /// Feeds every input `ready` marks (and the knob when `knobDue`) to the engine; the turn's end when one ends the run.
    private func takeInput(
        _ ready: InputReadiness, knobDue: Bool, _ engine: inout DeviceEngine, _ loop: inout LinuxShellState,
        at now: Timestamp
    ) throws(CrownPagerError) -> RunTurn? {
        let end = RunTurn(tookInput: true, ended: true)
        if ready.signal, let signals = loop.signals {
            var resized = false
            while let signal = signals.next() {
                switch signal {
                case .windowChange: resized = true
                case .hangUp where path != nil: try reload(&engine, &loop, at: now)
                default: return RunTurn(tookInput: true, ended: true, signal: signal)
                }
            }
            // The whole frame again, for the mirror to repaint at the new size.
            if resized, loop.display.base.glass != nil, let terminal = loop.terminal,
                loop.mirror.sizeChanged(terminal.terminal)
            {
                _ = try perform(engine.handle(.redraw, at: now), &engine, &loop, at: now)
            }
        }
        if ready.knob || knobDue, var source = knob {
            let facts: [CrownEvent]?
            do throws(CrownPagerError) {
                facts = try source.facts(at: now)
            } catch {
                switch (error, source) {
                case (.crown(let failure), .gpio(let gpio))
                where failure.chipGone || !FileSystem.exists(atPath: gpio.wiring.chipPath):
                    gpio.close()
                    loseKnob(.gpio(gpio.wiring, gpio.configuration), because: "\(failure)", at: now)
                case (.inputDevice(.disconnected), .evdev(let evdev)) where evdev.isInputDevice:
                    loseKnob(.evdev(evdev.path, evdev.configuration), because: "\(error)", at: now)
                default:
                    throw error
                }
                return nil
            }
            knob = source
            guard let facts else { return end }
            for fact in facts { try feedCrown(fact, &engine, &loop, at: now) }
        }
        guard let terminal = loop.terminal, ready.keys else { return nil }
        let facts: [CrownEvent]?
        do { facts = try terminal.facts(at: now) } catch { throw .terminal(error) }
        guard let facts else { return end }
        if terminal.takeRedraw() {
            loop.mirror.invalidate()
            _ = try perform(engine.handle(.redraw, at: now), &engine, &loop, at: now)
        }
        for fact in facts { try feedCrown(fact, &engine, &loop, at: now) }
        return nil
    }

    /// Raw mode for the keys: required for the mock (it draws there), used when present for a panel.
    private func beginTerminal() throws(CrownPagerError) -> TerminalCrownSource? {
        let drawsGlass = target == .emulator
        let enter =
            drawsGlass
            ? TerminalScreen.enterAlternateScreen + TerminalScreen.hideCursor + TerminalScreen.enableMouseReporting
                + TerminalScreen.clearScreen : ""
        let leave =
            drawsGlass
            ? TerminalScreen.disableMouseReporting + TerminalScreen.resetAttributes + TerminalScreen.showCursor
                + TerminalScreen.leaveAlternateScreen : ""
        do {
            return try TerminalCrownSource(
                longPressDuration: configuration.crown.crownConfiguration.longPressDuration, enterSequence: enter,
                leaveSequence: leave)
        } catch {
            if drawsGlass { throw .terminal(error) }
            return nil
        }
    }

    /// One line for the journal: the panel, the pages, the knob and how to stop.
    private func announce(_ busPath: String, keys: Bool) {
        let display = configuration.display
        OperatorLog.info(
            "crownpager: driving \(display.panel.name)\(display.spi == nil ? " at \(display.address)" : "") on \(busPath): "
                + "\(configuration.pages.count) pages from \(configuration.file)"
                + (knob.map { "; the crown on \($0.sourceDescription)" } ?? "")
                + (keys ? "; Down/j and Up/k turn the crown, Enter presses, q quits" : "; SIGINT or SIGTERM stops"))
    }

    /// Reads the file again (SIGHUP) and hands it to the engine; a file that does not parse keeps the running one.
    private func reload(_ engine: inout DeviceEngine, _ loop: inout LinuxShellState, at now: Timestamp)
        throws(CrownPagerError)
    {
        guard let path else { return }
        let fresh: Configuration
        let style: PageIndicatorStyle
        do throws(CrownPagerError) {
            fresh = overrides.applied(to: try Configuration.load(path: path))
            style = try overrides.indicatorStyle(fresh)
        } catch {
            OperatorLog.warning("crownpager: kept the running configuration: \(error)")
            return
        }
        _ = try perform(engine.handle(.reload(fresh, style: style), at: now), &engine, &loop, at: now)
        mqtt?.pagesChanged(engine.configuration.pages)
        noteLiveMirrorReload(fresh)
    }
}
