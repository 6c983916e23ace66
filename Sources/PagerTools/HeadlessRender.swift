import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import SSD1306

/// One picture of the glass from a headless run.
package struct RenderedFrame: Hashable, Sendable {
    /// A file name stem: `step-02` at the end of step 2, `step-02-frame-003` for a frame sent during it.
    package var name: String
    /// Time from the start of the run.
    package var time: TimeSpan
    /// What the panel showed.
    package var glass: Bitmap
}

/// The fixed readings of `SampleReadings`: 10:09:30, a sample host; files and commands answer
/// with a placeholder. Actions are not run: a headless picture must not restart a service, so
/// they end at once with the status `not run by render`.
package struct SamplePageSampler: PageSampler {
    /// A sampler of the fixed readings.
    package init() {}

    package func clock(at instant: Timestamp) -> ClockReading { SampleReadings.clock }

    package func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput? {
        switch read.source {
        case .system(let values):
            return .sampled(page: read.page, values.map(Self.sample))
        case .file:
            return .fileRead(page: read.page, .text("42"))
        case .command:
            return .commandFinished(page: read.page, output: "42", status: nil)
        case .action:
            return .actionFinished(page: read.page, output: "", status: "not run by render")
        }
    }

    /// `value` on the sample host.
    package static func sample(_ value: SystemValue) -> SystemSample {
        let system = SampleReadings.system
        switch value {
        case .hostname: return .text(system.hostname)
        case .cpuTemperature, .thermalZone: return .celsius(48.3)
        case .load: return .load(one: system.load1, five: system.load5, fifteen: system.load15)
        case .memory:
            return .memory(
                usedBytes: Int64(system.memoryTotalBytes - system.memoryAvailableBytes),
                totalBytes: Int64(system.memoryTotalBytes))
        case .uptime: return .uptime(seconds: system.uptimeSeconds)
        case .battery: return .battery(percent: 87, status: "Discharging", secondsToEmpty: 7800)
        case .disk: return .disk(usedFraction: 0.37, totalBytes: 31_900_000_000)
        case .ipAddress: return .text("192.168.1.42")
        }
    }
}

