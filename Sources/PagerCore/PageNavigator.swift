import CrownVocabulary
import PagerGraphics

/// How the crown and time move through the page stack: the page control's behaviour in one
/// value (the stack, the crown interpreter, tall-page scrolling, rubber-banding, the background
/// plate, timed pages and the page-title list), with no drawing.
///
/// Crown facts go in through `handle(_:)`; time passes through `advance(to:)`, which reports
/// what happened by itself (a long press, idle, the plate fading, a timed page moving on);
/// `nextDeadline(after:)` tells the run loop when to wake. Nothing here reads a clock.
///
/// Generic over its pages although production has one page type: `ConfiguredPage` belongs to
/// PagerEngine, which builds on this target, so this target cannot name it; its own tests page
/// through pages of their own (bars, counted drawings).
public struct PageNavigator<Page: PageContent> {
    /// The pages and which one is current.
    public internal(set) var pager: PageStack<Page>
    /// Turns crown facts into gestures.
    public internal(set) var interpreter: CrownInterpreter
    /// The indicator's look; its background style also decides whether scrubbing is allowed.
    public let style: PageIndicatorStyle
    /// The size of the screen area a page is shown in.
    public let viewport: Size
    /// Where the current page's content stands, for pages taller than the screen.
    public internal(set) var scroll = PageScroll()
    /// The bounce under way after a turn past the first or last page.
    public internal(set) var rubberBand: RubberBand?
    /// The content's nudge for detents short of a page, in pixels along the paging axis
    /// (negative moves it up or left, the way a later page comes): it moves there, and back.
    public internal(set) var nudge: SlideAnimation?
    /// The page-title list, while it is open.
    public internal(set) var overview: PageOverview?
    /// The timed-page clock.
    public internal(set) var timer: AutoAdvance
    /// When the crown was last touched.
    public internal(set) var lastInteraction: Timestamp?
    /// Whether timed pages are held where they are, whatever the crown does (`holdTimer(_:at:)`).
    public internal(set) var isTimerHeld = false
    /// Guideline warnings about these pages (too many, too many kinds of indicator image).
    public internal(set) var warnings: [PagerWarning]
    var backgroundHiddenReported = true

    /// A controller for `pages` shown in `viewport`, with time starting at `start`.
    ///
    /// The minimal background style turns scrubbing and acceleration off, as the guidelines advise.
    public init(
        pages: [Page], currentPage: Int = 0, configuration: PagerConfiguration = PagerConfiguration(),
        crown: CrownConfiguration = CrownConfiguration(), style: PageIndicatorStyle = PageIndicatorStyle(),
        viewport: Size, start: Timestamp = .zero
    ) {
        var crown = crown
        if style.backgroundStyle == .minimal {
            crown.allowsScrubbing = false
            crown.accelerationInterval = nil
        }
        pager = PageStack(pages: pages, currentPage: currentPage, configuration: configuration)
        interpreter = CrownInterpreter(configuration: crown)
        self.style = style
        self.viewport = viewport
        timer = AutoAdvance(start: start)
        warnings = PagerWarning.check(pages: pages, images: style.images)
        scroll = pageScroll(for: pager.currentPage, atEnd: false)
    }

    /// The pager's settings.
    public var configuration: PagerConfiguration { pager.configuration }
    /// The page shown or being slid to.
    public var currentPage: Int { pager.currentPage }
    /// What the person is doing with the crown: none, discrete steps or scrubbing.
    public var interactionState: InteractionState { interpreter.interactionState }
    /// How long the current page stays before the timer moves on, if it is timed.
    public var currentPageDuration: TimeSpan? {
        guard pager.pageDurations.indices.contains(currentPage) else { return nil }
        // From the pager's list, not the page (`PageStack.pageDurations` says why).
        return duration(of: pager.pageDurations[currentPage])
    }

    /// How long `page` stays before the timer moves on, if it is timed: its own duration or the pager's.
    func duration(of page: Page) -> TimeSpan? {
        duration(of: page.duration)
    }

    /// How long a page of `duration` stays before the timer moves on, if it is timed.
    func duration(of duration: PageDuration) -> TimeSpan? {
        switch duration {
        case .automatic: return configuration.pageDuration
        case .never: return nil
        case .after(let span): return span.nanoseconds > 0 ? span : nil
        }
    }

    /// Whether any page is timed: then a turn or press pauses the timer, whichever page it comes on.
    public var hasTimedPages: Bool {
        pager.pages.contains { duration(of: $0) != nil }
    }

