import PagerGraphics

/// An SSD1306 (or SH1106, SSD1309, SH1107) and its glass in memory: it takes the command and
/// data records a driver sends (`DisplayInterface`), or decodes the I2C transactions of a trace
/// as a real controller would, and shows what a person would see on the panel.
///
/// The controller is the panel's: on an SH1106 panel the emulator has 132 columns of RAM,
/// page addressing only, and treats the SSD1306-only commands (20h-2Fh, 8Dh, A3h, D6h) as the
/// unknown bytes they are to that chip, so an SSD1306 driver shows the garbage it shows on a
/// real 1.3" module. An SH1107 has 128 x 128 bits in 16 pages, and its own glass mapping
/// (`SSD1306Emulator+SH1107.swift`).
///
/// Decoding follows the datasheet (section 8.1.5.2): each transaction opens with a control
/// byte `Co D/C# 0 0 0 0 0 0`. With Co = 0 the rest of the transaction is one stream of
/// commands (D/C# = 0) or display data (D/C# = 1); with Co = 1 exactly one byte follows,
/// then another control byte. A command's arguments may arrive in later control-byte
/// groups or later transactions, as they do when drivers send one byte per transaction.
///
/// Nothing here traps: unknown opcodes, invalid arguments, reserved control bits, writes to
/// another address and RAM writes during a scroll are recorded in `diagnostics`.
public struct SSD1306Emulator: I2CBus, DisplayInterface, Sendable {
    /// The emulator never fails a write: a real bus would NACK another address, which the
    /// emulator records as a diagnostic instead.
    public typealias Failure = Never

    /// The glass this controller drives.
    public let panel: SSD1306Panel
    /// The address the controller answers, 0x3C or 0x3D.
    public let address: I2CAddress
    /// The command registers.
    package internal(set) var registers = SSD1306Registers()
    /// What the emulator noticed, oldest first.
    public private(set) var diagnostics: [Diagnostic] = []
    /// Transactions received so far, to any address.
    public private(set) var transactionCount = 0

    /// GDDRAM, 8 pages (SH1107: 16) of `controller.ramWidth` columns (section 8.7).
    var ram: [UInt8]
    /// A command waiting for argument bytes.
    private var pending: (opcode: UInt8, arguments: [UInt8], needed: Int)?
    /// The pin (Table 10-3 COMx) each glass row is wired to, top first; on an SH1107, each glass column.
    let glassRowPins: [Int]

    /// A controller at reset, on `panel`, answering `address`.
    public init(panel: SSD1306Panel = .ssd1306_128x64, address: I2CAddress = .ssd1306Primary) {
        self.panel = panel
        self.address = address
        self.glassRowPins = panel.controller == .sh1107 ? Self.sh1107Wiring(of: panel) : Self.wiring(of: panel)
        self.ram = [UInt8](repeating: 0, count: panel.controller.ramWidth * panel.controller.ramPages)
        if panel.controller == .sh1106 {
            // SH1106 reset values (v2.3 section 10): DC-DC on (8Bh), contrast 80h, VCOM 35h, clock 50h.
            registers.isChargePumpEnabled = true
            registers.contrast = 0x80
            registers.vcomhDeselectLevel = 0x35
            registers.displayClock = 0x50
            registers.columnEnd = 131
        }
        if panel.controller == .ssd1309 {
            // SSD1309 rev 1.1 reset values that differ: clock 70h (Fosc 0111b, its revision
            // history's correction), VCOMH 34h.
            registers.displayClock = 0x70
            registers.vcomhDeselectLevel = 0x34
        }
        if panel.controller == .sh1107 { registers.resetSH1107() }
    }

    /// A controller just powered up on `panel`: registers at reset, and GDDRAM holding whatever
    /// its cells settled to, drawn from `generator` (neither datasheet gives RAM a reset value;
    /// real panels show noise if woken before RAM is written).
    public init<Generator: RandomNumberGenerator>(
        panel: SSD1306Panel = .ssd1306_128x64, address: I2CAddress = .ssd1306Primary,
        powerUpRAMFrom generator: inout Generator
    ) {
        self.init(panel: panel, address: address)
        for index in ram.indices { ram[index] = UInt8.random(in: 0...255, using: &generator) }
    }

