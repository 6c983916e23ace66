import PagerGraphics

/// One panel a controller drives: the glass, and how the module wires it to the controller.
///
/// The controller has 128 (SSD1306) or 132 (SH1106) columns by 64 rows of RAM; smaller glass
/// uses a window of it. The table holds what differs between modules (rust-embedded-community/
/// ssd1306 and the Linux ssd130x driver keep the same table): the number of scanned rows, the
/// COM pins wiring and the first RAM column the glass shows.
///
///     panel           controller  mux  COM pins (DAh)     RAM columns shown   contrast
///     128x64          SSD1306     64   alternative 12h    0...127             CFh
///     128x32          SSD1306     32   sequential  02h    0...127             8Fh
///     96x16           SSD1306     16   sequential  02h    0...95              AFh
///     72x40           SSD1306     40   alternative 12h    28...99 (+ IREF)    CFh
///     64x48           SSD1306     48   alternative 12h    32...95             CFh
///     sh1106-128x64   SH1106      64   alternative 12h    2...129 of 132      80h
///     ssd1309-128x64  SSD1309     64   alternative 12h    0...127             7Fh
///     sh1107-64x128   SH1107      64   (no DAh)           pages 0...15        4Fh   offset D3h 60h
///     sh1107-128x128  SH1107      128  (no DAh)           pages 0...15        4Fh   offset D3h 00h
///
/// An SH1107 turns this around: its RAM columns are the COM lines, so the multiplex ratio counts
/// the glass's columns (its width), all 16 pages run down the 128 SEGs, and a 64-column module
/// wires the middle COMs (COM32-95, hence the offset 60h that Adafruit's and u8g2's drivers send):
/// the glass shows RAM columns 0...63, page by page down its 128 rows.
public struct SSD1306Panel: Hashable, Sendable {
    /// A short name, e.g. `128x64` or `sh1106-128x64`.
    public let name: String
    /// The controller chip.
    public let controller: SSD1306Controller
    /// Glass width in pixels.
    public let width: Int
    /// Glass height in pixels, a multiple of 8.
    public let height: Int
    /// Rows the controller scans (A8h), equal to `height`; on an SH1107 its COMs, the glass's columns.
    public var multiplexRatio: Int { controller == .sh1107 ? width : height }
    /// The display offset (D3h) the module's COM wiring needs: 0 but on the SH1107's 64-column glass.
    public let displayOffset: UInt8
    /// The COM pins configuration (DAh) the module is wired for.
    public let comPinsConfiguration: COMPinsConfiguration
    /// The RAM column shown in the glass's leftmost column once segments are remapped (A1h).
    public let columnOffset: Int
    /// The contrast (81h) the init sequence sets.
    public let contrast: UInt8
    /// The reference current selection (ADh) sent at init; nil sends nothing (plain SSD1306).
    public let iref: IREFSelection?

    /// A panel; nil unless the glass fits the controller: width 1...RAM width - `columnOffset`,
    /// height 16...64 and a multiple of 8 (an SH1107's: 128, all its SEGs, and column offset 0,
    /// its glass's columns being COMs that `displayOffset` places).
    public init?(
        name: String, width: Int, height: Int, comPinsConfiguration: COMPinsConfiguration,
        columnOffset: Int = 0, contrast: UInt8 = 0x7F, iref: IREFSelection? = nil,
        controller: SSD1306Controller = .ssd1306, displayOffset: UInt8 = 0
    ) {
        let heightFits =
            controller == .sh1107 ? height == 128 && columnOffset == 0 : (16...64).contains(height) && height % 8 == 0
        guard columnOffset >= 0, width >= 1, width + columnOffset <= controller.ramWidth, heightFits else {
            return nil
        }
        self.init(
            unchecked: name, controller: controller, width: width, height: height,
            comPinsConfiguration: comPinsConfiguration, columnOffset: columnOffset, contrast: contrast, iref: iref,
            displayOffset: displayOffset & 0x7F)
    }