    /// Feeds one crown fact in; returns what it did. A display-only pager ignores the crown.
    public mutating func handle(_ event: CrownEvent) -> [PagerEvent] {
        guard !configuration.isDisplayOnly else { return [] }
        lastInteraction = event.timestamp
        backgroundHiddenReported = style.backgroundStyle != .automatic
        var events: [PagerEvent] = []
        // Any turn or press pauses the timer, as touching a UIPageControl does; it resumes
        // `timerResumeDelay` after the last one.
        if !timer.isPaused, event.isInteraction, hasTimedPages {
            timer.pause()
            events.append(.timerPaused(at: event.timestamp))
        }
        let pendingBefore = interpreter.pendingDetents
        for gesture in interpreter.interpret(event) { events += apply(gesture) }
        if case .rotated(let detents, let at) = event, detents != 0,
            interpreter.pendingDetents != pendingBefore || nudge != nil
        {
            followPendingDetents(at: at)
        }
        return events
    }

    /// How far the content stands off its place at `instant`, in pixels along the paging axis:
    /// the rubber band's give and the nudge of detents short of a page.
    public func contentShift(at instant: Timestamp) -> Int {
        let nudged = nudge.map { Int($0.position(at: instant).rounded()) } ?? 0
        return (rubberBand?.offset(at: instant) ?? 0) + nudged
    }

    /// Moves the nudge to where the detents short of a page put it, from where it stands at `instant`.
    ///
    /// Each such detent moves the content 1/detentsPerPage of `nudgeDistance` the way the page
    /// would go; when the page turns or the detents are forgotten it slides back. At the first or
    /// last page (no wrap, nothing to scroll) the part-turn is the rubber band, that part of its give.
    mutating func followPendingDetents(at instant: Timestamp) {
        let crown = interpreter.configuration
        let pending = overview == nil ? interpreter.pendingDetents : 0
        var target = -Double(pending) * Double(crown.nudgeDistance) / Double(crown.detentsPerPage)
        if pending != 0, isAtEnd(pending > 0 ? 1 : -1) {
            let fraction = Double(saturatingMagnitude(pending)) / Double(crown.detentsPerPage)
            rubberBand = crown.rubberBand.band(direction: pending, start: instant, fraction: fraction)
            target = 0
        }
        let from = nudge.map { $0.position(at: instant) } ?? 0
        guard target != (nudge?.to ?? 0) else { return }
        // Back to place as a page turns takes the slide's time, so the two move as one.
        let duration = target == 0 ? configuration.slideDuration : halfSlide
        nudge = SlideAnimation(
            from: from, to: target, start: instant, duration: duration,
            initialVelocity: nudge.map { $0.velocity(at: instant) } ?? 0)
    }

    /// Whether a turn in `direction` can go nowhere: the first or last page, no wrap, nothing to scroll.
    func isAtEnd(_ direction: Int) -> Bool {
        guard !configuration.wrapsAround, !scroll.canScroll(direction) else { return false }
        return direction > 0 ? currentPage >= pager.numberOfPages - 1 : currentPage <= 0
    }

    /// How long scrubbing stands on each page it passes: one frame at 60 a second. On the glass
    /// each page stands a frame at least however slowly frames come (`PageStack.glassShows(at:)`).
    public static var scrubPageInterval: TimeSpan { TimeSpan(nanoseconds: 1_000_000_000 / 60) }

    /// Half the slide's duration: how long a nudge takes.
    var halfSlide: TimeSpan { TimeSpan(nanoseconds: configuration.slideDuration.nanoseconds / 2) }

    /// Records that the frame for `instant` is on the glass: scrubbing moves on from there.
    public mutating func glassShows(at instant: Timestamp) {
        pager.glassShows(at: instant)
    }

    /// Replaces the pages (refreshed readings); with a different count the list closes and the scroll resets.
    public mutating func replacePages(_ pages: [Page]) {
        let countChanged = pages.count != pager.numberOfPages
        pager.replacePages(pages)
        if countChanged {
            overview = nil
            warnings = PagerWarning.check(pages: pages, images: style.images)
            scroll = pageScroll(for: pager.currentPage, atEnd: false)
        } else {
            updateScrollMaximum()
        }
    }

    /// Replaces the content of the page at `index` (a refreshed reading), the other pages kept as
    /// they are; ignored out of range.
    public mutating func replacePage(at index: Int, with page: Page) {
        pager.replacePage(at: index, with: page)
        updateScrollMaximum()
    }

    /// Keeps the scroll's offset and takes the current page's height as it reads now.
    private mutating func updateScrollMaximum() {
        let maximum = pageScroll(for: currentPage, atEnd: true).maximum
        if maximum != scroll.maximum { scroll = PageScroll(offset: scroll.offset, maximum: maximum) }
    }

    /// The most page-detents one gesture steps through (a crown script's largest turn).
    public static var maximumStepsPerGesture: Int { 10_000 }

