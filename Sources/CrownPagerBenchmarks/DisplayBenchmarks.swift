import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306

/// What went on the bus for one workload.
struct BusLoad {
    var transactions = 0
    var bytes = 0  // after the address byte, control bytes included

    /// Bits on the wire: 9 per byte (8 + ACK), plus start, address byte (9) and stop per transaction.
    var bits: Int { bytes * 9 + transactions * (1 + 9 + 1) }

    /// Milliseconds the bus is busy at `hertz`.
    func milliseconds(at hertz: Int) -> Double { Double(bits) * 1000 / Double(hertz) }

    mutating func add(_ transfers: [I2CTransfer]) {
        transactions += transfers.count
        bytes += transfers.reduce(0) { $0 + $1.bytes.count }
    }
}

/// What the page slide of one panel sent, frame by frame.
struct SlideFigures {
    var panel: SSD1306Panel
    /// Which slide: the first after the start, or the one back, over RAM the driver knows.
    var slide = "first"
    var frames: [BusLoad] = []  // each frame: bytes after the address byte, and transactions
    var fullFrame = BusLoad()  // one full frame as luma.oled sends it (and our driver's writeFrame)

    var line: String {
        let bytes = frames.reduce(0) { $0 + $1.bytes }
        let largest = frames.max { $0.bytes < $1.bytes } ?? BusLoad()
        let luma = fullFrame.bytes * frames.count
        let percent = luma == 0 ? 0 : Double(bytes) * 100 / Double(luma)
        return pad(panel.name, 15) + pad(slide, 7) + leftPad(String(frames.count), 7) + leftPad(String(bytes), 8)
            + leftPad(String(largest.bytes), 9) + leftPad(fixed1(largest.milliseconds(at: 400_000)) + " ms", 10)
            + leftPad(String(luma), 9) + leftPad(fixed1(percent) + " %", 9)
    }
}

/// Bytes and transactions on the I2C bus, and their bus time, for typical display workloads:
/// partial updates against a full frame for every frame presented; then the page slide's frames
/// against luma.oled's, which sends every frame whole.
func runDisplayBenchmarks() {
    print("Display: bus load per workload (partial updates vs a full frame every frame)")
    print("workload                panel          method    transactions    bytes   100 kHz   400 kHz     1 MHz")
    var slides: [SlideFigures] = []
    for panel in [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32, .sh1106_128x64, .sh1107_64x128, .sh1107_128x128] {
        let (loads, panelSlides) = workloads(panel)
        slides += panelSlides
        for (name, partial, full) in loads {
            for (method, load) in [("partial", partial), ("full", full)] {
                print(
                    pad(name, 23) + " " + pad(panel.name, 14) + " " + pad(method, 8)
                        + leftPad(String(load.transactions), 14) + leftPad(String(load.bytes), 9)
                        + [100_000, 400_000, 1_000_000].map { leftPad(fixed1(load.milliseconds(at: $0)) + " ms", 10) }
                        .joined())
            }
        }
    }
    print("")
    print("Page slide, frame by frame, against luma.oled: a full frame every frame (SSD1306: 00h 21h 0 127")
    print("22h 0 p, then 40h and the data; SH1106: 00h B0h+p 02h 10h, then 40h and 128 bytes, per page;")
    print("SH1107: the same from column 00h, 16 pages of 64 or 128 bytes)")
    print("(first: the first slide after the start; back: the slide back to the first page, later)")
    print("panel           slide   frames   bytes  largest  400 kHz     luma  of luma")
    for slide in slides { print(slide.line) }
}

/// A page slide (the engine's 60 frames a second), a clock tick and an idle second, through the
/// engine `run` drives, each against a full frame for every frame the engine sent.
private func workloads(_ panel: SSD1306Panel) -> ([(String, BusLoad, BusLoad)], [SlideFigures]) {
    var sampler = TickingSampler()
    var shell = demoShell(panel, sampler: &sampler)
    let fullFrame = fullFrameLoad(panel)
    var results: [(String, BusLoad, BusLoad)] = []

    /// The transfers of a stretch of the run, and a full frame for each frame sent in it.
    func load(_ events: [CrownEvent], from start: Timestamp, until end: Timestamp) -> (BusLoad, BusLoad, Int) {
        let transfersBefore = shell.transfers.count
        let framesBefore = shell.sentFrames.count
        shell.run(events: events, from: start, until: end, sampler: &sampler)
        var sent = BusLoad()
        sent.add(Array(shell.transfers[transfersBefore...]))
        let frames = shell.sentFrames.count - framesBefore
        var baseline = BusLoad()
        baseline.transactions = fullFrame.transactions * frames
        baseline.bytes = fullFrame.bytes * frames
        return (sent, baseline, frames)
    }

    // A slide from the welcome page to the clock, until it settles (before the clock's next second).
    let framesBefore = shell.sentFrames.count
    let (slide, slideBaseline, slideFrames) = load(
        [.rotated(detents: 1, at: .milliseconds(100))], from: .milliseconds(100), until: .milliseconds(900))
    results.append(("page slide (\(slideFrames) frames)", slide, slideBaseline))
    let figures = SlideFigures(
        panel: panel,
        frames: shell.sentFrames[framesBefore...].map { BusLoad(transactions: $0.transactions, bytes: $0.bytes) },
        fullFrame: fullFrame)
    // The clock page's second turns over.
    let (tick, _, _) = load([], from: .milliseconds(900), until: .milliseconds(1500))
    results.append(("clock tick", tick, fullFrame))
    // An idle second on a page that does not change: back to the welcome page (a slide over RAM
    // the driver knows), then a second of nothing. (The automatic indicator plate fades out first.)
    let backBefore = shell.sentFrames.count
    _ = load([.rotated(detents: -1, at: .milliseconds(1500))], from: .milliseconds(1500), until: .milliseconds(2300))
    let back = SlideFigures(
        panel: panel, slide: "back",
        frames: shell.sentFrames[backBefore...].map { BusLoad(transactions: $0.transactions, bytes: $0.bytes) },
        fullFrame: fullFrame)
    _ = load([], from: .milliseconds(2300), until: .milliseconds(5000))
    let (still, _, _) = load([], from: .milliseconds(5000), until: .milliseconds(6000))
    results.append(("idle second", still, fullFrame))
    return (results, [figures, back])
}

/// The demo pages on `panel` (no hardware), started and settled on the first page for 50 ms.
func demoShell(_ panel: SSD1306Panel, sampler: inout TickingSampler) -> VirtualShell {
    var configuration = Configuration.demo()
    configuration.display.panel = panel
    configuration.display.bus = nil
    var shell = VirtualShell.started(configuration, sampler: &sampler)
    shell.run(events: [], from: .zero, until: .milliseconds(50), sampler: &sampler)
    return shell
}

/// The sample readings, with the clock's second following the run's time.
struct TickingSampler: PageSampler {
    func clock(at instant: Timestamp) -> ClockReading {
        var clock = SampleReadings.clock
        clock.second = Int(instant.nanoseconds / 1_000_000_000) % 60
        return clock
    }

    func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput? {
        SamplePageSampler().answer(read, at: instant)
    }
}

/// One full frame as the driver sends it, and as luma.oled sends every frame.
func fullFrameLoad(_ panel: SSD1306Panel) -> BusLoad {
    var driver = SSD1306Driver(bus: TracingBus(SSD1306Emulator(panel: panel)), panel: panel)
    driver.writeFrame(Bitmap(width: panel.width, height: panel.height))
    var load = BusLoad()
    load.add(driver.interface.bus.transfers)
    return load
}
