import CrownVocabulary
import PagerCore
import PagerGraphics
import SSD1306

/// The run loop's state and rules, without any I/O: the session, the configured pages and
/// their readings, the refresh schedule, the frame pacer and the screen saver.
///
/// The Linux loop (`PagerRun`) and the deterministic tests drive the same value: the loop
/// asks `decide(at:inputPending:)`, feeds input with `handle(_:)`, readings with
/// `apply(_:to:at:)`, and draws with `presentRecovering(at:health:)` (or `drawFrame(at:)`).
public struct PagerRunState<Base: I2CBus> {
    /// The pager, renderer and display driver.
    public var session: PagerSession<ConfiguredPage, TracingBus<Base>>
    /// The pages and their latest readings.
    public var book: PageBook
    /// When each page is read next.
    public var schedule: RefreshSchedule
    /// When to draw.
    public var pacer: FramePacer
    /// Dimming and switching off.
    public var saver: ScreenSaver
    /// What the panel shows now.
    public private(set) var screen = ScreenState.bright
    /// The local time the clock pages show.
    public var clock: ClockReading
    /// The configuration running.
    public let configuration: Configuration
    /// Crown facts swallowed because they woke a switched-off panel.
    public private(set) var wakeEventsSwallowed = 0

    /// The state for `configuration` on `bus`, with time starting at `start`.
    public init(
        configuration: Configuration, bus: Base, style: PageIndicatorStyle, clock: ClockReading,
        start: Timestamp, wallOffset: Int64 = 0
    ) {
        self.configuration = configuration
        self.clock = clock
        book = PageBook(specs: configuration.pages)
        let display = configuration.display
        session = PagerSession(
            pages: book.pages(clock: clock), panel: display.panel, bus: TracingBus(bus), address: display.address,
            pagerConfiguration: configuration.pagerConfiguration,
            crownConfiguration: configuration.crown.crownConfiguration, indicatorStyle: style, start: start)
        session.display = SSD1306Driver(
            bus: TracingBus(bus), address: display.address, panel: display.panel, settings: display.settings)
        schedule = RefreshSchedule(intervals: book.intervals, wallOffset: wallOffset)
        pacer = FramePacer(busHertz: display.busHertz)
        saver = ScreenSaver(dimAfter: display.dimAfter, offAfter: display.offAfter, start: start)
    }

    /// The pages whose readings matter now: the current one and those a turn shows next.
    public var nearbyPages: [Int] {
        RefreshSchedule.neighbourhood(
            of: session.pager.currentPage, count: book.specs.count, wraps: configuration.crown.wrap)
    }

    /// Pages to read now.
    public func duePages(at now: Timestamp) -> [Int] { schedule.duePages(at: now, near: nearbyPages) }

    /// The next instant anything but input needs the loop: a refresh, a pager timer, the screen saver.
    public func nextDeadline(after now: Timestamp) -> Timestamp? {
        [schedule.nextDeadline(near: nearbyPages), session.nextDeadline(after: now), saver.nextDeadline(after: now)]
            .compactMap { $0 }.min()
    }

    /// What the loop does next at `now`.
    public func decide(at now: Timestamp, inputPending: Bool) -> FramePacer.Decision {
        // Deadlines after the last frame, not after now: one that passed while the loop slept
        // (the plate fading, a long press, the screen saver) is due now, not skipped.
        pacer.decide(
            at: now, inputPending: inputPending, animating: screen != .off && session.isAnimating(at: now),
            nextDeadline: nextDeadline(after: min(now, pacer.lastFrameAt ?? now)))
    }

    /// A crown fact: wakes the screen; the first one on a switched-off panel only wakes it.
    public mutating func handle(_ event: CrownEvent) {
        pacer.invalidate()
        if saver.activity(at: event.timestamp) {
            wakeEventsSwallowed += 1
            return
        }
        session.handle(event)
    }

    /// A page's new reading at `now`: due again after its interval; the glass changes only if the page is near.
    public mutating func apply(_ reading: PageReading, to page: Int, at now: Timestamp) {
        guard book.readings.indices.contains(page) else { return }
        schedule.finished(page, at: now)
        guard book.readings[page] != reading else { return }
        book.readings[page] = reading
        refreshPages()
    }

    /// A new clock reading (the clock pages' refresh).
    public mutating func setClock(_ reading: ClockReading) {
        guard reading != clock else { return }
        clock = reading
        refreshPages()
    }

    /// A read of `page` was started and goes on (a command).
    public mutating func started(_ page: Int) { schedule.started(page) }

    private mutating func refreshPages() {
        let pages = book.pages(clock: clock)
        guard pages != session.pager.pages else { return }
        session.replacePages(pages)
        pacer.invalidate()
    }

    /// Lets time pass, applies the screen saver, and sends the frame if it changed; returns the
    /// I2C transfers that went out (for the trace, and the pacer's bus time).
    public mutating func drawFrame(at now: Timestamp) throws(Base.Failure) -> [I2CTransfer] {
        session.advance(to: now)
        let wanted = saver.state(at: now)
        if wanted != screen {
            let display = configuration.display
            switch wanted {
            case .bright:
                try session.display.setBrightness(DisplayBrightness(percent: display.brightness))
                if screen == .off { try session.display.setDisplayOn(true) }
            case .dimmed:
                try session.display.setBrightness(DisplayBrightness(percent: display.dimBrightness))
                if screen == .off { try session.display.setDisplayOn(true) }
            case .off:
                try session.display.setDisplayOn(false)
            }
            screen = wanted
        }
        if screen != .off { try session.present(at: now) }
        let transfers = session.display.bus.drainTransfers()
        pacer.frameSent(bytes: transfers.reduce(0) { $0 + $1.bytes.count }, transactions: transfers.count, at: now)
        return transfers
    }

    /// `drawFrame(at:)` for a panel that may stop answering: a failure never ends the run. A
    /// lost panel is tried again with backoff, then initialised afresh and sent the whole frame
    /// (`PagerSession.presentRecovering`). Returns what happened and the transfers that went out.
    public mutating func presentRecovering(
        at now: Timestamp, health: inout DisplayHealth
    ) -> (presentation: DisplayPresentation<Base.Failure>, transfers: [I2CTransfer]) {
        if health.isLost {
            session.advance(to: now)
            let presentation = session.presentRecovering(at: now, health: &health)
            // Initialised afresh: the settings' brightness, display on. The saver dims it again below.
            if case .recovered = presentation { screen = .bright }
            guard !health.isLost else { return (presentation, session.display.bus.drainTransfers()) }
            let (next, transfers) = presentRecovering(at: now, health: &health)
            if case .lost = next { return (next, transfers) }
            return (presentation, transfers)
        }
        let sent = session.framesSent
        do throws(Base.Failure) {
            let transfers = try drawFrame(at: now)
            return (session.framesSent > sent ? .sent : .unchanged, transfers)
        } catch {
            session.display.invalidate()
            pacer.invalidate()
            return (.lost(error, retryAt: health.recordFailure(at: now)), session.display.bus.drainTransfers())
        }
    }
}
