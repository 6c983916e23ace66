import PagerGraphics

/// Drives an SSD1306 or SH1106 over I2C: commands in one transaction, display data in another.
///
/// Every transaction starts with a control byte (section 8.1.5.2): Co = 0 so the rest of the
/// transaction is one stream, D/C# = 0 for commands (00h) or 1 for display data (40h).
/// The driver does no I/O in `init`; call `initialize()` first.
///
/// It remembers what it last put in display RAM, all 64 rows of it, and the display start line
/// (40h-7Fh, section 10.1.6), so `update(to:)` sends only what changed. When the caller says the
/// picture moved (a slide), `update(to:movedUpBy:)` may move the start line instead of the
/// picture and write only the rows that come into view and what must stand still. Any failed
/// write forgets RAM: the next update sends the whole frame.
public struct SSD1306Driver<Bus: I2CBus> {
    /// The transport, public so a test can look at a recording or an emulator behind it.
    public var bus: Bus
    /// The controller's address, usually 0x3C (SA0 low).
    public let address: I2CAddress
    /// The glass this controller drives.
    public let panel: SSD1306Panel
    /// Rotation, brightness, contrast and inversion; `initialize()` applies them.
    public internal(set) var settings: DisplaySettings
    /// The RAM row the glass's top row shows (40h-7Fh), as far as the driver knows; nil when unknown.
    /// It starts at 0, the reset value (Table 9-1), which the initialization sequence states again.
    public private(set) var displayStartLine: Int? = 0
    /// Display RAM, 64 rows in glass columns, as far as the driver knows; nil when unknown.
    var ram: Bitmap?
    /// The RAM pages whose every glass column `ram` knows, one bit a page.
    var knownPages: UInt8 = 0
    /// Display On (AFh) waits for RAM to hold the whole picture under the glass: after
    /// `initialize()`, or a wake asked for while RAM was unknown.
    public internal(set) var isDisplayOnPending = false

    /// The control byte before a stream of commands (Co = 0, D/C# = 0).
    public static var commandStream: UInt8 { 0x00 }
    /// The control byte before a stream of display data (Co = 0, D/C# = 1).
    public static var dataStream: UInt8 { 0x40 }
    /// Rows of display RAM (section 8.7): the start line counts modulo this.
    static var ramRows: Int { 64 }

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

    /// The picture display RAM holds under the glass, as far as the driver knows; nil when unknown.
    public var knownRAM: Bitmap? {
        guard let ram, let line = displayStartLine,
            knownPages & Self.pagesShown(from: line, panel) == Self.pagesShown(from: line, panel)
        else { return nil }
        var picture = Bitmap(width: panel.width, height: panel.height)
        for y in 0..<panel.height {
            for x in 0..<panel.width where ram[x, (y + line) % Self.ramRows] { picture[x, y] = true }
        }
        return picture
    }

    /// Sends the panel's initialization sequence, with `settings`, in one command transaction;
    /// the display stays off (AEh).
    ///
    /// RAM content is unknown afterwards (random at power-up), so the next update sends a whole
    /// frame, and Display On (AFh) follows its last window: the glass goes from dark to that
    /// frame, never showing the garbage. The sequence sets the start line to 0.
    public mutating func initialize() throws(Bus.Failure) {
        invalidateDisplayStartLine()
        isDisplayOnPending = false
        try send(panel.initializationSequence(settings))
        displayStartLine = 0
        isDisplayOnPending = true
    }

    /// Whether RAM holds, as far as the driver knows, every row the glass shows.
    var isGlassKnown: Bool {
        guard ram != nil, let line = displayStartLine else { return false }
        let shown = Self.pagesShown(from: line, panel)
        return knownPages & shown == shown
    }

    /// Sends Display On (AFh) if it waits and RAM now holds the whole picture.
    mutating func sendPendingDisplayOn() throws(Bus.Failure) {
        guard isDisplayOnPending, isGlassKnown else { return }
        try send([.displayOn(true)])
        isDisplayOnPending = false
    }

