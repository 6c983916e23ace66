import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// The SH1107 (64 x 128 and 128 x 128 modules): 16 pages, a RAM column per COM, the start line
/// in DCh. Hand-written byte streams, as the v2.1 command descriptions read.
@Suite struct SH1107Tests {
    /// A 64 x 128 module's own setup (A8h 3Fh, D3h 60h, A0h, C0h, DCh 00h, page addressing).
    let setup64: [UInt8] = [0x00, 0xAE, 0xA8, 0x3F, 0xD3, 0x60, 0xA0, 0xC0, 0xDC, 0x00, 0x20]

    func emulator(_ panel: SSD1306Panel, _ transactions: [[UInt8]]) -> SSD1306Emulator {
        var emulator = SSD1306Emulator(panel: panel)
        for bytes in transactions { emulator.write(bytes, to: .ssd1306Primary) }
        return emulator
    }

    func problems(_ emulator: SSD1306Emulator) -> [SSD1306Emulator.Diagnostic.Problem] {
        emulator.diagnostics.map { $0.problem }
    }

    @Test func resetValuesAreTheSH1107s() {
        let registers = SSD1306Emulator(panel: .sh1107_128x128).registers
        #expect(registers.multiplexRatio == 128)
        #expect(registers.contrast == 0x80)
        #expect(registers.displayClock == 0x50)
        #expect(registers.vcomhDeselectLevel == 0x35)
        #expect(registers.isChargePumpEnabled)
        #expect(registers.addressingMode == .page)
        let ram = SSD1306Emulator(panel: .sh1107_128x128).displayRAM
        #expect(ram.width == 128)
        #expect(ram.height == 128)
    }

    @Test func aDataByteRunsDownTheSEGsOfItsColumnAndColumnsAreGlassColumns() {
        // Page 2 (B2h), column 5: the byte's bits light glass rows 16...23 of glass column 5.
        let glass = emulator(.sh1107_64x128, [setup64, [0x00, 0xB2, 0x05, 0x10], [0x40, 0xFF], [0x00, 0xAF]]).glass
        var expected = Bitmap(width: 64, height: 128)
        expected.fillRect(Rect(x: 5, y: 16, width: 1, height: 8))
        #expect(glass == expected)
    }

    @Test func pagesBeyondTheSeventhAndTheHigherNibbleFirst() {
        // B9h selects page 9; 11h before 05h and 05h before 11h both give column 21 (15h).
        let highFirst = emulator(.sh1107_128x128, [setup64, [0x00, 0xB9, 0x11, 0x05], [0x40, 0x01]])
        let lowFirst = emulator(.sh1107_128x128, [setup64, [0x00, 0xB9, 0x05, 0x11], [0x40, 0x01]])
        let ram = highFirst.displayRAM
        #expect(ram[21, 72])
        #expect(ram.litPixelCount == 1)
        #expect(lowFirst.displayRAM == ram)
        #expect(highFirst.diagnostics.isEmpty)
        // 17h is the highest nibble: column 7xh; 18h is no SH1107 command.
        let last = emulator(.sh1107_128x128, [[0x00, 0xBF, 0x17, 0x0F], [0x40, 0x80]])
        #expect(last.displayRAM[127, 127])
        let beyond = emulator(.sh1107_128x128, [[0x00, 0x18]])
        #expect(problems(beyond) == [.unknownCommand(0x18)])
    }

    @Test func theColumnCounterStopsAfter127InPageAddressing() {
        var data: [UInt8] = [0x40]
        data += [UInt8](repeating: 0x01, count: 130)
        let filled = emulator(.sh1107_128x128, [[0x00, 0xB0, 0x00, 0x10], data, [0x00, 0xB1, 0x00, 0x10]])
        let ram = filled.displayRAM
        #expect(ram.litPixelCount == 128)
        #expect(!ram[0, 8])  // nothing wrapped onto the next page
    }

    @Test func verticalAddressingRunsDownThePages() {
        // 21h stands alone on an SH1107 (no window arguments): the next byte is a command again.
        let vertical = emulator(.sh1107_128x128, [[0x00, 0x21, 0xB0, 0x03, 0x10], [0x40, 0x01, 0x02, 0x04]])
        let ram = vertical.displayRAM
        #expect(ram[3, 0] && ram[3, 9] && ram[3, 18])
        #expect(ram.litPixelCount == 3)
        #expect(vertical.registers.addressingMode == .vertical)
        #expect(vertical.diagnostics.isEmpty)
    }

    @Test func theStartLineDChMovesColumnsAndItsOffsetPicksTheWiredCOMs() {
        // RAM column 10 lit top to bottom (all 16 pages).
        var fill: [[UInt8]] = [setup64]
        for page in 0..<16 { fill += [[0x00, 0xB0 | UInt8(page), 0x0A, 0x10], [0x40, 0xFF]] }
        fill.append([0x00, 0xAF])
        let still = emulator(.sh1107_64x128, fill).glass
        #expect(still[10, 0] && still[10, 127])
        #expect(still.litPixelCount == 128)
        // DCh 04h: glass column x shows RAM column x + 4, so the line moves to glass column 6.
        let moved = emulator(.sh1107_64x128, fill + [[0x00, 0xDC, 0x04]]).glass
        #expect(moved[6, 0] && moved[6, 127])
        #expect(moved.litPixelCount == 128)
        // Without D3h 60h the module's COM32-95 carry lines 32...95: glass columns 32...63 go dark,
        // and glass column 0 shows RAM column 32, so column 10 is nowhere.
        let unshifted = emulator(.sh1107_64x128, fill + [[0x00, 0xD3, 0x00]]).glass
        #expect(unshifted.litPixelCount == 0)
    }