    /// Applies one gesture.
    mutating func apply(_ gesture: CrownGesture) -> [PagerEvent] {
        switch gesture {
        case .step(let pages, let at):
            if overview != nil { return moveOverview(by: pages, at: at) }
            var events: [PagerEvent] = []
            // A device or script may ask for absurd turns: no gesture moves more than this many steps.
            for _ in 0..<min(saturatingMagnitude(pages), Self.maximumStepsPerGesture) {
                let event = stepOnce(pages > 0 ? 1 : -1, at: at)
                events.append(event)
                if case .bounced = event { break }
            }
            return events
        case .scrub(let pages, let at):
            if overview != nil { return moveOverview(by: pages, at: at) }
            return scrub(by: pages, at: at)
        case .shortPress(let at):
            if let overview {
                self.overview = nil
                return [.overviewClosed(at: at)]
                    + show(overview.selection, at: at, animated: false, interaction: .discrete)
            }
            if pager.pages.indices.contains(currentPage), pager.pages[currentPage].hasPressAction {
                return [.pageAction(page: currentPage, at: at)]
            }
            return show(0, at: at, animated: true, interaction: .discrete)
        case .longPress(let at):
            if overview != nil {
                overview = nil
                return [.overviewClosed(at: at)]
            }
            guard pager.numberOfPages > 0 else { return [] }
            if pager.pages.indices.contains(currentPage), pager.pages[currentPage].hasHoldAction {
                return [.pageAction(page: currentPage, at: at)]
            }
            overview = PageOverview(numberOfPages: pager.numberOfPages, selection: currentPage)
            return [.overviewOpened(at: at)]
        case .idle(let at):
            return [.idle(at: at)]
        case .detentsForgotten(let at):
            followPendingDetents(at: at)
            return []
        }
    }

    /// Scrubbing: a stepped slide through every page on the way, a page each `scrubPageInterval`.
    ///
    /// Scrubbing past either end lands on the first or last page, wrap or not, with the arrival's
    /// short bounce; turning on against that end gives the rubber band (once, not again while it plays).
    private mutating func scrub(by pages: Int, at instant: Timestamp) -> [PagerEvent] {
        let last = max(0, pager.numberOfPages - 1)
        let target = min(max(saturatingSum(currentPage, pages), 0), last)
        let direction = pages > 0 ? 1 : -1
        let band = interpreter.configuration.rubberBand
        guard target != currentPage else {
            guard pages != 0, pager.numberOfPages > 0, !scroll.canScroll(direction),
                rubberBand?.isDone(at: instant) ?? true
            else { return [] }
            rubberBand = band.band(direction: direction, start: instant)
            return [.bounced(direction: direction, at: instant)]
        }
        let events = show(target, at: instant, animated: true, interaction: .continuous, stepped: true)
        if target == (direction > 0 ? last : 0), let slide = pager.slide {
            rubberBand = band.arrival(direction: direction, start: max(instant, slide.end))
        }
        return events
    }

    /// One page-detent of a discrete turn: scroll a tall page, else page, else bounce.
    private mutating func stepOnce(_ direction: Int, at instant: Timestamp) -> PagerEvent {
        if scroll.canScroll(direction) {
            let step = configuration.scrollStep ?? max(1, viewport.height / 2)
            scroll.scroll(by: direction * step, at: instant, duration: configuration.slideDuration)
            return .scrolled(offset: scroll.offset, at: instant)
        }
        if pager.move(by: direction, at: instant, animated: true) {
            // Going back lands at the end of a tall page, so a turn and its reverse meet again.
            scroll = pageScroll(for: currentPage, atEnd: direction < 0)
            timer.restart(at: instant)
            return .pageChanged(to: currentPage, interaction: .discrete, at: instant)
        }
        rubberBand = interpreter.configuration.rubberBand.band(direction: direction, start: instant)
        return .bounced(direction: direction, at: instant)
    }

    mutating func show(
        _ page: Int, at instant: Timestamp, animated: Bool, interaction: InteractionState, stepped: Bool = false
    ) -> [PagerEvent] {
        guard
            pager.show(
                page: page, at: instant, animated: animated, duration: stepped ? Self.scrubPageInterval : nil,
                stepped: stepped)
        else { return [] }
        scroll = pageScroll(for: currentPage, atEnd: false)
        rubberBand = nil
        timer.restart(at: instant)
        return [.pageChanged(to: currentPage, interaction: interaction, at: instant)]
    }

    private mutating func moveOverview(by rows: Int, at instant: Timestamp) -> [PagerEvent] {
        guard var list = overview else { return [] }
        let before = list.selection
        list.move(by: rows)
        overview = list
        return list.selection == before ? [] : [.overviewSelected(page: list.selection, at: instant)]
    }

    /// The scroll state of `page` when arriving at its top, or at its end.
    func pageScroll(for page: Int, atEnd: Bool) -> PageScroll {
        guard pager.pages.indices.contains(page) else { return PageScroll() }
        let maximum = pager.pages[page].contentHeight(in: viewport) - viewport.height
        return PageScroll(offset: atEnd ? maximum : 0, maximum: maximum)
    }
}
