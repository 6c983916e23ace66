import PagerGraphics
import SSD1306
import TestSupport
import Testing

@Test func theSH1106InitializesInPageModeWithItsDCDCAndNoSSD1306OnlyCommands() {
    var driver = recordingDriver(.sh1106_128x64)
    driver.initialize()
    #expect(
        driver.interface.bus.transfers.map(\.bytes) == [
            [
                0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xAD, 0x8B, 0xA1, 0xC8, 0xDA, 0x12,
                0x81, 0x80, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6,
            ]
        ])
    #expect(driver.interface.bus.base.diagnostics.isEmpty)
}

@Test func anSH1106FrameGoesPageByPageFromColumnTwo() {
    var frame = Bitmap(width: 128, height: 64)
    frame[0, 0] = true
    frame[127, 63] = true
    var driver = recordingDriver(.sh1106_128x64)
    driver.initialize()
    _ = driver.interface.bus.drainTransfers()
    driver.writeFrame(frame)
    let transfers = driver.interface.bus.transfers.map(\.bytes)
    #expect(transfers.count == 17)  // 8 pages of command and data, then Display On (AFh)
    #expect(transfers.last == [0x00, 0xAF])
    #expect(transfers[0] == [0x00, 0xB0, 0x02, 0x10])
    #expect(transfers[1].count == 129 && transfers[1][1] == 0x01)
    #expect(transfers[14] == [0x00, 0xB7, 0x02, 0x10])
    #expect(transfers[15].last == 0x80)
    #expect(driver.interface.bus.base.glass == frame)
}

@Test func anSSD1306DriverOnAnSH1106ShowsGarbageAsRealOnesDo() {
    // The #1 support question: a 1.3" module driven as an SSD1306.
    let frame = testCard(width: 128, height: 64)
    var driver = SSD1306Driver(bus: SSD1306Emulator(panel: .sh1106_128x64), panel: .ssd1306_128x64)
    driver.initialize()
    driver.writeFrame(frame)
    #expect(driver.interface.bus.glass != frame)
    #expect(driver.interface.bus.diagnostics.contains { $0.problem == .unknownCommand(0x20) })
}

@Test func aOnePixelChangeSendsOneByteWindow() {
    var frame = Bitmap(width: 128, height: 64)
    var driver = recordingDriver(.ssd1306_128x64)
    driver.initialize()
    driver.update(to: frame)
    _ = driver.interface.bus.drainTransfers()
    frame[5, 10] = true  // page 1, column 5, bit 2
    driver.update(to: frame)
    #expect(
        driver.interface.bus.drainTransfers().map(\.bytes) == [
            [0x00, 0x21, 0x05, 0x05, 0x22, 0x01, 0x01], [0x40, 0x04],
        ])

    var sh1106 = recordingDriver(.sh1106_128x64)
    sh1106.initialize()
    sh1106.update(to: Bitmap(width: 128, height: 64))
    _ = sh1106.interface.bus.drainTransfers()
    sh1106.update(to: frame)
    // Column 5 is RAM column 7 behind the SH1106's two-column offset.
    #expect(sh1106.interface.bus.drainTransfers().map(\.bytes) == [[0x00, 0xB1, 0x07, 0x10], [0x40, 0x04]])
    #expect(sh1106.interface.bus.base.glass == frame)
}

@Test func anUnchangedFrameSendsNothing() {
    for panel in SSD1306Panel.all {
        let frame = testCard(width: panel.width, height: panel.height)
        var driver = recordingDriver(panel)
        driver.initialize()
        driver.update(to: frame)
        _ = driver.interface.bus.drainTransfers()
        #expect(driver.update(to: frame).isEmpty)
        #expect(driver.interface.bus.transfers.isEmpty, "\(panel.name)")
    }
}

