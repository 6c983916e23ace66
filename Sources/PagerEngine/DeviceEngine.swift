import CrownVocabulary
import PagerCore
import PagerGraphics
import PagerSettings
import SSD1306

/// Everything that decides what the device does, as one state machine without I/O: the pages
/// and their readings, the refresh schedule, the frame pacer, the screen saver, the display's
/// recovery and the reaction to a reload.
///
/// A shell (the Linux loop behind `run`, `render`, the benchmarks, the tests) feeds it
/// timestamped inputs with `handle(_:at:)` and does what the returned `Effects` say: send the
/// display's records through its interface (I2C, SPI or the emulator: the engine does not know which), read the values asked for, print the log lines. It calls
/// `handle(.tick, at:)` again at `nextDeadline`, or sooner when input comes, and always feeds
/// every pending input before the tick, so no frame shows a state that waiting input has made stale.
package struct DeviceEngine {
    /// The pager, renderer and display driver; the driver writes into a queue the effects carry out.
    var presenter: PanelPresenter
    /// The pages and their latest readings.
    var book: PageBook
    /// When each page is read next.
    private(set) var schedule: RefreshSchedule
    /// When to draw.
    var pacer: FramePacer
    /// Dimming and switching off.
    var saver: ScreenSaver
    /// Whether the panel answers, and when to try a lost one again.
    private(set) var health: DisplayHealth
    /// What the panel shows now.
    private(set) var screen = ScreenState.bright
    /// The local time the clock pages show.
    private(set) var clock: ClockReading
    /// The configuration running.
    package private(set) var configuration: Configuration
    /// The indicator's look, its images loaded.
    private(set) var style: PageIndicatorStyle
    /// Crown facts swallowed because they woke a switched-off panel.
    private(set) var wakeEventsSwallowed = 0
    /// What the crown did over the run, and how much of it the pager took.
    private(set) var crownTally = CrownTally()
    /// The last instant handled.
    private(set) var now: Timestamp
    /// Whether `stop` came: nothing more happens.
    private(set) var isStopped = false
    /// The wall clock's nanoseconds at monotonic zero, modulo a day, to align refreshes to round times.
    private let wallOffset: Int64
    /// Failed attempts before the recovery attempt whose outcome the shell has not reported yet.
    private var attemptInFlight: Int?
    /// The fallback glyphs the shell gave (`.glyphs`), for characters misc-fixed lacks.
    private(set) var glyphs: BitmapFont?
    /// Every character asked for with `Effects.glyphsWanted`, found or not: none is asked twice.
    var glyphsAsked: Set<UInt32> = []
    /// Characters to ask for with the next effects.
    var glyphsPending: [Unicode.Scalar] = []
    /// The notifications waiting and the one the overlay shows.
    var notifications = NotificationQueue()
    /// Values read at once (`PageRead.Source.isImmediate`, the clock) asked for by the last tick
    /// and not answered yet: its frame waits for them and is drawn as the last one arrives.
    private var valuesAwaited = 0
    /// When the values of `source = "push"` pages were set, and which are stale (`DeviceEngine+Control`).
    var pushedValues = PushedValues()
    /// What the pages' actions are doing (`DeviceEngine+Actions`).
    package internal(set) var actions = PageActions()
    /// When the pager goes home by itself (`DeviceEngine+Home`).
    var home: HomeReturn
    /// The pixel shift's orbit and the swaps of lit and dark (`DeviceEngine+BurnIn`).
    var burnIn: BurnInCare
    /// The brightness and display switch set remotely (`DeviceEngine+Remote`).
    package internal(set) var remoteDisplay = RemoteDisplay()
    /// When the glass goes out as a picture (`[mqtt] camera_interval`).
    package internal(set) var camera: GlassCamera
    /// The crown as MQTT reports it (`CrownReport`): the same interpreter the pager uses, fed every
    /// fact; nil without a broker.
    var crownReporter: CrownInterpreter?
    /// The presenter's frames sent when the camera last looked: one more is a glass that changed.
    var framesSeenByCamera = 0
    /// The night schedule's clock and state (`DeviceEngine+Night`).
    var night: NightWatch

    /// The engine for `configuration` with the indicator `style`, the clock pages at `clock`, time starting at `start`.
    package init(
        configuration: Configuration, style: PageIndicatorStyle, clock: ClockReading, start: Timestamp,
        wallOffset: Int64 = 0, retryPolicy: DisplayRetryPolicy = DisplayRetryPolicy(),
        animationInterval: TimeSpan = FramePacer.sixtyHertz
    ) {
        self.configuration = configuration
        self.style = style
        self.clock = clock
        self.wallOffset = wallOffset
        now = start
        book = PageBook(specs: configuration.pages)
        presenter = Self.presenter(
            configuration, style: style, pages: book.pages(clock: clock), currentPage: 0, at: start)
        schedule = RefreshSchedule(intervals: book.intervals, wallOffset: wallOffset)
        pacer = FramePacer(busHertz: configuration.display.pacingHertz, animationInterval: animationInterval)
        saver = ScreenSaver(
            dimAfter: configuration.display.dimAfter, offAfter: configuration.display.offAfter, start: start)
        health = DisplayHealth(policy: retryPolicy)
        home = HomeReturn(configuration, start: start)
        burnIn = BurnInCare(configuration.display, start: start)
        camera = GlassCamera(configuration)
        if !(configuration.mqtt.host ?? "").isEmpty {
            crownReporter = CrownInterpreter(configuration: configuration.crown.crownConfiguration)
        }
        night = NightWatch(configuration.display)
        askForGlyphs(in: presenter.pager.pages)
        updateOverviewFonts()
    }

    private static func presenter(
        _ configuration: Configuration, style: PageIndicatorStyle, pages: [ConfiguredPage], currentPage: Int,
        at start: Timestamp
    ) -> PanelPresenter {
        let display = configuration.display
        let width = PagerRenderer(size: display.panel.size, indicatorStyle: style).contentRect.width
        return PanelPresenter(
            pages: pages.map { $0.preparingLines(width: width) }, currentPage: currentPage, panel: display.panel,
            settings: display.settings, pagerConfiguration: configuration.pagerConfiguration,
            crownConfiguration: configuration.crown.crownConfiguration, indicatorStyle: style, start: start)
    }

    /// Feeds `input`, which happened at `instant`; returns what the shell must do.
    package mutating func handle(_ input: EngineInput, at instant: Timestamp) -> Effects {
        var effects = Effects()
        guard !isStopped else { return effects }
        now = max(now, instant)
        settleNotifications()
        // While timed pages move on by themselves the panel stays bright: idle time starts when they stop.
        if holdsScreen { _ = saver.activity(at: now) }
        switch input {
        case .start:
            presenter.start()
            screen = .bright
            pacer.invalidate()
            effects.display = presenter.display.interface.take()
            effects.log = presenter.warnings.map { .warning($0) }
        case .crown(let event):
            reportCrown(event, into: &effects)
            pacer.invalidate()
            let woke = crownWakesSwitchedOffDisplay()
            // Dark by the screen saver or the night: the fact only wakes the panel.
            let wasDark = idleScreen == .off
            let swallowed = saver.activity(at: event.timestamp) || wasDark || woke
            home.restart(at: event.timestamp)
            crownTally.count(event, applied: !swallowed)
            if swallowed {
                wakeEventsSwallowed += 1
            } else if !notificationTakes(event) {
                act(on: presenter.handle(event), into: &effects)
            }
        case .tick:
            markStalePushedValues()
            tick(into: &effects)
        case .clock(let reading):
            for page in book.specs.indices where schedule.isInFlight(page) && book.specs[page].isClock {
                schedule.finished(page, at: now)
            }
            if reading != clock {
                let shownClock = clock
                clock = reading
                // Only the clock pages read it: the others stay as they are, their lines wrapped.
                for page in book.specs.indices where book.specs[page].isClock {
                    refreshPage(page, shownClock: shownClock)
                }
            }
            valueArrived(into: &effects)
        case .localClock(let clock):
            receive(clock)
            valueArrived(into: &effects)
        case .sampled(let page, let samples):
            if book.specs.indices.contains(page) { apply(book.specs[page].reading(sampled: samples), to: page) }
            valueArrived(into: &effects)
        case .fileRead(let page, let sample):
            if book.specs.indices.contains(page) {
                apply(book.specs[page].reading(file: sample.asTerminalShows), to: page)
            }
            valueArrived(into: &effects)
        case .commandFinished(let page, let output, let status):
            guard book.specs.indices.contains(page) else { break }
            apply(
                book.specs[page].reading(
                    commandOutput: TerminalText.read(output), status: status.map { TerminalText.read($0) }),
                to: page)
        case .actionFinished(let page, let output, let status):
            actionFinished(page, output: TerminalText.read(output), status: status.map { TerminalText.read($0) })
        case .written(let took):
            pacer.written(took: took)
            if let attempts = attemptInFlight {
                attemptInFlight = nil
                health.recordSuccess()
                // Initialised afresh: the settings' brightness, display on. The saver dims it again next frame.
                screen = .bright
                pacer.invalidate()
                effects.log.append(.displayRecovered(attempts: attempts))
            }
        case .displayFailed:
            pacer.writeFailed()
            presenter.forgetGlass()
            pacer.invalidate()
            let retryAt = health.recordFailure(at: now)
            if let attempts = attemptInFlight {
                attemptInFlight = nil
                effects.log.append(.displayStillLost(attempts: attempts + 1, retryIn: retryAt - now))
            } else if health.failures == 1 {
                effects.log.append(.displayLost(retryIn: retryAt - now))
            }
        case .reload(let fresh, let freshStyle):
            reload(fresh, style: freshStyle, into: &effects)
        case .glyphs(let font):
            glyphs = font
            book.glyphs = font
            for page in book.specs.indices { refreshPage(page, glyphsChanged: true) }
            updateOverviewFonts()
        case .redraw:
            presenter.forgetGlass()
            pacer.invalidate()
        case .stop(let persist):
            isStopped = true
            effects.stopsCommands = true
            if !persist, !health.isLost {
                presenter.display.shutDown()
                effects.display = presenter.display.interface.take()
            }
        case .notify(let notification):
            receive(notification, into: &effects)
        case .control(let request, let reply):
            handle(request, reply: reply, into: &effects)
        case .unreadable(let page, let problem):
            markUnreadable(page, with: problem)
        }
        noteKeptNotifications(in: &effects)
        takeGlassPicture(into: &effects)
        reportHeldCrown(into: &effects)
        if !glyphsPending.isEmpty {
            effects.glyphsWanted = glyphsPending
            glyphsPending = []
        }
        return effects
    }

    /// Reads what is due near the current page; then, unless a value is on its way, a frame if one is due.
    private mutating func tick(into effects: inout Effects) {
        expireQuestions()
        watchNight(into: &effects)
        // The night's state comes before anything is read or drawn: the first frame of a night is dim.
        if effects.readsLocalClock {
            valuesAwaited = 1
            return
        }
        if returnHomeIfIdle(into: &effects) { pacer.invalidate() }
        if careForPanel() { pacer.invalidate() }
        // Nothing is read for a panel dark by the saver or the night: the turn that wakes it reads what is due first.
        let near = idleScreen == .off ? PageList() : nearbyPages
        for page in near where schedule.isDue(page, at: now) {
            let spec = book.specs[page]
            if spec.isClock {
                effects.readsClock = true
            } else if let source = spec.read {
                effects.reads.append(PageRead(page: page, source: source))
            } else {
                continue
            }
            schedule.started(page)
        }
        // Values read at once come back before anything else happens: the frame is drawn as the
        // last of them arrives (`valueArrived`), with them, not now without. So the first frame
        // after `start` shows the first page's values, and no shell ticks again to get it.
        valuesAwaited = effects.reads.reduce(effects.readsClock ? 1 : 0) { $0 + ($1.source.isImmediate ? 1 : 0) }
        if valuesAwaited > 0 { return }
        guard case .drawFrame = decision(at: now) else {
            fillOffGlass(into: &effects)
            return
        }
        if health.isLost {
            guard health.mayAttempt(at: now) else { return }
            // RAM and registers may be gone after a power glitch: all of it again, then the whole frame.
            attemptInFlight = health.failures
            presenter.start()
            screen = .bright
        }
        drawFrame(into: &effects)
    }

    /// One of the values the last tick waits for arrived: with the last, what that tick would have
    /// done (a frame, if one is due).
    private mutating func valueArrived(into effects: inout Effects) {
        guard valuesAwaited > 0 else { return }
        valuesAwaited -= 1
        if valuesAwaited == 0 { tick(into: &effects) }
    }

    /// Whether the RAM rows off the glass wait to be filled with the neighbouring pages: the
    /// panel lit, answering, and the pages standing still.
    var fillsOffGlass: Bool {
        presenter.isOffGlassFillPending && screen != .off && !health.isLost && attemptInFlight == nil
    }

    /// With no frame due, one RAM page of the rows off the glass once the bus is free: a slide
    /// then finds the rows it brings into view already there. A detent's frame waits behind one
    /// such write at most, and the filling stops once the rows hold the neighbours.
    private mutating func fillOffGlass(into effects: inout Effects) {
        guard screen != .off, !health.isLost, attemptInFlight == nil, now >= pacer.busFreeAt else { return }
        presenter.checkOffGlassIfNeeded(at: now)
        guard presenter.isOffGlassFillPending else { return }
        presenter.fillOffGlass(at: now)
        let records = presenter.display.interface.take()
        guard !records.isEmpty else { return }
        pacer.idleWriteSent(bytes: records.framedByteCount, transactions: records.count, at: now)
        effects.display = records
    }

    /// Lets time pass, applies the screen saver, and queues the frame if it changed.
    private mutating func drawFrame(into effects: inout Effects) {
        act(on: presenter.advance(to: now), into: &effects)
        // A timer that resumed just now lights a dimmed panel in this frame, not the next.
        if holdsScreen { _ = saver.activity(at: now) }
        let wanted = wantedScreen
        if wanted != screen || remoteBrightnessPending {
            switch wanted {
            case .bright, .dimmed:
                presenter.display.setBrightness(DisplayBrightness(percent: panelPercent(wanted)))
                if screen == .off { presenter.display.setDisplayOn(true) }
            case .off:
                presenter.display.setDisplayOn(false)
            }
            screen = wanted
        }
        // A slide is drawn where it stands a frame interval on, when this frame is on the glass.
        let moving = screen != .off && presenter.isAnimating(at: now)
        presenter.frameByteBudget = pacer.frameByteBudget
        if screen != .off { presenter.present(at: now, lookahead: pacer.lookahead(at: now)) }
        let records = presenter.display.interface.take()
        pacer.frameSent(bytes: records.framedByteCount, transactions: records.count, at: now, moving: moving)
        // Scrubbing that the glass is behind: the next page goes as soon as the bus is free, not a
        // frame interval on, so the pages catch up between detents instead of meeting the next one.
        // So does the rest of a frame the frame byte budget cut short.
        if screen != .off, presenter.pager.glassLags(at: now) || presenter.isFrameIncomplete { pacer.invalidate() }
        // The queue's storage itself when nothing came before it in this tick: no copy.
        if effects.display.isEmpty {
            effects.display = records
        } else {
            effects.display.append(contentsOf: records)
        }
    }

    /// A page's new reading: due again after its interval; the glass changes only if the page shows it.
    private mutating func apply(_ reading: PageReading, to page: Int) {
        schedule.finished(page, at: now)
        guard book.readings[page] != reading else { return }
        book.readings[page] = reading
        refreshPage(page)
    }

    /// The page at `index` made again from the book, in place of the one shown when it reads
    /// differently now; with `glyphsChanged`, replaced all the same, as pages that draw through
    /// other glyphs are equal all the same.
    /// A clock page shown as read at `shownClock` keeps its date lines when the day is the same.
    mutating func refreshPage(_ index: Int, glyphsChanged: Bool = false, shownClock: ClockReading? = nil) {
        guard presenter.pager.pages.indices.contains(index) else { return }
        let page = showingAction(
            book.page(index, clock: clock, shown: presenter.pager.pages[index], shownClock: shownClock), at: index)
        guard glyphsChanged || page != presenter.pager.pages[index] else { return }
        // A page made afresh may bring characters to ask glyphs for (a reading's text).
        askForGlyphs(in: CollectionOfOne(page))
        // Wrapped once here, for every frame until the next reading, rather than in each frame.
        presenter.replacePage(at: index, with: page.preparingLines(width: presenter.renderer.contentRect.width))
        pacer.invalidate()
    }

    /// A new configuration on the same panel: new pages and settings, the current page kept when it
    /// still exists, the panel initialised afresh. A different panel, bus or address needs a restart.
    private mutating func reload(
        _ fresh: Configuration, style freshStyle: PageIndicatorStyle, into effects: inout Effects
    ) {
        let old = configuration.display
        guard fresh.display.panel == old.panel, fresh.display.connection == old.connection
        else {
            effects.log.append(.reloadNeedsRestart)
            return
        }
        let current = presenter.pager.currentPage
        configuration = fresh
        style = freshStyle
        book = PageBook(specs: fresh.pages)
        book.glyphs = glyphs
        pushedValues = PushedValues()
        let pages = book.pages(clock: clock)
        askForGlyphs(in: pages)
        let replaced = presenter.navigator
        presenter = Self.presenter(
            fresh, style: freshStyle, pages: pages, currentPage: pages.indices.contains(current) ? current : 0, at: now)
        // A pause in progress survives the reload on the same page; a running timer starts the page afresh.
        presenter.navigator.keepPause(of: replaced)
        schedule = RefreshSchedule(intervals: book.intervals, wallOffset: wallOffset)
        updateOverviewFonts()
        // The bus has not changed: what its writes taught the pacer stays.
        pacer.configure(busHertz: fresh.display.pacingHertz)
        pacer.invalidate()
        saver = ScreenSaver(dimAfter: fresh.display.dimAfter, offAfter: fresh.display.offAfter, start: now)
        actions = PageActions()
        home = HomeReturn(fresh, start: now)
        burnIn = BurnInCare(fresh.display, start: now)
        // The night read afresh at the next tick, against the new schedule; a night that held
        // and is gone lets the timer go (the presenter is new: its timer is not held).
        night = NightWatch(fresh.display)
        effects.stopsCommands = true
        effects.log.append(.reloaded(pages: fresh.pages.count))
        effects.log += presenter.warnings.map { .warning($0) }
        if health.isLost { return }  // the recovery initialises it when it answers
        presenter.start()
        screen = .bright
        effects.display = presenter.display.interface.take()
    }
}
