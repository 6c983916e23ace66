import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// The glass pixels that are lit, top to bottom, left to right.
func litPixels(_ glass: Bitmap) -> [Point] {
    var points: [Point] = []
    for y in 0..<glass.height {
        for x in 0..<glass.width where glass[x, y] { points.append(Point(x: x, y: y)) }
    }
    return points
}

/// A 128x64 emulator, powered, configured with `commands`, holding one lit RAM pixel per (page, column, bit).
func glassOf(_ commands: [UInt8], pixels: [(page: UInt8, column: UInt8, bit: UInt8)]) -> Bitmap {
    var transactions = [powerOn, [0x00] + commands]
    for pixel in pixels {
        transactions.append([0x00, 0xB0 | pixel.page, pixel.column & 0x0F, 0x10 | (pixel.column >> 4)])
        transactions.append([0x40, 1 << pixel.bit])
    }
    return makeEmulator(receiving: transactions).glass
}

@Test func segmentRemapAndCOMScanDirectionFlipTheGlass() {
    // The module is wired for A1h and C8h; at reset (A0h, C0h) RAM row 0, column 0 is bottom right.
    #expect(litPixels(glassOf([], pixels: [(0, 0, 0)])) == [Point(x: 127, y: 63)])
    #expect(litPixels(glassOf([0xA1], pixels: [(0, 0, 0)])) == [Point(x: 0, y: 63)])
    #expect(litPixels(glassOf([0xC8], pixels: [(0, 0, 0)])) == [Point(x: 127, y: 0)])
    #expect(litPixels(glassOf([0xA1, 0xC8], pixels: [(0, 0, 0)])) == [Point(x: 0, y: 0)])
    #expect(litPixels(glassOf([0xA1, 0xC8], pixels: [(7, 127, 7)])) == [Point(x: 127, y: 63)])
}

@Test func displayStartLineShiftsWhichRAMRowIsOnTop() {
    // 48h: display row r shows RAM row r + 8, so RAM row 8 is on top and RAM row 0 wraps to row 56.
    let glass = glassOf([0xA1, 0xC8, 0x48], pixels: [(1, 0, 0), (0, 0, 0), (7, 3, 7)])
    #expect(litPixels(glass) == [Point(x: 0, y: 0), Point(x: 3, y: 55), Point(x: 0, y: 56)])
}

@Test func displayOffsetShiftsRowsByCOM() {
    // D3h 08h moves each line 8 COMs towards COM0; with C8h that moves the picture down 8 rows.
    let glass = glassOf([0xA1, 0xC8, 0xD3, 0x08], pixels: [(0, 0, 0), (7, 0, 0)])
    #expect(litPixels(glass) == [Point(x: 0, y: 0), Point(x: 0, y: 8)])
    // With C0h the same offset moves it up instead: COM c shows row c + 8.
    let normal = glassOf([0xA1, 0xD3, 0x08], pixels: [(1, 0, 0)])  // RAM row 8 on COM 0, the bottom row
    #expect(litPixels(normal) == [Point(x: 0, y: 63)])
}

@Test func multiplexRatioLeavesUnscannedRowsDark() {
    // A8h 1Fh scans 32 rows: COM0-31, which this module wires to the lower half of the glass.
    var transactions = [powerOn, [0x00, 0xA1, 0xC8, 0xA8, 0x1F, 0x20, 0x00]]
    transactions.append([0x40] + [UInt8](repeating: 0xFF, count: 1024))
    let full = makeEmulator(receiving: transactions).glass
    #expect(full.cropped(to: Rect(x: 0, y: 0, width: 128, height: 32)).litPixelCount == 0)
    #expect(full.cropped(to: Rect(x: 0, y: 32, width: 128, height: 32)).litPixelCount == 128 * 32)
    // Those rows show RAM rows 0-31 in order.
    #expect(
        litPixels(glassOf([0xA1, 0xC8, 0xA8, 0x1F], pixels: [(0, 0, 0), (3, 9, 7)])) == [
            Point(x: 0, y: 32), Point(x: 9, y: 63),
        ])
}

