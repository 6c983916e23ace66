import PagerGraphics
import SSD1306
import Testing

// Table 10-3 of the SSD1306 datasheet (section 10.1.18, Set COM Pins Hardware Configuration),
// written out here from the datasheet, not from the emulator: for each DAh setting, the ROW
// each of the die's pins COM0-COM63 outputs, with C0h, offset 0 and start line 0. The pins are
// listed COM0-COM31 (one side of the die) then COM32-COM63 (the other side).

/// DAh 02h: sequential COM pin configuration (A[4] = 0), no left/right remap (A[5] = 0).
let sequentialROWs = Array(0...63)
/// DAh 22h: sequential, left/right remap: ROW0-31 come out of COM32-63, ROW32-63 out of COM0-31.
let sequentialRemappedROWs = Array(32...63) + Array(0...31)
/// DAh 12h: alternative (A[4] = 1): COM0-31 output the even ROWs, COM32-63 the odd ones.
let alternativeROWs = Array(stride(from: 0, to: 64, by: 2)) + Array(stride(from: 1, to: 64, by: 2))
/// DAh 32h: alternative, left/right remap: COM0-31 output the odd ROWs, COM32-63 the even ones.
let alternativeRemappedROWs = Array(stride(from: 1, to: 64, by: 2)) + Array(stride(from: 0, to: 64, by: 2))

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
    // Spot checks against the figures of Table 10-3.
    #expect(alternativeROWs[0] == 0 && alternativeROWs[1] == 2 && alternativeROWs[31] == 62)
    #expect(alternativeROWs[32] == 1 && alternativeROWs[33] == 3 && alternativeROWs[63] == 63)
    #expect(alternativeRemappedROWs[0] == 1 && alternativeRemappedROWs[32] == 0)
    #expect(sequentialRemappedROWs[0] == 32 && sequentialRemappedROWs[32] == 0)
    for rows in [sequentialROWs, sequentialRemappedROWs, alternativeROWs, alternativeRemappedROWs] {
        #expect(rows.sorted() == Array(0...63))  // every ROW comes out of exactly one pin
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
