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

/// A page slide at 60 frames a second, a clock tick, and an idle second, each measured both ways.
private func workloads(_ panel: SSD1306Panel) -> [(String, BusLoad, BusLoad)] {
    let frameSpan = TimeSpan.milliseconds(16)
    var session = PagerSession(
        pages: demoPages(clock: SampleReadings.clock, system: SampleReadings.system), panel: panel,
        bus: TracingBus(SSD1306Emulator(panel: panel)))
    session.start()
    session.present(at: .zero)
    _ = session.display.bus.drainTransfers()
    let fullFrame = fullFrameLoad(panel)
    var results: [(String, BusLoad, BusLoad)] = []

    // A slide from the welcome page to the clock, every frame until it settles.
    var slide = BusLoad()
    var slideBaseline = BusLoad()
    var instant = Timestamp.zero + .milliseconds(100)
    session.handle(.rotated(detents: 1, at: instant))
    repeat {
        session.advance(to: instant)
        session.present(at: instant)
        slide.add(session.display.bus.drainTransfers())
        slideBaseline.transactions += fullFrame.transactions
        slideBaseline.bytes += fullFrame.bytes
        instant = instant + frameSpan
    } while session.isAnimating(at: instant - frameSpan)
    results.append(
        ("page slide (\(slideBaseline.transactions / max(1, fullFrame.transactions)) frames)", slide, slideBaseline))

    // The clock page's second turns over.
    var clock = SampleReadings.clock
    clock.second += 1
    session.replacePages(demoPages(clock: clock, system: SampleReadings.system))
    instant = instant + .milliseconds(1000)
    session.advance(to: instant)
    session.present(at: instant)
    var tick = BusLoad()
    tick.add(session.display.bus.drainTransfers())
    results.append(("clock tick", tick, fullFrame))

    // An idle second on a page that does not change: the loop wakes once and finds nothing to send.
    session.advance(to: instant + .milliseconds(1000))
    session.present(at: instant + .milliseconds(1000))
    var idle = BusLoad()
    idle.add(session.display.bus.drainTransfers())
    results.append(("idle second", idle, fullFrame))
    return results
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
