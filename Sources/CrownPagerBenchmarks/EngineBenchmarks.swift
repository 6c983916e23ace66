import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306

/// The production path's figures: the engine `run` drives (`DeviceEngine`), fed as the run shell
/// feeds it (every pending detent first, then a tick) on a virtual clock, its transfers written
/// into the emulator. The bus is modelled at the configuration's clock (400 kHz): a frame's
/// transfers take their bus time, and the engine sends no frame before the last one is through.
/// Then the same at 100 kHz, 400 kHz and 1 MHz, and with `bus_hz` at 400 kHz on a 100 kHz bus:
/// the shell reports each write's modelled time and the pacer learns the rate from it.
///
/// - latency: detent to the first frame on the bus that shows it (its first byte, and its last
///   byte, when the glass has it), counting only detents that moved a page;
/// - render + encode: wall time per tick that drew, on this machine;
/// - bus bytes per workload, the largest frame, and the bytes as a share of luma.oled's, which
///   sends every frame whole (00h 21h 0 127 22h 0 7, then 40h and 1024 bytes: 1032 a frame).
func runEngineBenchmarks() {
    print("engine: the DeviceEngine run drives, virtual clock, 400 kHz bus model, 128x64 emulator")
    print("  fonts decoded on first use, once a process (not in the ticks below): " + fontDecoding())
    print(
        "workload                         detents  moved  frames    bytes  largest  of luma  first byte mean/p99   glass mean/p99   tick (render+encode)"
    )
    let spin = (0..<90).map { Timestamp.milliseconds(100) + TimeSpan(nanoseconds: Int64($0) * 33_333_333) }
    let single = (0..<10).map { Timestamp.milliseconds(100 + Int64($0) * 1000) }
    for (name, detents, acceleration) in [
        ("steady spin, 30 detents/s", spin, true), ("steady spin, no acceleration", spin, false),
        ("single detents, 1 s apart", single, true),
    ] {
        print(measure(name, detents: detents, acceleration: acceleration).line)
    }
    // A 128x32 panel fills the RAM rows it does not show while the bus is idle: a detent's frame
    // may wait behind one such write (a RAM page, 136 bytes).
    for (name, detents) in [("128x32 (fill), spin 30/s", spin), ("128x32 (fill), single detents", single)] {
        print(measure(name, detents: detents, acceleration: true, panel: .ssd1306_128x32).line)
    }
    print("")
    print("bus speeds: the same pages, the bus modelled at each clock; the pacer learns it from the writes' times")
    print(
        "workload            bus_hz    real bus  frames    bytes  largest  slide interval  learnt   on busy bus (waited)  first byte mean/p99   glass mean/p99"
    )
    for (name, detents) in [("slides", single), ("spin", spin)] {
        for (configured, real, timed) in [
            (100_000, 100_000, true), (400_000, 400_000, true), (1_000_000, 1_000_000, true),
            (400_000, 100_000, true), (400_000, 100_000, false),
        ] {
            let figures = measure(
                timed ? name : name + ", untimed", detents: detents, acceleration: false, busHertz: configured,
                realBusHertz: real, timesWrites: timed)
            print(figures.busLine(configured: configured, real: real))
        }
    }
}

/// A clock in kHz or MHz.
func hertzName(_ hertz: Int) -> String {
    hertz >= 1_000_000 && hertz % 1_000_000 == 0 ? "\(hertz / 1_000_000) MHz" : "\(hertz / 1000) kHz"
}

/// Decodes the built-in fonts (their first use) and says how long each took.
func fontDecoding() -> String {
    let clock = ContinuousClock()
    var parts: [String] = []
    for (name, font) in [("5x8", { BitmapFont.fixed5x8 }), ("6x10", { .fixed6x10 }), ("10x20", { .fixed10x20 })] {
        var glyphs = 0
        let elapsed = clock.measure { glyphs = font().glyphCount }
        let microseconds = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        parts.append("\(name) \(glyphs) glyphs \(fixed2(microseconds / 1000)) ms")
    }
    return parts.joined(separator: ", ")
}

/// What one workload measured.
struct EngineFigures {
    var name: String
    var detents = 0
    var moved = 0
    var frames = 0
    var bytes = 0
    var largestFrame = 0
    var fullFrameBytes = 0
    var firstByte: [Int64] = []
    var glass: [Int64] = []
    var renderNanoseconds: [Int64] = []
    /// The pacer's frame interval at each frame drawn while a slide moved.
    var slideIntervals: [Int64] = []
    /// The clock the pacer learnt, at the end.
    var learntHertz = 0
    /// Frames written while the modelled bus still carried the one before, and how long they waited all told.
    var writesOnBusyBus = 0
    var waitedForBus = TimeSpan.zero

    /// The bus-speed table's line.
    func busLine(configured: Int, real: Int) -> String {
        let interval =
            slideIntervals.isEmpty
            ? "-" : fixed1(Double(slideIntervals.sorted()[slideIntervals.count / 2]) / 1e6) + " ms"
        return name.padding(16) + hertzName(configured).leftPadding(10) + hertzName(real).leftPadding(12)
            + String(frames).leftPadding(8) + String(bytes).leftPadding(9) + String(largestFrame).leftPadding(9)
            + interval.leftPadding(16) + hertzName(learntHertz / 1000 * 1000).leftPadding(10)
            + (String(writesOnBusyBus) + " (" + fixed1(Double(waitedForBus.nanoseconds) / 1e6) + " ms)").leftPadding(16)
            + stats(firstByte).leftPadding(22) + stats(glass).leftPadding(17)
    }

