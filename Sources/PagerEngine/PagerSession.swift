import CrownVocabulary
import PagerCore
import PagerGraphics
import SSD1306

/// The whole path from a crown fact to the panel: the page control's behaviour, the renderer
/// and the display driver.
///
/// Time is a parameter everywhere, so the terminal loop, the headless renderer and the
/// tests drive the same session with real or scripted instants.
package struct PagerSession<Page: PageContent, Display: DisplayInterface> {
    /// The pager, the crown interpreter and everything they do over time.
    package var controller: PagerController<Page>
    /// Draws frames.
    package internal(set) var renderer: PagerRenderer
    /// The display the frames go to.
    package var display: SSD1306Driver<Display>
    /// The last frame sent, to skip sending one that did not change.
    package var lastFrame: Bitmap? { hasSentFrame ? sentFrame : nil }
    /// The last frame sent, when `hasSentFrame`; its storage is reused once a newer frame is sent.
    private var sentFrame = Bitmap(width: 0, height: 0)
    /// Whether `sentFrame` is on the glass (false after a start, a redraw or a failed write).
    private var hasSentFrame = false
    /// The frame being drawn; it trades storage with `sentFrame` when it goes out.
    private var nextFrame = Bitmap(width: 0, height: 0)
    /// What the renderer keeps from frame to frame.
    private var scratch = PagerRenderer.RenderScratch()
    /// Where the last frame sent had the pages' content (`PagerRenderer.contentPosition`).
    package private(set) var lastContentPosition: Int?
    /// How many frames went to the display.
    package private(set) var framesSent = 0
    /// The most bytes a frame of a slide may put on the bus (address bytes counted); nil: no limit.
    /// A frame that would take more shows the slide less far on, as far as the budget carries it.
    package var frameByteBudget: Int?
    /// Whether the last frame showed a slide less far on than asked, to keep within
    /// `frameByteBudget`: the glass is behind, and frames go on until it is there.
    package private(set) var isBehindSlide = false
    /// Whether the last frame went only in part, its windows beyond `frameByteBudget` left for
    /// the next frame, which should go as soon as the bus is free.
    package private(set) var isFrameIncomplete = false
    /// Whether the driver holds the plan of the frame being presented (`keepWithin`).
    private var isFramePlanned = false
    /// The instant the last frame sent was drawn for.
    private var lastSampled: Timestamp?
    /// Whether the RAM rows off the glass still lack the neighbouring pages (`fillOffGlass(at:)`).
    package private(set) var isOffGlassFillPending = false
    /// Whether `isOffGlassFillPending` was worked out since the glass or the pages last changed.
    package private(set) var isOffGlassChecked = false
    /// The neighbouring pages, drawn for the rows off the glass.
    private var nextPage = Bitmap(width: 0, height: 0)
    private var previousPage = Bitmap(width: 0, height: 0)

    /// A session for `pages` on `panel` with `settings`, talking to it through `interface`, with time starting at `start`.
    package init(
        pages: [Page], currentPage: Int = 0, panel: SSD1306Panel, interface: Display,
        settings: DisplaySettings = DisplaySettings(), pagerConfiguration: PagerConfiguration = PagerConfiguration(),
        crownConfiguration: CrownConfiguration = CrownConfiguration(),
        indicatorStyle: PageIndicatorStyle = PageIndicatorStyle(), start: Timestamp = .zero
    ) {
        renderer = PagerRenderer(size: Size(width: panel.width, height: panel.height), indicatorStyle: indicatorStyle)
        controller = PagerController(
            pages: pages, currentPage: currentPage, configuration: pagerConfiguration, crown: crownConfiguration,
            style: indicatorStyle,
            viewport: renderer.contentRect.size, start: start)
        display = SSD1306Driver(interface: interface, panel: panel, settings: settings)
    }

    /// The pages and which one is current.
    package var pager: Pager<Page> { controller.pager }

    /// Guideline warnings about the pages, for the app to show its author.
    package var warnings: [PagerWarning] { controller.warnings }

    /// Initialises the panel; call once before presenting.
    package mutating func start() throws(Display.Failure) {
        try display.initialize()
        hasSentFrame = false
        lastContentPosition = nil
        isOffGlassFillPending = false
        isOffGlassChecked = false
        isBehindSlide = false
        isFrameIncomplete = false
    }

    /// Forgets what the glass shows (a failed write, a redraw): the next frame goes out whole, with
    /// the display start line, which a failed write may or may not have moved.
    package mutating func forgetGlass() {
        display.invalidateDisplayStartLine()
        hasSentFrame = false
        lastContentPosition = nil
        isOffGlassFillPending = false
        isOffGlassChecked = false
        isBehindSlide = false
        isFrameIncomplete = false
    }

    /// Feeds one crown fact in; returns what it did.
    @discardableResult
    package mutating func handle(_ event: CrownEvent) -> [PagerEvent] {
        controller.handle(event)
    }

    /// Lets time pass: long presses, idle, the plate fading and timed pages take effect.
    @discardableResult
    package mutating func advance(to instant: Timestamp) -> [PagerEvent] {
        controller.advance(to: instant)
    }

    /// Replaces the pages' content (refreshed readings).
    package mutating func replacePages(_ pages: [Page]) {
        controller.replacePages(pages)
        // A neighbour may read differently now: looked at again when the next frame goes.
        isOffGlassFillPending = false
        isOffGlassChecked = false
        isBehindSlide = false
        isFrameIncomplete = false
    }

    /// The frame for `instant`.
    package func frame(at instant: Timestamp) -> Bitmap {
        renderer.render(controller, at: instant)
    }

    /// Sends the frame for `instant` unless it equals the last one sent; returns whether it sent.
    ///
    /// While a page slide is under way the frame shows it `lookahead` later (never past its end),
    /// where it stands when the frame reaches the glass: the first frame after a detent has
    /// already moved. Sampled instants never go back, so nothing on the glass steps backwards.
    ///
    /// When the pages' content moved since the last frame (a vertical slide, scroll or bounce),
    /// the driver is told by how many rows, so it may move the display start line instead of
    /// the picture and send only the rows that come into view.
    @discardableResult
    package mutating func present(at instant: Timestamp, lookahead: TimeSpan = .zero) throws(Display.Failure) -> Bool {
        var sampled = instant
        if let slide = controller.pager.slide, !slide.isDone(at: instant) {
            sampled = max(instant, min(instant + lookahead, slide.end))
        }
        // A glass behind scrubbing already shows the instant it was drawn for: the next page comes later.
        if let shown = controller.pager.glassInstant, sampled <= shown, controller.pager.glassLags(at: sampled) {
            sampled = shown + TimeSpan(nanoseconds: 1)
        }
        // Drawn into the same two bitmaps frame after frame: no allocation.
        renderer.render(controller, at: sampled, into: &nextFrame, scratch: &scratch)
        guard !hasSentFrame || nextFrame != sentFrame else {
            controller.glassShows(at: sampled)
            isBehindSlide = false
            checkOffGlassIfNeeded(at: instant)
            return false
        }
        isBehindSlide = false
        isFramePlanned = false
        if let budget = frameByteBudget { sampled = keepWithin(budget, from: instant, asked: sampled) }
        let position = renderer.contentPosition(controller, at: sampled)
        var moved = 0
        if let position, let last = lastContentPosition { moved = position - last }
        lastContentPosition = nil
        // Only what changed goes on the bus. Scrubbing, whose frames jump whole pages, no more than
        // the budget: the rest goes in the next frame. (A slide keeps within it by its offset.)
        var isWhole = true
        if let budget = frameByteBudget, controller.pager.slide?.isStepped == true {
            isWhole = try display.update(to: nextFrame, movedUpBy: moved, byteBudget: budget)
        } else if isFramePlanned, try display.writePlannedUpdate() {
            // Weighed against the budget already: sent as planned.
        } else {
            try display.update(to: nextFrame, movedUpBy: moved)
        }
        lastContentPosition = position
        controller.glassShows(at: sampled)
        swap(&sentFrame, &nextFrame)
        // A frame that went in part is sent again, whatever the next one draws.
        hasSentFrame = isWhole
        isFrameIncomplete = !isWhole
        lastSampled = sampled
        framesSent += 1
        isOffGlassChecked = false
        isOffGlassFillPending = false
        checkOffGlassIfNeeded(at: instant)
        return true
    }

    /// The instant to draw a slide's frame for, `asked` or earlier, whose update costs at most
    /// `budget` bytes, with `nextFrame` drawn for it: the slide a little less far on, fewer rows
    /// coming into view. The latest that fits, found by halving the span since the last frame;
    /// the earliest step on when none fits. Past the slide's end as well, while the glass is behind.
    private mutating func keepWithin(_ budget: Int, from instant: Timestamp, asked: Timestamp) -> Timestamp {
        guard hasSentFrame, let slide = controller.pager.slide, !slide.isStepped, let lastSampled,
            lastSampled < min(asked, slide.end), let last = lastContentPosition
        else { return asked }
        func cost(at sample: Timestamp) -> Int {
            renderer.render(controller, at: sample, into: &nextFrame, scratch: &scratch)
            let position = renderer.contentPosition(controller, at: sample) ?? last
            return display.plannedCost(of: nextFrame, movedUpBy: position - last)
        }
        // `nextFrame` is drawn for `asked` already.
        let askedPosition = renderer.contentPosition(controller, at: asked) ?? last
        guard display.plannedCost(of: nextFrame, movedUpBy: askedPosition - last) > budget else {
            isFramePlanned = true
            return asked
        }
        // Not from before the slide: the glass stood still until it began.
        var fits = max(lastSampled, slide.start)
        var fitsCost = 0
        var over = asked
        // Seven halvings: a frame interval to about 0.13 ms, well under a row of a slide.
        for _ in 0..<7 {
            let middle = fits + TimeSpan(nanoseconds: (over - fits).nanoseconds / 2)
            let middleCost = cost(at: middle)
            if middleCost <= budget {
                fits = middle
                fitsCost = middleCost
            } else {
                over = middle
            }
        }
        // When no step on fits (an SH1107, whose start line cannot move rows, rewrites the rows
        // that moved however little they move), a smaller step saves nothing and only slows the
        // slide: the frame goes as asked.
        let chosen = fitsCost > 0 ? fits : asked
        _ = cost(at: chosen)
        isFramePlanned = true
        isBehindSlide = chosen < asked
        return chosen
    }

    /// Looks, once the pages stand still, whether the RAM rows off the glass (a panel shorter than
    /// 64 rows) hold what a slide to either neighbouring page brings into view, unless it looked
    /// since the glass or the pages changed; sets `isOffGlassFillPending` when they do not. A
    /// frame that moves leaves it for later. Nothing goes on the bus.
    package mutating func checkOffGlassIfNeeded(at instant: Timestamp) {
        guard !isOffGlassChecked, hasSentFrame, !isAnimating(at: instant) else { return }
        isOffGlassChecked = true
        isOffGlassFillPending = false
        guard display.panel.height < 64 else { return }
        let hasNext = drawNeighbours(at: instant)
        isOffGlassFillPending = display.offGlassNeedsFill(
            next: hasNext.next ? nextPage : nil, previous: hasNext.previous ? previousPage : nil,
            columns: pageColumns)
    }

    /// Writes one RAM page of the rows off the glass towards the neighbouring pages, so a slide to
    /// either finds the rows it brings into view already there; the glass does not change.
    /// Returns whether it wrote; `isOffGlassFillPending` says whether more remains.
    @discardableResult
    package mutating func fillOffGlass(at instant: Timestamp) throws(Display.Failure) -> Bool {
        guard isOffGlassFillPending, hasSentFrame, !isAnimating(at: instant) else {
            isOffGlassFillPending = false
            return false
        }
        let hasNext = drawNeighbours(at: instant)
        let next = hasNext.next ? nextPage : nil
        let previous = hasNext.previous ? previousPage : nil
        isOffGlassFillPending = false
        guard display.offGlassNeedsFill(next: next, previous: previous, columns: pageColumns) else { return false }
        isOffGlassFillPending = try display.fillOffGlass(next: next, previous: previous, columns: pageColumns)
        return true
    }

    /// The columns the pages draw in, beside the indicator's.
    private var pageColumns: Range<Int> {
        let content = renderer.contentRect
        return content.x..<(content.x + content.width)
    }

    /// Draws the pages above and below the current one as a slide brings them in; says which exist.
    private mutating func drawNeighbours(at instant: Timestamp) -> (next: Bool, previous: Bool) {
        let next = renderer.renderNeighbour(controller, step: 1, at: instant, into: &nextPage, scratch: &scratch)
        let previous = renderer.renderNeighbour(
            controller, step: -1, at: instant, into: &previousPage, scratch: &scratch)
        return (next, previous)
    }

    /// Whether frames must keep coming at `instant` because a slide, scroll or bounce is under way.
    package func isAnimating(at instant: Timestamp) -> Bool {
        // A slide frame held back by the frame byte budget: frames go on until the glass is there.
        controller.isAnimating(at: instant) || isBehindSlide || isFrameIncomplete
    }

    /// When to wake next without input: a long press, idle, the plate fading, the timer.
    package func nextDeadline(after instant: Timestamp) -> Timestamp? {
        controller.nextDeadline(after: instant)
    }
}