    /// Sends `commands` in one transaction: 00h, then each command's bytes.
    public mutating func send(_ commands: [SSD1306Command]) throws(Bus.Failure) {
        var bytes: [UInt8] = [Self.commandStream]
        for command in commands { command.append(to: &bytes) }
        try bus.write(bytes, to: address)
    }

    /// Shows `frame` on the whole glass, whatever RAM held before.
    ///
    /// On an SSD1306, one command transaction sets the RAM window (21h, 22h) and one data
    /// transaction carries every page; an SH1106 takes each page in turn (B0h-B7h, 0xh, 1xh).
    /// The frame is drawn from its top-left corner: a larger frame is cropped to the panel,
    /// pixels a smaller frame lacks are sent dark. A moved start line goes back to 0.
    public mutating func writeFrame(_ frame: Bitmap) throws(Bus.Failure) {
        invalidate()
        try update(wholeFrame: fitted(frame))
    }

    /// Brings the glass to `frame`, sending only the windows that changed; returns them.
    ///
    /// Nothing goes on the bus when the frame equals what RAM holds. When RAM is unknown
    /// (after `initialize()` or a failed write) the whole frame goes.
    @discardableResult
    public mutating func update(to frame: Bitmap) throws(Bus.Failure) -> [DisplayWindow] {
        try update(to: frame, movedUpBy: 0)
    }

    /// Brings the glass to `frame`, whose picture stands `rows` higher than the last one's
    /// (negative: lower), the way a vertical slide moves it; returns the RAM windows sent.
    ///
    /// The driver weighs two ways and sends the cheaper: the changed windows under today's start
    /// line, or the start line moved by `rows` (40h-7Fh, section 10.1.6: display row r shows RAM
    /// row r + S mod 64), the picture left where it is in RAM, and only the rows that come into
    /// view written, with whatever stands still on the glass (the indicator) where the new start
    /// line puts it. Panels shorter than 64 rows keep the rows they do not show as a buffer off
    /// the glass. The start line goes in the first window's command transaction (one byte more).
    /// Either way the glass ends equal to `frame`.
    @discardableResult
    public mutating func update(to frame: Bitmap, movedUpBy rows: Int) throws(Bus.Failure) -> [DisplayWindow] {
        let picture = fitted(frame)
        guard let ram, let line = displayStartLine else {
            return try update(wholeFrame: picture)
        }
        var best = plan(picture, at: line, over: ram)
        let moved = ((line + rows) % Self.ramRows + Self.ramRows) % Self.ramRows
        if moved != line {
            let scrolled = plan(picture, at: moved, over: ram)
            let lineCost = scrolled.windows.isEmpty ? 3 : 1  // its own transaction (address, 00h, 4xh), or one byte
            if scrolled.cost + lineCost < best.cost { best = scrolled }
        }
        try write(best.image, in: best.windows, startLine: best.line, pagesWritten: best.pages)
        return best.windows
    }

    /// Forgets what RAM holds, so the next `update(to:)` sends the whole frame.
    public mutating func invalidate() {
        ram = nil
        knownPages = 0
    }

    /// Forgets the start line as well as RAM, so the next `update(to:)` sends the whole frame and
    /// 40h: for writes that failed after the driver took them as sent (a queue the shell writes later).
    public mutating func invalidateDisplayStartLine() {
        invalidate()
        displayStartLine = nil
    }

    /// One way to bring the glass to a picture: the RAM image, its windows, the start line, their cost.
    struct Plan {
        var image: Bitmap
        var windows: [DisplayWindow]
        var line: Int
        var pages: UInt8
        var cost: Int
    }