    /// The chip being emulated.
    public var controller: SSD1306Controller { panel.controller }

    /// GDDRAM as a 128 x 64 (SH1106: 132 x 64, SH1107: 128 x 128) bitmap, before any of the display mappings.
    public var displayRAM: Bitmap {
        let width = controller.ramWidth
        let rows = controller.ramRows
        return Bitmap(width: width, height: rows, pageBytes: ram) ?? Bitmap(width: width, height: rows)
    }

    /// Receives one I2C write transaction.
    public mutating func write(_ bytes: [UInt8], to address: I2CAddress) {
        defer { transactionCount += 1 }
        guard address == self.address else {
            note(.noDevice(address), at: 0)
            return
        }
        var index = 0
        var warnedAboutScroll = false
        while index < bytes.count {
            let control = bytes[index]
            if control & 0x3F != 0 { note(.reservedControlBits(control), at: index) }
            let isData = control & 0x40 != 0
            // Co = 1: one byte, then the next control byte; Co = 0: the rest is one stream.
            let end = control & 0x80 != 0 ? min(index + 2, bytes.count) : bytes.count
            index += 1
            receive(bytes[index..<end], isData: isData, at: index, warnedAboutScroll: &warnedAboutScroll)
            index = end
        }
    }

    /// Forgets the diagnostics so far, for a caller that has taken them: a replay of a long
    /// trace keeps a few and counts the rest rather than holding one for each bad byte.
    public mutating func removeAllDiagnostics() {
        diagnostics.removeAll(keepingCapacity: true)
    }

    /// Receives `bytes` as display data or commands, the first at `offset` in its transaction.
    private mutating func receive(
        _ bytes: ArraySlice<UInt8>, isData: Bool, at offset: Int, warnedAboutScroll: inout Bool
    ) {
        var offset = offset
        for byte in bytes {
            if isData {
                if registers.isScrollActive && !warnedAboutScroll {
                    note(.ramWriteWhileScrolling, at: offset)
                    warnedAboutScroll = true
                }
                receiveData(byte, at: offset)
            } else {
                receiveCommandByte(byte, at: offset)
            }
            offset += 1
        }
    }

    /// Receives one record as a panel on SPI does: D/C# from its kind, no control byte, no
    /// address; it counts as a transaction.
    public mutating func send(_ kind: DisplayRecordKind, _ bytes: ArraySlice<UInt8>) {
        defer { transactionCount += 1 }
        var warnedAboutScroll = false
        receive(bytes, isData: kind == .data, at: 0, warnedAboutScroll: &warnedAboutScroll)
    }

    mutating func note(_ problem: Diagnostic.Problem, at offset: Int) {
        diagnostics.append(Diagnostic(transaction: transactionCount, offset: offset, problem: problem))
    }

    // MARK: Display data

    private mutating func receiveData(_ byte: UInt8, at offset: Int) {
        if let waiting = pending {
            note(
                .incompleteCommand(command: waiting.opcode, missing: waiting.needed - waiting.arguments.count),
                at: offset)
            pending = nil
        }
        if controller == .sh1107 {
            receiveSH1107Data(byte)
            return
        }
        if controller == .sh1106 {
            // The column counter counts up to 132 and stops (SH1106 v2.3, "Set Column Address");
            // bytes written past the last column land nowhere.
            if registers.column < 132 { ram[registers.page * 132 + registers.column] = byte }
            registers.column = min(registers.column + 1, 132)
            return
        }
        ram[registers.page * 128 + registers.column] = byte
        advancePointer()
    }

    /// Moves the RAM pointer after a data byte (sections 10.1.3 and 10.1.4).
    private mutating func advancePointer() {
        var r = registers
        switch r.addressingMode {
        case .page:
            // The 21h/22h window applies to horizontal and vertical modes only (10.1.4),
            // so the pointer wraps within the whole page and stays on it.
            r.column = (r.column + 1) & 0x7F
        case .horizontal:
            if r.column == r.columnEnd {
                r.column = r.columnStart
                r.page = r.page == r.pageEnd ? r.pageStart : (r.page + 1) & 0x07
            } else {
                // Masking keeps a window whose end lies before its start wrapping through 127.
                r.column = (r.column + 1) & 0x7F
            }
        case .vertical:
            if r.page == r.pageEnd {
                r.page = r.pageStart
                r.column = r.column == r.columnEnd ? r.columnStart : (r.column + 1) & 0x7F
            } else {
                r.page = (r.page + 1) & 0x07
            }
        }
        registers = r
    }

