/// One SSD1306 command with its arguments (Solomon Systech SSD1306 rev 1.1, section 9, Table 9-1).
///
/// Arguments outside the datasheet's range never trap: each case documents its range, and
/// `bytes` clamps a value into it (or masks it to the bits the command has), so the bytes
/// always form a well-formed command of the right length.
public enum SSD1306Command: Hashable, Sendable {
    // MARK: Fundamental commands (10.1.7 - 10.1.10)

    /// Set Contrast Control (81h): 0...255, reset 7Fh; segment current grows with the value.
    case setContrast(UInt8)
    /// Entire Display On (A4h/A5h): true lights every pixel (A5h), false follows RAM (A4h, reset).
    case entireDisplayOn(Bool)
    /// Set Normal/Inverse Display (A6h/A7h): true shows a RAM 0 as a lit pixel (A7h).
    case inverseDisplay(Bool)
    /// Set Display On/Off (AEh/AFh): false is sleep mode (AEh, reset), RAM is kept.
    case displayOn(Bool)

    // MARK: Scrolling commands (10.2)

    /// Continuous Horizontal Scroll Setup (26h right / 27h left): pages 0...7 (end >= start),
    /// clamped; six argument bytes follow the opcode.
    case setupHorizontalScroll(
        direction: HorizontalScrollDirection, startPage: UInt8, interval: ScrollInterval, endPage: UInt8)
    /// Continuous Vertical and Horizontal Scroll Setup (29h right / 2Ah left): pages 0...7,
    /// vertical offset 0...63 rows a step (masked to 6 bits); five argument bytes follow.
    case setupVerticalAndHorizontalScroll(
        direction: HorizontalScrollDirection, startPage: UInt8, interval: ScrollInterval, endPage: UInt8,
        verticalOffset: UInt8)
    /// Deactivate Scroll (2Eh): stop scrolling; rewrite RAM afterwards, scrolling may have changed it.
    case deactivateScroll
    /// Activate Scroll (2Fh): start the scroll last set up.
    case activateScroll
    /// Set Vertical Scroll Area (A3h): rows fixed at the top 0...63, rows that scroll 0...64 (clamped).
    case setVerticalScrollArea(fixedRows: UInt8, scrollRows: UInt8)

    // MARK: Addressing setting commands (10.1.1 - 10.1.3, 10.1.13)

    /// Set Lower Column Start Address for page addressing mode (00h-0Fh): 0...15, masked.
    case setLowerColumnStartAddress(UInt8)
    /// Set Higher Column Start Address for page addressing mode (10h-1Fh): 0...7 on the SSD1306
    /// (columns 0...127), 0...8 on the SH1106 (columns 0...131); masked to 4 bits.
    case setHigherColumnStartAddress(UInt8)
    /// Set Memory Addressing Mode (20h): horizontal, vertical or page (reset).
    case setMemoryAddressingMode(AddressingMode)
    /// Set Column Address (21h): start and end column 0...127 (masked to 7 bits), horizontal/vertical modes only.
    case setColumnAddress(start: UInt8, end: UInt8)
    /// Set Page Address (22h): start and end page 0...7 (masked to 3 bits), horizontal/vertical modes only.
    case setPageAddress(start: UInt8, end: UInt8)
    /// Set Page Start Address for page addressing mode (B0h-B7h): 0...7, masked.
    case setPageStartAddress(UInt8)

    // MARK: Hardware configuration commands (10.1.6, 10.1.12, 10.1.14 - 10.1.18)

    /// Set Display Start Line (40h-7Fh): the RAM row shown on display row 0, 0...63 (masked).
    case setDisplayStartLine(UInt8)
    /// Set Segment Re-map (A0h/A1h): true maps column 127 to SEG0 (A1h), mirroring left-right.
    case setSegmentRemap(Bool)
    /// Set Multiplex Ratio (A8h): the number of scanned rows, 16...64 (clamped); sent as rows - 1.
    case setMultiplexRatio(rows: UInt8)
    /// Set COM Output Scan Direction (C0h/C8h): true scans from COM[N-1] to COM0 (C8h), flipping top-bottom.
    case setCOMOutputScanDirection(remapped: Bool)
    /// Set Display Offset (D3h): vertical shift by COM, 0...63 (masked).
    case setDisplayOffset(UInt8)
    /// Set COM Pins Hardware Configuration (DAh): how COM signals reach the panel's rows (Table 10-3).
    case setCOMPinsConfiguration(COMPinsConfiguration)

