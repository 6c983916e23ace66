import PagerGraphics

/// Drives an SSD1306 or SH1106 through a display interface: commands in one record, display data
/// in another.
///
/// The driver never knows which bus carries the records: `I2CDisplayInterface` frames each as
/// one transaction with its control byte and address, an SPI bus sets D/C# from its kind.
/// The driver does no I/O in `init`; call `initialize()` first.
///
/// It remembers what it last put in display RAM, all 64 rows of it (an SH1107's 128), and the
/// display start line (40h-7Fh, section 10.1.6), so `update(to:)` sends only what changed. When
/// the caller says the picture moved (a slide), `update(to:movedUpBy:)` may move the start line
/// instead of the picture and write only the rows that come into view and what must stand still.
/// Any failed write forgets RAM: the next update sends the whole frame.
///
/// Generic over the interface, a seam with two production uses: the engine's `DisplayQueue`
/// (records handed to the shell as effects) and `crownpager doctor display`, which draws its
/// test pattern straight on the panel (I2C or SPI); the emulator stands behind it in tests.
public struct SSD1306Driver<Interface: DisplayInterface> {
    /// The transport, public so a test can look at a recording or an emulator behind it.
    public var interface: Interface
    /// The glass this controller drives.
    public let panel: SSD1306Panel
    /// Rotation, brightness, contrast and inversion; `initialize()` applies them.
    public internal(set) var settings: DisplaySettings
    /// The RAM row the glass's top row shows (40h-7Fh), as far as the driver knows; nil when unknown.
    /// It starts at 0, the reset value (Table 9-1), which the initialization sequence states again.
    public private(set) var displayStartLine: Int? = 0
    /// Display RAM, 64 rows (SH1107: 128) in glass columns, as far as the driver knows; nil when unknown.
    var ram: Bitmap?
    /// The RAM pages whose every glass column `ram` knows, one bit a page.
    var knownPages: UInt16 = 0
    /// The way a frame goes: the plan under today's start line, or the cheaper one once weighed.
    var plan = DisplayPlan()
    /// The plan under a moved start line, weighed against `plan` in a slide.
    var alternative = DisplayPlan()
    /// The other buffers a frame is planned and written in.
    var scratch = DisplayUpdateScratch()
    /// Whether `plan` is the one `plannedCost(of:movedUpBy:)` made last, not yet sent.
    var isPlanCurrent = false
    /// Display On (AFh) waits for RAM to hold the whole picture under the glass: after
    /// `initialize()`, or a wake asked for while RAM was unknown.
    public internal(set) var isDisplayOnPending = false

    /// Rows of display RAM (section 8.7): the start line counts modulo this.
    var ramRows: Int { panel.controller.ramRows }

    /// A driver for `panel` through `interface`; nothing is sent yet.
    public init(interface: Interface, panel: SSD1306Panel, settings: DisplaySettings = DisplaySettings()) {
        self.interface = interface
        self.panel = panel
        self.settings = settings
    }

    /// A driver for `panel` at `address` on an I2C `bus`; nothing is sent yet.
    public init<Bus: I2CBus>(
        bus: Bus, address: I2CAddress = .ssd1306Primary, panel: SSD1306Panel,
        settings: DisplaySettings = DisplaySettings()
    ) where Interface == I2CDisplayInterface<Bus> {
        self.init(interface: I2CDisplayInterface(bus: bus, address: address), panel: panel, settings: settings)
    }

    /// The picture display RAM holds under the glass, as far as the driver knows; nil when unknown.
    public var knownRAM: Bitmap? {
        guard let ram, let line = displayStartLine,
            knownPages & Self.pagesShown(from: line, panel) == Self.pagesShown(from: line, panel)
        else { return nil }
        var picture = Bitmap(width: panel.width, height: panel.height)
        for y in 0..<panel.height {
            for x in 0..<panel.width where ram[x, (y + line) % ramRows] { picture[x, y] = true }
        }
        return picture
    }

