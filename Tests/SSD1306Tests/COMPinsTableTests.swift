import PagerGraphics
import SSD1306
import Testing

// Table 10-3 of the SSD1306 datasheet (section 10.1.18, Set COM Pins Hardware Configuration),
// written out here from the datasheet, not from the emulator: for each DAh setting, the ROW
// each of the die's pins COM0-COM63 outputs, with C0h, offset 0 and start line 0. The pins are
// listed COM0-COM31 (one side of the die) then COM32-COM63 (the other side).
//
// Where the table comes from. The SSD1306 datasheet (Rev 1.1 to 1.5) draws the eight cells of
// Table 10-3 as figures; the text transcriptions of it we could find keep only the conditions and
// leave the figures as pictures. The SSD1315 datasheet (Solomon Systech, Rev 1.0, Table 1-6, "COM
// Pins Hardware Configuration"), the SSD1306's register-compatible successor, repeats the same
// eight conditions word for word and its figures' labels survive as text. Each figure is a
// 128x64 panel, its rows labelled ROW0-ROW63 (the display row, that is the picture's row with
// start line 0), wired to pads labelled COM0-COM63. Cell by cell, the labels and what follows:
//
//   1  DAh 02h, C0h  ROW0 at COM0, ROW31 at COM31, ROW32 at COM32, ROW63 at COM63:
//                    pin COMx outputs ROW x.
//   3  DAh 02h, C8h  ROW63 at COM0, ROW32 at COM31, ROW31 at COM32, ROW0 at COM63:
//                    the scan runs the other way (10.1.14), pin COMx shows display row 63 - x.
//   5  DAh 12h, C0h  ROW0 at COM0, ROW2 at COM1, ROW62 at COM31, ROW1 at COM32, ROW61 at COM62,
//                    ROW63 at COM63: COM0-31 output the even ROWs, COM32-63 the odd ones,
//                    COMx outputs ROW 2x (x < 32) or ROW 2(x - 32) + 1 (x >= 32).
//   7  DAh 12h, C8h  ROW63 at COM0, ROW1 at COM31, ROW62 at COM32, ROW0 at COM63: cell 5 with
//                    the scan reversed (COMx shows display row 63 - its cell-5 ROW).
//   6  DAh 32h, C0h  ROW63 at COM0, ROW61 at COM1, ROW1 at COM31, ROW62 at COM32, ROW2 at COM62,
//                    ROW0 at COM63: every label of cell 5 is replaced by 63 minus it, in place.
//                    That is the pins mirrored, COMx outputting what COM(63 - x) does in cell 5
//                    (COM1 takes COM62's ROW61), not the halves exchanged (COM1 would take
//                    COM33's ROW3).
//   8  DAh 32h, C8h  ROW62 at COM31, ROW0 at COM0, ROW1 at COM32, ROW63 at COM63: mirrored pins
//                    and reversed scan undo each other, cell 5 again.
//   2  DAh 22h, C0h  the corner labels ROW0, ROW31, ROW32, ROW63 at COM0, COM31, COM32, COM63
//   4  DAh 22h, C8h  in an order the text does not pin down; both readings of the remap fit
//                    them. We apply the same mirror as in cells 6 and 8 (the remap is one
//                    switch on the pads, whatever A[4] says): cell 2 is COMx outputs ROW 63 - x.
//
// The remap is named "left/right" because COMx and COM(63 - x) face each other across the die
// (the SSD1315's block diagram lists Com0, Com1, ... down one side and Com63, Com62, ... down
// the other): exchanging the sides face to face is the mirror.
//
// Field reports, which agree with cells 1 and 5 (they use no remap): a 128x32 module given the
// 128x64 setup (A8h 3Fh, DAh 12h) fills its glass with every other row of the 64-row picture
// (ThingPulse/esp8266-oled-ssd1306 issue 151: "shows lines 0,2,4,... from buffer"); a 128x64
// module given the 128x32 setup (A8h 1Fh, DAh 02h) uses only every second glass row
// (probonopd/MiniDexed pull request 312, ThingPulse issue 179); a 128x32 module that shows only
// odd rows with DAh 12h shows every row with DAh 22h (cnlohr/ch32fun pull request 696: its rows are on
// the COM32-63 side). Adafruit_SSD1306, luma.oled (128x32 and 96x16: 02h; 128x64, 64x48 and
// 64x32: 12h) and the Linux ssd130x driver (solomon,com-seq for sequential modules) set DAh by
// module, as SSD1306Panel does.

