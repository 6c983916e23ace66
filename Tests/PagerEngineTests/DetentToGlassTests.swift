import CrownVocabulary
import PagerCore
import PagerGraphics
import SSD1306
import Testing

@testable import PagerEngine

/// From a detent to the glass through the engine the shells drive, on a virtual clock and the
/// engine's own model of a 400 kHz bus: every pending detent first, then a tick, as `run` does
/// (`ModelledBusRun`).
@Suite struct DetentToGlassTests {
    static func run(detents: [Timestamp], until end: Timestamp) -> ModelledBusRun {
        ModelledBusRun(DeviceEngineTests.configuration(pages: 60), detents: detents, until: end)
    }

    @Test func aSingleDetentsFirstFrameHasAlreadyMovedAndIsOnTheGlassWithin10Milliseconds() {
        let run = Self.run(detents: [.milliseconds(500)], until: .milliseconds(1500))
        #expect(run.glass.count == 1)
        #expect(run.glass.allSatisfy { $0 <= .milliseconds(10) }, "\(run.glass)")
        // The first frame and every one after: the slide sampled a frame on, never backwards, ending on page 1.
        let slide = Array(run.positions.dropFirst())
        #expect(slide.first.map { $0 > 0 } == true, "\(slide)")
        #expect(zip(slide, slide.dropFirst()).allSatisfy { $0 <= $1 }, "\(slide)")
        #expect(slide.last == 64 && run.shell.engine.presenter.pager.currentPage == 1)
        #expect(run.glassMismatches == 0)
    }

    @Test func aSteadySpinShowsEveryDetentWithin10MillisecondsAndEndsOnTheNewestPage() {
        // 30 detents a second for a second: no backlog, the glass ends on the last page turned to.
        let spin = (0..<30).map { Timestamp.milliseconds(500) + TimeSpan(nanoseconds: Int64($0) * 33_333_333) }
        let run = Self.run(detents: spin, until: .milliseconds(3000))
        #expect(run.glass.count == 30)
        #expect(run.glass.allSatisfy { $0 <= .milliseconds(10) }, "\(run.glass)")
        #expect(run.shell.engine.presenter.pager.currentPage == 30)
        #expect(run.glassMismatches == 0)
        #expect(run.shell.glass == run.shell.engine.presenter.frame(at: .milliseconds(3000)))
    }
}
