/// The SSD1306's command registers, starting at their reset values (datasheet Table 9-1, section 8.5).
package struct SSD1306Registers: Hashable, Sendable {
    /// Contrast (81h), reset 7Fh.
    package var contrast: UInt8 = 0x7F
    /// Every pixel lit regardless of RAM (A5h); reset A4h.
    package var isEntireDisplayOn = false
    /// A RAM 0 is lit and a 1 dark (A7h); reset A6h.
    package var isInverse = false
    /// Display On (AFh); reset is sleep (AEh).
    package var isDisplayOn = false
    /// The internal charge pump is enabled (8Dh 14h); reset disabled (8Dh 10h).
    package var isChargePumpEnabled = false
    /// The SSD1309's command lock (FDh 16h): every command but FDh is ignored; reset unlocked (FDh 12h).
    package var isCommandLocked = false

    /// How the RAM pointer advances (20h); reset page addressing.
    package var addressingMode = AddressingMode.page
    /// The column window of horizontal and vertical modes (21h), reset 0...127.
    package var columnStart = 0
    /// The last column of the window.
    package var columnEnd = 127
    /// The page window of horizontal and vertical modes (22h), reset 0...7.
    package var pageStart = 0
    /// The last page of the window.
    package var pageEnd = 7
    /// The RAM column the next data byte goes to.
    package var column = 0
    /// The RAM page the next data byte goes to.
    package var page = 0

    /// The RAM row shown on display row 0 (40h-7Fh), 0...63; on an SH1107 the RAM column (DCh), 0...127.
    package var displayStartLine = 0
    /// RAM column 127 drives SEG0 (A1h); reset A0h.
    package var isSegmentRemapped = false
    /// COM scan runs from COM[N-1] to COM0 (C8h); reset C0h.
    package var isCOMScanRemapped = false
    /// Rows scanned (A8h), 16...64; reset 64 (SH1107: COMs, 1...128, reset 128).
    package var multiplexRatio = 64
    /// Vertical shift by COM (D3h), 0...63 (SH1107: 0...127).
    package var displayOffset = 0
    /// The COM pins configuration (DAh); reset 12h, alternative.
    package var comPinsConfiguration = COMPinsConfiguration.alternative

    /// The raw D5h argument: divide ratio - 1 in bits 3-0, oscillator frequency in bits 7-4; reset 80h.
    package var displayClock: UInt8 = 0x80
    /// The raw D9h argument: phase 1 in bits 3-0, phase 2 in bits 7-4; reset 22h.
    package var prechargePeriod: UInt8 = 0x22
    /// The raw DBh argument; reset 20h (~0.77 VCC).
    package var vcomhDeselectLevel: UInt8 = 0x20
    /// The raw ADh argument; reset external IREF.
    package var iref: UInt8 = 0x00

    /// A continuous scroll is running (2Fh until 2Eh).
    package var isScrollActive = false
    /// The last scroll set up (26h/27h/29h/2Ah), as the command that set it.
    package var scrollSetup: SSD1306Command?
    /// Rows fixed above the vertical scroll area (A3h), reset 0.
    package var verticalScrollFixedRows = 0
    /// Rows in the vertical scroll area (A3h), reset 64.
    package var verticalScrollRows = 64
    /// Fade out or blinking (23h), reset disabled.
    package var fadeMode = FadeMode.disabled
    /// Frame interval code of the fade (23h A[3:0]).
    package var fadeInterval = 0
    /// Rows are doubled (D6h 01h).
    package var isZoomedIn = false

    /// The reset state.
    package init() {}

    /// The SH1107's reset values where they differ (v2.1, command descriptions): 128 rows scanned,
    /// contrast 80h, clock 50h, VCOMH 35h, the DC-DC converter on (ADh 81h), columns 0...127.
    mutating func resetSH1107() {
        multiplexRatio = 128
        contrast = 0x80
        displayClock = 0x50
        vcomhDeselectLevel = 0x35
        isChargePumpEnabled = true
        columnEnd = 127
        pageEnd = 15
    }
}