    // MARK: Timing and driving scheme commands (10.1.16, 10.1.17, 10.1.19, 10.1.20)

    /// Set Display Clock Divide Ratio/Oscillator Frequency (D5h): divide ratio 1...16 and
    /// oscillator frequency setting 0...15 (both clamped); reset ratio 1, frequency 8.
    case setDisplayClock(divideRatio: UInt8, oscillatorFrequency: UInt8)
    /// Set Pre-charge Period (D9h): phase 1 and phase 2 in DCLKs, each 1...15 (clamped); reset 2 and 2.
    case setPrechargePeriod(phase1: UInt8, phase2: UInt8)
    /// Set VCOMH Deselect Level (DBh): bits A[6:4] (masked to 70h): 00h ~0.65 VCC, 20h ~0.77 VCC (reset),
    /// 30h ~0.83 VCC; 40h is undocumented in rev 1.1 but sent by many drivers.
    case setVCOMHDeselectLevel(UInt8)
    /// NOP (E3h).
    case nop

    // MARK: Charge pump (application note / rev 1.2+, section 8.10)

    /// Charge Pump Setting (8Dh): true enables the internal pump (14h), false disables it (10h, reset).
    case setChargePump(Bool)

    // MARK: Advanced graphic commands (rev 1.2+, 10.3)

    /// Set Fade Out and Blinking (23h): mode and frame interval 0...15 (clamped), meaning 8...128 frames in steps of 8.
    case setFadeOutAndBlinking(FadeMode, interval: UInt8)
    /// Set Zoom In (D6h): true doubles every row; needs the alternative COM pins configuration.
    case setZoomIn(Bool)
    /// Internal IREF Setting (ADh), from the SSD1306B/SSD1315 datasheets; 72x40 modules need it.
    case setIREF(IREFSelection)

    // MARK: SH1106 and SH1107 (Sino Wealth SH1106 v2.3 and SH1107 v2.1, command 10)

    /// Set DC-DC OFF/ON (ADh 8Ah/8Bh), SH1106 and SH1107: bit 0 switches the converter that makes
    /// the panel voltage, as the SSD1306's charge pump does.
    case setDCDC(Bool)

    // MARK: SH1107 only (Sino Wealth SH1107 v2.1, commands 3, 6, 9, 12, 17)

    /// Set Page Address (B0h-BFh), SH1107: page 0...15 of its 128-row RAM (masked to 4 bits).
    case setSH1107PageAddress(UInt8)
    /// Set Memory Addressing Mode, SH1107: page (20h, reset) or vertical (21h); one byte, no argument.
    case setSH1107AddressingMode(vertical: Bool)
    /// Set Multiplex Ratio (A8h + 00h-7Fh), SH1107: 1...128 COMs (clamped), sent as COMs - 1; reset 128.
    case setSH1107MultiplexRatio(commons: UInt8)
    /// Set Display Offset (D3h + 00h-7Fh), SH1107: the COM the start line maps to, 0...127 (masked).
    case setSH1107DisplayOffset(UInt8)
    /// Set Display Start Line (DCh + 00h-7Fh), SH1107: the RAM column COM0 shows, 0...127 (masked).
    case setSH1107DisplayStartLine(UInt8)

