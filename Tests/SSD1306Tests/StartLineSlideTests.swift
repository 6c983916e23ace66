import PagerGraphics
import SSD1306
import TestSupport
import Testing

// Slides by the display start line (40h-7Fh, datasheet 10.1.6): the picture moves without
// RAM being rewritten, and only the rows that come into view and the still parts are sent.

/// A frame as a vertical pager draws it: rows `top...` of a tall `strip` on the left, and an
/// indicator column on the right that stands still whatever the strip does.
private func pagerFrame(strip: Bitmap, top: Int, indicator: Bitmap, panel: SSD1306Panel) -> Bitmap {
    var frame = Bitmap(width: panel.width, height: panel.height)
    let rows = strip.height
    for y in 0..<panel.height {
        let row = ((top + y) % rows + rows) % rows
        for x in 0..<(panel.width - indicator.width) where strip[x, row] { frame[x, y] = true }
        for x in 0..<indicator.width where indicator[x, y] { frame[panel.width - indicator.width + x, y] = true }
    }
    return frame
}

/// A bus that refuses its `failing`-th write (counting from 0) and passes the others to an emulator.
private struct FlakyBus: I2CBus {
    struct Refused: Error {}
    var emulator: SSD1306Emulator
    var failing: Int?
    var count = 0

    mutating func write(_ bytes: [UInt8], to address: I2CAddress) throws(Refused) {
        defer { count += 1 }
        if count == failing { throw Refused() }
        emulator.write(bytes, to: address)
    }
}

@Test(.tags(.slow)) func slidesOfRandomPagesInRandomDirectionsAndSpeedsKeepTheGlassEqualToTheFrame() {
    // The glass invariant under start-line slides, on every panel, both rotations, with re-inits between.
    var generator = SeededGenerator(seed: 0x5C01_1E40)
    for panel in SSD1306Panel.all {
        for rotation in DisplayRotation.allCases {
            var driver = recordingDriver(panel, rotation: rotation)
            driver.initialize()
            let strip = randomBitmap(width: panel.width, height: panel.height * 3, using: &generator)
            var indicator = randomBitmap(width: 6, height: panel.height, using: &generator)
            var top = 0
            var movedTheStartLine = false
            for round in 0..<80 {
                let speed = Int.random(in: 0...(panel.height / 2), using: &generator)
                let rows = Bool.random(using: &generator) ? speed : -speed
                top += rows
                if round % 9 == 8 { indicator = randomBitmap(width: 6, height: panel.height, using: &generator) }
                if round % 31 == 30 { driver.initialize() }
                let lineBefore = driver.displayStartLine
                _ = driver.interface.bus.drainTransfers()
                let frame = pagerFrame(strip: strip, top: top, indicator: indicator, panel: panel)
                let windows = driver.update(to: frame, movedUpBy: rows)
                let sent = driver.interface.bus.transfers.reduce(0) { $0 + $1.bytes.count + 1 }
                let planned = windows.reduce(0) { $0 + DisplayUpdatePlanner.cost(of: $1, controller: panel.controller) }
                // A moved start line is one byte in the first window's commands, or its own transaction.
                let lineCost = driver.displayStartLine == lineBefore ? 0 : windows.isEmpty ? 3 : 1
                // AFh after the first frame.
                let wake = driver.interface.bus.transfers.last?.bytes == [0x00, 0xAF] ? 3 : 0
                #expect(sent == planned + lineCost + wake, "\(panel.name) \(rotation) round \(round): the cost model")
                if driver.displayStartLine != lineBefore { movedTheStartLine = true }
                let expected = rotation == .normal ? frame : frame.rotated180()
                #expect(driver.interface.bus.base.glass == expected, "\(panel.name) \(rotation) round \(round)")
                #expect(driver.knownRAM == frame, "\(panel.name) \(rotation) round \(round): what the driver knows")
                #expect(driver.interface.bus.base.registers.displayStartLine == driver.displayStartLine)
            }
            // An SH1107's start line (DCh) moves columns: its slides go as windows, the line left at 0.
            let startLineMovesRows = panel.controller.startLineMovesRows
            #expect(movedTheStartLine == startLineMovesRows, "\(panel.name) \(rotation): slides and the start line")
            #expect(driver.interface.bus.base.diagnostics.isEmpty, "\(panel.name)")
        }
    }
}