/// DAh 02h: sequential COM pin configuration (A[4] = 0), no left/right remap (A[5] = 0).
let sequentialROWs = Array(0...63)
/// DAh 22h: sequential, left/right remap: the pins mirrored, COMx outputs ROW 63 - x.
let sequentialRemappedROWs = Array((0...63).reversed())
/// DAh 12h: alternative (A[4] = 1): COM0-31 output the even ROWs, COM32-63 the odd ones.
let alternativeROWs = Array(stride(from: 0, to: 64, by: 2)) + Array(stride(from: 1, to: 64, by: 2))
/// DAh 32h: alternative, left/right remap: the pins mirrored, COMx outputs what COM(63 - x) does with 12h.
let alternativeRemappedROWs = Array(alternativeROWs.reversed())

/// The Table 10-3 column for a DAh argument.
func table10_3(_ dah: UInt8) -> [Int] {
    switch dah & 0x30 {
    case 0x00: return sequentialROWs
    case 0x20: return sequentialRemappedROWs
    case 0x10: return alternativeROWs
    default: return alternativeRemappedROWs
    }
}

/// The RAM row pin COMx shows: Table 10-3 gives its ROW; with multiplex ratio N only ROW0 to
/// ROW[N-1] are scanned (10.1.11); C0h shows ROW r as display row r, C8h as display row
/// N - 1 - r (10.1.14, "scan from COM[N-1] to COM0"); with start line 0 display row d is RAM row d.
func datasheetRAMRow(pin: Int, dah: UInt8, scanRemapped: Bool, mux: Int) -> Int? {
    let row = table10_3(dah)[pin]
    guard row < mux else { return nil }
    return scanRemapped ? mux - 1 - row : row
}

/// A 128x64 RAM image in which RAM row r has exactly one lit pixel, in column r.
let diagonalRAM: [UInt8] = (0..<1024).map { index in
    let page = index / 128
    let column = index % 128
    return column < 64 && column >> 3 == page ? 1 << UInt8(column & 7) : 0
}

/// An emulator on `panel`, powered, set up with A1h and `commands`, holding `diagonalRAM`.
func diagonalEmulator(_ panel: SSD1306Panel, _ commands: [UInt8]) -> SSD1306Emulator {
    let setup: [UInt8] = [0x00, 0x8D, 0x14, 0xAF, 0xA1, 0x20, 0x00] + commands
    return makeEmulator(panel, receiving: [setup, [0x40] + diagonalRAM])
}

@Test func theTableReadsAsTheDatasheetDrawsIt() {
    // Spot checks against the figures' labels (C0h cells 1, 5 and 6 above).
    #expect(sequentialROWs[0] == 0 && sequentialROWs[31] == 31 && sequentialROWs[63] == 63)
    #expect(alternativeROWs[0] == 0 && alternativeROWs[1] == 2 && alternativeROWs[31] == 62)
    #expect(alternativeROWs[32] == 1 && alternativeROWs[62] == 61 && alternativeROWs[63] == 63)
    #expect(alternativeRemappedROWs[0] == 63 && alternativeRemappedROWs[1] == 61 && alternativeRemappedROWs[31] == 1)
    #expect(alternativeRemappedROWs[32] == 62 && alternativeRemappedROWs[62] == 2 && alternativeRemappedROWs[63] == 0)
    #expect(sequentialRemappedROWs[0] == 63 && sequentialRemappedROWs[32] == 31)
    for rows in [sequentialROWs, sequentialRemappedROWs, alternativeROWs, alternativeRemappedROWs] {
        #expect(rows.sorted() == Array(0...63))  // every ROW comes out of exactly one pin
    }
}