    /// The command as it goes on the wire after a command control byte: opcode, then arguments.
    public var bytes: [UInt8] {
        switch self {
        case .setContrast(let value): return [0x81, value]
        case .entireDisplayOn(let on): return [on ? 0xA5 : 0xA4]
        case .inverseDisplay(let inverse): return [inverse ? 0xA7 : 0xA6]
        case .displayOn(let on): return [on ? 0xAF : 0xAE]
        case .setupHorizontalScroll(let direction, let start, let interval, let end):
            let first = clamp(start, 0, 7)
            // The two trailing bytes are fixed dummies in rev 1.1 (E = 00h, F = FFh).
            return [
                0x26 | direction.rawValue, 0x00, first, interval.rawValue, max(first, clamp(end, 0, 7)), 0x00, 0xFF,
            ]
        case .setupVerticalAndHorizontalScroll(let direction, let start, let interval, let end, let offset):
            let first = clamp(start, 0, 7)
            return [
                0x29 + direction.rawValue, 0x00, first, interval.rawValue, max(first, clamp(end, 0, 7)), offset & 0x3F,
            ]
        case .deactivateScroll: return [0x2E]
        case .activateScroll: return [0x2F]
        case .setVerticalScrollArea(let fixed, let scrolling): return [0xA3, fixed & 0x3F, min(scrolling, 64)]
        case .setLowerColumnStartAddress(let nibble): return [nibble & 0x0F]
        case .setHigherColumnStartAddress(let nibble): return [0x10 | (nibble & 0x0F)]
        case .setMemoryAddressingMode(let mode): return [0x20, mode.rawValue]
        case .setColumnAddress(let start, let end): return [0x21, start & 0x7F, end & 0x7F]
        case .setPageAddress(let start, let end): return [0x22, start & 0x07, end & 0x07]
        case .setPageStartAddress(let page): return [0xB0 | (page & 0x07)]
        case .setDisplayStartLine(let line): return [0x40 | (line & 0x3F)]
        case .setSegmentRemap(let remap): return [remap ? 0xA1 : 0xA0]
        case .setMultiplexRatio(let rows): return [0xA8, clamp(rows, 16, 64) - 1]
        case .setCOMOutputScanDirection(let remapped): return [remapped ? 0xC8 : 0xC0]
        case .setDisplayOffset(let offset): return [0xD3, offset & 0x3F]
        case .setCOMPinsConfiguration(let configuration): return [0xDA, configuration.byte]
        case .setDisplayClock(let ratio, let frequency):
            return [0xD5, (clamp(frequency, 0, 15) << 4) | (clamp(ratio, 1, 16) - 1)]
        case .setPrechargePeriod(let phase1, let phase2):
            return [0xD9, (clamp(phase2, 1, 15) << 4) | clamp(phase1, 1, 15)]
        // The SSD1306 reads A[6:4], the SSD1309 A[5:2] (its reset 34h); bits 7, 1 and 0 are reserved in both.
        case .setVCOMHDeselectLevel(let level): return [0xDB, level & 0x7C]
        case .nop: return [0xE3]
        case .setChargePump(let enabled): return [0x8D, enabled ? 0x14 : 0x10]
        case .setFadeOutAndBlinking(let mode, let interval): return [0x23, mode.rawValue | clamp(interval, 0, 15)]
        case .setZoomIn(let zoom): return [0xD6, zoom ? 0x01 : 0x00]
        case .setIREF(let selection): return [0xAD, selection.rawValue]
        case .setDCDC(let on): return [0xAD, on ? 0x8B : 0x8A]
        case .setSH1107PageAddress(let page): return [0xB0 | (page & 0x0F)]
        case .setSH1107AddressingMode(let vertical): return [vertical ? 0x21 : 0x20]
        case .setSH1107MultiplexRatio(let commons): return [0xA8, clamp(commons, 1, 128) - 1]
        case .setSH1107DisplayOffset(let offset): return [0xD3, offset & 0x7F]
        case .setSH1107DisplayStartLine(let line): return [0xDC, line & 0x7F]
        }
    }
}

extension SSD1306Command {
    /// Appends the command's bytes to `bytes`. The commands a frame sends (its window and the
    /// start line) go without the temporary array `bytes` makes; the rest append `bytes`.
    func append(to bytes: inout [UInt8]) {
        switch self {
        case .setColumnAddress(let start, let end):
            bytes.append(0x21)
            bytes.append(start & 0x7F)
            bytes.append(end & 0x7F)
        case .setPageAddress(let start, let end):
            bytes.append(0x22)
            bytes.append(start & 0x07)
            bytes.append(end & 0x07)
        case .setDisplayStartLine(let line): bytes.append(0x40 | (line & 0x3F))
        case .setPageStartAddress(let page): bytes.append(0xB0 | (page & 0x07))
        case .setSH1107PageAddress(let page): bytes.append(0xB0 | (page & 0x0F))
        case .setSH1107DisplayStartLine(let line):
            bytes.append(0xDC)
            bytes.append(line & 0x7F)
        case .setLowerColumnStartAddress(let nibble): bytes.append(nibble & 0x0F)
        case .setHigherColumnStartAddress(let nibble): bytes.append(0x10 | (nibble & 0x0F))
        default: bytes += self.bytes
        }
    }
}

