import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import SSD1306
import Testing

/// From a detent to the glass through the engine the shells drive, on a virtual clock and the
/// engine's own model of a 400 kHz bus: every pending detent first, then a tick, as `run` does.
@Suite struct DetentToGlassTests {
    /// What a run of `detents` measured: each page-moving detent's time to the end of the first
    /// frame after it on the bus, and the content position of every frame sent.
    struct Run {
        var glass: [TimeSpan] = []
        var positions: [Int] = []
        /// Frames after which the emulator's glass was not the frame the renderer drew.
        var glassMismatches = 0
        var shell: VirtualShell
    }

    static func run(detents: [Timestamp], until end: Timestamp) -> Run {
        var sampler = SamplePageSampler()
        var run = Run(shell: .started(DeviceEngineTests.configuration(pages: 60), sampler: &sampler))
        var waiting: [Timestamp] = []
        var now = Timestamp.zero
        var next = 0
        while now <= end {
            while next < detents.count, detents[next] <= now {
                let before = run.shell.engine.session.pager.currentPage
                run.shell.feed(.crown(.rotated(detents: 1, at: detents[next])), at: now, sampler: &sampler)
                if run.shell.engine.session.pager.currentPage != before { waiting.append(detents[next]) }
                next += 1
            }
            let effects = run.shell.engine.handle(.tick, at: now)
            if run.shell.perform(effects, at: now, sampler: &sampler) {
                let onGlass = run.shell.engine.pacer.busFreeAt
                run.glass += waiting.map { onGlass - $0 }
                waiting = []
                run.positions.append(run.shell.engine.session.lastContentPosition ?? -1)
                if run.shell.glass != run.shell.engine.session.lastFrame { run.glassMismatches += 1 }
            }
            guard
                let wake = run.shell.wake(after: now, nextInput: next < detents.count ? detents[next] : nil),
                wake <= end
            else { break }
            now = wake
        }
        return run
    }

    @Test func aSingleDetentsFirstFrameHasAlreadyMovedAndIsOnTheGlassWithin10Milliseconds() {
        let run = Self.run(detents: [.milliseconds(500)], until: .milliseconds(1500))
        #expect(run.glass.count == 1)
        #expect(run.glass.allSatisfy { $0 <= .milliseconds(10) }, "\(run.glass)")
        // The first frame and every one after: the slide sampled a frame on, never backwards, ending on page 1.
        let slide = Array(run.positions.dropFirst())
        #expect(slide.first.map { $0 > 0 } == true, "\(slide)")
        #expect(zip(slide, slide.dropFirst()).allSatisfy { $0 <= $1 }, "\(slide)")
        #expect(slide.last == 64 && run.shell.engine.session.pager.currentPage == 1)
        #expect(run.glassMismatches == 0)
    }

    @Test func aSteadySpinShowsEveryDetentWithin10MillisecondsAndEndsOnTheNewestPage() {
        // 30 detents a second for a second: no backlog, the glass ends on the last page turned to.
        let spin = (0..<30).map { Timestamp.milliseconds(500) + TimeSpan(nanoseconds: Int64($0) * 33_333_333) }
        let run = Self.run(detents: spin, until: .milliseconds(3000))
        #expect(run.glass.count == 30)
        #expect(run.glass.allSatisfy { $0 <= .milliseconds(10) }, "\(run.glass)")
        #expect(run.shell.engine.session.pager.currentPage == 30)
        #expect(run.glassMismatches == 0)
        #expect(run.shell.glass == run.shell.engine.session.frame(at: .milliseconds(3000)))
    }
}