    private init(
        unchecked name: String, controller: SSD1306Controller = .ssd1306, width: Int, height: Int,
        comPinsConfiguration: COMPinsConfiguration, columnOffset: Int, contrast: UInt8, iref: IREFSelection?,
        displayOffset: UInt8 = 0
    ) {
        self.displayOffset = displayOffset
        self.name = name
        self.controller = controller
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
    /// The 1.3" module: an SH1106 whose 128 x 64 glass shows RAM columns 2...129 of 132.
    public static let sh1106_128x64 = SSD1306Panel(
        unchecked: "sh1106-128x64", controller: .sh1106, width: 128, height: 64,
        comPinsConfiguration: .alternative, columnOffset: 2, contrast: 0x80, iref: nil)

    /// The 2.42" (and some 1.54") module: an SSD1309 with its own panel supply, 128 x 64.
    public static let ssd1309_128x64 = SSD1306Panel(
        unchecked: "ssd1309-128x64", controller: .ssd1309, width: 128, height: 64,
        comPinsConfiguration: .alternative, columnOffset: 0, contrast: 0x7F, iref: nil)

    /// The 128 x 64 SH1107 module (Adafruit's 128x64 OLED FeatherWing, for one), stood on its
    /// end: an SH1107 whose 64 COMs are its columns, COM32-95 (display offset 60h), 128 rows down.
    public static let sh1107_64x128 = SSD1306Panel(
        unchecked: "sh1107-64x128", controller: .sh1107, width: 64, height: 128,
        comPinsConfiguration: .sequential, columnOffset: 0, contrast: 0x4F, iref: nil, displayOffset: 0x60)

    /// The 1.5" (Waveshare) and 1.12" (Adafruit) 128 x 128 modules: an SH1107 with all 128 COMs.
    public static let sh1107_128x128 = SSD1306Panel(
        unchecked: "sh1107-128x128", controller: .sh1107, width: 128, height: 128,
        comPinsConfiguration: .sequential, columnOffset: 0, contrast: 0x4F, iref: nil, displayOffset: 0)

    /// Every panel in the table.
    public static let all: [SSD1306Panel] = [
        .ssd1306_128x64, .ssd1306_128x32, .ssd1306_96x16, .ssd1306_72x40, .ssd1306_64x48, .sh1106_128x64,
        .ssd1309_128x64, .sh1107_64x128, .sh1107_128x128,
    ]

    /// The panel called `name` in the table, case aside; an SSD1306's name may carry its
    /// controller too (`ssd1306-128x64` for `128x64`).
    public static func named(_ name: String) -> SSD1306Panel? {
        let name = name.lowercased()
        return all.first { $0.name == name || "ssd1306-" + $0.name == name }
    }

    /// The number of 8-row pages the glass covers.
    public var pageCount: Int { height / 8 }

    /// The glass as a rectangle of pixels.
    public var size: Size { Size(width: width, height: height) }

    /// The RAM column under the glass's leftmost column for `rotation`.
    ///
    /// With A0h instead of A1h the glass shows the RAM columns mirrored around the middle of
    /// the RAM, so a window off-centre (96x16: columns 0...95) moves (to 32...127); the centred
    /// ones (72x40, 64x48, the SH1106's 2...129) stay where they are.
    public func firstRAMColumn(_ rotation: DisplayRotation) -> Int {
        // An SH1107 turns the picture with its COM scan (C0h/C8h) inside the multiplexed columns.
        rotation == .normal || controller == .sh1107 ? columnOffset : controller.ramWidth - columnOffset - width
    }

    /// Whether `rotation` takes the segment re-map (A1h) and the remapped COM scan (C8h): upright
    /// on the SSD1306, SH1106 and SSD1309 modules, turned half a turn on the SH1107's (upright A0h/C0h).
    public func remapsSegmentsAndCOMs(_ rotation: DisplayRotation) -> Bool {
        (rotation == .normal) != (controller == .sh1107)
    }

    /// The commands that bring the controller from reset to ready to show RAM on this glass, display off.
    public var initializationSequence: [SSD1306Command] { initializationSequence(DisplaySettings()) }

    /// The commands that bring the controller from reset to ready to show RAM on this glass with
    /// `settings`, the display still off.
    ///
    /// The order follows the datasheet's software initialization flow chart (application
    /// example) as common drivers extend it: configure while asleep, enable the charge pump
    /// (section 8.10). Display On (AFh, 10.1.12) is not in it: GDDRAM holds random data at
    /// power-up (the reset of section 8.5 does not clear it), so the driver sends AFh once the
    /// first whole frame is in RAM; sent here, the glass would show that garbage until then.
    ///
    /// Afterwards, on an SSD1306, the RAM pointer moves in horizontal addressing mode; an
    /// SH1106 stays in page addressing, its only mode. RAM column `firstRAMColumn`, page 0 is
    /// the top-left pixel of the glass.
    public func initializationSequence(_ settings: DisplaySettings) -> [SSD1306Command] {
        if controller == .sh1107 { return sh1107InitializationSequence(settings) }
        let upright = remapsSegmentsAndCOMs(settings.rotation)
        var commands: [SSD1306Command] = [
            .displayOn(false),  // AEh: sleep while configuring, so nothing half-set flashes.
            // D5h 80h: the SSD1306's reset clock, stated; the SSD1309 resets to 70h and the Linux
            // ssd130x driver runs it at A0h, as u8g2 does.
            controller == .ssd1309
                ? .setDisplayClock(divideRatio: 1, oscillatorFrequency: 10)
                : .setDisplayClock(divideRatio: 1, oscillatorFrequency: 8),
            .setMultiplexRatio(rows: UInt8(height)),  // A8h: scan exactly the glass's rows.
            .setDisplayOffset(0),  // D3h 00h: no vertical shift.
            .setDisplayStartLine(0),  // 40h: RAM row 0 on display row 0.
        ]
        switch controller {
        case .ssd1306:
            commands.append(.setChargePump(true))  // 8Dh 14h: modules have no external VCC; the pump makes it.
            if let iref {
                commands.append(.setIREF(iref))  // ADh: SSD1306B/SSD1315 reference current.
            }
            commands.append(.setMemoryAddressingMode(.horizontal))  // 20h 00h: one window write fills a frame.
        case .sh1106, .sh1107:  // (an SH1107 takes its own sequence, above)
            commands.append(.setDCDC(true))  // ADh 8Bh: the SH1106's converter, its charge pump.
        case .ssd1309:
            // 8Dh 10h: no pump; the module's boost converter feeds the panel (the Linux ssd130x
            // driver sends the same to an SSD1309).
            commands.append(.setChargePump(false))
            commands.append(.setMemoryAddressingMode(.horizontal))  // 20h 00h: as on the SSD1306.
        }
        commands += [
            .setSegmentRemap(upright),  // A1h: modules mount the glass so the last column is SEG0 (A0h: rotated).
            .setCOMOutputScanDirection(remapped: upright),  // C8h: and scan from COM[N-1] to COM0 (C0h: rotated).
            .setCOMPinsConfiguration(comPinsConfiguration),  // DAh: how this module wires its rows.
        ]
        if let brightness = settings.brightness {
            commands += brightness.commands  // 81h, D9h, DBh together: a dimming that shows.
        } else if controller == .ssd1309 {
            commands += [
                .setContrast(contrast),  // 81h 7Fh: the SSD1309's reset contrast.
                .setPrechargePeriod(phase1: 2, phase2: 2),  // D9h 22h: the external-supply setting.
                .setVCOMHDeselectLevel(0x34),  // DBh 34h: the SSD1309's reset level, as ssd130x sends it.
            ]
        } else {
            commands += [
                .setContrast(contrast),  // 81h: brightness.
                .setPrechargePeriod(phase1: 1, phase2: 15),  // D9h F1h: the internal-pump setting.
                .setVCOMHDeselectLevel(0x40),  // DBh 40h: as Adafruit and luma.oled send it.
            ]
        }
        if let contrast = settings.contrast { commands.append(.setContrast(contrast)) }
        commands += [
            .entireDisplayOn(false),  // A4h: show RAM.
            .inverseDisplay(settings.isInverted),  // A6h: a 1 bit is a lit pixel (A7h: inverted).
        ]
        if controller.hasHorizontalAddressing {
            commands.append(.deactivateScroll)  // 2Eh: a scroll left running would move our frames.
        }
        return commands  // still asleep (AEh): AFh follows the first frame.
    }

    /// The commands that switch the glass off for good: sleep (AEh) first, then the panel supply
    /// off. Nothing that changes the picture may come before AEh: with A7h (inverse) a blanked
    /// RAM shows all white (section 10.1.10).
    public var powerOffSequence: [SSD1306Command] {
        switch controller {
        case .ssd1306: return [.displayOn(false), .setChargePump(false)]
        case .sh1106, .sh1107: return [.displayOn(false), .setDCDC(false)]
        case .ssd1309: return [.displayOn(false)]  // the module's converter is not the controller's to switch
        }
    }
}

extension SSD1306Panel {
    /// The SH1107's sequence (v2.1 command set, the values Adafruit's SH110X and u8g2 send): no
    /// COM pins (DAh) or scroll commands, which it lacks; the multiplex ratio, offset and start
    /// line (DCh) in columns; page addressing (20h), the driver writing page by page.
    func sh1107InitializationSequence(_ settings: DisplaySettings) -> [SSD1306Command] {
        let remapped = remapsSegmentsAndCOMs(settings.rotation)
        var commands: [SSD1306Command] = [
            .displayOn(false),  // AEh: sleep while configuring.
            .setDisplayClock(divideRatio: 2, oscillatorFrequency: 5),  // D5h 51h: as Adafruit and u8g2 run it.
            .setSH1107MultiplexRatio(commons: UInt8(width)),  // A8h: the COMs wired, one a glass column.
            .setSH1107DisplayOffset(displayOffset),  // D3h: where the module's COMs start (60h: COM32).
            .setSH1107DisplayStartLine(0),  // DCh 00h: RAM column 0 on the first COM.
            .setSH1107AddressingMode(vertical: false),  // 20h: the pointer runs along a page.
            .setDCDC(true),  // ADh 8Bh: the converter on (modules with their own boost ignore it).
            // A0h/C0h upright, as Adafruit and u8g2 mount these modules; A1h/C8h turn the picture half a turn.
            .setSegmentRemap(remapped),
            .setCOMOutputScanDirection(remapped: remapped),
        ]
        if let brightness = settings.brightness {
            commands += brightness.commands  // 81h, D9h, DBh together.
        } else {
            commands += [
                .setContrast(contrast),  // 81h: Adafruit's 4Fh (reset 80h).
                .setPrechargePeriod(phase1: 2, phase2: 2),  // D9h 22h: the reset value, stated.
                .setVCOMHDeselectLevel(0x34),  // DBh 34h: next to the reset 35h (the command keeps bits 6-2).
            ]
        }
        if let contrast = settings.contrast { commands.append(.setContrast(contrast)) }
        commands += [.entireDisplayOn(false), .inverseDisplay(settings.isInverted)]  // A4h, A6h
        return commands  // still asleep (AEh): AFh follows the first frame.
    }
}