/// Runs a crown script against the engine and an emulated panel on a virtual clock: the same
/// engine, fed the same way, as `run` on a panel, only time jumps instead of passing.
///
/// Frames go through the real SSD1306 encoder into the emulator, so the pictures are the
/// glass, not the frame buffer, and the trace is what a real panel would receive.
package struct HeadlessRender {
    /// The configuration run, overrides already laid over it.
    package var configuration: Configuration
    /// The indicator's look, its images loaded.
    package var style: PageIndicatorStyle
    /// Frames per second while something moves (the engine's animation pacing).
    package var framesPerSecond: Int

    /// A renderer of `configuration` sampling transitions at `framesPerSecond`.
    package init(configuration: Configuration, style: PageIndicatorStyle, framesPerSecond: Int = 60) {
        self.configuration = configuration
        self.style = style
        self.framesPerSecond = max(1, min(framesPerSecond, 1000))
    }

    /// The time between frames while something moves.
    package var animationInterval: TimeSpan { TimeSpan(nanoseconds: 1_000_000_000 / Int64(framesPerSecond)) }

    /// The frames of `script` (each frame sent, and the glass at the end of each step), every I2C
    /// transfer the panel received, and the engine's log, with values from `sampler`.
    package func run<Sampler: PageSampler>(
        _ script: CrownScript, start: Timestamp = .zero, sampler: inout Sampler
    ) -> (frames: [RenderedFrame], transfers: [I2CTransfer], log: [EngineLog]) {
        var frames: [RenderedFrame] = []
        var records = DisplayBatch()
        let log = run(script, start: start, sampler: &sampler) { frame, sent in
            frames.append(frame)
            records.append(contentsOf: sent)
            return true
        }
        return (frames, records.transfers(at: configuration.display.address), log)
    }

    /// Runs `script` as `run(_:start:sampler:)` does, but hands each frame to `emit` as it comes,
    /// with the display records sent since the last one, and keeps none: memory stays flat however long
    /// the script runs. `emit` returns false to stop. Returns the engine's log.
    package func run<Sampler: PageSampler>(
        _ script: CrownScript, start: Timestamp = .zero, sampler: inout Sampler,
        emit: (RenderedFrame, DisplayBatch) -> Bool
    ) -> [EngineLog] {
        var shell = VirtualShell(
            engine: DeviceEngine(
                configuration: configuration, style: style, clock: sampler.clock(at: start), start: start,
                animationInterval: animationInterval),
            panel: configuration.display.panel, address: configuration.display.address)
        var step = 0
        var going = true
        func add(_ frame: RenderedFrame) {
            if going { going = emit(frame, shell.takeRecords()) }
        }
        var frameInStep = 0
        // The panel initialised and the first page shown before any input, as `run` starts: the
        // first turn's tick asks for the values and the engine draws once they are in.
        shell.feed(.start, at: start, sampler: &sampler)
        if shell.turn(at: start, crown: [], sampler: &sampler) {
            add(RenderedFrame(name: "step-00-frame-" + pad(frameInStep, 3), time: .zero, glass: shell.glass))
            frameInStep += 1
        }
        let events = script.events(startingAt: start)
        let end = start + script.duration
        // Step 0 is the glass before the first step; step k ends where step k + 1 begins.
        let boundaries = script.steps.map { start + $0.at } + [end]
        var now = start
        var next = 0
        while true {
            while step < boundaries.count, boundaries[step] <= now,
                next >= events.count || events[next].timestamp >= boundaries[step]
            {
                add(RenderedFrame(name: "step-" + pad(step, 2), time: now - start, glass: shell.glass))
                step += 1
                frameInStep = 0
            }
            var crown: [CrownEvent] = []
            while next < events.count, events[next].timestamp <= now {
                crown.append(events[next])
                next += 1
            }
            if shell.turn(at: now, crown: crown, sampler: &sampler) {
                add(
                    RenderedFrame(
                        name: "step-" + pad(step, 2) + "-frame-" + pad(frameInStep, 3), time: now - start,
                        glass: shell.glass))
                frameInStep += 1
            }
            let wake = shell.wake(
                after: now,
                nextInput: [
                    next < events.count ? events[next].timestamp : nil,
                    step < boundaries.count ? boundaries[step] : nil,
                ].compactMap { $0 }.min())
            guard going, let wake, wake <= end else { break }
            now = wake
        }
        while step < boundaries.count {
            add(RenderedFrame(name: "step-" + pad(step, 2), time: script.duration, glass: shell.glass))
            step += 1
        }
        return shell.log
    }
}

/// The emulated panel of a `VirtualShell` and what it saw: its side of the `EngineRunner`.
struct VirtualPanel: EngineShell {
    var emulator: SSD1306Emulator
    var records = DisplayBatch()
    var log: [EngineLog] = []
    /// The notifications the engine last asked to keep across a restart.
    var keptNotifications: [PagerNotification] = []
    var sentFrames: [(at: Timestamp, bytes: Int, transactions: Int, took: TimeSpan)] = []
    var busHertz: Int
    /// The configuration's `bus_hz`, reported when writes are not timed.
    var configuredHertz: Int
    var timesWrites = true
    var busFreeAt = Timestamp.zero
    var writesOnBusyBus = 0
    var waitedForBus = TimeSpan.zero

