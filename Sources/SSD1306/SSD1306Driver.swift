import PagerGraphics

/// Drives an SSD1306 or SH1106 over I2C: commands in one transaction, display data in another.
///
/// Every transaction starts with a control byte (section 8.1.5.2): Co = 0 so the rest of the
/// transaction is one stream, D/C# = 0 for commands (00h) or 1 for display data (40h).
/// The driver does no I/O in `init`; call `initialize()` first.
///
/// It remembers what it last put in display RAM (`knownRAM`), so `update(to:)` sends only
/// what changed. Any failed write forgets it: the next update sends the whole frame.
public struct SSD1306Driver<Bus: I2CBus> {
    /// The transport, public so a test can look at a recording or an emulator behind it.
    public var bus: Bus
    /// The controller's address, usually 0x3C (SA0 low).
    public let address: I2CAddress
    /// The glass this controller drives.
    public let panel: SSD1306Panel
    /// Rotation, brightness, contrast and inversion; `initialize()` applies them.
    public internal(set) var settings: DisplaySettings
    /// The picture display RAM holds under the glass, as far as the driver knows; nil when unknown.
    public internal(set) var knownRAM: Bitmap?

    /// The control byte before a stream of commands (Co = 0, D/C# = 0).
    public static var commandStream: UInt8 { 0x00 }
    /// The control byte before a stream of display data (Co = 0, D/C# = 1).
    public static var dataStream: UInt8 { 0x40 }

    /// A driver for `panel` at `address`; nothing is sent yet.
    public init(
        bus: Bus, address: I2CAddress = .ssd1306Primary, panel: SSD1306Panel,
        settings: DisplaySettings = DisplaySettings()
    ) {
        self.bus = bus
        self.address = address
        self.panel = panel
        self.settings = settings
    }

    /// Sends the panel's initialization sequence, with `settings`, in one command transaction.
    ///
    /// RAM content is unknown afterwards (random at power-up), so the next update sends a whole frame.
    public mutating func initialize() throws(Bus.Failure) {
        knownRAM = nil
        try send(panel.initializationSequence(settings))
    }

    /// Sends `commands` in one transaction: 00h, then each command's bytes.
    public mutating func send(_ commands: [SSD1306Command]) throws(Bus.Failure) {
        var bytes: [UInt8] = [Self.commandStream]
        for command in commands { bytes += command.bytes }
        try bus.write(bytes, to: address)
    }

    /// Shows `frame` on the whole glass, whatever RAM held before.
    ///
    /// On an SSD1306, one command transaction sets the RAM window (21h, 22h) and one data
    /// transaction carries every page; an SH1106 takes each page in turn (B0h-B7h, 0xh, 1xh).
    /// The frame is drawn from its top-left corner: a larger frame is cropped to the panel,
    /// pixels a smaller frame lacks are sent dark.
    public mutating func writeFrame(_ frame: Bitmap) throws(Bus.Failure) {
        let picture = fitted(frame)
        try write(picture, in: [DisplayWindow(columns: 0..<panel.width, pages: 0..<panel.pageCount)])
    }

    /// Brings the glass to `frame`, sending only the windows that changed; returns them.
    ///
    /// Nothing goes on the bus when the frame equals what RAM holds. When RAM is unknown
    /// (after `initialize()` or a failed write) the whole frame goes.
    @discardableResult
    public mutating func update(to frame: Bitmap) throws(Bus.Failure) -> [DisplayWindow] {
        let picture = fitted(frame)
        let windows: [DisplayWindow]
        if let knownRAM {
            windows = DisplayUpdatePlanner.windows(from: knownRAM, to: picture, controller: panel.controller)
        } else {
            windows = [DisplayWindow(columns: 0..<panel.width, pages: 0..<panel.pageCount)]
        }
        try write(picture, in: windows)
        return windows
    }

    /// Forgets what RAM holds, so the next `update(to:)` sends the whole frame.
    public mutating func invalidate() {
        knownRAM = nil
    }

    /// Sends `windows` of `picture` (panel-sized); `knownRAM` becomes `picture` or, on failure, unknown.
    private mutating func write(_ picture: Bitmap, in windows: [DisplayWindow]) throws(Bus.Failure) {
        let known = knownRAM
        knownRAM = nil
        for window in windows {
            try writeWindow(of: picture, window)
        }
        knownRAM = windows.isEmpty ? known : picture
    }

    /// `frame` cropped or padded to the glass.
    private func fitted(_ frame: Bitmap) -> Bitmap {
        frame.size == panel.size ? frame : frame.cropped(to: Rect(x: 0, y: 0, width: panel.width, height: panel.height))
    }

    /// Sends the columns and pages of `frame` inside `window`, in glass coordinates.
    mutating func writeWindow(of frame: Bitmap, _ window: DisplayWindow) throws(Bus.Failure) {
        let columns = window.columns.clamped(to: 0..<panel.width)
        let pages = window.pages.clamped(to: 0..<panel.pageCount)
        guard !columns.isEmpty, !pages.isEmpty else { return }
        let firstColumn = panel.firstRAMColumn(settings.rotation) + columns.lowerBound
        guard panel.controller.hasHorizontalAddressing else {
            // SH1106: page addressing only, so one command and one data transaction a page.
            for page in pages {
                try send([
                    .setPageStartAddress(UInt8(page)), .setLowerColumnStartAddress(UInt8(firstColumn & 0x0F)),
                    .setHigherColumnStartAddress(UInt8(firstColumn >> 4)),
                ])
                var data: [UInt8] = [Self.dataStream]
                data.reserveCapacity(1 + columns.count)
                frame.appendPageBytes(page, columns: columns, to: &data)
                try bus.write(data, to: address)
            }
            return
        }
        try send([
            .setColumnAddress(start: UInt8(firstColumn), end: UInt8(firstColumn + columns.count - 1)),
            .setPageAddress(start: UInt8(pages.lowerBound), end: UInt8(pages.upperBound - 1)),
        ])
        // Horizontal addressing fills the window column by column, then moves to the next page.
        var data: [UInt8] = [Self.dataStream]
        data.reserveCapacity(1 + columns.count * pages.count)
        for page in pages { frame.appendPageBytes(page, columns: columns, to: &data) }
        try bus.write(data, to: address)
    }
}

extension SSD1306Driver: Sendable where Bus: Sendable {}