@Test func changesFarApartInOnePageAreTwoWindowsAndCloseOnesOne() {
    let old = Bitmap(width: 128, height: 64)
    var new = old
    new[0, 0] = true
    new[100, 0] = true
    #expect(DisplayUpdatePlanner.windows(from: old, to: new, controller: .ssd1306).count == 2)
    new[100, 0] = false
    new[8, 0] = true  // a gap of 7 bytes costs less than a second window's 10
    #expect(
        DisplayUpdatePlanner.windows(from: old, to: new, controller: .ssd1306) == [
            DisplayWindow(columns: 0..<9, pages: 0..<1)
        ])
    // The same column changing on every page is one tall window on an SSD1306, a window a page on an SH1106.
    var column = old
    for y in stride(from: 0, to: 64, by: 8) { column[40, y] = true }
    #expect(
        DisplayUpdatePlanner.windows(from: old, to: column, controller: .ssd1306) == [
            DisplayWindow(columns: 40..<41, pages: 0..<8)
        ])
    #expect(DisplayUpdatePlanner.windows(from: old, to: column, controller: .sh1106).count == 8)
}

@Test func afterAnySequenceOfUpdatesTheGlassEqualsTheFrame() {
    // The glass invariant for partial updates, on every panel, both rotations, with re-inits between.
    var generator = SeededGenerator(seed: 0xD1F7_0042)
    for panel in SSD1306Panel.all {
        for rotation in DisplayRotation.allCases {
            var driver = recordingDriver(panel, rotation: rotation)
            driver.initialize()
            var frame = Bitmap(width: panel.width, height: panel.height)
            for round in 0..<60 {
                switch round % 6 {
                case 0: frame = randomBitmap(width: panel.width, height: panel.height, using: &generator)
                case 1, 2:
                    let x = Int.random(in: 0..<panel.width, using: &generator)
                    let y = Int.random(in: 0..<panel.height, using: &generator)
                    frame[x, y].toggle()
                case 3:
                    let x = Int.random(in: 0..<panel.width, using: &generator)
                    let y = Int.random(in: 0..<panel.height, using: &generator)
                    frame.fillRect(
                        Rect(x: x, y: y, width: 1 + x % 23, height: 1 + y % 11), ink: round % 4 == 3 ? .off : .on)
                case 4: if round % 24 == 4 { driver.initialize() }
                default: break  // unchanged
                }
                _ = driver.interface.bus.drainTransfers()
                let windows = driver.update(to: frame)
                let sent = driver.interface.bus.transfers.reduce(0) { $0 + $1.bytes.count + 1 }
                let planned = windows.reduce(0) { $0 + DisplayUpdatePlanner.cost(of: $1, controller: panel.controller) }
                // The first frame after init is followed by Display On (AFh): address, 00h, AFh.
                let wake = driver.interface.bus.transfers.last?.bytes == [0x00, 0xAF] ? 3 : 0
                #expect(
                    sent == planned + wake, "\(panel.name) \(rotation) round \(round): the cost model counts the wire")
                let expected = rotation == .normal ? frame : frame.rotated180()
                #expect(driver.interface.bus.base.glass == expected, "\(panel.name) \(rotation) round \(round)")
            }
            #expect(driver.interface.bus.base.diagnostics.isEmpty, "\(panel.name)")
        }
    }
}

@Test func rotationUsesTheRemapsAndCostsNothingPerFrame() {
    var driver = recordingDriver(.ssd1306_128x64)
    driver.initialize()
    driver.update(to: testCard(width: 128, height: 64))
    _ = driver.interface.bus.drainTransfers()
    driver.setRotation(.rotated180)
    #expect(driver.interface.bus.drainTransfers().map(\.bytes) == [[0x00, 0xA0, 0xC0]])
    #expect(driver.interface.bus.base.glass == testCard(width: 128, height: 64).rotated180())
    let rotatedInit = SSD1306Panel.ssd1306_128x64.initializationSequence(DisplaySettings(rotation: .rotated180))
    #expect(
        rotatedInit.contains(.setSegmentRemap(false))
            && rotatedInit.contains(.setCOMOutputScanDirection(remapped: false)))
    // The 96x16 glass sits at RAM columns 0...95 upright and 32...127 upside down.
    #expect(SSD1306Panel.ssd1306_96x16.firstRAMColumn(.rotated180) == 32)
    #expect(SSD1306Panel.sh1106_128x64.firstRAMColumn(.rotated180) == 2)
}

