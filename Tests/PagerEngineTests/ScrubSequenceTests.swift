import CrownVocabulary
import PagerCore
import PagerGraphics
import PagerTools
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine

/// Acceleration moves through the pages in sequence: however fast the crown spins and however
/// slowly the bus carries frames, the engine never sends a frame more than one page on from the
/// last, so every page a spin passes is on the glass, in order.
@Suite struct ScrubSequenceTests {
    /// The page each frame sent showed (from where it drew the content), and the engine at the end.
    static func pagesOnTheGlass(turns: [(Timestamp, Int)], busHertz: Int) -> (pages: [Int], shell: VirtualShell) {
        var configuration = DeviceEngineTests.configuration(pages: 40)
        configuration.crown.acceleration = true
        configuration.display.busHertz = busHertz
        var sampler = SamplePageSampler()
        var shell = VirtualShell.started(configuration, sampler: &sampler)
        let extent = Double(shell.engine.presenter.renderer.contentRect.height)
        var pages: [Int] = []
        var now = Timestamp.zero
        var next = 0
        let end = (turns.last?.0 ?? .zero) + .seconds(3)
        while now <= end {
            while next < turns.count, turns[next].0 <= now {
                shell.feed(.crown(.rotated(detents: turns[next].1, at: turns[next].0)), at: now, sampler: &sampler)
                next += 1
            }
            if shell.perform(shell.engine.handle(.tick, at: now), at: now, sampler: &sampler),
                let position = shell.engine.presenter.lastContentPosition
            {
                pages.append(Int((Double(position) / extent).rounded()))
            }
            guard let wake = shell.wake(after: now, nextInput: next < turns.count ? turns[next].0 : nil), wake <= end
            else { break }
            now = wake
        }
        return (pages, shell)
    }

    @Test(arguments: [400_000, 100_000])
    func everyPageARandomFastSpinPassesIsOnTheGlassInOrder(busHertz: Int) {
        var random = SeededGenerator(seed: UInt64(busHertz))
        for _ in 0..<12 {
            // One to three bursts of fast detents (5 to 40 ms apart: scrubbing, accelerated), either way.
            var turns: [(Timestamp, Int)] = []
            var instant = Timestamp.milliseconds(100)
            for burst in 0..<Int.random(in: 1...3, using: &random) {
                let direction = burst == 0 || Bool.random(using: &random) ? 1 : -1
                for _ in 0..<Int.random(in: 4...30, using: &random) {
                    instant = instant + .milliseconds(Int64.random(in: 5...40, using: &random))
                    turns.append((instant, direction))
                }
                instant = instant + .milliseconds(Int64.random(in: 100...600, using: &random))
            }
            let (pages, shell) = Self.pagesOnTheGlass(turns: turns, busHertz: busHertz)
            let steps = zip(pages, pages.dropFirst()).map { $1 - $0 }
            #expect(steps.allSatisfy { abs($0) <= 1 }, "a frame skipped a page: \(pages)")
            #expect(pages.first == 0 && pages.last == shell.engine.presenter.pager.currentPage, "\(pages)")
            #expect(shell.glass == shell.engine.presenter.lastFrame)
            // The spin went somewhere: scrubbing moved more pages than it had detents.
            #expect(Set(pages).count > 1)
        }
    }

    @Test func anAcceleratedSpinMovesFurtherThanItsDetentsAndStillShowsEachPage() {
        // 20 detents 15 ms apart: four pages a detent once it scrubs, one page a frame on the glass.
        let turns = (1...20).map { (Timestamp.milliseconds(100 + Int64($0) * 15), 1) }
        let (pages, shell) = Self.pagesOnTheGlass(turns: turns, busHertz: 400_000)
        #expect(shell.engine.presenter.pager.currentPage == 39)
        #expect(pages.last == 39 && Set(pages) == Set(0...39), "\(pages)")
        let steps: [Int] = zip(pages, pages.dropFirst()).map { (before: Int, after: Int) in after - before }
        #expect(steps.allSatisfy { (step: Int) in step == 0 || step == 1 })
    }
}