@Test func aSlideOf64RowsSendsTheNewRowsAndTheIndicatorAndEndsWhereItBegan() {
    var generator = SeededGenerator(seed: 0x64)
    let panel = SSD1306Panel.ssd1306_128x64
    var driver = recordingDriver(panel)
    driver.initialize()
    let strip = randomBitmap(width: 128, height: 128, using: &generator)
    let indicator = randomBitmap(width: 6, height: 64, using: &generator)
    driver.update(to: pagerFrame(strip: strip, top: 0, indicator: indicator, panel: panel))
    var plain = driver
    _ = plain.interface.bus.drainTransfers()
    var total = 0
    var top = 0
    for rows in [5, 11, 12, 10, 8, 6, 5, 3, 2, 1, 1] {
        top += rows
        _ = driver.interface.bus.drainTransfers()
        plain.update(to: pagerFrame(strip: strip, top: top, indicator: indicator, panel: panel))
        driver.update(to: pagerFrame(strip: strip, top: top, indicator: indicator, panel: panel), movedUpBy: rows)
        let bytes = driver.interface.bus.transfers.reduce(0) { $0 + $1.bytes.count }
        // The rows that came in (two pages at most) and the 6-column indicator on the other pages.
        #expect(bytes <= 2 * 128 + 6 * 8 + 30, "\(rows) rows: \(bytes) bytes")
        #expect(
            driver.interface.bus.transfers.first?.bytes.prefix(2) == [0x00, 0x40 | UInt8(top & 63)],
            "the start line first")
        total += bytes
    }
    #expect(top == 64 && driver.displayStartLine == 0)
    // Random pictures change every byte, so partial updates without the start line send whole frames.
    let plainBytes = plain.interface.bus.transfers.reduce(0) { $0 + $1.bytes.count }
    #expect(total * 3 < plainBytes, "\(total) bytes against \(plainBytes)")
    #expect(driver.interface.bus.base.glass == pagerFrame(strip: strip, top: 64, indicator: indicator, panel: panel))
}

@Test func a128x32PanelWritesTheRowsComingIntoViewIntoTheRAMRowsItDoesNotShow() {
    // 32 of the 64 RAM rows show: the rows below them are a buffer the new rows are written into.
    let panel = SSD1306Panel.ssd1306_128x32
    var driver = recordingDriver(panel)
    driver.initialize()
    var generator = SeededGenerator(seed: 0x32)
    let strip = randomBitmap(width: 128, height: 64, using: &generator)
    let blank = Bitmap(width: 0, height: 32)
    driver.update(to: pagerFrame(strip: strip, top: 0, indicator: blank, panel: panel))
    _ = driver.interface.bus.drainTransfers()
    let windows = driver.update(to: pagerFrame(strip: strip, top: 8, indicator: blank, panel: panel), movedUpBy: 8)
    // RAM page 4 (rows 32-39) is off the glass until the start line (48h) moves it on.
    #expect(windows == [DisplayWindow(columns: 0..<128, pages: 4..<5)])
    #expect(driver.interface.bus.transfers.first?.bytes == [0x00, 0x48, 0x21, 0x00, 0x7F, 0x22, 0x04, 0x04])
    #expect(driver.interface.bus.base.glass == pagerFrame(strip: strip, top: 8, indicator: blank, panel: panel))
}

@Test func aSlideThatCostsMoreByTheStartLineIsSentAsBefore() {
    // A new picture that did not move (nothing in common with the last one moved by the rows given):
    // plain partial updates, the start line where it was.
    let panel = SSD1306Panel.ssd1306_128x64
    var driver = recordingDriver(panel)
    driver.initialize()
    var frame = Bitmap(width: 128, height: 64)
    frame.fillRect(Rect(x: 0, y: 0, width: 128, height: 30))
    driver.update(to: frame)
    _ = driver.interface.bus.drainTransfers()
    frame[3, 40] = true
    let windows = driver.update(to: frame, movedUpBy: 5)
    #expect(windows == [DisplayWindow(columns: 3..<4, pages: 5..<6)])
    #expect(driver.displayStartLine == 0)
}

@Test func reinitialisingAfterASlidePutsTheStartLineBackAndSendsTheWholeFrame() {
    // Display recovery initialises afresh (40h in the sequence) and resends the whole frame.
    let panel = SSD1306Panel.ssd1306_128x64
    var generator = SeededGenerator(seed: 0xEC)
    var driver = recordingDriver(panel)
    driver.initialize()
    let strip = randomBitmap(width: 128, height: 128, using: &generator)
    let indicator = randomBitmap(width: 6, height: 64, using: &generator)
    driver.update(to: pagerFrame(strip: strip, top: 0, indicator: indicator, panel: panel))
    driver.update(to: pagerFrame(strip: strip, top: 13, indicator: indicator, panel: panel), movedUpBy: 13)
    #expect(driver.displayStartLine == 13)
    driver.initialize()
    #expect(driver.displayStartLine == 0 && driver.interface.bus.base.registers.displayStartLine == 0)
    _ = driver.interface.bus.drainTransfers()
    let frame = pagerFrame(strip: strip, top: 13, indicator: indicator, panel: panel)
    #expect(driver.update(to: frame) == [DisplayWindow(columns: 0..<128, pages: 0..<8)])
    #expect(driver.interface.bus.transfers.count == 3, "a window, its data and AFh: the start line is already 0")
    #expect(driver.interface.bus.transfers.last?.bytes == [0x00, 0xAF])  // the display wakes once RAM holds the frame
    #expect(driver.interface.bus.base.glass == frame)
    // A whole frame written over a moved start line puts the line back to 0 with the window.
    driver.update(to: pagerFrame(strip: strip, top: 21, indicator: indicator, panel: panel), movedUpBy: 8)
    _ = driver.interface.bus.drainTransfers()
    driver.writeFrame(frame)
    #expect(driver.interface.bus.transfers.map(\.bytes.count) == [8, 1025])
    #expect(driver.interface.bus.base.glass == frame && driver.displayStartLine == 0)
}

