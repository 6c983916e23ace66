import PagerCore
import PagerGraphics
import SSD1306

/// The whole path from a crown fact to the panel: interpreter, pager, renderer and display driver.
///
/// Time is a parameter everywhere, so the terminal loop, the headless renderer and the
/// tests drive the same session with real or scripted instants.
public struct PagerSession<Page: PageContent, Bus: I2CBus> {
    /// The pages and which one is current.
    public var pager: Pager<Page>
    /// Turns crown facts into gestures.
    public var interpreter: CrownInterpreter
    /// Draws frames.
    public let renderer: PagerRenderer
    /// The display the frames go to.
    public var display: SSD1306Driver<Bus>
    /// The last frame sent, to skip sending one that did not change.
    public private(set) var lastFrame: Bitmap?
    /// How many frames went to the display.
    public private(set) var framesSent = 0

    /// A session for `pages` on `panel`, talking to it through `bus` at `address`.
    public init(
        pages: [Page], panel: SSD1306Panel, bus: Bus, address: I2CAddress = .ssd1306Primary,
        pagerConfiguration: PagerConfiguration = PagerConfiguration(),
        crownConfiguration: CrownConfiguration = CrownConfiguration(),
        indicatorStyle: PageIndicatorStyle = PageIndicatorStyle()
    ) {
        pager = Pager(pages: pages, configuration: pagerConfiguration)
        interpreter = CrownInterpreter(configuration: crownConfiguration)
        renderer = PagerRenderer(size: Size(width: panel.width, height: panel.height), indicatorStyle: indicatorStyle)
        display = SSD1306Driver(bus: bus, address: address, panel: panel)
    }

    /// Initialises the panel; call once before presenting.
    public mutating func start() throws(Bus.Failure) {
        try display.initialize()
        lastFrame = nil
    }

    /// Feeds one crown fact through the interpreter to the pager; returns whether the pager changed.
    @discardableResult
    public mutating func handle(_ event: CrownEvent) -> Bool {
        var changed = false
        for gesture in interpreter.interpret(event) where apply(gesture) { changed = true }
        return changed
    }

    /// Lets time pass: gestures that complete by time alone (a held button) take effect.
    @discardableResult
    public mutating func advance(to instant: Timestamp) -> Bool {
        var changed = false
        for gesture in interpreter.advance(to: instant) where apply(gesture) { changed = true }
        pager.settle(at: instant)
        return changed
    }

    /// Applies one gesture: steps slide, a short press returns to the first page.
    @discardableResult
    public mutating func apply(_ gesture: CrownGesture) -> Bool {
        switch gesture {
        case .step(let pages, let at):
            return pager.move(by: pages, at: at, animated: true)
        case .shortPress(let at):
            return pager.show(page: 0, at: at, animated: true)
        case .longPress:
            return false
        }
    }

    /// The frame for `instant`.
    public func frame(at instant: Timestamp) -> Bitmap {
        renderer.render(pager, at: instant)
    }

    /// Sends the frame for `instant` unless it equals the last one sent; returns whether it sent.
    @discardableResult
    public mutating func present(at instant: Timestamp) throws(Bus.Failure) -> Bool {
        let frame = frame(at: instant)
        guard frame != lastFrame else { return false }
        try display.update(to: frame)  // only what changed goes on the bus
        lastFrame = frame
        framesSent += 1
        return true
    }

    /// Whether frames must keep coming at `instant` because a slide is under way.
    public func isAnimating(at instant: Timestamp) -> Bool {
        !pager.isSettled(at: instant)
    }
}