    // MARK: Commands

    private mutating func receiveCommandByte(_ byte: UInt8, at offset: Int) {
        if var waiting = pending {
            waiting.arguments.append(byte)
            if waiting.arguments.count == waiting.needed {
                pending = nil
                execute(waiting.opcode, waiting.arguments, at: offset)
            } else {
                pending = waiting
            }
            return
        }
        guard let needed = SSD1306Command.argumentCount(opcode: byte, controller: controller) else {
            note(.unknownCommand(byte), at: offset)
            return
        }
        if registers.isCommandLocked, byte != 0xFD {
            // A locked SSD1309 answers nothing but the unlock (FDh 12h).
            note(.commandWhileLocked(byte), at: offset)
            return
        }
        if needed == 0 {
            execute(byte, [], at: offset)
        } else {
            pending = (byte, [], needed)
        }
    }

    private mutating func execute(_ opcode: UInt8, _ a: [UInt8], at offset: Int) {
        if controller == .sh1107, executeSH1107(opcode, a, at: offset) { return }
        var r = registers
        switch opcode {
        case 0x00...0x0F:
            // Lower column nibble (SSD1306 10.1.1; SH1106 "Set Lower Column Address"): the higher
            // nibble stays, all of it, so an SH1106 keeps column bit 7 (columns 128-131) whichever
            // of the two commands comes first.
            r.column = (r.column & 0xF0) | Int(opcode & 0x0F)
        case 0x10...0x1F:
            // Higher column nibble (SSD1306 10.1.2: 10h-17h, 3 bits; SH1106: 10h-1Fh, 4 bits).
            let high = controller == .sh1106 ? opcode & 0x0F : opcode & 0x07
            r.column = (Int(high) << 4) | (r.column & 0x0F)
        case 0x20:
            guard let mode = AddressingMode(rawValue: a[0] & 0x03) else {
                note(.invalidArgument(command: opcode, argument: a[0]), at: offset)
                return
            }
            r.addressingMode = mode
        case 0x21:
            r.columnStart = Int(a[0] & 0x7F)
            r.columnEnd = Int(a[1] & 0x7F)
            r.column = r.columnStart
        case 0x22:
            r.pageStart = Int(a[0] & 0x07)
            r.pageEnd = Int(a[1] & 0x07)
            r.page = r.pageStart
        case 0x23:
            r.fadeMode = a[0] & 0x20 == 0 ? .disabled : (a[0] & 0x10 == 0 ? .fadeOut : .blinking)
            r.fadeInterval = Int(a[0] & 0x0F)
        case 0x26, 0x27, 0x29, 0x2A:
            if r.isScrollActive { note(.scrollSetupWhileScrolling(command: opcode), at: offset) }
            r.scrollSetup = Self.scrollSetup(opcode, a)
        case 0x2E: r.isScrollActive = false
        case 0x2F: r.isScrollActive = true
        case 0x40...0x7F: r.displayStartLine = Int(opcode & 0x3F)
        case 0x81: r.contrast = a[0]
        case 0x8D: r.isChargePumpEnabled = a[0] & 0x04 != 0
        case 0xA0, 0xA1: r.isSegmentRemapped = opcode == 0xA1
        case 0xA3:
            r.verticalScrollFixedRows = Int(a[0] & 0x3F)
            r.verticalScrollRows = Int(a[1] & 0x7F)
        case 0xA4, 0xA5: r.isEntireDisplayOn = opcode == 0xA5
        case 0xA6, 0xA7: r.isInverse = opcode == 0xA7
        case 0xA8:
            // A[5:0] of 0 to 14 are invalid entries (10.1.11); the ratio keeps its value.
            guard a[0] & 0x3F >= 15 else {
                note(.invalidArgument(command: opcode, argument: a[0]), at: offset)
                return
            }
            r.multiplexRatio = Int(a[0] & 0x3F) + 1
        case 0xAD where controller == .sh1106:
            guard a[0] & 0xFE == 0x8A else {
                note(.invalidArgument(command: opcode, argument: a[0]), at: offset)
                return
            }
            r.isChargePumpEnabled = a[0] & 0x01 != 0
        case 0xAD: r.iref = a[0]
        case 0xAE, 0xAF: r.isDisplayOn = opcode == 0xAF
        case 0xB0...0xB7: r.page = Int(opcode & 0x07)
        case 0xC0, 0xC8: r.isCOMScanRemapped = opcode == 0xC8
        case 0xD3: r.displayOffset = Int(a[0] & 0x3F)
        case 0xD5: r.displayClock = a[0]
        case 0xD6: r.isZoomedIn = a[0] & 0x01 != 0
        case 0xD9: r.prechargePeriod = a[0]
        case 0xDA: r.comPinsConfiguration = COMPinsConfiguration(byte: a[0])
        case 0xDB: r.vcomhDeselectLevel = a[0]
        case 0xFD where controller == .ssd1309:
            guard a[0] & 0xFB == 0x12 else {
                note(.invalidArgument(command: opcode, argument: a[0]), at: offset)
                return
            }
            r.isCommandLocked = a[0] & 0x04 != 0
        default: break  // E3h NOP, SH1106 30h-33h (pump voltage), E0h/EEh (read-modify-write): no glass effect.
        }
        registers = r
    }

