import CrownVocabulary
import PagerEngine
import PagerSettings
import PagerTools
import SSD1306

/// What each step of `display.pixel_shift` puts on the I2C bus, on the demo's first page: a row
/// step (the display start line) and a column step (the columns that hold content), and the
/// writes that fill a short panel's rows off the glass again in the second after it.
func runBurnInBenchmarks() {
    print("Burn-in care: a pixel_shift step on the bus (the demo's first page; bytes after the address byte)")
    print("panel           step     frame bytes  transactions  400 kHz   refill bytes  transactions")
    for panel in [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32, .sh1106_128x64] {
        var steps: [(isRow: Bool, frame: BusLoad, refill: BusLoad)] = []
        var sampler = TickingSampler()
        var configuration = Configuration.demo()
        configuration.display.panel = panel
        configuration.display.bus = nil
        configuration.display.dimAfter = nil
        configuration.display.offAfter = nil
        configuration.display.pixelShift = .seconds(10)
        var shell = VirtualShell.started(configuration, sampler: &sampler)
        shell.run(events: [], from: .zero, until: .milliseconds(9000), sampler: &sampler)
        for step in 1...PixelShift.orbit.count {
            let due = Timestamp.milliseconds(10_000 * Int64(step))
            _ = shell.takeRecords()
            shell.run(events: [], from: due, until: due, sampler: &sampler)
            var frame = BusLoad()
            frame.add(shell.transfers)
            _ = shell.takeRecords()
            shell.run(events: [], from: due + .milliseconds(1), until: due + .milliseconds(9000), sampler: &sampler)
            var refill = BusLoad()
            refill.add(shell.transfers)
            let isRow = PixelShift.orbit[step % PixelShift.orbit.count].down != PixelShift.orbit[step - 1].down
            steps.append((isRow, frame, refill))
        }
        for isRow in [true, false] {
            let taken = steps.filter { $0.isRow == isRow }
            func range(_ value: (BusLoad) -> Int) -> String {
                let values = taken.map { value($0.frame) }
                let low = values.min() ?? 0
                let high = values.max() ?? 0
                return low == high ? String(low) : "\(low)-\(high)"
            }
            let refills = taken.map { $0.refill.bytes }
            let refillTransactions = taken.map { $0.refill.transactions }
            let slowest = taken.map { $0.frame.milliseconds(at: 400_000) }.max() ?? 0
            print(
                pad(panel.name, 15) + " " + pad(isRow ? "row" : "column", 8)
                    + leftPad(range { $0.bytes }, 12) + leftPad(range { $0.transactions }, 14)
                    + leftPad(fixed1(slowest) + " ms", 9)
                    + leftPad("\(refills.min() ?? 0)-\(refills.max() ?? 0)", 15)
                    + leftPad("\(refillTransactions.min() ?? 0)-\(refillTransactions.max() ?? 0)", 14))
        }
    }
}
