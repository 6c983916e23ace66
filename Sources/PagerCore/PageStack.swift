import CrownVocabulary

/// How the pager moves between pages.
public struct PagerConfiguration: Hashable, Sendable {
    /// Whether turning past the last page goes on to the first (and back); off by default.
    public var wrapsAround: Bool
    /// How long the animated slide between two pages takes.
    public var slideDuration: TimeSpan
    /// The indicator shows the pages but the crown does not move them (the visionOS note).
    public var isDisplayOnly: Bool
    /// How long each page stays before the pager moves on by itself (UIKit's `preferredDuration`);
    /// nil (the default) never moves on. A page's own `PageContent.duration` wins.
    public var pageDuration: TimeSpan?
    /// How long after the last turn or press a paused timer starts again, with the page's full
    /// time; nil: a paused timer stays paused.
    public var timerResumeDelay: TimeSpan?
    /// After the last timed page, go back to the first (UIKit's `resetsToInitialPageAfterEnd`);
    /// otherwise the timer stops on the last page. On by default: a rotation of status pages
    /// loops (UIKit's default is off).
    public var resetsToInitialPageAfterEnd: Bool
    /// Pixels a tall page scrolls per page-detent; nil scrolls half a screen.
    public var scrollStep: Int?
    /// How long the automatic background plate stays after the last interaction.
    public var backgroundLinger: TimeSpan
    /// How long the plate takes to fade (dithered at half) before it goes.
    public var backgroundFade: TimeSpan

    /// Creates a configuration; the defaults suit a 20-detent encoder.
    public init(
        wrapsAround: Bool = false, slideDuration: TimeSpan = .milliseconds(240), isDisplayOnly: Bool = false,
        pageDuration: TimeSpan? = nil, scrollStep: Int? = nil, backgroundLinger: TimeSpan = .milliseconds(1000),
        backgroundFade: TimeSpan = .milliseconds(250), timerResumeDelay: TimeSpan? = .milliseconds(10_000),
        resetsToInitialPageAfterEnd: Bool = true
    ) {
        self.wrapsAround = wrapsAround
        self.slideDuration = slideDuration
        self.isDisplayOnly = isDisplayOnly
        self.pageDuration = pageDuration.flatMap { $0.nanoseconds > 0 ? $0 : nil }
        self.scrollStep = scrollStep.map { max(1, $0) }
        self.backgroundLinger = backgroundLinger
        self.backgroundFade = backgroundFade
        self.timerResumeDelay = timerResumeDelay.map { max($0, .zero) }
        self.resetsToInitialPageAfterEnd = resetsToInitialPageAfterEnd
    }
}

/// A flat, ordered list of vertical pages, each one screen high, and which one is current.
///
/// `currentPage` is the page the pager shows or is sliding to (UIKit's meaning). The
/// slide itself is a `SlideAnimation` in page units; `position(at:)` says where the
/// pages stand at an instant. During a slide that wraps around, positions may run past
/// the last page (4.3 of 5 pages shows page 4 and page 0); they are normalised once the
/// slide settles.
public struct PageStack<Page: PageContent> {
    /// The pages, first at the top.
    public private(set) var pages: [Page]
    /// The page shown, or being slid to; 0 when there are no pages.
    public private(set) var currentPage: Int
    /// Wrap-around and timing.
    public var configuration: PagerConfiguration
    /// The slide under way, if any.
    public private(set) var slide: SlideAnimation?
    /// Where the pages stood in the last frame on the glass (`glassShows(at:)`), in the slide's
    /// unwrapped pages; nil until a frame loop reports its frames.
    public private(set) var glassPosition: Double?
    /// The instant the last frame on the glass was drawn for.
    public private(set) var glassInstant: Timestamp?
    /// Counts the times the pages' content was replaced: a renderer keeps a page's drawing
    /// while this stays the same.
    public private(set) var contentGeneration = 0
    /// Each page's `duration`, read once when the pages come. Kept while the pager is generic: the
    /// engine runs this code unspecialised, where reading a page's duration copies the page through
    /// the runtime's type metadata, 14,000 instructions a clock frame (`bench-vs-luma.sh --instructions`).
    public private(set) var pageDurations: [PageDuration]

    /// A pager showing `currentPage` (clamped to the pages there are).
    public init(pages: [Page], currentPage: Int = 0, configuration: PagerConfiguration = PagerConfiguration()) {
        self.pages = pages
        self.pageDurations = pages.map { $0.duration }
        self.configuration = configuration
        self.currentPage = pages.isEmpty ? 0 : min(max(currentPage, 0), pages.count - 1)
    }

    /// How many pages there are.
    public var numberOfPages: Int { pages.count }

    /// Where the pages stand at `instant`, in pages (2.5 is halfway from page 2 to page 3).
    ///
    /// A stepped slide (scrubbing) moves at most one page past the last frame on the glass, so
    /// that every page it passes is on the glass for a frame at least, however fast the crown
    /// turns and however slowly the bus carries frames: it runs on until the glass has caught up.
    public func position(at instant: Timestamp) -> Double {
        guard let slide else { return Double(currentPage) }
        if slide.isStepped, let glass = glassPosition {
            // The glass has this instant's frame already (frames are drawn a frame ahead): it stands.
            if let shown = glassInstant, instant <= shown { return glass }
            let target = slide.isDone(at: instant) ? slide.to : slide.position(at: instant)
            // No further than the page after the one the glass shows (its nearest), either way.
            let shown = (glass + 0.5).rounded(.down)
            return min(max(target, shown - 1), shown + 1)
        }
        if !slide.isDone(at: instant) { return slide.position(at: instant) }
        return Double(currentPage)
    }