    /// Sends the panel's initialization sequence, with `settings`, in one command transaction;
    /// the display stays off (AEh).
    ///
    /// RAM content is unknown afterwards (random at power-up), so the next update sends a whole
    /// frame, and Display On (AFh) follows its last window: the glass goes from dark to that
    /// frame, never showing the garbage. The sequence sets the start line to 0.
    public mutating func initialize() throws(Interface.Failure) {
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
    mutating func sendPendingDisplayOn() throws(Interface.Failure) {
        guard isDisplayOnPending, isGlassKnown else { return }
        try sendCommands(.displayOn(true))
        isDisplayOnPending = false
    }

    /// Sends `commands` in one record, each command's bytes in turn.
    public mutating func send(_ commands: [SSD1306Command]) throws(Interface.Failure) {
        scratch.transaction.removeAll(keepingCapacity: true)
        for command in commands { command.append(to: &scratch.transaction) }
        try interface.send(.commands, scratch.transaction[...])
    }

    /// Shows `frame` on the whole glass, whatever RAM held before.
    ///
    /// On an SSD1306, one command transaction sets the RAM window (21h, 22h) and one data
    /// transaction carries every page; an SH1106 takes each page in turn (B0h-B7h, 0xh, 1xh).
    /// The frame is drawn from its top-left corner: a larger frame is cropped to the panel,
    /// pixels a smaller frame lacks are sent dark. A moved start line goes back to 0.
    public mutating func writeFrame(_ frame: Bitmap) throws(Interface.Failure) {
        invalidate()
        try update(wholeFrame: fitted(frame))
    }

    /// Brings the glass to `frame`, sending only the windows that changed; returns them.
    ///
    /// Nothing goes on the bus when the frame equals what RAM holds. When RAM is unknown
    /// (after `initialize()` or a failed write) the whole frame goes.
    @discardableResult
    public mutating func update(to frame: Bitmap) throws(Interface.Failure) -> [DisplayWindow] {
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
    public mutating func update(to frame: Bitmap, movedUpBy rows: Int) throws(Interface.Failure) -> [DisplayWindow] {
        let picture = fitted(frame)
        guard planUpdate(to: picture, movedUpBy: rows) != nil else {
            return try update(wholeFrame: picture)
        }
        try writePlan()
        return plan.windows
    }

    /// Makes `plan` the cheaper of the changed windows under today's start line and the start
    /// line moved by `rows`; returns its cost, nil when RAM or the start line is unknown.
    mutating func planUpdate(to picture: Bitmap, movedUpBy rows: Int) -> Int? {
        guard let ram, let line = displayStartLine else { return nil }
        // An SH1107's start line (DCh) moves columns, not rows: its slides go as changed windows.
        let moved = panel.controller.startLineMovesRows ? ((line + rows) % ramRows + ramRows) % ramRows : line
        guard moved != line else {
            Self.plan(picture, at: line, over: ram, known: knownPages, panel: panel, into: &plan, scratch: &scratch)
            return plan.cost
        }
        // The moved start line first: in a slide it is the cheap one, and today's line is then
        // weighed only as far as it could still cost less.
        Self.plan(
            picture, at: moved, over: ram, known: knownPages, panel: panel, into: &alternative, scratch: &scratch)
        // Its own transaction (address, 00h, 4xh), or one byte.
        let lineCost = alternative.windows.isEmpty ? 3 : 1
        Self.plan(
            picture, at: line, over: ram, known: knownPages, panel: panel, into: &plan, scratch: &scratch,
            costLimit: alternative.cost + lineCost)
        guard alternative.cost + lineCost < plan.cost else { return plan.cost }
        swap(&plan, &alternative)
        return plan.cost + lineCost
    }

    /// Forgets what RAM holds, so the next `update(to:)` sends the whole frame.
    public mutating func invalidate() {
        isPlanCurrent = false
        // Its buffer is kept for the whole frame that follows.
        if let ram { scratch.spare = ram }
        ram = nil
        knownPages = 0
    }

    /// Forgets the start line as well as RAM, so the next `update(to:)` sends the whole frame and
    /// 40h: for writes that failed after the driver took them as sent (a queue the shell writes later).
    public mutating func invalidateDisplayStartLine() {
        invalidate()
        displayStartLine = nil
    }

    /// Sends the whole of `picture` with the start line at 0; returns the window.
    @discardableResult
    mutating func update(wholeFrame picture: Bitmap) throws(Interface.Failure) -> [DisplayWindow] {
        Self.prepare(&plan.image, width: panel.width, rows: ramRows, spare: &scratch.spare)
        // The picture's pages, then dark pages below a panel shorter than RAM.
        plan.image.withUnsafeMutablePageBytes { image in
            picture.bytes.withUnsafeBufferPointer { picture in
                let copied = image.update(fromContentsOf: picture.prefix(image.count))
                image[copied...].update(repeating: 0)
            }
        }
        plan.windows.removeAll(keepingCapacity: true)
        plan.windows.append(DisplayWindow(columns: 0..<panel.width, pages: 0..<panel.pageCount))
        plan.line = 0
        plan.pages = Self.pagesShown(from: 0, panel)
        try writePlan()
        return plan.windows
    }

    /// Sends the start line if it moves, then `plan`'s windows of its RAM image; RAM becomes that
    /// image (the plan keeps the old RAM's buffer for the next frame) or, on failure, unknown.
    mutating func writePlan() throws(Interface.Failure) {
        isPlanCurrent = false
        let knownBefore = knownPages
        let line = plan.line
        // Unknown until the writes are through.
        let old = ram
        ram = nil
        knownPages = 0
        do throws(Interface.Failure) {
            var leading: SSD1306Command?
            if displayStartLine != line {
                // Unknown until it is through. It rides in the first window's command transaction: one byte.
                displayStartLine = nil
                let command: SSD1306Command =
                    panel.controller == .sh1107
                    ? .setSH1107DisplayStartLine(UInt8(line)) : .setDisplayStartLine(UInt8(line))
                leading = command
                if plan.windows.isEmpty { try sendCommands(command) }
            }
            for index in plan.windows.indices {
                try writeWindow(of: plan.image, plan.windows[index], after: index == 0 ? leading : nil)
            }
        } catch {
            if let old { scratch.spare = old }
            throw error
        }
        displayStartLine = line
        if plan.windows.isEmpty {
            ram = old
            knownPages = knownBefore
        } else {
            ram = plan.image
            plan.image = old ?? Bitmap(width: 0, height: 0)
            knownPages = knownBefore | plan.pages
        }
        try sendPendingDisplayOn()
    }

    /// `frame` cropped or padded to the glass.
    func fitted(_ frame: Bitmap) -> Bitmap {
        frame.size == panel.size ? frame : frame.cropped(to: Rect(x: 0, y: 0, width: panel.width, height: panel.height))
    }

    /// Sends the columns and pages of `image` (RAM rows, glass columns) inside `window`, its
    /// first command transaction opening with `leading`.
    ///
    /// Each transaction's bytes are built in one buffer the driver keeps (`scratch.transaction`),
    /// reset in place: no allocation a transaction.
    mutating func writeWindow(
        of image: Bitmap, _ window: DisplayWindow, after leading: SSD1306Command? = nil
    ) throws(Interface.Failure) {
        let columns = window.columns.clamped(to: 0..<panel.width)
        let pages = window.pages.clamped(to: 0..<min(panel.controller.ramPages, image.pageCount))
        guard !columns.isEmpty, !pages.isEmpty else {
            if let leading { try sendCommands(leading) }
            return
        }
        var leading = leading
        let firstColumn = panel.firstRAMColumn(settings.rotation) + columns.lowerBound
        guard panel.controller.hasHorizontalAddressing else {
            // SH1106, SH1107: page addressing, so one command and one data transaction a page.
            let isSH1107 = panel.controller == .sh1107
            for page in pages {
                try sendCommands(
                    leading, isSH1107 ? .setSH1107PageAddress(UInt8(page)) : .setPageStartAddress(UInt8(page)),
                    .setLowerColumnStartAddress(UInt8(firstColumn & 0x0F)),
                    .setHigherColumnStartAddress(UInt8(firstColumn >> 4)))
                leading = nil
                scratch.transaction.removeAll(keepingCapacity: true)
                image.appendPageBytes(page, columns: columns, to: &scratch.transaction)
                try interface.send(.data, scratch.transaction[...])
            }
            return
        }
        try sendCommands(
            leading, .setColumnAddress(start: UInt8(firstColumn), end: UInt8(firstColumn + columns.count - 1)),
            .setPageAddress(start: UInt8(pages.lowerBound), end: UInt8(pages.upperBound - 1)))
        // Horizontal addressing fills the window column by column, then moves to the next page.
        scratch.transaction.removeAll(keepingCapacity: true)
        scratch.transaction.reserveCapacity(columns.count * pages.count)
        if columns == 0..<image.width {
            // Whole rows: the pages' bytes are already in order, one copy.
            image.bytes.withUnsafeBufferPointer { bytes in
                scratch.transaction.append(
                    contentsOf: UnsafeBufferPointer(
                        rebasing: bytes[(pages.lowerBound * image.width)..<(pages.upperBound * image.width)]))
            }
        } else {
            for page in pages { image.appendPageBytes(page, columns: columns, to: &scratch.transaction) }
        }
        try interface.send(.data, scratch.transaction[...])
    }

    /// Sends `leading` (when there is one) and up to three more commands in one record,
    /// built in the driver's buffer without a temporary array of commands or of their bytes.
    private mutating func sendCommands(
        _ leading: SSD1306Command?, _ first: SSD1306Command? = nil, _ second: SSD1306Command? = nil,
        _ third: SSD1306Command? = nil
    ) throws(Interface.Failure) {
        scratch.transaction.removeAll(keepingCapacity: true)
        leading?.append(to: &scratch.transaction)
        first?.append(to: &scratch.transaction)
        second?.append(to: &scratch.transaction)
        third?.append(to: &scratch.transaction)
        try interface.send(.commands, scratch.transaction[...])
    }
}

extension SSD1306Driver: Sendable where Interface: Sendable {}