@Test func theGlassIsDarkWhileTheDisplayIsOffOrHasNoChargePump() {
    let lit: [UInt8] = [0x00, 0xA5]  // entire display on
    #expect(makeEmulator(receiving: [powerOn, lit]).glass.litPixelCount == 128 * 64)
    #expect(makeEmulator(receiving: [powerOn, lit, [0x00, 0xAE]]).glass.litPixelCount == 0)
    #expect(makeEmulator(receiving: [[0x00, 0xAF], lit]).glass.litPixelCount == 0)  // pump never enabled
    #expect(makeEmulator(receiving: [powerOn, lit, [0x00, 0x8D, 0x10]]).glass.litPixelCount == 0)
    #expect(makeEmulator(receiving: [powerOn, lit, [0x00, 0xAE], [0x00, 0xAF]]).glass.litPixelCount == 128 * 64)
}

@Test func inverseAndEntireDisplayOn() {
    let inverse = glassOf([0xA1, 0xC8, 0xA7], pixels: [(0, 0, 0)])
    #expect(inverse.litPixelCount == 128 * 64 - 1)
    #expect(!inverse[0, 0])
    // Unscanned rows stay dark even inverted.
    #expect(glassOf([0xA1, 0xC8, 0xA7, 0xA8, 0x1F], pixels: []).litPixelCount == 128 * 32)
    // Entire display on (A5h) lights every scanned pixel whatever RAM and inverse say; A4h resumes.
    #expect(glassOf([0xA5], pixels: [(0, 0, 0)]).litPixelCount == 128 * 64)
    #expect(glassOf([0xA5, 0xA7], pixels: [(0, 0, 0)]).litPixelCount == 128 * 64)
    #expect(glassOf([0xA5, 0xA4], pixels: [(0, 0, 0)]).litPixelCount == 1)
}

/// The glass after init, `frame`, then `commands`.
func glassAfter(_ panel: SSD1306Panel, frame: Bitmap, then commands: [SSD1306Command]) -> Bitmap {
    var driver = SSD1306Driver(bus: SSD1306Emulator(panel: panel), panel: panel)
    driver.initialize()
    driver.writeFrame(frame)
    driver.send(commands)
    return driver.interface.bus.glass
}

@Test func resetOrientationShowsTheFrameTurnedHalfway() {
    for panel in [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32, .ssd1306_64x48] {
        let frame = testCard(width: panel.width, height: panel.height)
        let glass = glassAfter(
            panel, frame: frame, then: [.setSegmentRemap(false), .setCOMOutputScanDirection(remapped: false)])
        var turned = Bitmap(width: panel.width, height: panel.height)
        for y in 0..<panel.height {
            for x in 0..<panel.width where frame[panel.width - 1 - x, panel.height - 1 - y] { turned[x, y] = true }
        }
        #expect(glass == turned, "\(panel.name)")
    }
}

@Test func segmentRemapOnAPanelOffCentreShiftsThePicture() {
    // 96x16 shows SEG32-127: with A0h its glass column x shows RAM column 127 - x, so the
    // frame (RAM 0-95) appears mirrored and pushed right by 32, the left 32 columns empty.
    let frame = testCard(width: 96, height: 16)
    let glass = glassAfter(.ssd1306_96x16, frame: frame, then: [.setSegmentRemap(false)])
    for y in 0..<16 {
        for x in 0..<96 {
            #expect(glass[x, y] == (x >= 32 && frame[127 - x, y]), "x \(x) y \(y)")
        }
    }
}

