import CrownVocabulary
import PagerCore
import PagerGraphics
import SSD1306

/// One picture of the glass from a headless run.
public struct RenderedFrame: Hashable, Sendable {
    /// A file name stem: `step-02` at the end of step 2, `step-02-frame-003` for a frame sent during it.
    public var name: String
    /// Time from the start of the run.
    public var time: TimeSpan
    /// What the panel showed.
    public var glass: Bitmap
}

/// Answers the reads a headless run's engine asks for: fixed samples for reproducible pictures,
/// or this machine's values (the shell's sampler).
public protocol PageSampler {
    /// The local time at `instant`.
    mutating func clock(at instant: Timestamp) -> ClockReading
    /// The answer to `read` at `instant`; a command's once it has ended.
    mutating func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput
    /// Every fallback glyph found so far, once `scalars` (`Effects.glyphsWanted`) are looked
    /// for; nil when none of them was found. By default none is: they draw as boxes.
    mutating func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont?
}

extension PageSampler {
    /// No glyphs: characters misc-fixed lacks draw as boxes.
    public mutating func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont? { nil }
}

/// The fixed readings of `SampleReadings`: 10:09:30, a sample host; files and commands answer with a placeholder.
public struct SamplePageSampler: PageSampler {
    /// A sampler of the fixed readings.
    public init() {}

    public func clock(at instant: Timestamp) -> ClockReading { SampleReadings.clock }

    public func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput {
        switch read.source {
        case .system(let values):
            return .sampled(page: read.page, values.map(Self.sample))
        case .file:
            return .fileRead(page: read.page, .text("42"))
        case .command:
            return .commandFinished(page: read.page, output: "42", status: nil)
        }
    }

