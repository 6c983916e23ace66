/// The controller chip behind the glass: the SSD1306, the SH1106 that 1.3" modules carry, the
/// SSD1309 of 2.42" modules, or the SH1107 of 64 x 128 and 128 x 128 modules.
///
/// They share most commands, so an SSD1306 driver half-works on an SH1106, which is why
/// 1.3" panels so often show garbage: the SH1106 (Sino Wealth datasheet v2.3) has 132 columns
/// of RAM, no horizontal or vertical addressing (20h, 21h and 22h mean nothing to it), no
/// charge pump command (8Dh; it has a DC-DC converter, ADh 8Ah/8Bh) and no scrolling. The
/// SSD1309 (Solomon Systech, rev 1.1) speaks the SSD1306's commands and addressing modes, but has
/// no charge pump: its panel voltage comes from outside (a boost converter on the module), so
/// the glass lights without 8Dh 14h, and it adds a command lock (FDh).
///
/// The SH1107 (Sino Wealth, v2.1) drives 128 COMs: 128 x 128 bits of RAM in 16 pages (B0h-BFh),
/// page (20h) or vertical (21h) addressing, each a single byte. Its RAM is turned a quarter
/// against the others': a RAM column is a COM line, so its display start line (DCh 00h-7Fh,
/// "specify column address to determine the initial display line"), display offset (D3h) and
/// multiplex ratio (A8h, up to 128) all count columns, and a page's bits run along the SEGs.
public enum SSD1306Controller: Hashable, Sendable {
    /// Solomon Systech SSD1306: 128 x 64 RAM, three addressing modes, charge pump.
    case ssd1306
    /// Sino Wealth SH1106: 132 x 64 RAM, page addressing only, DC-DC converter.
    case sh1106
    /// Solomon Systech SSD1309: 128 x 64 RAM, three addressing modes, external panel supply.
    case ssd1309
    /// Sino Wealth SH1107: 128 x 128 RAM in 16 pages, a RAM column per COM, DC-DC converter.
    case sh1107

    /// Columns of display RAM.
    public var ramWidth: Int {
        switch self {
        case .ssd1306, .ssd1309, .sh1107: return 128
        case .sh1106: return 132
        }
    }

    /// Rows of display RAM, 8 to a page: 64, the SH1107's 128.
    public var ramRows: Int { self == .sh1107 ? 128 : 64 }

    /// Pages of display RAM (B0h-B7h; the SH1107's B0h-BFh).
    public var ramPages: Int { ramRows / 8 }

    /// Whether a window (21h, 22h) can be filled in one data transaction.
    public var hasHorizontalAddressing: Bool { self == .ssd1306 || self == .ssd1309 }

    /// Whether the display start line moves the picture along RAM rows (40h-7Fh), which the
    /// driver's slides use. The SH1107's (DCh) moves it along RAM columns, sideways to a page.
    public var startLineMovesRows: Bool { self != .sh1107 }

    /// Whether the panel supply comes from a charge pump the controller must switch on (8Dh 14h);
    /// the SH1106's converter (ADh) counts. The SSD1309's comes from outside the chip.
    public var hasInternalPanelSupply: Bool { self != .ssd1309 }

    /// A short name, as the configuration spells it.
    public var name: String {
        switch self {
        case .ssd1306: return "SSD1306"
        case .sh1106: return "SH1106"
        case .ssd1309: return "SSD1309"
        case .sh1107: return "SH1107"
        }
    }
}

/// The byte an SMBus "read byte" returns from the controller (SSD1306 section 8.1.5.2 read
/// mode; SH1106 "status read"; SH1107 "Read ID").
///
/// Only bit 6 is documented in every datasheet: 1 while the display is off (AEh). The SH1106
/// and SH1107 add bit 7, busy. The SH1107 documents its low six bits as its ID, 000111b (07h).
/// The others' low nibble is undocumented; modules seen in the field return 03h or 06h from an
/// SSD1306 and 08h from an SH1106 (the heuristic of bitbank2's ss_oled and OneBitDisplay
/// libraries). It tells them apart on many modules, not all: treat it as a hint, and confirm
/// with the test pattern.
public struct ControllerStatus: Hashable, Sendable {
    /// The byte as read.
    public let rawValue: UInt8

    /// The status in `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Display On (AFh) is in force; documented in both datasheets.
    public var isDisplayOn: Bool { rawValue & 0x40 == 0 }

    /// The controller the undocumented low nibble suggests, or nil when it matches neither.
    public var likelyController: SSD1306Controller? {
        switch rawValue & 0x0F {
        case 0x03, 0x06: return .ssd1306
        case 0x08: return .sh1106
        // The SH1107's ID (Read ID, command 22): bits 5-0 are 000111b.
        case 0x07 where rawValue & 0x30 == 0: return .sh1107
        default: return nil
        }
    }
}
