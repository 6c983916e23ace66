import LinuxHardware
import MockDisplay
import PagerCore
import PagerGraphics
import SSD1306

/// The pager mocked in the terminal: keys and the mouse wheel are the crown, an SSD1306
/// emulator is the panel, and its glass is drawn with half blocks or braille.
///
/// The frames go through the real SSD1306 encoder as I2C bytes, so what the terminal shows
/// is what the panel would show. The loop sleeps in `poll` until a key arrives, the next
/// animation frame is due, or the clock page's second turns over.
public struct TerminalMock {
    /// The panel to emulate.
    public var panel: SSD1306Panel
    /// Pager timing and wrap-around.
    public var pagerConfiguration: PagerConfiguration
    /// Crown sensitivity.
    public var crownConfiguration: CrownConfiguration
    /// Indicator look and side.
    public var indicatorStyle: PageIndicatorStyle
    /// Where to record the I2C trace, if anywhere.
    public var tracePath: String?
    /// How many demo pages to show; nil shows the built-in set.
    public var pageCount: Int?

    /// Interval between frames while a slide is under way (about 60 per second).
    static let animationFrameMilliseconds = 16

    /// A mock of `panel`.
    public init(
        panel: SSD1306Panel, pagerConfiguration: PagerConfiguration = PagerConfiguration(),
        crownConfiguration: CrownConfiguration = CrownConfiguration(),
        indicatorStyle: PageIndicatorStyle = PageIndicatorStyle(), tracePath: String? = nil, pageCount: Int? = nil
    ) {
        self.pageCount = pageCount
        self.panel = panel
        self.pagerConfiguration = pagerConfiguration
        self.crownConfiguration = crownConfiguration
        self.indicatorStyle = indicatorStyle
        self.tracePath = tracePath
    }

    /// Runs until the user quits; the terminal is restored however it ends.
    public func run() throws(AppError) {
        let terminal: TerminalSession
        do {
            terminal = try TerminalSession()
        } catch {
            throw AppError(error)
        }
        let live = LiveReadings()
        var now = live.monotonicNow()
        var session = PagerSession(
            pages: demoPages(clock: live.clock(at: now), system: live.system(), count: pageCount), panel: panel,
            bus: TracingBus(SSD1306Emulator(panel: panel)), pagerConfiguration: pagerConfiguration,
            crownConfiguration: crownConfiguration, indicatorStyle: indicatorStyle, start: now)
        if let tracePath { try TraceFile.write([], to: tracePath) }
        session.start()

        do {
            try terminal.begin(
                enterSequence: TerminalScreen.enterAlternateScreen + TerminalScreen.hideCursor
                    + TerminalScreen.enableMouseReporting + TerminalScreen.clearScreen,
                leaveSequence: TerminalScreen.disableMouseReporting + TerminalScreen.resetAttributes
                    + TerminalScreen.showCursor + TerminalScreen.leaveAlternateScreen)
        } catch {
            throw AppError(error)
        }
        defer { terminal.restore() }

        var screen = TerminalScreen(synchronizedOutput: true)
        var decoder = KeyDecoder()
        let glassRenderer = TerminalGlassRenderer()
        var lastSize = (columns: 0, rows: 0)
        var shownSecond = -1
        var dirty = true

        while true {
            now = live.monotonicNow()
            let clock = live.clock(at: now)
            if clock.second != shownSecond {
                // Readings refresh once a second, when the clock page's text changes anyway.
                shownSecond = clock.second
                session.replacePages(demoPages(clock: clock, system: live.system(), count: pageCount))
            }
            session.advance(to: now)
            if session.present(at: now) { dirty = true }
            let transfers = session.display.bus.drainTransfers()
            if let tracePath { try TraceFile.append(transfers, to: tracePath) }

            let size = terminal.windowSize()
            if size != lastSize {
                lastSize = size
                dirty = true
                screen.invalidate()
            }
            if dirty {
                dirty = false
                let (lines, layout) = glassRenderer.render(
                    session.display.bus.base.glass, columns: size.columns, rows: max(1, size.rows - 1))
                let output = screen.lines.isEmpty
                    ? screen.repaint(lines + [statusLine(session, layout: layout, columns: size.columns, at: now)])
                    : screen.update(to: lines + [statusLine(session, layout: layout, columns: size.columns, at: now)])
                do { try terminal.write(output) } catch { throw AppError(error) }
            }

            let input: [UInt8]
            do {
                input = try terminal.readInput(
                    timeoutMilliseconds: timeout(session, at: now, nextSecond: live.nextSecond(after: now)))
            } catch {
                throw AppError(error)
            }
            let commands = input.isEmpty ? decoder.flush() : decoder.feed(input)
            let instant = live.monotonicNow()
            for command in commands {
                switch command {
                case .quit:
                    return
                case .redraw:
                    screen.invalidate()
                    dirty = true
                case .turn, .press, .longPress:
                    let events = TerminalCrown.events(
                        for: command, at: instant, longPressDuration: crownConfiguration.longPressDuration)
                    for event in events { session.handle(event) }
                }
            }
        }
    }

    /// How long to sleep: one animation frame while sliding, else until the next second or a long-press deadline.
    func timeout<Page: PageContent, Bus: I2CBus>(
        _ session: PagerSession<Page, Bus>, at now: Timestamp, nextSecond: Timestamp
    ) -> Int {
        if session.isAnimating(at: now) { return Self.animationFrameMilliseconds }
        // Rounded up, so the loop wakes just after the second has turned, not just before.
        var milliseconds = Int((nextSecond - now).nanoseconds + 999_999) / 1_000_000
        if let deadline = session.nextDeadline(after: now) {
            milliseconds = min(milliseconds, max(0, Int((deadline - now).milliseconds)))
        }
        return max(1, milliseconds)
    }

    /// `page 2/5 · Clock · 128x64 half-block · q quits`, cut to the terminal's width.
    func statusLine<Page: PageContent, Bus: I2CBus>(
        _ session: PagerSession<Page, Bus>, layout: GlassLayout, columns: Int, at now: Timestamp
    ) -> String {
        let pager = session.pager
        let page = pager.displayedPage(at: now)
        let title = pager.pages.indices.contains(page) ? pager.pages[page].title : "-"
        let state = session.controller.overview != nil ? "list" : session.controller.interactionState.rawValue
        let text = "page \(page + 1)/\(pager.numberOfPages) \u{B7} \(title) \u{B7} \(state) \u{B7} \(panel.name) \(layout.mode.name) \u{B7} "
            + TerminalCommand.keyHelp
        return String(text.unicodeScalars.prefix(max(0, columns - 1)).map(Character.init))
    }
}