    private static func scrollSetup(_ opcode: UInt8, _ a: [UInt8]) -> SSD1306Command {
        let direction: HorizontalScrollDirection = opcode == 0x27 || opcode == 0x2A ? .left : .right
        let interval = ScrollInterval(rawValue: a[2] & 0x07) ?? .frames5
        if opcode <= 0x27 {
            return .setupHorizontalScroll(
                direction: direction, startPage: a[1] & 0x07, interval: interval, endPage: a[3] & 0x07)
        }
        return .setupVerticalAndHorizontalScroll(
            direction: direction, startPage: a[1] & 0x07, interval: interval, endPage: a[3] & 0x07,
            verticalOffset: a[4] & 0x3F)
    }
}

extension SSD1306Command {
    /// How many argument bytes follow `opcode` on `controller`; nil for a byte that is no command of it.
    public static func argumentCount(opcode: UInt8, controller: SSD1306Controller) -> Int? {
        if controller == .ssd1309 {
            // The SSD1306's table, without the SSD1306B's IREF (ADh), with the command lock (FDh).
            switch opcode {
            case 0xAD: return nil
            case 0xFD: return 1
            default: return argumentCount(opcode: opcode)
            }
        }
        if controller == .sh1107 { return sh1107ArgumentCount(opcode: opcode) }
        guard controller == .sh1106 else { return argumentCount(opcode: opcode) }
        // SH1106 v2.3 command table: no addressing modes, scrolling, fade, zoom or charge pump.
        switch opcode {
        case 0x00...0x1F, 0x30...0x33, 0x40...0x7F, 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xB0...0xB7, 0xC0, 0xC8,
            0xE0, 0xE3, 0xEE:
            return 0
        case 0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB:
            return 1
        default:
            return nil
        }
    }

    /// How many argument bytes follow `opcode` (Table 9-1); nil for a byte that is no SSD1306 command.
    public static func argumentCount(opcode: UInt8) -> Int? {
        switch opcode {
        case 0x00...0x1F, 0x2E, 0x2F, 0x40...0x7F, 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xB0...0xB7, 0xC0, 0xC8, 0xE3:
            return 0
        case 0x20, 0x23, 0x81, 0x8D, 0xA8, 0xAD, 0xD3, 0xD5, 0xD6, 0xD9, 0xDA, 0xDB:
            return 1
        case 0x21, 0x22, 0xA3:
            return 2
        case 0x29, 0x2A:
            return 5  // dummy, start page, interval, end page, vertical offset
        case 0x26, 0x27:
            return 6  // dummy, start page, interval, end page, dummy 00h, dummy FFh
        default:
            return nil
        }
    }
}
