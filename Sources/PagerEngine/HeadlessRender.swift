import CrownVocabulary
import PagerCore
import PagerGraphics
import SSD1306

/// One picture of the glass from a headless run.
public struct RenderedFrame: Hashable, Sendable {
    /// A file name stem: `step-02` after step 2 settled, `step-02-frame-003` during its transition.
    public var name: String
    /// Time from the start of the run.
    public var time: TimeSpan
    /// What the panel showed.
    public var glass: Bitmap
}

/// Runs a crown script against the pager and an emulated panel, without a terminal.
///
/// Frames go through the real SSD1306 encoder into the emulator, so the pictures are
/// the glass, not the frame buffer, and the trace is what a real panel would receive.
public struct HeadlessRender {
    /// The panel to emulate.
    public var panel: SSD1306Panel
    /// Frames per second sampled during transitions.
    public var framesPerSecond: Int
    /// Pager timing and wrap-around.
    public var pagerConfiguration: PagerConfiguration
    /// Crown sensitivity.
    public var crownConfiguration: CrownConfiguration
    /// Indicator look and side.
    public var indicatorStyle: PageIndicatorStyle

    /// A renderer for `panel` sampling transitions at `framesPerSecond`.
    public init(
        panel: SSD1306Panel, framesPerSecond: Int = 30, pagerConfiguration: PagerConfiguration = PagerConfiguration(),
        crownConfiguration: CrownConfiguration = CrownConfiguration(),
        indicatorStyle: PageIndicatorStyle = PageIndicatorStyle()
    ) {
        self.panel = panel
        self.framesPerSecond = max(1, min(framesPerSecond, 1000))
        self.pagerConfiguration = pagerConfiguration
        self.crownConfiguration = crownConfiguration
        self.indicatorStyle = indicatorStyle
    }

    /// The frames of `script`, and every I2C transfer the panel received, with pages from `pages(at:)`.
    public func run<Page: PageContent>(
        _ script: CrownScript, start: Timestamp = .zero, pages: (Timestamp) -> [Page]
    ) -> (frames: [RenderedFrame], transfers: [I2CTransfer], warnings: [PagerWarning]) {
        let address = I2CAddress.ssd1306Primary
        var session = PagerSession(
            pages: pages(start), panel: panel, bus: TracingBus(SSD1306Emulator(panel: panel, address: address)),
            address: address, pagerConfiguration: pagerConfiguration, crownConfiguration: crownConfiguration,
            indicatorStyle: indicatorStyle, start: start)
        var frames: [RenderedFrame] = []
        let frameSpan = TimeSpan(nanoseconds: 1_000_000_000 / Int64(framesPerSecond))

        func show(_ instant: Timestamp, as name: String) {
            session.replacePages(pages(instant))
            session.advance(to: instant)
            session.present(at: instant)
            frames.append(RenderedFrame(name: name, time: instant - start, glass: session.display.bus.base.glass))
        }

        session.start()
        show(start, as: "step-00")
        let events = script.events(startingAt: start)
        for (index, step) in script.steps.enumerated() {
            let stepStart = start + step.at
            let stepEnd = index + 1 < script.steps.count ? start + script.steps[index + 1].at : start + script.duration
            var lastEvent = stepStart
            for event in events where event.timestamp >= stepStart && event.timestamp < stepEnd {
                // Presses release later within the step: let time reach them first.
                session.advance(to: event.timestamp)
                session.handle(event)
                lastEvent = event.timestamp
            }
            let label = "step-" + pad(index + 1, 2)
            var instant = stepStart
            var frame = 0
            // Frames while something moves; between movements, jump to the next time-based
            // change (a timed page moving on, the plate fading) that falls inside the step.
            while instant < stepEnd {
                if session.isAnimating(at: instant) || frame == 0 {
                    show(instant, as: "\(label)-frame-\(pad(frame, 3))")
                    frame += 1
                    instant = instant + frameSpan
                } else if let next = session.nextDeadline(after: instant), next < stepEnd {
                    instant = next
                    frame = max(frame, 1)
                    show(instant, as: "\(label)-frame-\(pad(frame, 3))")
                    frame += 1
                } else {
                    break
                }
            }
            show(max(instant, min(stepEnd, session.settleInstant(after: max(instant, lastEvent)))), as: label)
        }
        return (frames, session.display.bus.transfers, session.warnings)
    }
}

extension PagerSession {
    /// When everything moving at `instant` has come to rest.
    func settleInstant(after instant: Timestamp) -> Timestamp {
        var end = instant
        while isAnimating(at: end) { end = end + .milliseconds(10) }
        return end
    }
}

func pad(_ value: Int, _ width: Int) -> String {
    var text = String(value)
    while text.count < width { text = "0" + text }
    return text
}
