import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// The init transaction each panel must produce, byte for byte: the display stays off (no AFh).
let expectedInitialization: [(SSD1306Panel, [UInt8])] = [
    (
        .ssd1306_128x64,
        [
            0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00, 0xA1, 0xC8,
            0xDA, 0x12, 0x81, 0xCF, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0x2E,
        ]
    ),
    (
        .ssd1306_128x32,
        [
            0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x1F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00, 0xA1, 0xC8,
            0xDA, 0x02, 0x81, 0x8F, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0x2E,
        ]
    ),
    (
        .ssd1306_96x16,
        [
            0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x0F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00, 0xA1, 0xC8,
            0xDA, 0x02, 0x81, 0xAF, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0x2E,
        ]
    ),
    (
        .ssd1306_72x40,
        [
            0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x27, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0xAD, 0x30, 0x20, 0x00, 0xA1, 0xC8,
            0xDA, 0x12, 0x81, 0xCF, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0x2E,
        ]
    ),
    (
        .ssd1306_64x48,
        [
            0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x2F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00, 0xA1, 0xC8,
            0xDA, 0x12, 0x81, 0xCF, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0x2E,
        ]
    ),
    (
        .sh1106_128x64,
        [
            0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xAD, 0x8B, 0xA1, 0xC8, 0xDA, 0x12,
            0x81, 0x80, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6,
        ]
    ),
    (
        // No pump (8Dh 10h: its panel supply is external), the Linux ssd130x driver's clock (D5h A0h),
        // external-supply precharge (D9h 22h) and the SSD1309's VCOMH (DBh 34h).
        .ssd1309_128x64,
        [
            0x00, 0xAE, 0xD5, 0xA0, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x10, 0x20, 0x00, 0xA1, 0xC8,
            0xDA, 0x12, 0x81, 0x7F, 0xD9, 0x22, 0xDB, 0x34, 0xA4, 0xA6, 0x2E,
        ]
    ),
    (
        // SH1107: 64 COMs from COM32 (A8h 3Fh, D3h 60h), the start line DCh 00h, page addressing
        // as one byte (20h), no DAh and no 2Eh, upright as A0h/C0h.
        .sh1107_64x128,
        [
            0x00, 0xAE, 0xD5, 0x51, 0xA8, 0x3F, 0xD3, 0x60, 0xDC, 0x00, 0x20, 0xAD, 0x8B, 0xA0, 0xC0,
            0x81, 0x4F, 0xD9, 0x22, 0xDB, 0x34, 0xA4, 0xA6,
        ]
    ),
    (
        .sh1107_128x128,
        [
            0x00, 0xAE, 0xD5, 0x51, 0xA8, 0x7F, 0xD3, 0x00, 0xDC, 0x00, 0x20, 0xAD, 0x8B, 0xA0, 0xC0,
            0x81, 0x4F, 0xD9, 0x22, 0xDB, 0x34, 0xA4, 0xA6,
        ]
    ),
]

@Test func initializationIsOneCommandTransactionPerPanel() {
    #expect(expectedInitialization.count == SSD1306Panel.all.count)
    for (panel, bytes) in expectedInitialization {
        var driver = recordingDriver(panel)
        driver.initialize()
        #expect(
            driver.interface.bus.transfers == [I2CTransfer(address: .ssd1306Primary, bytes: bytes)], "\(panel.name)")
        #expect(driver.interface.bus.base.diagnostics.isEmpty, "\(panel.name)")
    }
}

@Test func aFullFrameIsAWindowThenOneDataTransaction() {
    var frame = Bitmap(width: 128, height: 32)
    frame[0, 0] = true  // page 0, column 0, bit 0
    frame[127, 31] = true  // page 3, column 127, bit 7
    frame[5, 10] = true  // page 1, column 5, bit 2
    var driver = recordingDriver(.ssd1306_128x32)
    driver.writeFrame(frame)
    let transfers = driver.interface.bus.drainTransfers()
    #expect(transfers.count == 2)
    #expect(transfers.first?.bytes == [0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x03])
    var data = [UInt8](repeating: 0, count: 1 + 512)
    data[0] = 0x40
    data[1 + 0] = 0x01
    data[1 + 128 + 5] = 0x04
    data[1 + 3 * 128 + 127] = 0x80
    #expect(transfers.last?.bytes == data)
    #expect(driver.interface.bus.transfers.isEmpty)
}