    @Test func theSSD1306sStartLineAndCOMPinsAreNoSH1107Commands() {
        let wrong = emulator(.sh1107_128x128, [[0x00, 0x40, 0xDA]])
        #expect(problems(wrong) == [.unknownCommand(0x40), .unknownCommand(0xDA)])
    }

    @Test func theDCDCTakesOnly8xhAndTheGlassLightsEitherWay() {
        let bad = emulator(.sh1107_128x128, [[0x00, 0xAD, 0x14]])
        #expect(problems(bad) == [.invalidArgument(command: 0xAD, argument: 0x14)])
        // Adafruit's boards send ADh 8Ah (converter off) and light from their own boost converter.
        let off = emulator(.sh1107_128x128, [[0x00, 0xAD, 0x8A, 0xA5, 0xAF]])
        #expect(!off.registers.isChargePumpEnabled)
        #expect(off.glass.litPixelCount == 128 * 128)
    }

    @Test func theFirstVisibleFrameAfterAFhIsTheFrame() {
        // Power-up garbage in RAM; the glass is dark until AFh and shows the whole frame from it on.
        for panel in [SSD1306Panel.sh1107_64x128, .sh1107_128x128] {
            var generator = SeededGenerator(seed: 0x1107)
            let emulator = SSD1306Emulator(panel: panel, powerUpRAMFrom: &generator)
            var driver = SSD1306Driver(bus: TracingBus(emulator), panel: panel)
            driver.initialize()
            let frame = testCard(width: panel.width, height: panel.height)
            driver.update(to: frame)
            var replay = SSD1306Emulator(panel: panel, powerUpRAMFrom: &generator)
            var seen: [Bitmap] = []
            for transfer in driver.interface.bus.transfers {
                replay.write(transfer.bytes, to: transfer.address)
                seen.append(replay.glass)
            }
            let lastTransfer = driver.interface.bus.transfers.last?.bytes ?? []
            #expect(lastTransfer == [0x00, 0xAF], "\(panel.name)")
            let dark = Bitmap(width: panel.width, height: panel.height)
            let beforeWake = Array(seen.dropLast())
            let allDark = beforeWake.allSatisfy { $0 == dark }
            #expect(allDark, "\(panel.name)")
            #expect(seen.last == frame, "\(panel.name)")
            #expect(replay.diagnostics.isEmpty, "\(panel.name)")
        }
    }

    @Test func aFrameGoesPageByPageFromColumnZeroWithB8hAndBeyond() {
        var driver = recordingDriver(.sh1107_128x128)
        driver.initialize()
        _ = driver.interface.bus.drainTransfers()
        driver.writeFrame(testCard(width: 128, height: 128))
        let transfers = driver.interface.bus.transfers
        // 16 pages, a command and a data transaction each, then AFh.
        #expect(transfers.count == 33)
        let ninth = transfers[16].bytes
        #expect(ninth == [0x00, 0xB8, 0x00, 0x10])
        let lastPage = transfers[30].bytes
        #expect(lastPage == [0x00, 0xBF, 0x00, 0x10])
        let data = transfers[31].bytes.count
        #expect(data == 129)
        #expect(driver.interface.bus.base.glass == testCard(width: 128, height: 128))
    }

    @Test func theStatusByteCarriesTheSH1107sID() {
        #expect(ControllerStatus(rawValue: 0x07).likelyController == .sh1107)
        #expect(ControllerStatus(rawValue: 0x47).likelyController == .sh1107)
        #expect(!ControllerStatus(rawValue: 0x47).isDisplayOn)
        #expect(ControllerStatus(rawValue: 0x17).likelyController == nil)
    }

    @Test func rotationTurnsThePictureWithTheSEGAndCOMRemaps() {
        for panel in [SSD1306Panel.sh1107_64x128, .sh1107_128x128] {
            var driver = recordingDriver(panel, rotation: .rotated180)
            driver.initialize()
            let card = testCard(width: panel.width, height: panel.height)
            driver.writeFrame(card)
            #expect(driver.interface.bus.base.glass == card.rotated180(), "\(panel.name)")
            let registers = driver.interface.bus.base.registers
            #expect(registers.isSegmentRemapped && registers.isCOMScanRemapped, "\(panel.name)")
            // Turned back at run time: A0h and C0h, the SH1107's upright, and no RAM rewritten.
            _ = driver.interface.bus.drainTransfers()
            driver.setRotation(.normal)
            let sent = driver.interface.bus.drainTransfers().map { $0.bytes }
            #expect(sent == [[0x00, 0xA0, 0xC0]], "\(panel.name)")
            #expect(driver.interface.bus.base.glass == card, "\(panel.name)")
        }
    }

    @Test func aCustomSH1107PanelTakesAllItsSEGsAndPlacesItsCOMsByTheOffset() {
        let custom = SSD1306Panel(
            name: "sh1107-96x128", width: 96, height: 128, comPinsConfiguration: .sequential, controller: .sh1107,
            displayOffset: 0x10)
        let short = SSD1306Panel(
            name: "short", width: 96, height: 64, comPinsConfiguration: .sequential, controller: .sh1107)
        let shifted = SSD1306Panel(
            name: "shifted", width: 96, height: 128, comPinsConfiguration: .sequential, columnOffset: 4,
            controller: .sh1107)
        #expect(short == nil)
        #expect(shifted == nil)
        guard let custom else {
            Issue.record("a 96x128 SH1107 panel was refused")
            return
        }
        var driver = recordingDriver(custom)
        driver.initialize()
        let card = testCard(width: 96, height: 128)
        driver.update(to: card)
        #expect(driver.interface.bus.base.glass == card)
        #expect(driver.interface.bus.base.diagnostics.isEmpty)
    }
}