/// One labelled cell of a Table 10-3 figure: the display row the figure draws beside a pad.
struct LabelledCell: Sendable, CustomTestStringConvertible {
    let dah: UInt8
    let scanRemapped: Bool
    /// (pad COMx, the ROW label beside it)
    let labels: [(pin: Int, row: Int)]
    var testDescription: String { "DAh \(dah) \(scanRemapped ? "C8h" : "C0h")" }
}

/// The labels of the eight figures, as listed in the derivation above (cells 2 and 4 by the mirror).
let labelledCells: [LabelledCell] = [
    LabelledCell(dah: 0x02, scanRemapped: false, labels: [(0, 0), (31, 31), (32, 32), (63, 63)]),
    LabelledCell(dah: 0x22, scanRemapped: false, labels: [(0, 63), (31, 32), (32, 31), (63, 0)]),
    LabelledCell(dah: 0x02, scanRemapped: true, labels: [(0, 63), (31, 32), (32, 31), (63, 0)]),
    LabelledCell(dah: 0x22, scanRemapped: true, labels: [(0, 0), (31, 31), (32, 32), (63, 63)]),
    LabelledCell(dah: 0x12, scanRemapped: false, labels: [(0, 0), (1, 2), (31, 62), (32, 1), (62, 61), (63, 63)]),
    LabelledCell(dah: 0x32, scanRemapped: false, labels: [(0, 63), (1, 61), (31, 1), (32, 62), (62, 2), (63, 0)]),
    LabelledCell(dah: 0x12, scanRemapped: true, labels: [(0, 63), (31, 1), (32, 62), (63, 0)]),
    LabelledCell(dah: 0x32, scanRemapped: true, labels: [(0, 0), (31, 62), (32, 1), (63, 63)]),
]

@Test(arguments: labelledCells)
func eachLabelledCellOfTheFiguresFromAHandWrittenByteStream(cell: LabelledCell) {
    // Control byte 00h (commands): charge pump on (8Dh 14h), display on (AFh), A1h, horizontal
    // addressing (20h 00h), mux 64 (A8h 3Fh), the scan direction and the cell's DAh. With start
    // line 0 a display row is its RAM row, so the RAM row a pin shows is the figure's ROW label.
    let commands: [UInt8] = [
        0x00, 0x8D, 0x14, 0xAF, 0xA1, 0x20, 0x00, 0xA8, 0x3F, cell.scanRemapped ? 0xC8 : 0xC0, 0xDA, cell.dah,
    ]
    let emulator = makeEmulator(.ssd1306_128x64, receiving: [commands])
    for label in cell.labels {
        let shown: Int? = emulator.ramRow(onPin: label.pin)
        #expect(shown == label.row, "COM\(label.pin)")
    }
}

@Test(arguments: [UInt8(0x02), 0x12, 0x22, 0x32])
func eachPinShowsTheRAMRowTable10_3Gives(dah: UInt8) {
    for mux in [64, 32] {
        for scanRemapped in [false, true] {
            let commands: [UInt8] = [0xA8, UInt8(mux - 1), scanRemapped ? 0xC8 : 0xC0, 0xDA, dah]
            let emulator = diagonalEmulator(.ssd1306_128x64, commands)
            for pin in 0..<64 {
                let expected = datasheetRAMRow(pin: pin, dah: dah, scanRemapped: scanRemapped, mux: mux)
                #expect(emulator.ramRow(onPin: pin) == expected, "DAh \(dah) mux \(mux) C8h \(scanRemapped) COM\(pin)")
            }
        }
    }
}

