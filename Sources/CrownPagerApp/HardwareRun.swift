import Glibc
import LinuxHardware
import MockDisplay
import PagerCore
import PagerGraphics
import SSD1306

/// The pager on a real panel over Linux I2C.
///
/// The knob is read from GPIO lines when `crown` is set; the keys of the terminal turn the
/// crown too when standard input and output are a terminal (the glass is not mirrored there:
/// look at the panel). The loop sleeps in poll(2) until a key, an edge of the knob, a signal,
/// the next animation frame, the next second or the next retry of a lost display. SIGINT, SIGTERM, SIGHUP and q blank the panel and switch it
/// off on the way out, unless `persist` asks to leave the last picture.
public struct HardwareRun {
    /// The panel wired to the bus.
    public var panel: SSD1306Panel
    /// The adapter's device node, e.g. `/dev/i2c-1`.
    public var busPath: String
    /// The display's address.
    public var address: I2CAddress
    /// Rotation, brightness, contrast, inversion.
    public var settings: DisplaySettings
    /// Pager timing and wrap-around.
    public var pagerConfiguration: PagerConfiguration
    /// Crown sensitivity.
    public var crownConfiguration: CrownConfiguration
    /// Indicator look and side.
    public var indicatorStyle: PageIndicatorStyle
    /// Where to record the I2C trace, if anywhere.
    public var tracePath: String?
    /// Leave the last picture on the panel at exit.
    public var persist: Bool
    /// When to retry a display that stopped answering.
    public var retryPolicy: DisplayRetryPolicy
    /// How many demo pages to show; nil for the built-in set.
    public var pageCount: Int?
    /// The knob, when it is read from GPIO lines (`GPIOCrownSource`); the terminal's keys work too.
    public var crown: (any PollableCrownEventSource)?

    /// A run on `panel` at `address` on `busPath`.
    public init(
        panel: SSD1306Panel, busPath: String, address: I2CAddress = .ssd1306Primary, settings: DisplaySettings = DisplaySettings(),
        pagerConfiguration: PagerConfiguration = PagerConfiguration(), crownConfiguration: CrownConfiguration = CrownConfiguration(),
        indicatorStyle: PageIndicatorStyle = PageIndicatorStyle(), tracePath: String? = nil, persist: Bool = false,
        retryPolicy: DisplayRetryPolicy = DisplayRetryPolicy(), pageCount: Int? = nil
    ) {
        self.panel = panel
        self.busPath = busPath
        self.address = address
        self.settings = settings
        self.pagerConfiguration = pagerConfiguration
        self.crownConfiguration = crownConfiguration
        self.indicatorStyle = indicatorStyle
        self.tracePath = tracePath
        self.persist = persist
        self.retryPolicy = retryPolicy
        self.pageCount = pageCount
    }

