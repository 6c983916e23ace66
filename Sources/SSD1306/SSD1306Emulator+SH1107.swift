import PagerGraphics

/// The SH1107 (Sino Wealth v2.1): what its command set and its turned RAM mean to the emulator.
///
/// RAM is 16 pages of 128 columns. A data byte's bits run along 8 SEGs, and a RAM column is what
/// one COM line shows: the start line (DCh), the display offset (D3h), the multiplex ratio (A8h)
/// and the COM scan direction (C0h/C8h) all work on columns. A glass of `width` x 128 ties each
/// glass column to a COM and each glass row to a SEG:
///
///     glass column x ◀─wiring─ pin COMp ─D3h, A8h, C0h/C8h─▶ display line ─DCh─▶ RAM column
///     glass row y    ◀─wiring─ SEGs      ──────A0h/A1h─────▶ RAM row y (A1h: 127 - y), page y / 8
///
///     offset D:       COM p carries line l = (p + D) mod 128; lines l >= mux are not scanned (dark)
///     scan direction: C0h: line l is display line l      C8h: line l is display line mux - 1 - l
///     start line S:   display line d shows RAM column (d + S) mod 128
///
/// The wiring comes from the module's intended setup (A0h, C0h, its offset, mux = width, start
/// line 0): under it glass column x shows RAM column x and glass row y RAM row y.
extension SSD1306Emulator {
    /// The COM pin each glass column is wired to, from the panel's intended setup.
    static func sh1107Wiring(of panel: SSD1306Panel) -> [Int] {
        // Under C0h, COM p carries line (p + D) mod 128; glass column x must carry line x.
        (0..<panel.width).map { x in (x - Int(panel.displayOffset) + 128) & 127 }
    }

    /// What the SH1107's glass shows: dark while asleep (AEh). The converter's state (ADh) does
    /// not darken it: modules with a boost converter of their own light with ADh 8Ah, which
    /// Adafruit's driver sends.
    var sh1107Glass: Bitmap {
        var glass = Bitmap(width: panel.width, height: panel.height)
        let r = registers
        guard r.isDisplayOn else { return glass }
        for x in 0..<panel.width {
            guard let column = sh1107RAMColumn(onCOM: glassRowPins[x]) else { continue }  // unscanned: dark
            for y in 0..<panel.height {
                let row = r.isSegmentRemapped ? 127 - y : y
                let stored = ram[(row >> 3) * 128 + column] & (1 << UInt8(row & 7)) != 0
                if r.isEntireDisplayOn || stored != r.isInverse { glass[x, y] = true }
            }
        }
        return glass
    }

    /// The RAM column COM `pin` shows under the current registers, or nil when it is not scanned.
    func sh1107RAMColumn(onCOM pin: Int) -> Int? {
        let r = registers
        let line = (pin + r.displayOffset) & 127
        guard line < r.multiplexRatio else { return nil }
        let displayLine = r.isCOMScanRemapped ? r.multiplexRatio - 1 - line : line
        return (displayLine + r.displayStartLine) & 127
    }

    /// Stores a data byte and moves the pointer: along the page (20h) up to column 127, where the
    /// counter stops and later bytes land nowhere, or down the pages (21h), 15 wrapping to 0.
    mutating func receiveSH1107Data(_ byte: UInt8) {
        var r = registers
        if r.column < 128 { ram[r.page * 128 + r.column] = byte }
        if r.addressingMode == .vertical {
            r.page = (r.page + 1) & 15
        } else {
            r.column = min(r.column + 1, 128)
        }
        registers = r
    }

    /// Executes the commands whose meaning differs on the SH1107; false for the ones it shares.
    mutating func executeSH1107(_ opcode: UInt8, _ a: [UInt8], at offset: Int) -> Bool {
        var r = registers
        switch opcode {
        case 0x10...0x17: r.column = (Int(opcode & 0x07) << 4) | (r.column & 0x0F)  // column bits 6-4
        case 0x20, 0x21: r.addressingMode = opcode == 0x21 ? .vertical : .page
        case 0xA8: r.multiplexRatio = Int(a[0] & 0x7F) + 1
        case 0xAD:
            guard a[0] & 0xF0 == 0x80 else {
                note(.invalidArgument(command: opcode, argument: a[0]), at: offset)
                return true
            }
            r.isChargePumpEnabled = a[0] & 0x01 != 0
        case 0xB0...0xBF: r.page = Int(opcode & 0x0F)
        case 0xD3: r.displayOffset = Int(a[0] & 0x7F)
        case 0xDC: r.displayStartLine = Int(a[0] & 0x7F)
        default: return false
        }
        registers = r
        return true
    }
}

extension SSD1306Command {
    /// The SH1107's command table (v2.1, commands 1-20): no COM pins (DAh), scrolling, charge
    /// pump or 40h-7Fh start line; 20h and 21h stand alone; 16 pages; DCh takes the start line.
    static func sh1107ArgumentCount(opcode: UInt8) -> Int? {
        switch opcode {
        case 0x00...0x17, 0x20, 0x21, 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xB0...0xBF, 0xC0, 0xC8, 0xE0, 0xE3, 0xEE:
            return 0
        case 0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDB, 0xDC:
            return 1
        default:
            return nil
        }
    }
}
