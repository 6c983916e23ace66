import CrownVocabulary
import PagerCore
import PagerGraphics
import SSD1306

/// The whole path from a crown fact to the panel: the page control's behaviour, the renderer
/// and the display driver.
///
/// Time is a parameter everywhere, so the terminal loop, the headless renderer and the
/// tests drive the same session with real or scripted instants.
public struct PagerSession<Page: PageContent, Bus: I2CBus> {
    /// The pager, the crown interpreter and everything they do over time.
    public var controller: PagerController<Page>
    /// Draws frames.
    public internal(set) var renderer: PagerRenderer
    /// The display the frames go to.
    public var display: SSD1306Driver<Bus>
    /// The last frame sent, to skip sending one that did not change.
    public var lastFrame: Bitmap? { hasSentFrame ? sentFrame : nil }
    /// The last frame sent, when `hasSentFrame`; its storage is reused once a newer frame is sent.
    private var sentFrame = Bitmap(width: 0, height: 0)
    /// Whether `sentFrame` is on the glass (false after a start, a redraw or a failed write).
    private var hasSentFrame = false
    /// The frame being drawn; it trades storage with `sentFrame` when it goes out.
    private var nextFrame = Bitmap(width: 0, height: 0)
    /// What the renderer keeps from frame to frame.
    private var scratch = PagerRenderer.RenderScratch()
    /// Where the last frame sent had the pages' content (`PagerRenderer.contentPosition`).
    public private(set) var lastContentPosition: Int?
    /// How many frames went to the display.
    public private(set) var framesSent = 0

    /// A session for `pages` on `panel`, talking to it through `bus` at `address`, with time starting at `start`.
    public init(
        pages: [Page], currentPage: Int = 0, panel: SSD1306Panel, bus: Bus, address: I2CAddress = .ssd1306Primary,
        pagerConfiguration: PagerConfiguration = PagerConfiguration(),
        crownConfiguration: CrownConfiguration = CrownConfiguration(),
        indicatorStyle: PageIndicatorStyle = PageIndicatorStyle(), start: Timestamp = .zero
    ) {
        renderer = PagerRenderer(size: Size(width: panel.width, height: panel.height), indicatorStyle: indicatorStyle)
        controller = PagerController(
            pages: pages, currentPage: currentPage, configuration: pagerConfiguration, crown: crownConfiguration,
            style: indicatorStyle,
            viewport: renderer.contentRect.size, start: start)
        display = SSD1306Driver(bus: bus, address: address, panel: panel)
    }

    /// The pages and which one is current.
    public var pager: Pager<Page> { controller.pager }

    /// Guideline warnings about the pages, for the app to show its author.
    public var warnings: [PagerWarning] { controller.warnings }

    /// Initialises the panel; call once before presenting.
    public mutating func start() throws(Bus.Failure) {
        try display.initialize()
        hasSentFrame = false
        lastContentPosition = nil
    }

    /// Forgets what the glass shows (a failed write, a redraw): the next frame goes out whole, with
    /// the display start line, which a failed write may or may not have moved.
    public mutating func forgetGlass() {
        display.invalidateDisplayStartLine()
        hasSentFrame = false
        lastContentPosition = nil
    }

    /// Feeds one crown fact in; returns what it did.
    @discardableResult
    public mutating func handle(_ event: CrownEvent) -> [PagerEvent] {
        controller.handle(event)
    }

    /// Lets time pass: long presses, idle, the plate fading and timed pages take effect.
    @discardableResult
    public mutating func advance(to instant: Timestamp) -> [PagerEvent] {
        controller.advance(to: instant)
    }

    /// Replaces the pages' content (refreshed readings).
    public mutating func replacePages(_ pages: [Page]) {
        controller.replacePages(pages)
    }

    /// The frame for `instant`.
    public func frame(at instant: Timestamp) -> Bitmap {
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
    public mutating func present(at instant: Timestamp, lookahead: TimeSpan = .zero) throws(Bus.Failure) -> Bool {
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
            return false
        }
        let position = renderer.contentPosition(controller, at: sampled)
        var moved = 0
        if let position, let last = lastContentPosition { moved = position - last }
        lastContentPosition = nil
        try display.update(to: nextFrame, movedUpBy: moved)  // only what changed goes on the bus
        lastContentPosition = position
        controller.glassShows(at: sampled)
        swap(&sentFrame, &nextFrame)
        hasSentFrame = true
        framesSent += 1
        return true
    }

    /// Whether frames must keep coming at `instant` because a slide, scroll or bounce is under way.
    public func isAnimating(at instant: Timestamp) -> Bool {
        controller.isAnimating(at: instant)
    }

    /// When to wake next without input: a long press, idle, the plate fading, the timer.
    public func nextDeadline(after instant: Timestamp) -> Timestamp? {
        controller.nextDeadline(after: instant)
    }
}