@Test func aFailedWriteCarryingTheStartLineLeavesItUnknownAndTheNextUpdateWhole() throws {
    let panel = SSD1306Panel.ssd1306_128x64
    var generator = SeededGenerator(seed: 0xFA11)
    let strip = randomBitmap(width: 128, height: 128, using: &generator)
    let indicator = randomBitmap(width: 6, height: 64, using: &generator)
    var driver = SSD1306Driver(bus: FlakyBus(emulator: SSD1306Emulator(panel: panel)), panel: panel)
    try driver.initialize()
    try driver.update(to: pagerFrame(strip: strip, top: 0, indicator: indicator, panel: panel))
    // A slide frame's start line rides in its first write: refuse that one.
    driver.interface.bus.failing = driver.interface.bus.count
    #expect(throws: FlakyBus.Refused.self) {
        try driver.update(to: pagerFrame(strip: strip, top: 4, indicator: indicator, panel: panel), movedUpBy: 4)
    }
    #expect(driver.displayStartLine == nil && driver.knownRAM == nil)
    let frame = pagerFrame(strip: strip, top: 9, indicator: indicator, panel: panel)
    try driver.update(to: frame, movedUpBy: 5)
    #expect(driver.displayStartLine == 0 && driver.interface.bus.emulator.glass == frame)
}

@Test func onA128x32PanelTheStartLineShowsRAMRowsTheGlassOtherwiseLacks() {
    // Multiplex 32 scans display rows 0-31; the start line adds to the RAM row (10.1.6, Table 10-2),
    // so 68h puts RAM rows 40-63 and 0-7 on the glass, upright (A1h C8h) and turned (A0h C0h).
    func glass(_ commands: [UInt8]) -> [Point] {
        let setup: [UInt8] = [0x00, 0xA8, 0x1F, 0xDA, 0x02] + commands
        // RAM row 40 (page 5, bit 0) and RAM row 7 (page 0, bit 7), column 0.
        let pixels: [[UInt8]] = [[0x00, 0xB5, 0x00, 0x10], [0x40, 0x01], [0x00, 0xB0, 0x00, 0x10], [0x40, 0x80]]
        return litPixels(makeEmulator(.ssd1306_128x32, receiving: [powerOn, setup] + pixels).glass)
    }
    #expect(glass([0xA1, 0xC8, 0x40]) == [Point(x: 0, y: 7)])
    #expect(glass([0xA1, 0xC8, 0x68]) == [Point(x: 0, y: 0), Point(x: 0, y: 31)])
    #expect(glass([0xA0, 0xC0, 0x68]) == [Point(x: 127, y: 0), Point(x: 127, y: 31)])
}

@Test func forgettingTheStartLineSendsItWithTheNextWholeFrame() {
    // A queue's transfers fail after the driver took them as sent: the panel may hold either line.
    let panel = SSD1306Panel.ssd1306_128x64
    var generator = SeededGenerator(seed: 0x40)
    let strip = randomBitmap(width: 128, height: 128, using: &generator)
    let blank = Bitmap(width: 0, height: 64)
    var driver = recordingDriver(panel)
    driver.initialize()
    driver.update(to: pagerFrame(strip: strip, top: 0, indicator: blank, panel: panel))
    driver.invalidateDisplayStartLine()
    #expect(driver.displayStartLine == nil && driver.knownRAM == nil)
    _ = driver.interface.bus.drainTransfers()
    let frame = pagerFrame(strip: strip, top: 3, indicator: blank, panel: panel)
    driver.update(to: frame, movedUpBy: 3)
    #expect(driver.interface.bus.transfers.map(\.bytes.count) == [8, 1025])
    #expect(driver.interface.bus.transfers.first?.bytes.prefix(2) == [0x00, 0x40])
    #expect(driver.interface.bus.base.glass == frame && driver.displayStartLine == 0)
}
