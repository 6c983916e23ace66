import PagerGraphics

/// How a pixel of GDDRAM reaches the glass.
///
/// Columns (section 10.1.8): RAM column ──A0h/A1h──▶ SEG ──module wiring──▶ glass column
///
///     A0h: SEG s shows RAM column s        A1h: SEG s shows RAM column 127 - s (SH1106: 131 - s)
///
/// Rows take four steps (sections 10.1.6, 10.1.11, 10.1.14, 10.1.15, 10.1.18):
///
///     RAM row ◀─40h─ display row ◀─A8h, C0h/C8h, D3h─ ROW ◀─DAh─ pin COMx ◀─wiring─ glass row
///
///     start line S:   display row d shows RAM row (d + S) mod 64
///     offset D:       ROW r carries line l = (r + D) mod 64; lines l >= mux are not scanned (dark)
///     scan direction: C0h: line l is display row l      C8h: line l is display row mux - 1 - l
///     COM pins:       pin COMx (the die's pad, section 7) outputs, per Table 10-3,
///                       A[4] = 0, sequential:   ROW x
///                       A[4] = 1, alternative:  ROW 2x for x < 32, ROW 2(x - 32) + 1 for x >= 32
///                       A[5] = 1, left/right remap: first mirror the pins (x becomes 63 - x)
///
/// Table 10-3 names the die's pins COM0-COM63 (COM0-31 down one side of the die, COM63-32 down
/// the other, so COMx and COM(63 - x) face each other) and says which ROW each outputs: with
/// alternative pins the even ROWs come out of one side and the odd ones out of the other, as a
/// module that routes its rows to the two sides in turn needs. The left/right remap exchanges the
/// two sides face to face: the figures of the SSD1315's copy of the table (Table 1-6, the same
/// eight conditions) label ROW2 beside COM62 and ROW61 beside COM1 with DAh 32h, where DAh 12h
/// has ROW2 beside COM1 and ROW61 beside COM62. (Before, this model exchanged the halves,
/// COMx as COM(x + 32): on a 128x64 module DAh 32h swapped neighbouring rows, where the table
/// turns the picture upside down.) The derivation, cell by cell, is in COMPinsTableTests.
///
/// A module ties each glass row to one pin and each glass column to one SEG. We derive that
/// wiring from the panel's own setup, the one its makers intend (A1h, C8h, offset 0, mux =
/// height, the panel's DAh setting): under it glass row g shows RAM row g and glass column x
/// shows RAM column `columnOffset + x`. Any other setting then moves the picture the way it
/// moves on real glass: for example a 128x64 module (its rows alternately on the two sides)
/// driven with DAh 02h interlaces the top and bottom halves of the picture, and a 128x32
/// module (its rows on COM0-31) driven with DAh 12h lights only its lower half, showing every
/// other row of the picture there.
///
/// Not modelled on the glass: contrast, fade and blink (state only), zoom (state only), and
/// scrolling, which the emulator records but does not animate.
extension SSD1306Emulator {
    /// What a person sees on the panel: `panel.width` x `panel.height`, after every mapping,
    /// inverse and entire-display-on; dark while the display is off (AEh) or the charge pump
    /// is disabled, because a module without external VCC has no panel voltage then (8.10).
    public var glass: Bitmap {
        if controller == .sh1107 { return sh1107Glass }
        var glass = Bitmap(width: panel.width, height: panel.height)
        let r = registers
        // Dark without a panel supply: the pump (or the SH1106's converter) off; an SSD1309's comes from outside.
        guard r.isDisplayOn, r.isChargePumpEnabled || !controller.hasInternalPanelSupply else { return glass }
        let last = controller.ramWidth - 1  // the highest SEG and RAM column
        for y in 0..<panel.height {
            let row = Self.row(onPin: glassRowPins[y], r.comPinsConfiguration)
            guard let ramRow = ramRow(drivenBy: row) else { continue }  // an unscanned ROW stays dark
            for x in 0..<panel.width {
                let segment = last - panel.columnOffset - x
                let column = r.isSegmentRemapped ? last - segment : segment
                let stored = ram[(ramRow >> 3) * (last + 1) + column] & (1 << UInt8(ramRow & 7)) != 0
                // Entire display on (A5h) lights everything, whatever the inverse setting.
                if r.isEntireDisplayOn || stored != r.isInverse { glass[x, y] = true }
            }
        }
        return glass
    }

    /// The RAM row that ROW `row` (a COM signal in scan order, before Table 10-3 routes it to a
    /// pin) shows, or nil when the multiplex ratio leaves it unscanned.
    func ramRow(drivenBy row: Int) -> Int? {
        let r = registers
        let line = (row + r.displayOffset) & 63
        guard line < r.multiplexRatio else { return nil }
        let displayRow = r.isCOMScanRemapped ? r.multiplexRatio - 1 - line : line
        return (displayRow + r.displayStartLine) & 63
    }

    /// The RAM row pin COMx shows under the current registers, or nil when it is not scanned.
    public func ramRow(onPin pin: Int) -> Int? {
        ramRow(drivenBy: Self.row(onPin: pin & 63, registers.comPinsConfiguration))
    }

    /// The ROW that pin COMx outputs under a COM pins configuration (Table 10-3).
    static func row(onPin pin: Int, _ configuration: COMPinsConfiguration) -> Int {
        // A[5]: COM left/right remap exchanges the die's two sides face to face: COMx and COM(63 - x).
        let side = configuration.isLeftRightRemapped ? 63 - pin : pin
        guard configuration.isAlternative else { return side }  // A[4] = 0: pin COMx outputs ROWx.
        // A[4] = 1: COM0-31 output the even ROWs, COM32-63 the odd ones.
        return side < 32 ? 2 * side : 2 * (side - 32) + 1
    }

    /// The pin each glass row is wired to, derived from the panel's intended setup.
    static func wiring(of panel: SSD1306Panel) -> [Int] {
        (0..<panel.height).map { y in
            // Under C8h with offset 0, glass row y must carry line mux - 1 - y.
            let wanted = panel.multiplexRatio - 1 - y
            return (0..<64).first { row(onPin: $0, panel.comPinsConfiguration) == wanted } ?? 0
        }
    }
}
