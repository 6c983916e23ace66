import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// The scan model behind the tearing figures: refreshes taken row by row while bytes land.
@Suite struct ScanReplayTests {
    /// An initialised 128x64 panel showing a dark frame, display on.
    func darkPanel() -> SSD1306Emulator {
        var driver = SSD1306Driver(bus: SSD1306Emulator(), panel: .ssd1306_128x64)
        driver.initialize()
        driver.writeFrame(Bitmap(width: 128, height: 64))
        return driver.interface.bus
    }

    /// A whole lit frame, as the driver sends it.
    func litFrame() -> [I2CTransfer] {
        var driver = SSD1306Driver(bus: TracingBus(SSD1306Emulator()), panel: .ssd1306_128x64)
        var lit = Bitmap(width: 128, height: 64)
        lit.fill(true)
        driver.writeFrame(lit)
        return driver.interface.bus.drainTransfers()
    }

    @Test func theInitsRegistersRefreshAbout88TimesASecond() {
        let hertz = ScanReplay.nominalRefreshHertz(darkPanel().registers)
        // 370 kHz / (1 x (1 + 15 + 50) x 64)
        #expect(abs(hertz - 87.6) < 0.1)
    }

    @Test func aFrameSlowerThanARefreshTearsWhereTheScanMeetsTheWrite() {
        // 1032 bytes at 400 kHz take 23 ms: two refreshes of 11.4 ms see it half written.
        var replay = ScanReplay(emulator: darkPanel(), refreshHertz: 87.6, phase: 0, busHertz: 400_000)
        var at: Int64 = 0
        for transfer in litFrame() { at = replay.send(transfer, at: at) }
        #expect((22_000_000...24_000_000).contains(at))
        replay.idle(until: at + 30_000_000)
        let full = 128 * 64
        let torn = replay.refreshes.filter { $0.litPixelCount != 0 && $0.litPixelCount != full }
        #expect(torn.count >= 1)
        // The write runs from the top (page 0) down; upright, the scan climbs from the bottom row:
        // a torn refresh is lit above the row where they met and dark below it.
        for refresh in torn {
            let litRows = (0..<64).filter { y in refresh[5, y] }
            #expect(litRows == Array(0..<litRows.count), "lit rows \(litRows)")
        }
        #expect(replay.refreshes.last?.litPixelCount == full)
    }

    @Test func aFrameFasterThanARowTearsOneRefreshAtMost() {
        // At 100 MHz the whole frame is in RAM within 0.1 ms, less than a row's 0.18 ms: only the
        // refresh under way then shows both frames, the dark rows it scanned before and the lit after.
        for phase in stride(from: Int64(0), to: 11_000_000, by: 1_000_000) {
            var replay = ScanReplay(emulator: darkPanel(), refreshHertz: 87.6, phase: phase, busHertz: 100_000_000)
            var at: Int64 = 50_000_000
            for transfer in litFrame() { at = replay.send(transfer, at: at) }
            replay.idle(until: at + 30_000_000)
            let torn = replay.refreshes.filter { $0.litPixelCount != 0 && $0.litPixelCount != 128 * 64 }
            #expect(torn.count <= 1, "phase \(phase)")
            #expect(replay.refreshes.last?.litPixelCount == 128 * 64)
        }
    }

    @Test func anSH1107ScansAcrossItsColumnsWhileThePagesGoDown() {
        // The 64x128 module: its COMs are the glass's columns, so a refresh takes column after
        // column while the frame's 16 pages land top to bottom; every column of a torn refresh is
        // lit from the top down to where the write had come when the scan took it.
        let panel = SSD1306Panel.sh1107_64x128
        var dark = SSD1306Driver(bus: SSD1306Emulator(panel: panel), panel: panel)
        dark.initialize()
        dark.writeFrame(Bitmap(width: 64, height: 128))
        var lit = Bitmap(width: 64, height: 128)
        lit.fill(true)
        var writer = SSD1306Driver(bus: TracingBus(SSD1306Emulator(panel: panel)), panel: panel)
        writer.writeFrame(lit)
        let hertz = ScanReplay.nominalRefreshHertz(dark.interface.bus.registers)
        var replay = ScanReplay(emulator: dark.interface.bus, refreshHertz: hertz, phase: 0, busHertz: 400_000)
        var at: Int64 = 0
        for transfer in writer.interface.bus.drainTransfers() { at = replay.send(transfer, at: at) }
        // D5h 51h, D9h 22h and 64 COMs refresh about 47 times a second: wait two refreshes.
        replay.idle(until: at + 45_000_000)
        let full = 64 * 128
        let torn = replay.refreshes.filter { $0.litPixelCount != 0 && $0.litPixelCount != full }
        #expect(torn.count >= 1)
        for refresh in torn {
            for x in [0, 31, 63] {
                let litRows = (0..<128).filter { y in refresh[x, y] }
                #expect(litRows == Array(0..<litRows.count), "column \(x): lit rows \(litRows)")
            }
        }
        #expect(replay.refreshes.last?.litPixelCount == full)
    }
}
