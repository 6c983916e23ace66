import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
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

/// Bytes and transactions on the I2C bus, and their bus time, for typical display workloads:
/// partial updates against a full frame for every frame presented.
func runDisplayBenchmarks() {
    print("Display: bus load per workload (partial updates vs a full frame every frame)")
    print("workload                panel          method    transactions    bytes   100 kHz   400 kHz     1 MHz")
    for panel in [SSD1306Panel.ssd1306_128x64, .sh1106_128x64] {
        for (name, partial, full) in workloads(panel) {
            for (method, load) in [("partial", partial), ("full", full)] {
                print(
                    pad(name, 23) + " " + pad(panel.name, 14) + " " + pad(method, 8)
                        + leftPad(String(load.transactions), 14) + leftPad(String(load.bytes), 9)
                        + [100_000, 400_000, 1_000_000].map { leftPad(fixed1(load.milliseconds(at: $0)) + " ms", 10) }
                        .joined())
            }
        }
    }
}

/// A page slide (the engine's 60 frames a second), a clock tick and an idle second, through the
/// engine `run` drives, each against a full frame for every frame the engine sent.
private func workloads(_ panel: SSD1306Panel) -> [(String, BusLoad, BusLoad)] {
    var configuration = Configuration.demo()
    configuration.display.panel = panel
    configuration.display.bus = nil
    var sampler = TickingSampler()
    var shell = startedShell(configuration, sampler: &sampler)
    shell.run(events: [], from: .zero, until: .milliseconds(50), sampler: &sampler)
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
    let (slide, slideBaseline, slideFrames) = load(
        [.rotated(detents: 1, at: .milliseconds(100))], from: .milliseconds(100), until: .milliseconds(900))
    results.append(("page slide (\(slideFrames) frames)", slide, slideBaseline))
    // The clock page's second turns over.
    let (tick, _, _) = load([], from: .milliseconds(900), until: .milliseconds(1500))
    results.append(("clock tick", tick, fullFrame))
    // An idle second on a page that does not change: back to the welcome page, then a second of nothing.
    // (The automatic indicator plate fades out first, after the turn.)
    _ = load([.rotated(detents: -1, at: .milliseconds(1500))], from: .milliseconds(1500), until: .milliseconds(5000))
    let (still, _, _) = load([], from: .milliseconds(5000), until: .milliseconds(6000))
    results.append(("idle second", still, fullFrame))
    return results
}

/// The sample readings, with the clock's second following the run's time.
struct TickingSampler: PageSampler {
    func clock(at instant: Timestamp) -> ClockReading {
        var clock = SampleReadings.clock
        clock.second = Int(instant.nanoseconds / 1_000_000_000) % 60
        return clock
    }

    func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput {
        SamplePageSampler().answer(read, at: instant)
    }
}

/// One full frame as the driver sends it.
private func fullFrameLoad(_ panel: SSD1306Panel) -> BusLoad {
    var driver = SSD1306Driver(bus: TracingBus(SSD1306Emulator(panel: panel)), panel: panel)
    driver.writeFrame(Bitmap(width: panel.width, height: panel.height))
    var load = BusLoad()
    load.add(driver.bus.transfers)
    return load
}

private func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

private func leftPad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}