@Test func contrastBrightnessInvertAndPower() {
    var driver = recordingDriver(.ssd1306_128x64)
    driver.initialize()
    _ = driver.interface.bus.drainTransfers()
    driver.setContrast(0x42)
    driver.setBrightness(DisplayBrightness(percent: 0))
    driver.setBrightness(DisplayBrightness(percent: 100))
    driver.setInverted(true)
    driver.setDisplayOn(false)
    #expect(
        driver.interface.bus.drainTransfers().map(\.bytes) == [
            [0x00, 0x81, 0x42], [0x00, 0x81, 0x00, 0xD9, 0x11, 0xDB, 0x00], [0x00, 0x81, 0xFF, 0xD9, 0xF1, 0xDB, 0x40],
            [0x00, 0xA7], [0x00, 0xAE],
        ])
    #expect(driver.interface.bus.base.registers.isInverse && !driver.interface.bus.base.registers.isDisplayOn)
    #expect(DisplayBrightness(percent: 250) == DisplayBrightness(percent: 100))
    // Settings survive a re-initialisation, as after a power glitch.
    driver.initialize()
    #expect(driver.interface.bus.base.registers.contrast == 0xFF && driver.interface.bus.base.registers.isInverse)
}

@Test func shutDownBlanksAndSwitchesThePanelSupplyOff() {
    for panel in [SSD1306Panel.ssd1306_128x64, .sh1106_128x64] {
        var driver = recordingDriver(panel)
        driver.initialize()
        driver.update(to: testCard(width: panel.width, height: panel.height))
        driver.shutDown()
        #expect(driver.interface.bus.base.displayRAM.litPixelCount == 0, "\(panel.name)")
        #expect(
            !driver.interface.bus.base.registers.isDisplayOn && !driver.interface.bus.base.registers.isChargePumpEnabled
        )
        #expect(
            driver.interface.bus.drainTransfers().map(\.bytes).drop { $0 != [0x00, 0xAF] }.dropFirst().first
                == (panel.controller == .ssd1306 ? [0x00, 0xAE, 0x8D, 0x10] : [0x00, 0xAE, 0xAD, 0x8A]))
    }
}

@Test func theStatusByteTellsOnOffAndHintsTheController() {
    #expect(ControllerStatus(rawValue: 0x43).isDisplayOn == false)
    #expect(ControllerStatus(rawValue: 0x06).isDisplayOn)
    #expect(ControllerStatus(rawValue: 0x06).likelyController == .ssd1306)
    #expect(ControllerStatus(rawValue: 0x48).likelyController == .sh1106)
    #expect(ControllerStatus(rawValue: 0x00).likelyController == nil)
    var emulator = SSD1306Emulator(panel: .sh1106_128x64)
    #expect(ControllerStatus(rawValue: emulator.statusByte).likelyController == .sh1106)
    emulator.write([0x00, 0xAF], to: .ssd1306Primary)
    #expect(ControllerStatus(rawValue: emulator.statusByte).isDisplayOn)
}

/// The changed spans of one page as the planner first found them: byte by byte.
private func referenceSpans(_ old: Bitmap, _ new: Bitmap, page: Int, bridging: Int) -> [Range<Int>] {
    var spans: [Range<Int>] = []
    for (x, (a, b)) in zip(old.pageBytes(page), new.pageBytes(page)).enumerated() where a != b {
        if let last = spans.last, x - last.upperBound <= bridging {
            spans[spans.count - 1] = last.lowerBound..<(x + 1)
        } else {
            spans.append(x..<(x + 1))
        }
    }
    return spans
}

@Test func theChangedSpansAreFoundAsByteByByteAtAnyWidthAndAnyWordBoundary() {
    // On an SH1106 nothing merges across pages, so the windows are each page's spans (bridging 7).
    var generator = SeededGenerator(seed: 0x5EA1_2026)
    for width in [1, 7, 8, 9, 21, 64, 128, 131] {
        for _ in 0..<40 {
            let old = randomBitmap(width: width, height: 24, using: &generator)
            var new = old
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let x = Int.random(in: 0..<width, using: &generator)
                let y = Int.random(in: 0..<24, using: &generator)
                new[x, y].toggle()
            }
            let expected = (0..<3).flatMap { page in
                referenceSpans(old, new, page: page, bridging: 7).map {
                    DisplayWindow(columns: $0, pages: page..<(page + 1))
                }
            }
            #expect(DisplayUpdatePlanner.windows(from: old, to: new, controller: .sh1106) == expected)
        }
    }
}