    /// True when no slide is under way at `instant`: a stepped one is done once its end is on the glass.
    public func isSettled(at instant: Timestamp) -> Bool {
        guard let slide else { return true }
        guard slide.isDone(at: instant) else { return false }
        guard slide.isStepped, let glass = glassPosition else { return true }
        return glass == slide.to
    }

    /// Whether the glass is behind a stepped slide at `instant` (or at the instant the glass shows,
    /// if later): the slide stands on a page further on than the last frame showed, so the next
    /// frame should go as soon as it can, and at a later instant than the last.
    public func glassLags(at instant: Timestamp) -> Bool {
        guard let slide, slide.isStepped, let glass = glassPosition else { return false }
        let due = (slide.position(at: max(instant, glassInstant ?? instant)) + 0.5).rounded(.down)
        let shown = (glass + 0.5).rounded(.down)
        return slide.to >= slide.from ? due > shown : due < shown
    }

    /// Records that the frame for `instant` is on the glass: a stepped slide moves on from there.
    public mutating func glassShows(at instant: Timestamp) {
        glassPosition = position(at: instant)
        glassInstant = max(instant, glassInstant ?? instant)
    }

    /// The page index `index` stands for, after wrapping: positions run past the ends during wrapped slides.
    public func normalizedPage(_ index: Int) -> Int {
        let count = pages.count
        guard count > 0 else { return 0 }
        return ((index % count) + count) % count
    }

    /// The page nearest the position at `instant`: the one the indicator marks during a slide.
    public func displayedPage(at instant: Timestamp) -> Int {
        let position = position(at: instant)
        return normalizedPage(Int((position + 0.5).rounded(.down)))
    }

    /// Moves `delta` pages (positive is later) starting at `instant`; returns whether the current page changed.
    ///
    /// Without wrap-around the move stops at the first or last page. Animated moves slide
    /// from wherever the pages stand at `instant`, carrying the speed of a slide under way.
    @discardableResult
    public mutating func move(by delta: Int, at instant: Timestamp, animated: Bool = true) -> Bool {
        guard !pages.isEmpty, delta != 0 else { return false }
        let target: Int
        if configuration.wrapsAround {
            target = currentPage + delta
        } else {
            target = min(max(currentPage + delta, 0), pages.count - 1)
        }
        guard target != currentPage else { return false }
        return moveToTarget(
            unwrapped: target, at: instant, animated: animated, duration: configuration.slideDuration, stepped: false)
    }

    /// Shows `page` (clamped to the pages there are), sliding there the short way when animated.
    ///
    /// `duration` replaces the configuration's slide duration; `stepped` passes through every page
    /// between, each shown whole for `duration` (scrubbing).
    @discardableResult
    public mutating func show(
        page: Int, at instant: Timestamp, animated: Bool = true, duration: TimeSpan? = nil, stepped: Bool = false
    ) -> Bool {
        guard !pages.isEmpty else { return false }
        let target = min(max(page, 0), pages.count - 1)
        guard target != currentPage else { return false }
        return moveToTarget(
            unwrapped: target, at: instant, animated: animated, duration: duration ?? configuration.slideDuration,
            stepped: stepped)
    }

    /// Drops a finished slide, so the pager holds no animation state it does not need.
    public mutating func settle(at instant: Timestamp) {
        guard slide != nil, isSettled(at: instant) else { return }
        slide = nil
        // At rest the glass shows the current page, in its own (wrapped) number.
        if glassPosition != nil { glassPosition = Double(currentPage) }
    }

    /// Replaces the content of the page at `index` (for refreshed readings); ignored out of range.
    public mutating func replacePage(at index: Int, with page: Page) {
        guard pages.indices.contains(index) else { return }
        pages[index] = page
        pageDurations[index] = page.duration
        contentGeneration &+= 1
    }

    /// Replaces all pages. With the same number of pages only the content changes (a slide
    /// goes on); otherwise the current page is kept where it still exists and any slide stops.
    public mutating func replacePages(_ newPages: [Page]) {
        defer {
            pages = newPages
            pageDurations = newPages.map { $0.duration }
            contentGeneration &+= 1
        }
        guard newPages.count != pages.count else { return }
        slide = nil
        currentPage = newPages.isEmpty ? 0 : min(currentPage, newPages.count - 1)
    }

    private mutating func moveToTarget(
        unwrapped target: Int, at instant: Timestamp, animated: Bool, duration: TimeSpan, stepped: Bool
    ) -> Bool {
        let newPage = normalizedPage(target)
        defer { currentPage = newPage }
        guard animated else {
            slide = nil
            return newPage != currentPage
        }
        // Slide from where the pages stand now, in the unwrapped space of the slide under way
        // (a stepped one the glass has not caught up with is still under way).
        let running = slide.flatMap { isSettled(at: instant) ? nil : $0 }
        var from = running == nil ? Double(currentPage) : position(at: instant)
        let baseTarget = running?.to ?? Double(currentPage)
        let to = baseTarget + Double(target - currentPage)
        if running == nil, glassPosition != nil {
            // From rest, the glass shows the page the slide starts from.
            glassPosition = from
            glassInstant = instant
        } else if stepped, let glass = glassPosition {
            // Frames show a slide a frame on: scrubbing goes on from the glass when it is ahead.
            from = to >= from ? max(from, min(glass, to)) : min(from, max(glass, to))
        }
        slide =
            stepped
            ? .stepping(from: from, to: to, start: instant, pageInterval: duration)
            : SlideAnimation(
                from: from, to: to, start: instant, duration: duration,
                initialVelocity: running?.velocity(at: instant) ?? 0)
        return newPage != currentPage
    }
}
