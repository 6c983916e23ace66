import PagerGraphics

/// Drives an SSD1306 over I2C: commands in one transaction, frames in one data transaction.
///
/// Every transaction starts with a control byte (section 8.1.5.2): Co = 0 so the rest of the
/// transaction is one stream, D/C# = 0 for commands (00h) or 1 for display data (40h).
/// The driver does no I/O in `init`; call `initialize()` first.
public struct SSD1306Driver<Bus: I2CBus> {
    /// The transport, public so a test can look at a recording or an emulator behind it.
    public var bus: Bus
    /// The controller's address, usually 0x3C (SA0 low).
    public let address: I2CAddress
    /// The glass this controller drives.
    public let panel: SSD1306Panel

    /// The control byte before a stream of commands (Co = 0, D/C# = 0).
    public static var commandStream: UInt8 { 0x00 }
    /// The control byte before a stream of display data (Co = 0, D/C# = 1).
    public static var dataStream: UInt8 { 0x40 }

    /// A driver for `panel` at `address`; nothing is sent yet.
    public init(bus: Bus, address: I2CAddress = .ssd1306Primary, panel: SSD1306Panel) {
        self.bus = bus
        self.address = address
        self.panel = panel
    }

    /// Sends the panel's initialization sequence in one command transaction.
    public mutating func initialize() throws(Bus.Failure) {
        try send(panel.initializationSequence)
    }

    /// Sends `commands` in one transaction: 00h, then each command's bytes.
    public mutating func send(_ commands: [SSD1306Command]) throws(Bus.Failure) {
        var bytes: [UInt8] = [Self.commandStream]
        for command in commands { bytes += command.bytes }
        try bus.write(bytes, to: address)
    }

    /// Shows `frame` on the whole glass: one command transaction sets the RAM window (21h, 22h),
    /// one data transaction carries every page of it.
    ///
    /// The frame is drawn from its top-left corner: a larger frame is cropped to the panel,
    /// pixels a smaller frame lacks are sent dark. Needs horizontal addressing mode, which
    /// `initialize()` sets.
    public mutating func writeFrame(_ frame: Bitmap) throws(Bus.Failure) {
        try writeWindow(of: frame, columns: 0..<panel.width, pages: 0..<panel.pageCount)
    }

    /// Sends the columns and pages of `frame` inside the glass window given, in glass coordinates.
    ///
    /// The seam for partial updates: a dirty rectangle rounded out to whole pages becomes one
    /// window. Empty windows send nothing.
    mutating func writeWindow(of frame: Bitmap, columns: Range<Int>, pages: Range<Int>) throws(Bus.Failure) {
        let columns = columns.clamped(to: 0..<panel.width)
        let pages = pages.clamped(to: 0..<panel.pageCount)
        guard !columns.isEmpty, !pages.isEmpty else { return }
        let firstColumn = UInt8(panel.columnOffset + columns.lowerBound)
        let lastColumn = UInt8(panel.columnOffset + columns.upperBound - 1)
        try send([
            .setColumnAddress(start: firstColumn, end: lastColumn),
            .setPageAddress(start: UInt8(pages.lowerBound), end: UInt8(pages.upperBound - 1)),
        ])
        // Horizontal addressing fills the window column by column, then moves to the next page.
        var data: [UInt8] = [Self.dataStream]
        data.reserveCapacity(1 + columns.count * pages.count)
        for page in pages {
            for x in columns { data.append(frame.pageByte(page: page, column: x)) }
        }
        try bus.write(data, to: address)
    }
}

extension SSD1306Driver: Sendable where Bus: Sendable {}