    /// Runs until q, SIGINT, SIGTERM or SIGHUP; a display that stops answering mid-run is retried, not fatal.
    public func run() throws(AppError) {
        let bus: LinuxI2CBus
        do { bus = try LinuxI2CBus.open(path: busPath) } catch { throw AppError(error.description) }
        let live = LiveReadings()
        var now = live.monotonicNow()
        var session = PagerSession(
            pages: demoPages(clock: live.clock(at: now), system: live.system(), count: pageCount), panel: panel,
            bus: TracingBus(bus),
            address: address, pagerConfiguration: pagerConfiguration, crownConfiguration: crownConfiguration,
            indicatorStyle: indicatorStyle)
        session.display = SSD1306Driver(bus: TracingBus(bus), address: address, panel: panel, settings: settings)
        if let tracePath { try TraceFile.write([], to: tracePath) }
        let signals: TerminationSignals
        do { signals = try TerminationSignals() } catch { throw AppError(error.description) }

        // A panel that does not answer at start is a wiring or address problem: say so and stop.
        do throws(I2CError) {
            try session.start()
            try session.present(at: now)
        } catch {
            try? flushTrace(&session)
            throw AppError(error.description)
        }
        try flushTrace(&session)

        let terminal = try? TerminalSession()
        if let terminal {
            do {
                try terminal.begin(enterSequence: "", leaveSequence: "")
            } catch {
                throw AppError(error)
            }
        }
        defer { terminal?.restore() }
        printError(
            "crownpager: driving \(panel.name) at \(address) on \(busPath)"
                + (crown.map { "; the crown on \($0.sourceDescription)" } ?? "")
                + (terminal == nil ? "; SIGINT or SIGTERM stops" : "; Down/j and Up/k turn the crown, Enter presses, q quits"))

        var health = DisplayHealth(policy: retryPolicy)
        var decoder = KeyDecoder()
        var shownSecond = -1
        let pacing = TerminalMock(panel: panel)
        loop: while true {
            now = live.monotonicNow()
            let clock = live.clock(at: now)
            if clock.second != shownSecond {
                shownSecond = clock.second
                session.replacePages(demoPages(clock: clock, system: live.system(), count: pageCount))
            }
            session.advance(to: now)
            report(session.presentRecovering(at: now, health: &health))
            try flushTrace(&session)

            var timeout = pacing.timeout(session, at: now, nextSecond: live.nextSecond(after: now))
            if let retry = health.nextAttempt {
                timeout = min(timeout, max(1, Int((retry - now).nanoseconds + 999_999) / 1_000_000))
            }
            if let deadline = crown?.nextDeadline {
                timeout = min(timeout, max(0, Int((deadline - now).nanoseconds + 999_999) / 1_000_000))
            }
            let crownDescriptors = crown?.pollDescriptors ?? []
            let descriptors = [signals.descriptor] + (terminal.map { [$0.input.rawValue] } ?? []) + crownDescriptors
            let ready: [Bool]
            do { ready = try Readiness.wait(for: descriptors, timeoutMilliseconds: timeout) } catch { throw AppError(error.description) }
            if ready[0], signals.next() != nil { break loop }
            // The knob: whatever its lines delivered, and debounced levels that settled meanwhile.
            if var knob = crown {
                for event in try knob.nextEvents(timeoutMilliseconds: 0) ?? [] { session.handle(event) }
            }
            guard let terminal, ready.count > 1, ready[1] else { continue }
            let input: [UInt8]
            do { input = try terminal.readInput(timeoutMilliseconds: 0) } catch { throw AppError(error) }
            let instant = live.monotonicNow()
            for command in input.isEmpty ? decoder.flush() : decoder.feed(input) {
                switch command {
                case .quit: break loop
                case .redraw: session.display.invalidate()
                case .turn, .press, .longPress:
                    let events = TerminalCrown.events(
                        for: command, at: instant, longPressDuration: crownConfiguration.longPressDuration)
                    for event in events { session.handle(event) }
                }
            }
        }
        if !persist {
            do throws(I2CError) {
                try session.display.shutDown()
            } catch {
                printError("crownpager: could not switch the display off: \(error)")
            }
        }
        try flushTrace(&session)
    }

    private func report(_ presentation: DisplayPresentation<I2CError>) {
        switch presentation {
        case .lost(let error, let retryAt):
            printError("crownpager: the display stopped answering (\(error)); retrying in \(Self.milliseconds(until: retryAt)) ms")
        case .recovered(let attempts):
            printError("crownpager: the display answers again after \(attempts) failed attempt(s): initialised afresh, whole frame resent")
        case .sent, .unchanged, .waiting, .stillLost:
            break
        }
    }

    private static func milliseconds(until instant: Timestamp) -> Int64 {
        max(0, (instant - MonotonicClock.now()).milliseconds)
    }

    private func flushTrace<Page: PageContent>(_ session: inout PagerSession<Page, TracingBus<LinuxI2CBus>>) throws(AppError) {
        let transfers = session.display.bus.drainTransfers()
        if let tracePath { try TraceFile.append(transfers, to: tracePath) }
    }
}