    /// The RAM image that shows `picture` with the start line at `line`, rows the glass does not
    /// show kept from `ram`, and the windows that write it.
    func plan(_ picture: Bitmap, at line: Int, over ram: Bitmap) -> Plan {
        let width = panel.width
        var target = ram.bytes
        Self.place(picture, pages: min(panel.pageCount, picture.pageCount), width: width, line: line, into: &target)
        let shown = Self.pagesShown(from: line, panel)
        var old = ram.bytes
        if shown & ~knownPages != 0 {
            target.withUnsafeBufferPointer { target in
                old.withUnsafeMutableBufferPointer { old in
                    for page in 0..<8 where shown & ~knownPages & (1 << UInt8(page)) != 0 {
                        // Pages the glass needs and RAM does not know: every byte differs, so every byte is sent.
                        for x in 0..<width { old[page * width + x] = ~target[page * width + x] }
                    }
                }
            }
        }
        let before = Bitmap(width: width, height: Self.ramRows, pageBytes: old) ?? ram
        let image = Bitmap(width: width, height: Self.ramRows, pageBytes: target) ?? ram
        let windows = DisplayUpdatePlanner.windows(
            from: before, to: image, controller: panel.controller, whole: Self.windows(of: shown, width: width))
        let cost = windows.reduce(0) { $0 + DisplayUpdatePlanner.cost(of: $1, controller: panel.controller) }
        return Plan(image: image, windows: windows, line: line, pages: shown, cost: cost)
    }

    /// Writes the first `pages` pages of `picture` into the RAM image `target` (64 rows of
    /// `width` bytes) where the glass shows them with the start line at `line`. Not generic over
    /// the bus, and through buffer pointers: the loop compiles to plain byte operations.
    static func place(_ picture: Bitmap, pages: Int, width: Int, line: Int, into target: inout [UInt8]) {
        let shift = UInt8(line & 7)
        let low: UInt8 = 0xFF << shift
        target.withUnsafeMutableBufferPointer { target in
            picture.bytes.withUnsafeBufferPointer { picture in
                guard let source = picture.baseAddress, let ram = target.baseAddress,
                    picture.count >= pages * width, target.count >= 8 * width
                else { return }
                for page in 0..<pages {
                    // The 8 rows of this glass page land on RAM rows 8 * page + line onwards: one RAM page, or two.
                    let first = ram + (((page * 8 + line) >> 3) & 7) * width
                    let second = ram + ((((page * 8 + line) >> 3) + 1) & 7) * width
                    let bytes = source + page * width
                    if shift == 0 {
                        first.update(from: bytes, count: width)
                        continue
                    }
                    for x in 0..<width {
                        first[x] = (first[x] & ~low) | (bytes[x] << shift)
                        second[x] = (second[x] & low) | (bytes[x] >> (8 - shift))
                    }
                }
            }
        }
    }

    /// The RAM pages the glass shows with the start line at `line`, one bit a page.
    static func pagesShown(from line: Int, _ panel: SSD1306Panel) -> UInt8 {
        var pages: UInt8 = 0
        for row in stride(from: 0, to: panel.height, by: 8) {
            pages |= 1 << UInt8(((row + line) >> 3) & 7)
            pages |= 1 << UInt8(((row + line + 7) >> 3) & 7)
        }
        return pages
    }

    /// The fewest windows of whole rows that cover `pages`.
    static func windows(of pages: UInt8, width: Int) -> [DisplayWindow] {
        var windows: [DisplayWindow] = []
        for page in 0..<8 where pages & (1 << UInt8(page)) != 0 {
            if let last = windows.last, last.pages.upperBound == page {
                windows[windows.count - 1].pages = last.pages.lowerBound..<(page + 1)
            } else {
                windows.append(DisplayWindow(columns: 0..<width, pages: page..<(page + 1)))
            }
        }
        return windows
    }