    /// Records into the emulator, kept for the trace; their time on the modelled bus.
    mutating func send(_ records: DisplayBatch, for cause: EngineInput, at now: Timestamp) -> TimeSpan? {
        // The shell keeps every record for the trace: its own copy (the engine reuses its storage).
        emulator.send(records)
        self.records.append(contentsOf: records)
        let bytes = records.framedByteCount
        let took = FramePacer.busTime(bytes: bytes, transactions: records.count, hertz: busHertz)
        switch cause {
        case .start, .reload, .stop:
            break  // written outside the frame loop, as the run shell writes them: not paced
        default:
            if now < busFreeAt {
                writesOnBusyBus += 1
                waitedForBus = waitedForBus + (busFreeAt - now)
            }
            busFreeAt = max(busFreeAt, now) + took
        }
        sentFrames.append((now, bytes, records.count, took))
        return timesWrites
            ? took : FramePacer.busTime(bytes: bytes, transactions: records.count, hertz: configuredHertz)
    }

    mutating func log(_ line: EngineLog) { log.append(line) }

    /// Commands are answered at once by the sampler: none runs on.
    mutating func stopCommands() {}

    /// Kept in memory: a virtual run has no next run to find them.
    mutating func keepNotifications(_ notifications: [PagerNotification]) { keptNotifications = notifications }
}

