import PagerGraphics
import SSD1306
import TestSupport
import Testing

// The RAM rows a panel shorter than 64 rows does not show, filled with the neighbouring pages
// while the bus idles: a slide then finds the rows it brings into view already in RAM.

/// Four pages of random content stacked in a strip, each `panel.height` rows.
private struct PageStrip {
    var strip: Bitmap
    var indicator: Bitmap
    let panel: SSD1306Panel

    init(_ panel: SSD1306Panel, using generator: inout SeededGenerator) {
        self.panel = panel
        strip = randomBitmap(width: panel.width - 7, height: panel.height * 4, using: &generator)
        indicator = randomBitmap(width: 6, height: panel.height, using: &generator)
    }

    /// The pages' columns, left of the indicator and its gap.
    var columns: Range<Int> { 0..<strip.width }

    /// The glass with the strip's row `top` at the top and the indicator on the right.
    func frame(top: Int) -> Bitmap {
        var frame = content(top: top)
        for y in 0..<panel.height {
            for x in 0..<indicator.width where indicator[x, y] { frame[panel.width - indicator.width + x, y] = true }
        }
        return frame
    }

    /// The pages alone from row `top`, the indicator strip dark: a neighbour as the renderer draws it.
    func content(top: Int) -> Bitmap {
        var frame = Bitmap(width: panel.width, height: panel.height)
        for y in 0..<panel.height where top + y >= 0 && top + y < strip.height {
            for x in 0..<strip.width where strip[x, top + y] { frame[x, y] = true }
        }
        return frame
    }
}

@Test func fillingTheRowsOffTheGlassLeavesTheGlassAndASlideThenSendsLittleMoreThanTheIndicator() {
    var generator = SeededGenerator(seed: 0x0FF6)
    let panel = SSD1306Panel.ssd1306_128x32
    let pages = PageStrip(panel, using: &generator)
    var driver = recordingDriver(panel)
    driver.initialize()
    driver.update(to: pages.frame(top: 32))
    let next = pages.content(top: 64)
    let previous = pages.content(top: 0)
    let needsFill = driver.offGlassNeedsFill(next: next, previous: previous, columns: pages.columns)
    #expect(needsFill)
    var plain = driver
    _ = driver.interface.bus.drainTransfers()
    var chunks = 0
    var more = true
    while more, chunks < 20 {
        more = driver.fillOffGlass(next: next, previous: previous, columns: pages.columns)
        chunks += 1
        let bytes = driver.interface.bus.drainTransfers().reduce(0) { $0 + $1.bytes.count }
        // One RAM page of 128 columns at most, with its window's commands.
        #expect(bytes <= 128 + 1 + 7)
        #expect(driver.interface.bus.base.glass == pages.frame(top: 32), "chunk \(chunks): the glass stays")
    }
    // The 4 RAM pages off the glass, unknown after the start: each written once.
    #expect(chunks == 4)
    let needsFillWhenFilled = driver.offGlassNeedsFill(next: next, previous: previous, columns: pages.columns)
    #expect(!needsFillWhenFilled)
    var filledBytes = 0
    var plainBytes = 0
    var top = 32
    for rows in [5, 11, 8, 5, 2, 1] {
        top += rows
        let frame = pages.frame(top: top)
        driver.update(to: frame, movedUpBy: rows)
        plain.update(to: frame, movedUpBy: rows)
        filledBytes += driver.interface.bus.drainTransfers().reduce(0) { $0 + $1.bytes.count }
        plainBytes += plain.interface.bus.drainTransfers().reduce(0) { $0 + $1.bytes.count }
        #expect(driver.interface.bus.base.glass == frame, "\(top): the glass equals the frame")
        #expect(driver.knownRAM == frame)
    }
    #expect(top == 64)
    // The indicator column (6 columns over 5 RAM pages at most, in 2 windows where RAM wraps)
    // and their commands each frame: never a row of the page.
    #expect(filledBytes <= 6 * (6 * 5 + 2 * 8 + 2), "\(filledBytes) bytes")
    #expect(filledBytes * 2 < plainBytes, "\(filledBytes) bytes against \(plainBytes)")
    // The page the slide took away is the one above now: nothing to fill for a slide back.
    let needsFillForEither = driver.offGlassNeedsFill(
        next: pages.content(top: 96), previous: pages.content(top: 32), columns: pages.columns)
    #expect(!needsFillForEither)
    let needsFillForTheNext = driver.offGlassNeedsFill(
        next: pages.content(top: 96), previous: nil, columns: pages.columns)
    #expect(needsFillForTheNext)
}

@Test func randomFillsBetweenRandomSlidesOnShortPanelsKeepTheGlassEqualToTheFrame() {
    // The glass invariant with fills between slides, both rotations, neighbours right or wrong.
    var generator = SeededGenerator(seed: 0xF111)
    for panel in SSD1306Panel.all where panel.height < 64 {
        for rotation in DisplayRotation.allCases {
            var driver = recordingDriver(panel, rotation: rotation)
            driver.initialize()
            let pages = PageStrip(panel, using: &generator)
            var top = panel.height
            for round in 0..<60 {
                let rows = Int.random(in: -(panel.height / 2)...(panel.height / 2), using: &generator)
                top = min(max(top + rows, 0), panel.height * 3)
                let frame = pages.frame(top: top)
                driver.update(to: frame, movedUpBy: rows)
                let fills = Int.random(in: 0...3, using: &generator)
                let wrong = Bool.random(using: &generator)
                for _ in 0..<fills {
                    let next = pages.content(top: wrong ? top + 7 : top + panel.height)
                    let previous = pages.content(top: top - panel.height)
                    driver.fillOffGlass(
                        next: next, previous: Bool.random(using: &generator) ? previous : nil, columns: pages.columns)
                }
                let expected = rotation == .normal ? frame : frame.rotated180()
                #expect(driver.interface.bus.base.glass == expected, "\(panel.name) \(rotation) round \(round)")
                #expect(driver.knownRAM == frame, "\(panel.name) \(rotation) round \(round): what the driver knows")
            }
            #expect(driver.interface.bus.base.diagnostics.isEmpty, "\(panel.name)")
        }
    }
}

@Test func aPanelShowingAll64RowsHasNoRowsToFill() {
    var generator = SeededGenerator(seed: 0x40)
    let panel = SSD1306Panel.ssd1306_128x64
    let pages = PageStrip(panel, using: &generator)
    var driver = recordingDriver(panel)
    driver.initialize()
    driver.update(to: pages.frame(top: 0))
    _ = driver.interface.bus.drainTransfers()
    let needsFill = driver.offGlassNeedsFill(next: pages.content(top: 64), previous: nil, columns: pages.columns)
    #expect(!needsFill)
    let wroteMore = driver.fillOffGlass(next: pages.content(top: 64), previous: nil, columns: pages.columns)
    #expect(!wroteMore)
    #expect(driver.interface.bus.transfers.isEmpty)
}