@Test func leftRightRemapTurnsA128x64UpsideDown() {
    // The module routes odd rows to COM0-31 and even rows to COM32-63; DAh 32h mirrors the pins
    // (COMx outputs what COM(63 - x) did, Table 10-3 cells 5 and 6), so with mux 64 glass row y
    // shows picture row 63 - y: the same picture C0h would give, from the other end.
    let frame = testCard(width: 128, height: 64)
    let glass = glassAfter(
        .ssd1306_128x64, frame: frame, then: [.setCOMPinsConfiguration(.init(alternative: true, leftRightRemap: true))])
    for y in 0..<64 {
        #expect(
            glass.cropped(to: Rect(x: 0, y: y, width: 128, height: 1))
                == frame.cropped(to: Rect(x: 0, y: 63 - y, width: 128, height: 1)), "row \(y)")
    }
}

@Test func leftRightRemapDarkensA128x32() {
    // The module's rows are on COM0-31; DAh 22h mirrors the pins, so COM0-31 output ROW63-32,
    // which mux 32 does not scan, and ROW0-31 come out of COM63-32, where nothing is wired.
    let frame = testCard(width: 128, height: 32)
    let glass = glassAfter(
        .ssd1306_128x32, frame: frame, then: [.setCOMPinsConfiguration(.init(alternative: false, leftRightRemap: true))]
    )
    #expect(glass.litPixelCount == 0)
}

@Test(.tags(.golden)) func a128x32PanelDrivenWithThe128x64COMPinsLightsItsLowerHalf() {
    // DAh 12h on a 128x32 module: its pins COM0-31 now output the even ROWs 0-62, and with
    // mux 32 only ROW0-30 are scanned, on COM0-15. Glass rows 16-31 show every other row of
    // the picture (RAM rows 1, 3, ... 31); the upper half stays dark.
    let frame = testCard(width: 128, height: 32)
    let glass = glassAfter(.ssd1306_128x32, frame: frame, then: [.setCOMPinsConfiguration(.alternative)])
    #expect(glass.cropped(to: Rect(x: 0, y: 0, width: 128, height: 16)).litPixelCount == 0)
    for y in 16..<32 {
        #expect(
            glass.cropped(to: Rect(x: 0, y: y, width: 128, height: 1))
                == frame.cropped(to: Rect(x: 0, y: 2 * y - 31, width: 128, height: 1)), "row \(y)")
    }
    expectGolden(glass, named: "ssd1306_128x32_with_alternative_com_pins")
}

@Test(.tags(.golden)) func a128x64PanelDrivenWithSequentialCOMPinsInterlacesTheTwoHalves() {
    // DAh 02h on a 128x64 module: pin COMx outputs ROWx, so the rows the module routes to
    // COM32-63 (its even rows, glass row 2k on COM(63 - k)) show the top half of the picture
    // (C8h: ROW 63 - k is RAM row k) and the odd rows, on COM0-31, the bottom half.
    let frame = testCard(width: 128, height: 64)
    let glass = glassAfter(.ssd1306_128x64, frame: frame, then: [.setCOMPinsConfiguration(.sequential)])
    for y in 0..<32 {
        #expect(
            glass.cropped(to: Rect(x: 0, y: 2 * y, width: 128, height: 1))
                == frame.cropped(to: Rect(x: 0, y: y, width: 128, height: 1)))
        #expect(
            glass.cropped(to: Rect(x: 0, y: 2 * y + 1, width: 128, height: 1))
                == frame.cropped(to: Rect(x: 0, y: 32 + y, width: 128, height: 1)))
    }
    expectGolden(glass, named: "ssd1306_128x64_with_sequential_com_pins")
}

@Test(.tags(.golden)) func theTestCardOnEachPanel() {
    for panel in SSD1306Panel.all {
        let frame = testCard(width: panel.width, height: panel.height)
        let glass = glassAfter(panel, frame: frame, then: [])
        #expect(glass == frame, "\(panel.name)")
        expectGolden(glass, named: "ssd1306_\(panel.name)_test_card")
    }
}