    /// `value` on the sample host.
    public static func sample(_ value: SystemValue) -> SystemSample {
        let system = SampleReadings.system
        switch value {
        case .hostname: return .text(system.hostname)
        case .cpuTemperature: return .celsius(48.3)
        case .load: return .load(one: system.load1, five: system.load5, fifteen: system.load15)
        case .memory:
            return .memory(
                usedBytes: Int64(system.memoryTotalBytes - system.memoryAvailableBytes),
                totalBytes: Int64(system.memoryTotalBytes))
        case .uptime: return .uptime(seconds: system.uptimeSeconds)
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
public struct HeadlessRender {
    /// The configuration run, overrides already laid over it.
    public var configuration: Configuration
    /// The indicator's look, its images loaded.
    public var style: PageIndicatorStyle
    /// Frames per second while something moves (the engine's animation pacing).
    public var framesPerSecond: Int

    /// A renderer of `configuration` sampling transitions at `framesPerSecond`.
    public init(configuration: Configuration, style: PageIndicatorStyle, framesPerSecond: Int = 60) {
        self.configuration = configuration
        self.style = style
        self.framesPerSecond = max(1, min(framesPerSecond, 1000))
    }

    /// The time between frames while something moves.
    public var animationInterval: TimeSpan { TimeSpan(nanoseconds: 1_000_000_000 / Int64(framesPerSecond)) }

    /// The frames of `script` (each frame sent, and the glass at the end of each step), every I2C
    /// transfer the panel received, and the engine's log, with values from `sampler`.
    public func run<Sampler: PageSampler>(
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
    public func run<Sampler: PageSampler>(
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

/// A shell on a virtual clock, for `render`, the benchmarks and the tests: feeds the engine as the
/// Linux loop does (input first, then a tick), sends its display records into an emulator, answers its
/// reads from a sampler, and jumps to the next deadline instead of sleeping.
public struct VirtualShell {
    /// The engine driven.
    public var engine: DeviceEngine
    /// The emulated panel, which receives every record.
    public var emulator: SSD1306Emulator
    /// Every display record sent and not taken yet (`takeRecords()`), oldest first.
    public private(set) var records = DisplayBatch()
    /// `records` as the I2C transfers that carry them to the emulator's address.
    public var transfers: [I2CTransfer] { records.transfers(at: emulator.address) }
    /// Every log line, oldest first.
    public private(set) var log: [EngineLog] = []
    /// When each frame went out, how many bytes it took, and its time on the modelled bus.
    public private(set) var sentFrames: [(at: Timestamp, bytes: Int, transactions: Int, took: TimeSpan)] = []
    /// The modelled bus's clock: each write takes its bus time at this rate, and the engine is
    /// told so (`.written(took:)`). It may differ from the configuration's `bus_hz`, as a real bus may.
    public var busHertz: Int
    /// Whether `.written(took:)` carries each write's time on the modelled bus, as the run shell
    /// times its writes; when false it carries the time at the configuration's `bus_hz`, as a
    /// shell that did not time them would (for the benchmark's comparison).
    public var timesWrites = true
    /// When the modelled bus has carried everything written.
    public private(set) var busFreeAt = Timestamp.zero
    /// Frames written while the modelled bus still carried the one before: a backlog a blocking
    /// write(2) would have waited out. The engine's pacing keeps it at zero. (The initialisation
    /// and switching off are written outside the frame loop, as the run shell writes them: they
    /// are not paced and not counted.)
    public private(set) var writesOnBusyBus = 0
    /// How long those writes waited, all told, for the bus to carry the ones before.
    public private(set) var waitedForBus = TimeSpan.zero
    /// Whether the effects being done are not frames (`.start`, `.reload`, `.stop`).
    private var outsideFrameLoop = false
    private var lastTurn: Timestamp?
    private var ticksAtLastTurn = 0

    /// A shell for `engine` with an emulated `panel` at `address`, its bus modelled at `busHertz`
    /// (by default the configuration's `bus_hz`).
    public init(engine: DeviceEngine, panel: SSD1306Panel, address: I2CAddress, busHertz: Int? = nil) {
        self.engine = engine
        emulator = SSD1306Emulator(panel: panel, address: address)
        self.busHertz = max(1, busHertz ?? engine.configuration.display.busHertz)
    }

    /// A shell around the engine for `configuration` (its panel and address), with the default
    /// indicator and the sample clock, started at time zero.
    public static func started<Sampler: PageSampler>(
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
    public var glass: Bitmap { emulator.glass }

    /// The records sent since the last take, oldest first; the shell keeps none of them after.
    public mutating func takeRecords() -> DisplayBatch {
        defer {
            records.removeAll()
            sentFrames.removeAll(keepingCapacity: true)
        }
        return records
    }

    /// Feeds `input` at `instant` and does its effects; returns whether transfers went out.
    @discardableResult
    public mutating func feed<Sampler: PageSampler>(_ input: EngineInput, at instant: Timestamp, sampler: inout Sampler)
        -> Bool
    {
        switch input {
        case .start, .reload, .stop: outsideFrameLoop = true
        default: break
        }
        defer { outsideFrameLoop = false }
        return perform(engine.handle(input, at: instant), at: instant, sampler: &sampler)
    }

    /// Does what `effects` ask, as the run shell does: transfers into the emulator (then
    /// `.written(took:)` with their time on the modelled bus),
    /// reads and glyphs answered by `sampler`. Returns whether transfers went out.
    public mutating func perform<Sampler: PageSampler>(
        _ effects: Effects, at instant: Timestamp, sampler: inout Sampler
    ) -> Bool {
        log += effects.log
        var sent = false
        if !effects.display.isEmpty {
            // The shell keeps every record for the trace: its own copy (the engine reuses its storage).
            emulator.send(effects.display)
            records.append(contentsOf: effects.display)
            let bytes = effects.display.framedByteCount
            let took = FramePacer.busTime(bytes: bytes, transactions: effects.display.count, hertz: busHertz)
            if !outsideFrameLoop {
                if instant < busFreeAt {
                    writesOnBusyBus += 1
                    waitedForBus = waitedForBus + (busFreeAt - instant)
                }
                busFreeAt = max(busFreeAt, instant) + took
            }
            sentFrames.append((instant, bytes, effects.display.count, took))
            sent = true
            let reported =
                timesWrites
                ? took
                : FramePacer.busTime(
                    bytes: bytes, transactions: effects.display.count,
                    hertz: engine.configuration.display.busHertz)
            log += engine.handle(.written(took: reported), at: instant).log
        }
        if !effects.glyphsWanted.isEmpty, let glyphs = sampler.glyphs(for: effects.glyphsWanted) {
            sent = perform(engine.handle(.glyphs(glyphs), at: instant), at: instant, sampler: &sampler) || sent
        }
        if effects.readsClock {
            sent =
                perform(engine.handle(.clock(sampler.clock(at: instant)), at: instant), at: instant, sampler: &sampler)
                || sent
        }
        for read in effects.reads {
            sent =
                perform(engine.handle(sampler.answer(read, at: instant), at: instant), at: instant, sampler: &sampler)
                || sent
        }
        return sent
    }

    /// One turn at `now`, as the Linux loop turns: the crown's facts first, then a tick; returns
    /// whether transfers went out.
    @discardableResult
    public mutating func turn<Sampler: PageSampler>(at now: Timestamp, crown: [CrownEvent], sampler: inout Sampler)
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
    public func wake(after now: Timestamp, nextInput: Timestamp?) -> Timestamp? {
        guard let wake = [engine.nextDeadline, nextInput].compactMap({ $0 }).min() else { return nil }
        // The engine asks again at once only to draw what a read just brought: never forever.
        return wake > now ? wake : ticksAtLastTurn > 3 ? now + .milliseconds(1) : now
    }

    /// Runs from `start` to `end`: each of `events` at its instant, a tick whenever the engine
    /// asks; `observe` sees each turn's instant, whether transfers went out, and the glass.
    public mutating func run<Sampler: PageSampler>(
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