    func stats(_ values: [Int64]) -> String {
        guard !values.isEmpty else { return "-" }
        let sorted = values.sorted()
        let mean = Double(values.reduce(0, +)) / Double(values.count) / 1e6
        let p99 = Double(sorted[min(sorted.count - 1, (sorted.count * 99) / 100)]) / 1e6
        return fixed2(mean) + "/" + fixed2(p99) + " ms"
    }

    var line: String {
        let render =
            renderNanoseconds.isEmpty
            ? "-" : fixed2(Double(renderNanoseconds.reduce(0, +)) / Double(renderNanoseconds.count) / 1000) + " us"
        return name.padding(32) + String(detents).leftPadding(8) + String(moved).leftPadding(7)
            + String(frames).leftPadding(8) + String(bytes).leftPadding(9) + String(largestFrame).leftPadding(9)
            + (fixed1(Double(bytes) * 100 / Double(max(1, frames * fullFrameBytes))) + " %").leftPadding(9)
            + stats(firstByte).leftPadding(22)
            + stats(glass).leftPadding(17) + render.leftPadding(26)
    }
}

/// 400 text pages (a spin never reaches the end), the built-in display (or `panel`) and crown,
/// `detents` turned at their instants; `bus_hz` is `busHertz`, the modelled bus runs at `realBusHertz`.
func measure(
    _ name: String, detents: [Timestamp], acceleration: Bool, busHertz: Int = 400_000, realBusHertz: Int? = nil,
    timesWrites: Bool = true, panel: SSD1306Panel? = nil
) -> EngineFigures {
    var configuration = Configuration.builtIn
    if let panel { configuration.display.panel = panel }
    configuration.display.bus = nil
    configuration.display.busHertz = busHertz
    configuration.crown.acceleration = acceleration
    configuration.pages = (1...400).map {
        // Short enough to fit: a taller page would scroll its content before paging.
        PageSpec(title: "Page \($0)", kind: .text(String(repeating: "\($0) ", count: 12)))
    }
    var sampler = SamplePageSampler()
    var shell = VirtualShell.started(configuration, sampler: &sampler, busHertz: realBusHertz)
    shell.timesWrites = timesWrites
    var figures = EngineFigures(name: name)
    figures.detents = detents.count
    figures.fullFrameBytes = fullFrameLoad(configuration.display.panel).bytes
    let clock = ContinuousClock()
    var waiting: [Timestamp] = []  // detents that moved a page and no frame has shown yet
    var now = Timestamp.zero
    var next = 0
    let end = (detents.last ?? .zero) + .milliseconds(2000)
    var sentBefore = 0
    while now <= end {
        var crown: [CrownEvent] = []
        while next < detents.count, detents[next] <= now {
            crown.append(.rotated(detents: 1, at: detents[next]))
            next += 1
        }
        // The shell's turn, detent by detent so each one's effect on the page is seen.
        var moved: [Timestamp] = []
        for event in crown {
            let before = shell.engine.snapshot.page
            shell.feed(.crown(event), at: now, sampler: &sampler)
            if shell.engine.snapshot.page != before { moved.append(event.timestamp) }
        }
        // The tick alone is timed: the engine renders and encodes; the emulator's share is the panel's.
        let snapshot = shell.engine.snapshot(at: now)
        let moving = snapshot.isAnimating
        let interval = snapshot.frameInterval
        let busFree = shell.busFreeAt
        let started = clock.now
        let effects = shell.engine.handle(.tick, at: now)
        let elapsed = started.duration(to: clock.now)
        let sent = shell.perform(effects, at: now, sampler: &sampler)
        waiting += moved
        figures.moved += moved.count
        if sent {
            figures.frames += 1
            figures.renderNanoseconds.append(
                elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
            let frameBytes = shell.sentFrames[sentBefore...].reduce(0) { $0 + $1.bytes }
            figures.bytes += frameBytes
            // The first frame after the start is the whole glass, before any detent: not the turns' cost.
            if next > 0 { figures.largestFrame = max(figures.largestFrame, frameBytes) }
            if moving { figures.slideIntervals.append(interval.nanoseconds) }
            // On the modelled bus: the first byte when the bus is free (at once, unless a frame
            // came too early), the last when the modelled bus has carried it.
            let firstByte = max(now, busFree)
            for detent in waiting {
                figures.firstByte.append((firstByte - detent).nanoseconds)
                figures.glass.append((shell.busFreeAt - detent).nanoseconds)
            }
            waiting = []
        }
        sentBefore = shell.sentFrames.count
        guard let wake = shell.wake(after: now, nextInput: next < detents.count ? detents[next] : nil), wake <= end
        else { break }
        now = wake
    }
    figures.learntHertz = shell.engine.snapshot.learntBusHertz
    figures.writesOnBusyBus = shell.writesOnBusyBus
    figures.waitedForBus = shell.waitedForBus
    return figures
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    fileprivate func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
