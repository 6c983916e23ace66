import PagerGraphics

/// What a person sees while a frame is on the bus: the panel refreshes its rows one after another,
/// whatever the bus is doing, so a refresh that passes the row being written shows the new frame
/// above it and the old one below (a tear).
///
/// The controller scans ROW 0, ROW 1, ... ROW mux-1 in turn (SSD1306 section 8.4 and the
/// COM signal figures of section 10), each for one row period, then starts again. The refresh
/// rate is Fosc / (D x K x mux) (section 8.3): K is the pre-charge phases plus 50 clocks of
/// BANK0, so the init's D5h 80h (Fosc about 370 kHz, D = 1), D9h F1h (K = 66) and a mux of 64
/// give about 88 refreshes a second; Fosc varies from chip to chip, so the rate is an input.
/// Nothing on an I2C module tells the driver where the scan is (the SSD1306 has no tearing
/// effect output there), so its phase is an input too.
///
/// The replay feeds timed transactions into an emulator byte by byte: each byte lands when its
/// ninth clock ends on a bus of `busHertz` (after the start condition and the address byte),
/// and each glass row is taken at the instant the scan reaches its ROW.
package struct ScanReplay {
    /// The emulated controller, as the bytes so far have left it.
    package private(set) var emulator: SSD1306Emulator
    /// Nanoseconds a row is driven.
    package let rowPeriod: Int64
    /// The bus clock.
    package let busHertz: Int
    /// Every complete refresh so far, as the glass showed it, oldest first.
    package private(set) var refreshes: [Bitmap] = []
    /// The glass rows each ROW drives (a ROW may drive none); on an SH1107, the glass columns each line drives.
    private let rowsOfScan: [[Int]]
    /// Whether the scan runs across the glass's columns: an SH1107's COMs are its columns.
    private let scansColumns: Bool
    /// The refresh being scanned, and the next ROW and when it is scanned.
    private var current: Bitmap
    private var nextROW = 0
    private var nextScan: Int64
    private let mux: Int

    /// A replay on `emulator` (its state is the glass before the first transaction) refreshing
    /// `refreshHertz` times a second, the first refresh starting at `phase` nanoseconds.
    package init(emulator: SSD1306Emulator, refreshHertz: Double, phase: Int64, busHertz: Int) {
        self.emulator = emulator
        self.busHertz = max(1, busHertz)
        mux = max(1, emulator.registers.multiplexRatio)
        rowPeriod = max(1, Int64((1e9 / max(1, refreshHertz) / Double(mux)).rounded()))
        scansColumns = emulator.controller == .sh1107
        var rows = [[Int]](repeating: [], count: emulator.controller.ramRows)
        if scansColumns {
            // Lines in scan order: COM p carries line (p + D) mod 128, and each COM is a glass column.
            for x in 0..<emulator.panel.width {
                rows[(emulator.glassRowPins[x] + emulator.registers.displayOffset) & 127].append(x)
            }
        } else {
            for y in 0..<emulator.panel.height {
                rows[SSD1306Emulator.row(onPin: emulator.glassRowPins[y], emulator.registers.comPinsConfiguration)]
                    .append(y)
            }
        }
        rowsOfScan = rows
        current = emulator.glass
        nextScan = phase
    }

    /// The nominal refresh rate of `registers` (section 8.3): Fosc taken as 370 kHz at D5h A[7:4]
    /// = 8 and about 4% more or less per step of A[7:4], as the datasheet's Fosc figure runs.
    package static func nominalRefreshHertz(_ registers: SSD1306Registers) -> Double {
        let step = Double(Int(registers.displayClock >> 4) - 8)
        let oscillator = 370_000 * (1 + 0.04 * step)
        let divide = Double(Int(registers.displayClock & 0x0F) + 1)
        let phases = Double(Int(registers.prechargePeriod & 0x0F) + Int(registers.prechargePeriod >> 4) + 50)
        return oscillator / (divide * phases * Double(max(1, registers.multiplexRatio)))
    }

    /// Nanoseconds one byte takes on the bus, its acknowledge included.
    package var byteTime: Int64 { 9_000_000_000 / Int64(busHertz) }

    /// Sends `transfer` starting at `start` nanoseconds; returns when its stop condition ends.
    @discardableResult
    package mutating func send(_ transfer: I2CTransfer, at start: Int64) -> Int64 {
        // Start condition and address byte, then the control byte.
        var landed = start + byteTime / 9 + byteTime + byteTime
        let bytes = transfer.bytes
        guard let control = bytes.first else { return landed }
        if control & 0x40 == 0 || bytes.count == 1 {
            // Commands take effect as a whole when the last of them is in.
            landed += byteTime * Int64(max(0, bytes.count - 1))
            scan(until: landed)
            emulator.write(bytes, to: transfer.address)
            return landed + byteTime / 9
        }
        // Display data: byte by byte, each in RAM once clocked in.
        var index = 1
        while index < bytes.count {
            landed += byteTime
            // Everything landing before the next scan goes in as one write.
            var end = index + 1
            while end < bytes.count, landed + byteTime * Int64(end - index) < nextScan { end += 1 }
            landed += byteTime * Int64(end - index - 1)
            scan(until: landed)
            emulator.write([control] + bytes[index..<end], to: transfer.address)
            index = end
        }
        return landed + byteTime / 9
    }

    /// Lets the scan run until `instant` with nothing more on the bus.
    package mutating func idle(until instant: Int64) { scan(until: instant) }

    /// Takes every row the scan reaches before `instant`, from the glass as it is.
    private mutating func scan(until instant: Int64) {
        guard nextScan < instant else { return }
        let glass = emulator.glass
        while nextScan < instant {
            for line in rowsOfScan[nextROW] {
                if scansColumns {
                    for y in 0..<glass.height { current[line, y] = glass[line, y] }
                } else {
                    for x in 0..<glass.width { current[x, line] = glass[x, line] }
                }
            }
            nextROW += 1
            nextScan += rowPeriod
            if nextROW == mux {
                refreshes.append(current)
                nextROW = 0
            }
        }
    }
}