@Test(arguments: [UInt8(0x02), 0x12, 0x22, 0x32])
func theGlassShowsTheRAMRowOfThePinEachRowIsWiredTo(dah: UInt8) {
    for panel in [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32] {
        // The module wires glass row y to the pin that shows RAM row y under its own setup
        // (A1h, C8h, mux = height, its DAh value), per the same table.
        let own = panel.comPinsConfiguration.byte
        let pins = (0..<panel.height).map { y in
            (0..<64).first { datasheetRAMRow(pin: $0, dah: own, scanRemapped: true, mux: panel.height) == y } ?? -1
        }
        for mux in [64, 32] {
            for scanRemapped in [false, true] {
                let commands: [UInt8] = [0xA8, UInt8(mux - 1), scanRemapped ? 0xC8 : 0xC0, 0xDA, dah]
                let glass = diagonalEmulator(panel, commands).glass
                for y in 0..<panel.height {
                    let expected = datasheetRAMRow(pin: pins[y], dah: dah, scanRemapped: scanRemapped, mux: mux)
                    var lit: [Int] = []
                    for x in 0..<panel.width where glass[x, y] { lit.append(x) }
                    #expect(
                        lit == (expected.map { [$0] } ?? []),
                        "\(panel.name) DAh \(dah) mux \(mux) C8h \(scanRemapped) glass row \(y)")
                }
            }
        }
    }
}

@Test func a128x32GivenThe128x64SetupShowsEveryOtherRowOfTheTallPicture() {
    // ThingPulse/esp8266-oled-ssd1306 issue 151: a 128x32 module driven as a 128x64 one (A8h 3Fh,
    // DAh 12h) uses its whole glass and shows every other line of the 64-row buffer. Its glass
    // row y is on COM(31 - y), which now outputs ROW 62 - 2y, shown (C8h) as RAM row 2y + 1.
    let frame = testCard(width: 128, height: 32)
    var driver = SSD1306Driver(bus: SSD1306Emulator(panel: .ssd1306_128x32), panel: .ssd1306_128x32)
    driver.initialize()
    driver.writeFrame(frame)
    driver.send([.setMultiplexRatio(rows: 64), .setCOMPinsConfiguration(.alternative)])
    let glass = driver.interface.bus.glass
    for y in 0..<32 {
        let shown: Int? = driver.interface.bus.ramRow(onPin: 31 - y)
        #expect(shown == 2 * y + 1, "glass row \(y)")
    }
    // The upper half shows the picture's odd rows 1-31 (the lower half RAM rows 33-63).
    for y in 0..<16 {
        let row = glass.cropped(to: Rect(x: 0, y: y, width: 128, height: 1))
        let pictureRow = frame.cropped(to: Rect(x: 0, y: 2 * y + 1, width: 128, height: 1))
        #expect(row == pictureRow, "glass row \(y)")
    }
}

@Test func a128x64GivenThe128x32SetupUsesEverySecondGlassRow() {
    // probonopd/MiniDexed pull request 312 and ThingPulse issue 179: a 128x64 module driven with
    // the 128x32 setup (A8h 1Fh, DAh 02h) lights only every second row, the picture stretched to
    // twice its height. Under its own setup (C8h, DAh 12h) glass row y carries ROW 63 - y, so
    // its odd rows are on COM0-31 (glass row 2k + 1 on COM(31 - k)) and its even rows on
    // COM32-63. With DAh 02h COM(31 - k) outputs ROW 31 - k, shown (C8h, mux 32) as RAM row k;
    // COM32-63 output ROW32-63, which mux 32 leaves dark.
    let frame = testCard(width: 128, height: 64)
    let glass = glassAfter(
        .ssd1306_128x64, frame: frame, then: [.setMultiplexRatio(rows: 32), .setCOMPinsConfiguration(.sequential)])
    for y in 0..<32 {
        let even = glass.cropped(to: Rect(x: 0, y: 2 * y, width: 128, height: 1))
        #expect(even.litPixelCount == 0, "glass row \(2 * y)")
        let odd = glass.cropped(to: Rect(x: 0, y: 2 * y + 1, width: 128, height: 1))
        let pictureRow = frame.cropped(to: Rect(x: 0, y: y, width: 128, height: 1))
        #expect(odd == pictureRow, "glass row \(2 * y + 1)")
    }
}