    /// Sends the whole of `picture` with the start line at 0; returns the window.
    @discardableResult
    private mutating func update(wholeFrame picture: Bitmap) throws(Bus.Failure) -> [DisplayWindow] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(panel.width * Self.ramRows / 8)
        bytes += picture.bytes
        if panel.pageCount < 8 {
            bytes.append(contentsOf: repeatElement(0, count: panel.width * (8 - panel.pageCount)))
        }
        let image = Bitmap(width: panel.width, height: Self.ramRows, pageBytes: bytes) ?? picture
        let window = DisplayWindow(columns: 0..<panel.width, pages: 0..<panel.pageCount)
        try write(image, in: [window], startLine: 0, pagesWritten: Self.pagesShown(from: 0, panel))
        return [window]
    }

    /// Sends the start line if it moves, then `windows` of the RAM `image`; RAM becomes `image`
    /// (its `pagesWritten` known too) or, on failure, unknown.
    private mutating func write(
        _ image: Bitmap, in windows: [DisplayWindow], startLine line: Int, pagesWritten: UInt8
    ) throws(Bus.Failure) {
        let known = (ram, knownPages)
        invalidate()
        var leading: SSD1306Command?
        if displayStartLine != line {
            // Unknown until it is through. It rides in the first window's command transaction: one byte.
            displayStartLine = nil
            leading = .setDisplayStartLine(UInt8(line))
            if windows.isEmpty { try send([.setDisplayStartLine(UInt8(line))]) }
        }
        for (index, window) in windows.enumerated() {
            try writeWindow(of: image, window, after: index == 0 ? leading : nil)
        }
        displayStartLine = line
        if windows.isEmpty {
            (ram, knownPages) = known
        } else {
            ram = image
            knownPages = known.1 | pagesWritten
        }
        try sendPendingDisplayOn()
    }

    /// `frame` cropped or padded to the glass.
    private func fitted(_ frame: Bitmap) -> Bitmap {
        frame.size == panel.size ? frame : frame.cropped(to: Rect(x: 0, y: 0, width: panel.width, height: panel.height))
    }

    /// Sends the columns and pages of `image` (RAM rows, glass columns) inside `window`, its
    /// first command transaction opening with `leading`.
    ///
    /// Each transaction's bytes are built in one array, its final size reserved up front: one
    /// allocation a transaction, which the transfer then owns.
    mutating func writeWindow(
        of image: Bitmap, _ window: DisplayWindow, after leading: SSD1306Command? = nil
    ) throws(Bus.Failure) {
        let columns = window.columns.clamped(to: 0..<panel.width)
        let pages = window.pages.clamped(to: 0..<min(8, image.pageCount))
        guard !columns.isEmpty, !pages.isEmpty else {
            if let leading { try send([leading]) }
            return
        }
        var leading = leading
        let firstColumn = panel.firstRAMColumn(settings.rotation) + columns.lowerBound
        guard panel.controller.hasHorizontalAddressing else {
            // SH1106: page addressing only, so one command and one data transaction a page.
            for page in pages {
                try sendCommands(
                    leading, .setPageStartAddress(UInt8(page)), .setLowerColumnStartAddress(UInt8(firstColumn & 0x0F)),
                    .setHigherColumnStartAddress(UInt8(firstColumn >> 4)))
                leading = nil
                var data: [UInt8] = []
                data.reserveCapacity(1 + columns.count)
                data.append(Self.dataStream)
                image.appendPageBytes(page, columns: columns, to: &data)
                try bus.write(data, to: address)
            }
            return
        }
        try sendCommands(
            leading, .setColumnAddress(start: UInt8(firstColumn), end: UInt8(firstColumn + columns.count - 1)),
            .setPageAddress(start: UInt8(pages.lowerBound), end: UInt8(pages.upperBound - 1)))
        // Horizontal addressing fills the window column by column, then moves to the next page.
        var data: [UInt8] = []
        data.reserveCapacity(1 + columns.count * pages.count)
        data.append(Self.dataStream)
        if columns == 0..<image.width {
            // Whole rows: the pages' bytes are already in order, one copy.
            image.bytes.withUnsafeBufferPointer { bytes in
                data.append(
                    contentsOf: UnsafeBufferPointer(
                        rebasing: bytes[(pages.lowerBound * image.width)..<(pages.upperBound * image.width)]))
            }
        } else {
            for page in pages { image.appendPageBytes(page, columns: columns, to: &data) }
        }
        try bus.write(data, to: address)
    }

    /// Sends `leading` (when there is one) and three more commands in one transaction, built
    /// without a temporary array of commands or of their bytes.
    private mutating func sendCommands(
        _ leading: SSD1306Command?, _ first: SSD1306Command, _ second: SSD1306Command, _ third: SSD1306Command? = nil
    ) throws(Bus.Failure) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12)
        bytes.append(Self.commandStream)
        leading?.append(to: &bytes)
        first.append(to: &bytes)
        second.append(to: &bytes)
        third?.append(to: &bytes)
        try bus.write(bytes, to: address)
    }
}

extension SSD1306Driver: Sendable where Bus: Sendable {}
