import PagerGraphics

/// How a pixel of GDDRAM reaches the glass.
///
/// Columns (section 10.1.8): RAM column ──A0h/A1h──▶ SEG ──module wiring──▶ glass column
///
///     A0h: SEG s shows RAM column s        A1h: SEG s shows RAM column 127 - s (SH1106: 131 - s)
///
/// Rows take four steps (sections 10.1.6, 10.1.11, 10.1.14, 10.1.15, 10.1.18):
///
///     RAM row ◀─40h─ display row ◀─A8h, C0h/C8h, D3h─ COM ◀─DAh─ pad (ROW) ◀─wiring─ glass row
///
///     start line S:   display row r shows RAM row (r + S) mod 64
///     offset D:       COM c carries line l = (c + D) mod 64; lines l >= mux are not scanned (dark)
///     scan direction: C0h: line l is display row l      C8h: line l is display row mux - 1 - l
///     COM pins:       pad k (Table 10-3 ROW k) carries
///                       sequential:  COM k                 (+ left/right remap: COM (k + 32) mod 64)
///                       alternative: COM k/2 for even k,   (+ left/right remap: the two halves swap)
///                                    COM 32 + k/2 for odd k
///
/// A module ties each glass row to one pad and each glass column to one SEG. We derive that
/// wiring from the panel's own setup, the one its makers intend (A1h, C8h, offset 0, mux =
/// height, the panel's DAh setting): under it glass row g shows RAM row g and glass column x
/// shows RAM column `columnOffset + x`. Any other setting then moves the picture the way it
/// moves on real glass: for example a 128x32 module driven with DAh 12h (the 128x64 value)
/// lights only every other row, showing half of the picture stretched over the glass.
///
/// Not modelled on the glass: contrast, fade and blink (state only), zoom (state only), and
/// scrolling, which the emulator records but does not animate.
extension SSD1306Emulator {
    /// What a person sees on the panel: `panel.width` x `panel.height`, after every mapping,
    /// inverse and entire-display-on; dark while the display is off (AEh) or the charge pump
    /// is disabled, because a module without external VCC has no panel voltage then (8.10).
    public var glass: Bitmap {
        var glass = Bitmap(width: panel.width, height: panel.height)
        let r = registers
        guard r.isDisplayOn, r.isChargePumpEnabled else { return glass }
        let last = controller.ramWidth - 1  // the highest SEG and RAM column
        for y in 0..<panel.height {
            let com = Self.com(atPad: glassRowPads[y], r.comPinsConfiguration)
            guard let row = ramRow(drivenBy: com) else { continue }  // an unscanned COM stays dark
            for x in 0..<panel.width {
                let segment = last - panel.columnOffset - x
                let column = r.isSegmentRemapped ? last - segment : segment
                let stored = ram[(row >> 3) * (last + 1) + column] & (1 << UInt8(row & 7)) != 0
                // Entire display on (A5h) lights everything, whatever the inverse setting.
                if r.isEntireDisplayOn || stored != r.isInverse { glass[x, y] = true }
            }
        }
        return glass
    }

    /// The RAM row COM `com` shows, or nil when the multiplex ratio leaves it unscanned.
    func ramRow(drivenBy com: Int) -> Int? {
        let r = registers
        let line = (com + r.displayOffset) & 63
        guard line < r.multiplexRatio else { return nil }
        let displayRow = r.isCOMScanRemapped ? r.multiplexRatio - 1 - line : line
        return (displayRow + r.displayStartLine) & 63
    }

    /// The COM signal on pad `pad` under a COM pins configuration (Table 10-3).
    static func com(atPad pad: Int, _ configuration: COMPinsConfiguration) -> Int {
        var com = configuration.isAlternative ? (pad & 1 == 0 ? pad >> 1 : 32 + (pad >> 1)) : pad
        if configuration.isLeftRightRemapped { com = (com + 32) & 63 }
        return com
    }

    /// The pad each glass row is wired to, derived from the panel's intended setup.
    static func wiring(of panel: SSD1306Panel) -> [Int] {
        (0..<panel.height).map { y in
            // Under C8h with offset 0, glass row y must carry line mux - 1 - y.
            let wanted = panel.multiplexRatio - 1 - y
            return (0..<64).first { com(atPad: $0, panel.comPinsConfiguration) == wanted } ?? 0
        }
    }
}