/// A shell on a virtual clock, for `render`, the benchmarks and the tests: feeds the engine as the
/// Linux loop does (input first, then a tick) through the `EngineRunner`, sends its display
/// records into an emulator, answers its reads from a sampler, and jumps to the next deadline
/// instead of sleeping.
package struct VirtualShell {
    /// The engine driven.
    package var engine: DeviceEngine
    /// The emulated panel and what it saw.
    var panel: VirtualPanel
    private var lastTurn: Timestamp?
    private var ticksAtLastTurn = 0

    /// The emulated panel, which receives every record.
    package var emulator: SSD1306Emulator { panel.emulator }
    /// Every display record sent and not taken yet (`takeRecords()`), oldest first.
    package var records: DisplayBatch { panel.records }
    /// `records` as the I2C transfers that carry them to the emulator's address.
    package var transfers: [I2CTransfer] { panel.records.transfers(at: panel.emulator.address) }
    /// Every log line, oldest first.
    package var log: [EngineLog] { panel.log }
    /// When each frame went out, how many bytes it took, and its time on the modelled bus.
    package var sentFrames: [(at: Timestamp, bytes: Int, transactions: Int, took: TimeSpan)] { panel.sentFrames }
    /// The modelled bus's clock: each write takes its bus time at this rate, and the engine is
    /// told so (`.written(took:)`). It may differ from the configuration's `bus_hz`, as a real bus may.
    package var busHertz: Int {
        get { panel.busHertz }
        set { panel.busHertz = newValue }
    }
    /// Whether `.written(took:)` carries each write's time on the modelled bus, as the run shell
    /// times its writes; when false it carries the time at the configuration's `bus_hz`, as a
    /// shell that did not time them would (for the benchmark's comparison).
    package var timesWrites: Bool {
        get { panel.timesWrites }
        set { panel.timesWrites = newValue }
    }
    /// When the modelled bus has carried everything written.
    package var busFreeAt: Timestamp { panel.busFreeAt }
    /// Frames written while the modelled bus still carried the one before: a backlog a blocking
    /// write(2) would have waited out. The engine's pacing keeps it at zero. (The initialisation
    /// and switching off are written outside the frame loop, as the run shell writes them: they
    /// are not paced and not counted.)
    package var writesOnBusyBus: Int { panel.writesOnBusyBus }
    /// How long those writes waited, all told, for the bus to carry the ones before.
    package var waitedForBus: TimeSpan { panel.waitedForBus }

    /// A shell for `engine` with an emulated `panel` at `address`, its bus modelled at `busHertz`
    /// (by default the configuration's `bus_hz`).
    package init(engine: DeviceEngine, panel: SSD1306Panel, address: I2CAddress, busHertz: Int? = nil) {
        self.engine = engine
        let configured = engine.configuration.display.busHertz
        self.panel = VirtualPanel(
            emulator: SSD1306Emulator(panel: panel, address: address), busHertz: max(1, busHertz ?? configured),
            configuredHertz: configured)
    }

    /// A shell around the engine for `configuration` (its panel and address), with the default
    /// indicator and the sample clock, started at time zero.
    package static func started<Sampler: PageSampler>(
        _ configuration: Configuration, sampler: inout Sampler, busHertz: Int? = nil
    ) -> VirtualShell {
        var shell = VirtualShell(
            engine: DeviceEngine(
                configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero),
            panel: configuration.display.panel, address: configuration.display.address, busHertz: busHertz)
        shell.feed(.start, at: .zero, sampler: &sampler)
        return shell
    }

    /// What the panel shows.
    package var glass: Bitmap { panel.emulator.glass }

    /// The records sent since the last take, oldest first; the shell keeps none of them after.
    package mutating func takeRecords() -> DisplayBatch {
        defer {
            panel.records.removeAll()
            panel.sentFrames.removeAll(keepingCapacity: true)
        }
        return panel.records
    }

    /// Feeds `input` at `instant` and does its effects (`EngineRunner`); returns whether records went out.
    @discardableResult
    package mutating func feed<Sampler: PageSampler>(
        _ input: EngineInput, at instant: Timestamp, sampler: inout Sampler
    )
        -> Bool
    {
        EngineRunner.feed(input, at: instant, engine: &engine, shell: &panel, sampler: &sampler)
    }

    /// Does what `effects` of a tick ask (`EngineRunner`): records into the emulator (then
    /// `.written(took:)` with their time on the modelled bus), reads and glyphs answered by
    /// `sampler`. Returns whether records went out.
    @discardableResult
    package mutating func perform<Sampler: PageSampler>(
        _ effects: Effects, at instant: Timestamp, sampler: inout Sampler
    ) -> Bool {
        EngineRunner.perform(effects, of: .tick, at: instant, engine: &engine, shell: &panel, sampler: &sampler)
    }

    /// One turn at `now`, as the Linux loop turns: the crown's facts first, then a tick; returns
    /// whether transfers went out.
    @discardableResult
    package mutating func turn<Sampler: PageSampler>(at now: Timestamp, crown: [CrownEvent], sampler: inout Sampler)
        -> Bool
    {
        var sent = false
        for event in crown { sent = feed(.crown(event), at: now, sampler: &sampler) || sent }
        sent = feed(.tick, at: now, sampler: &sampler) || sent
        ticksAtLastTurn = now == lastTurn ? ticksAtLastTurn + 1 : 1
        lastTurn = now
        return sent
    }

    /// When to turn next after a turn at `now`: the engine's deadline or the next input, whichever is first.
    package func wake(after now: Timestamp, nextInput: Timestamp?) -> Timestamp? {
        guard let wake = [engine.nextDeadline, nextInput].compactMap({ $0 }).min() else { return nil }
        // The engine asks again at once only to draw what a read just brought: never forever.
        return wake > now ? wake : ticksAtLastTurn > 3 ? now + .milliseconds(1) : now
    }

    /// Runs from `start` to `end`: each of `events` at its instant, a tick whenever the engine
    /// asks; `observe` sees each turn's instant, whether transfers went out, and the glass.
    package mutating func run<Sampler: PageSampler>(
        events: [CrownEvent], from start: Timestamp, until end: Timestamp, sampler: inout Sampler,
        observe: (Timestamp, Bool, Bitmap) -> Void = { _, _, _ in }
    ) {
        var now = start
        var next = 0
        while true {
            var crown: [CrownEvent] = []
            while next < events.count, events[next].timestamp <= now {
                crown.append(events[next])
                next += 1
            }
            let sent = turn(at: now, crown: crown, sampler: &sampler)
            observe(now, sent, emulator.glass)
            guard let wake = wake(after: now, nextInput: next < events.count ? events[next].timestamp : nil),
                wake <= end
            else { return }
            now = wake
        }
    }
}

func pad(_ value: Int, _ width: Int) -> String {
    var text = String(value)
    while text.count < width { text = "0" + text }
    return text
}
