import PagerGraphics

/// One panel size an SSD1306 drives: the glass, and how the module wires it to the controller.
///
/// The controller always has 128 x 64 bits of RAM; smaller glass uses a window of it. The
/// table holds what differs between modules (rust-embedded-community/ssd1306 and the Linux
/// ssd130x driver keep the same table): the number of scanned rows, the COM pins wiring
/// and the first RAM column the glass shows.
public struct SSD1306Panel: Hashable, Sendable {
    /// A short name, e.g. `128x64`.
    public let name: String
    /// Glass width in pixels.
    public let width: Int
    /// Glass height in pixels, a multiple of 8.
    public let height: Int
    /// Rows the controller scans (A8h), equal to `height`.
    public var multiplexRatio: Int { height }
    /// The COM pins configuration (DAh) the module is wired for.
    public let comPinsConfiguration: COMPinsConfiguration
    /// The RAM column shown in the glass's leftmost column once segments are remapped (A1h).
    public let columnOffset: Int
    /// The contrast (81h) the init sequence sets.
    public let contrast: UInt8
    /// The reference current selection (ADh) sent at init; nil sends nothing (plain SSD1306).
    public let iref: IREFSelection?

    /// A panel; nil unless the glass fits the controller: width 1...128 - `columnOffset`,
    /// height 16...64 and a multiple of 8.
    public init?(
        name: String, width: Int, height: Int, comPinsConfiguration: COMPinsConfiguration,
        columnOffset: Int = 0, contrast: UInt8 = 0x7F, iref: IREFSelection? = nil
    ) {
        guard columnOffset >= 0, width >= 1, width + columnOffset <= 128,
            height >= 16, height <= 64, height % 8 == 0
        else { return nil }
        self.init(
            unchecked: name, width: width, height: height, comPinsConfiguration: comPinsConfiguration,
            columnOffset: columnOffset, contrast: contrast, iref: iref)
    }

    private init(
        unchecked name: String, width: Int, height: Int, comPinsConfiguration: COMPinsConfiguration,
        columnOffset: Int, contrast: UInt8, iref: IREFSelection?
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.comPinsConfiguration = comPinsConfiguration
        self.columnOffset = columnOffset
        self.contrast = contrast
        self.iref = iref
    }

    /// The common 0.96" module: 128 x 64, alternative COM pins (DAh 12h).
    public static let ssd1306_128x64 = SSD1306Panel(
        unchecked: "128x64", width: 128, height: 64, comPinsConfiguration: .alternative,
        columnOffset: 0, contrast: 0xCF, iref: nil)
    /// The 0.91" module: 128 x 32, sequential COM pins (DAh 02h).
    public static let ssd1306_128x32 = SSD1306Panel(
        unchecked: "128x32", width: 128, height: 32, comPinsConfiguration: .sequential,
        columnOffset: 0, contrast: 0x8F, iref: nil)
    /// The 0.69" module: 96 x 16, sequential COM pins; with A1h its glass shows RAM columns 0...95.
    public static let ssd1306_96x16 = SSD1306Panel(
        unchecked: "96x16", width: 96, height: 16, comPinsConfiguration: .sequential,
        columnOffset: 0, contrast: 0xAF, iref: nil)
    /// The 0.42" module: 72 x 40 centred in the RAM (column offset 28); needs the internal IREF.
    public static let ssd1306_72x40 = SSD1306Panel(
        unchecked: "72x40", width: 72, height: 40, comPinsConfiguration: .alternative,
        columnOffset: 28, contrast: 0xCF, iref: .internalHighCurrent)
    /// The 0.66" module (e.g. WeMos D1 mini shield): 64 x 48 centred in the RAM (column offset 32).
    public static let ssd1306_64x48 = SSD1306Panel(
        unchecked: "64x48", width: 64, height: 48, comPinsConfiguration: .alternative,
        columnOffset: 32, contrast: 0xCF, iref: nil)

    /// Every panel in the table.
    public static let all: [SSD1306Panel] = [.ssd1306_128x64, .ssd1306_128x32, .ssd1306_96x16, .ssd1306_72x40, .ssd1306_64x48]

    /// The number of 8-row pages the glass covers.
    public var pageCount: Int { height / 8 }

    /// The glass as a rectangle of pixels.
    public var size: Size { Size(width: width, height: height) }

    /// The commands that bring the controller from reset to showing RAM on this glass.
    ///
    /// The order follows the datasheet's software initialization flow chart (application
    /// example) as common drivers extend it: configure while asleep, enable the charge pump
    /// (section 8.10) before Display On (AFh), wake last.
    ///
    /// Afterwards the RAM pointer moves in horizontal addressing mode and RAM column
    /// `columnOffset`, page 0 is the top-left pixel of the glass.
    public var initializationSequence: [SSD1306Command] {
        var commands: [SSD1306Command] = [
            .displayOn(false),  // AEh: sleep while configuring, so nothing half-set flashes.
            .setDisplayClock(divideRatio: 1, oscillatorFrequency: 8),  // D5h 80h: the reset clock, stated.
            .setMultiplexRatio(rows: UInt8(height)),  // A8h: scan exactly the glass's rows.
            .setDisplayOffset(0),  // D3h 00h: no vertical shift.
            .setDisplayStartLine(0),  // 40h: RAM row 0 on display row 0.
            .setChargePump(true),  // 8Dh 14h: modules have no external VCC; the pump makes it.
        ]
        if let iref {
            commands.append(.setIREF(iref))  // ADh: SSD1306B/SSD1315 reference current.
        }
        commands += [
            .setMemoryAddressingMode(.horizontal),  // 20h 00h: one window write fills a frame.
            .setSegmentRemap(true),  // A1h: modules mount the glass so column 127 is SEG0.
            .setCOMOutputScanDirection(remapped: true),  // C8h: and scan from COM[N-1] to COM0.
            .setCOMPinsConfiguration(comPinsConfiguration),  // DAh: how this module wires its rows.
            .setContrast(contrast),  // 81h: brightness.
            .setPrechargePeriod(phase1: 1, phase2: 15),  // D9h F1h: the internal-pump setting.
            .setVCOMHDeselectLevel(0x40),  // DBh 40h: as Adafruit and luma.oled send it.
            .entireDisplayOn(false),  // A4h: show RAM.
            .inverseDisplay(false),  // A6h: a 1 bit is a lit pixel.
            .deactivateScroll,  // 2Eh: a scroll left running would move our frames.
            .displayOn(true),  // AFh: wake up.
        ]
        return commands
    }
}