@Test func aFullFrameOnAnOffsetPanelUsesItsColumnWindow() {
    var driver = recordingDriver(.ssd1306_72x40)
    driver.writeFrame(Bitmap(width: 72, height: 40))
    let transfers = driver.interface.bus.transfers
    // Columns 28...99 (1Ch...63h), pages 0...4.
    #expect(transfers.first?.bytes == [0x00, 0x21, 0x1C, 0x63, 0x22, 0x00, 0x04])
    #expect(transfers.last?.bytes.count == 1 + 72 * 5)
}

@Test func aFrameOfAnotherSizeIsCroppedOrPaddedFromTheTopLeft() {
    var generator = SeededGenerator(seed: 0x5EED_0001)
    for panel in SSD1306Panel.all {
        for (width, height) in [(200, 80), (50, 24), (panel.width, 8), (1, 1)] {
            let frame = randomBitmap(width: width, height: height, using: &generator)
            var driver = recordingDriver(panel)
            driver.initialize()
            driver.writeFrame(frame)
            // An SSD1306 or SSD1309 takes the frame in one data transaction; an SH1106 one page at a time.
            let lastData = panel.controller.hasHorizontalAddressing ? panel.width * panel.pageCount : panel.width
            // Then Display On (AFh): the first frame after init is in RAM.
            #expect(driver.interface.bus.transfers.dropLast().last?.bytes.count == 1 + lastData)
            #expect(driver.interface.bus.transfers.last?.bytes == [0x00, 0xAF])
            #expect(
                driver.interface.bus.base.glass
                    == frame.cropped(to: Rect(x: 0, y: 0, width: panel.width, height: panel.height)))
        }
    }
}

@Test func theGlassShowsEveryFrameSentOnEveryPanel() {
    // The glass invariant: after init, any sequence of full frames shows exactly the last one.
    var generator = SeededGenerator(seed: 0xC0FF_EE06)
    let custom = [
        SSD1306Panel(name: "64x32", width: 64, height: 32, comPinsConfiguration: .alternative, columnOffset: 32),
        SSD1306Panel(name: "100x24", width: 100, height: 24, comPinsConfiguration: .sequential, columnOffset: 3),
    ].compactMap { $0 }
    #expect(custom.count == 2)
    for panel in SSD1306Panel.all + custom {
        var driver = SSD1306Driver(bus: SSD1306Emulator(panel: panel), panel: panel)
        driver.initialize()
        for round in 0..<40 {
            // Sparse, dense and drawn frames, so runs of equal bytes and single pixels both occur.
            var frame = randomBitmap(width: panel.width, height: panel.height, using: &generator)
            if round % 3 == 1 { frame = testCard(width: panel.width, height: panel.height) }
            if round % 5 == 4 { frame = Bitmap(width: panel.width, height: panel.height) }
            driver.writeFrame(frame)
            #expect(driver.interface.bus.glass == frame, "\(panel.name) round \(round)")
        }
        #expect(driver.interface.bus.diagnostics.isEmpty, "\(panel.name)")
    }
}

@Test func customPanelsMustFitTheController() {
    #expect(
        SSD1306Panel(name: "too wide", width: 100, height: 32, comPinsConfiguration: .sequential, columnOffset: 30)
            == nil)
    #expect(SSD1306Panel(name: "too tall", width: 128, height: 72, comPinsConfiguration: .alternative) == nil)
    #expect(SSD1306Panel(name: "odd", width: 128, height: 20, comPinsConfiguration: .alternative) == nil)
    let custom = SSD1306Panel(
        name: "64x32", width: 64, height: 32, comPinsConfiguration: .alternative, columnOffset: 32)
    #expect(custom?.pageCount == 4)
    #expect(custom?.initializationSequence.contains(.setMultiplexRatio(rows: 32)) == true)
}
