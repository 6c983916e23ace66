import CrownVocabulary
import PagerCore
import PagerGraphics
import SSD1306

/// Presents the navigator's pages on the panel: the navigator, the renderer and the display
/// driver, the whole path from a crown fact to the panel's records. `DeviceEngine` owns one.
///
/// Time is a parameter everywhere, so the terminal loop, the headless renderer and the
/// tests drive the same presenter with real or scripted instants. Concrete: the engine's configured
/// pages are its only pages, and its display is the queue the engine hands the shell as effects.
package struct PanelPresenter {
    /// The pager, the crown interpreter and everything they do over time.
    package var navigator: PageNavigator<ConfiguredPage>
    /// Draws frames.
    package internal(set) var renderer: PagerRenderer
    /// The display the frames go to: its records queue until the shell takes them.
    package var display: SSD1306Driver<DisplayQueue>
    /// The last frame sent, to skip sending one that did not change.
    package var lastFrame: Bitmap? { glass.showsSentFrame ? sentFrame : nil }
    /// What the glass holds, as far as the presenter knows.
    private var glass = Glass.unknown
    /// The last frame sent, while `glass` shows it; its storage is reused once a newer frame is sent.
    private var sentFrame = Bitmap(width: 0, height: 0)
    /// The frame being drawn; it trades storage with `sentFrame` when it goes out.
    private var nextFrame = Bitmap(width: 0, height: 0)
    /// The buffers the renderer draws pages and dots in.
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
    package var isBehindSlide: Bool { glass == .behindSlide }
    /// Whether the last frame went only in part, its windows beyond `frameByteBudget` left for
    /// the next frame, which should go as soon as the bus is free.
    package var isFrameIncomplete: Bool { glass == .partial }
    /// The instant the last frame sent was drawn for.
    private var lastSampled: Timestamp?
    /// Whether the RAM rows off the glass still lack the neighbouring pages (`fillOffGlass(at:)`).
    package var isOffGlassFillPending: Bool { glass == .frame(.needsFill) }
    /// Whether `isOffGlassFillPending` was worked out since the glass or the pages last changed.
    package var isOffGlassChecked: Bool { glass == .frame(.needsFill) || glass == .frame(.filled) }
    /// The notification drawn over everything; nil for none.
    package var overlay: NotificationOverlay? {
        didSet { if overlay?.since != oldValue?.since { overlayLanded = overlay == nil } }
    }
    /// Whether a frame drawn after the overlay's slide ended went out: until then frames go on,
    /// or the glass could keep it a row short of its place.
    private var overlayLanded = true
    /// Whether the mark that says passive notifications wait shows beside the indicator.
    package var marksWaitingNotifications = false
    /// Where burn-in care moved the whole picture, overlay and indicator too (`DeviceEngine+BurnIn`).
    package var pixelShift = PixelShift.zero
    /// The neighbouring pages, drawn for the rows off the glass.
    private var nextPage = Bitmap(width: 0, height: 0)
    private var previousPage = Bitmap(width: 0, height: 0)

    /// What the glass holds, as far as the presenter knows: what the next frame must send, and
    /// whether frames must go on.
    private enum Glass: Hashable {
        /// Not known (after a start, a redraw or a failed write): the next frame goes whole.
        case unknown
        /// A frame that went only in part, its windows beyond `frameByteBudget` left over: the
        /// next frame goes, whatever it draws, as soon as the bus is free.
        case partial
        /// `sentFrame`, a slide shown less far on than asked to keep within `frameByteBudget`:
        /// frames go on until the glass is there.
        case behindSlide
        /// `sentFrame`, and what the RAM rows off the glass hold (a panel shorter than 64 rows).
        case frame(OffGlass)

        /// Whether the glass shows `sentFrame`.
        var showsSentFrame: Bool {
            switch self {
            case .unknown, .partial: return false
            case .behindSlide, .frame: return true
            }
        }
    }

    /// What the RAM rows off the glass hold against a slide to either neighbouring page.
    private enum OffGlass: Hashable {
        /// Not looked at since the glass or the pages last changed.
        case unchecked
        /// They lack what a slide brings into view: `fillOffGlass(at:)` writes it.
        case needsFill
        /// They hold it, or the panel has no such rows.
        case filled
    }

    /// A session for `pages` on `panel` with `settings`, its records queued in `display`, with time starting at `start`.
    package init(
        pages: [ConfiguredPage], currentPage: Int = 0, panel: SSD1306Panel,
        settings: DisplaySettings = DisplaySettings(), pagerConfiguration: PagerConfiguration = PagerConfiguration(),
        crownConfiguration: CrownConfiguration = CrownConfiguration(),
        indicatorStyle: PageIndicatorStyle = PageIndicatorStyle(), start: Timestamp = .zero
    ) {
        renderer = PagerRenderer(size: Size(width: panel.width, height: panel.height), indicatorStyle: indicatorStyle)
        navigator = PageNavigator(
            pages: pages, currentPage: currentPage, configuration: pagerConfiguration, crown: crownConfiguration,
            style: indicatorStyle,
            viewport: renderer.contentRect.size, start: start)
        display = SSD1306Driver(interface: DisplayQueue(), panel: panel, settings: settings)
    }

    /// The pages and which one is current.
    package var pager: PageStack<ConfiguredPage> { navigator.pager }

    /// Guideline warnings about the pages, for the app to show its author.
    package var warnings: [PagerWarning] { navigator.warnings }

    /// Initialises the panel; call once before presenting.
    package mutating func start() {
        display.initialize()
        glass = .unknown
        lastContentPosition = nil
    }

    /// Forgets what the glass shows (a failed write, a redraw): the next frame goes out whole, with
    /// the display start line, which a failed write may or may not have moved.
    package mutating func forgetGlass() {
        display.invalidateDisplayStartLine()
        glass = .unknown
        lastContentPosition = nil
    }

    /// Feeds one crown fact in; returns what it did.
    @discardableResult
    package mutating func handle(_ event: CrownEvent) -> [PagerEvent] {
        navigator.handle(event)
    }

    /// Lets time pass: long presses, idle, the plate fading and timed pages take effect.
    @discardableResult
    package mutating func advance(to instant: Timestamp) -> [PagerEvent] {
        navigator.advance(to: instant)
    }

    /// Replaces the content of the page at `index` (its refreshed reading), the others kept as they are.
    package mutating func replacePage(at index: Int, with page: ConfiguredPage) {
        navigator.replacePage(at: index, with: page)
        // A neighbour may read differently now: looked at again when the next frame goes.
        glass = glass.showsSentFrame ? .frame(.unchecked) : .unknown
    }

    /// The frame for `instant`.
    package func frame(at instant: Timestamp) -> Bitmap {
        var frame = renderer.render(navigator, at: instant)
        drawNotifications(into: &frame, at: instant)
        frame.shift(right: pixelShift.right, down: pixelShift.down)
        return frame
    }

    /// Draws the notification overlay, or the mark for those waiting, over the pages' frame.
    private func drawNotifications(into frame: inout Bitmap, at instant: Timestamp) {
        if let overlay {
            overlay.draw(into: &frame, at: instant)
        } else if marksWaitingNotifications {
            NotificationOverlay.drawWaitingMark(into: &frame, strip: renderer.indicatorColumn)
        }
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
    package mutating func present(at instant: Timestamp, lookahead: TimeSpan = .zero) -> Bool {
        var sampled = instant
        if let slide = navigator.pager.slide, !slide.isDone(at: instant) {
            sampled = max(instant, min(instant + lookahead, slide.end))
        }
        // A glass behind scrubbing already shows the instant it was drawn for: the next page comes later.
        if let shown = navigator.pager.glassInstant, sampled <= shown, navigator.pager.glassLags(at: sampled) {
            sampled = shown + TimeSpan(nanoseconds: 1)
        }
        // Drawn into the same two bitmaps frame after frame: no allocation.
        renderer.render(navigator, at: sampled, into: &nextFrame, scratch: &scratch)
        drawNotifications(into: &nextFrame, at: sampled)
        nextFrame.shift(right: pixelShift.right, down: pixelShift.down)
        overlayLanded = overlay?.isSliding(at: sampled) != true
        guard !glass.showsSentFrame || nextFrame != sentFrame else {
            navigator.glassShows(at: sampled)
            // Behind no more: the glass is where the slide is.
            if glass == .behindSlide { glass = .frame(.unchecked) }
            checkOffGlassIfNeeded(at: instant)
            return false
        }
        let asked = sampled
        var isPlanned = false
        if let budget = frameByteBudget, let fits = keepWithin(budget, from: instant, asked: asked) {
            sampled = fits
            isPlanned = true
        }
        // The overlay does not move with the pages: the driver must not move the start line under it.
        let position = overlay == nil ? contentPosition(at: sampled) : nil
        var moved = 0
        if let position, let last = lastContentPosition { moved = position - last }
        lastContentPosition = nil
        // Only what changed goes on the bus. Scrubbing, whose frames jump whole pages, no more than
        // the budget: the rest goes in the next frame. (A slide keeps within it by its offset.)
        var isWhole = true
        if let budget = frameByteBudget, navigator.pager.slide?.isStepped == true {
            isWhole = display.update(to: nextFrame, movedUpBy: moved, byteBudget: budget)
        } else if isPlanned, display.writePlannedUpdate() {
            // Weighed against the budget already: sent as planned.
        } else {
            display.update(to: nextFrame, movedUpBy: moved)
        }
        lastContentPosition = position
        navigator.glassShows(at: sampled)
        swap(&sentFrame, &nextFrame)
        // A frame that went in part is sent again, whatever the next one draws.
        if !isWhole {
            glass = .partial
        } else {
            glass = sampled < asked ? .behindSlide : .frame(.unchecked)
        }
        lastSampled = sampled
        framesSent += 1
        checkOffGlassIfNeeded(at: instant)
        return true
    }

    /// The instant to draw a slide's frame for, `asked` or earlier, whose update costs at most
    /// `budget` bytes, with `nextFrame` drawn for it and its update planned in the driver: the
    /// slide a little less far on, fewer rows coming into view. The latest that fits, found by
    /// halving the span since the last frame; the earliest step on when none fits. Past the
    /// slide's end as well, while the glass is behind. Nil, planning nothing, outside such a slide.
    private mutating func keepWithin(_ budget: Int, from instant: Timestamp, asked: Timestamp) -> Timestamp? {
        guard overlay == nil, glass.showsSentFrame, let slide = navigator.pager.slide, !slide.isStepped,
            let lastSampled,
            lastSampled < min(asked, slide.end), let last = lastContentPosition
        else { return nil }
        func cost(at sample: Timestamp) -> Int {
            renderer.render(navigator, at: sample, into: &nextFrame, scratch: &scratch)
            nextFrame.shift(right: pixelShift.right, down: pixelShift.down)
            let position = contentPosition(at: sample) ?? last
            return display.plannedCost(of: nextFrame, movedUpBy: position - last)
        }
        // `nextFrame` is drawn for `asked` already.
        let askedPosition = contentPosition(at: asked) ?? last
        guard display.plannedCost(of: nextFrame, movedUpBy: askedPosition - last) > budget else { return asked }
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
        return chosen
    }

    /// Where the pages' content stands on the glass (`PagerRenderer.contentPosition`), the pixel
    /// shift's rows included: a shift down is the content moved up by minus as many rows, so the
    /// driver may move the display start line for it as for a slide.
    private func contentPosition(at instant: Timestamp) -> Int? {
        renderer.contentPosition(navigator, at: instant).map { $0 - pixelShift.down }
    }

    /// Looks, once the pages stand still, whether the RAM rows off the glass (a panel shorter than
    /// 64 rows) hold what a slide to either neighbouring page brings into view, unless it looked
    /// since the glass or the pages changed; sets `isOffGlassFillPending` when they do not. A
    /// frame that moves leaves it for later. Nothing goes on the bus.
    package mutating func checkOffGlassIfNeeded(at instant: Timestamp) {
        guard glass == .frame(.unchecked), overlay == nil, !isAnimating(at: instant) else { return }
        glass = .frame(.filled)
        guard display.panel.height < 64 else { return }
        let hasNext = drawNeighbours(at: instant)
        let needsFill = display.offGlassNeedsFill(
            next: hasNext.next ? nextPage : nil, previous: hasNext.previous ? previousPage : nil,
            columns: pageColumns)
        if needsFill { glass = .frame(.needsFill) }
    }

    /// Writes one RAM page of the rows off the glass towards the neighbouring pages, so a slide to
    /// either finds the rows it brings into view already there; the glass does not change.
    /// Returns whether it wrote; `isOffGlassFillPending` says whether more remains.
    @discardableResult
    package mutating func fillOffGlass(at instant: Timestamp) -> Bool {
        guard glass == .frame(.needsFill) else { return false }
        // Looked at again once the pages stand still and the glass changes.
        glass = .frame(.filled)
        guard !isAnimating(at: instant) else { return false }
        let hasNext = drawNeighbours(at: instant)
        let next = hasNext.next ? nextPage : nil
        let previous = hasNext.previous ? previousPage : nil
        guard display.offGlassNeedsFill(next: next, previous: previous, columns: pageColumns) else { return false }
        let more = display.fillOffGlass(next: next, previous: previous, columns: pageColumns)
        if more { glass = .frame(.needsFill) }
        return true
    }

    /// The columns the pages draw in, beside the indicator's.
    private var pageColumns: Range<Int> {
        let content = renderer.contentRect
        return content.x..<(content.x + content.width)
    }

    /// Draws the pages above and below the current one as a slide brings them in; says which exist.
    private mutating func drawNeighbours(at instant: Timestamp) -> (next: Bool, previous: Bool) {
        let next = renderer.renderNeighbour(navigator, step: 1, at: instant, into: &nextPage, scratch: &scratch)
        let previous = renderer.renderNeighbour(
            navigator, step: -1, at: instant, into: &previousPage, scratch: &scratch)
        // Where a slide from the shifted page brings them into view.
        nextPage.shift(right: pixelShift.right, down: pixelShift.down)
        previousPage.shift(right: pixelShift.right, down: pixelShift.down)
        return (next, previous)
    }

    /// Whether frames must keep coming at `instant` because a slide, scroll or bounce is under way.
    package func isAnimating(at instant: Timestamp) -> Bool {
        // A slide frame held back by the frame byte budget: frames go on until the glass is there.
        navigator.isAnimating(at: instant) || glass == .behindSlide || glass == .partial
            || !overlayLanded
    }

    /// When to wake next without input: a long press, idle, the plate fading, the timer.
    package func nextDeadline(after instant: Timestamp) -> Timestamp? {
        navigator.nextDeadline(after: instant)
    }
}