/// The three ways the RAM pointer moves after each data byte (20h, section 10.1.3).
public enum AddressingMode: UInt8, Hashable, Sendable {
    /// Column first, then the next page within the 21h/22h window.
    case horizontal = 0b00
    /// Page first, then the next column within the 21h/22h window.
    case vertical = 0b01
    /// Column only, wrapping within the page (reset).
    case page = 0b10
}

/// The direction content moves in a continuous scroll (26h/27h, 29h/2Ah).
public enum HorizontalScrollDirection: UInt8, Hashable, Sendable {
    /// Content moves right (26h, 29h).
    case right = 0
    /// Content moves left (27h, 2Ah).
    case left = 1
}

/// The time between scroll steps, in frames (the 3-bit code of 26h/27h/29h/2Ah).
public enum ScrollInterval: UInt8, Hashable, Sendable, CaseIterable {
    /// 5 frames (000b).
    case frames5 = 0b000
    /// 64 frames (001b).
    case frames64 = 0b001
    /// 128 frames (010b).
    case frames128 = 0b010
    /// 256 frames (011b).
    case frames256 = 0b011
    /// 3 frames (100b).
    case frames3 = 0b100
    /// 4 frames (101b).
    case frames4 = 0b101
    /// 25 frames (110b).
    case frames25 = 0b110
    /// 2 frames (111b).
    case frames2 = 0b111

    /// Frames between steps.
    public var frames: Int {
        switch self {
        case .frames2: return 2
        case .frames3: return 3
        case .frames4: return 4
        case .frames5: return 5
        case .frames25: return 25
        case .frames64: return 64
        case .frames128: return 128
        case .frames256: return 256
        }
    }
}

/// The effect of Set Fade Out and Blinking (23h, bits A[5:4]).
public enum FadeMode: UInt8, Hashable, Sendable {
    /// No fading or blinking (reset).
    case disabled = 0x00
    /// The panel fades out once.
    case fadeOut = 0x20
    /// The panel fades out and in repeatedly.
    case blinking = 0x30
}

/// Where the segment reference current comes from (ADh, SSD1306B/SSD1315).
public enum IREFSelection: UInt8, Hashable, Sendable {
    /// External resistor on IREF (reset).
    case external = 0x00
    /// Internal reference, lower current.
    case `internal` = 0x10
    /// Internal reference, higher current (what 72x40 modules use).
    case internalHighCurrent = 0x30
}

/// Set COM Pins Hardware Configuration (DAh): A[4] alternative, A[5] left/right remap (Table 10-3).
public struct COMPinsConfiguration: Hashable, Sendable {
    /// COM signals alternate between the chip's two sides (A[4] = 1, reset) instead of running in sequence.
    public var isAlternative: Bool
    /// The die's two sides of COM pins are exchanged face to face, COMx with COM(63 - x) (A[5] = 1, Table 10-3).
    public var isLeftRightRemapped: Bool

    /// A configuration.
    public init(alternative: Bool, leftRightRemap: Bool = false) {
        isAlternative = alternative
        isLeftRightRemapped = leftRightRemap
    }

    /// The configuration a DAh argument byte selects (bit 1 is always set on the wire, other bits ignored).
    public init(byte: UInt8) {
        self.init(alternative: byte & 0x10 != 0, leftRightRemap: byte & 0x20 != 0)
    }

    /// Sequential COM pins, no remap (02h): what 128x32 and 96x16 modules are wired for.
    public static let sequential = COMPinsConfiguration(alternative: false)
    /// Alternative COM pins, no remap (12h, reset): what 128x64 modules are wired for.
    public static let alternative = COMPinsConfiguration(alternative: true)

    /// The DAh argument byte.
    public var byte: UInt8 { 0x02 | (isAlternative ? 0x10 : 0) | (isLeftRightRemapped ? 0x20 : 0) }
}

/// `value` limited to `low...high`.
@inline(__always)
func clamp(_ value: UInt8, _ low: UInt8, _ high: UInt8) -> UInt8 {
    min(max(value, low), high)
}
