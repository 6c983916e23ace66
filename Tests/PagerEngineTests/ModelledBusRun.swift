import CrownVocabulary
import PagerCore
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306

@testable import PagerEngine

/// A scripted turn of the crown through the engine the shells drive, on a virtual clock and a
/// modelled bus: every pending detent first, then a tick, as `run` does; the figures of each frame.
struct ModelledBusRun {
    var frames = 0
    var bytes = 0
    /// The largest frame after the first detent (the first frame is the whole glass).
    var largestFrame = 0
    /// Each page-moving detent's time to the end of the first frame after it on the modelled bus.
    var glass: [TimeSpan] = []
    /// When each frame was drawn, and the content position it showed.
    var frameTimes: [Timestamp] = []
    var positions: [Int] = []
    /// Frames after which the emulator's glass was not the frame the renderer drew.
    var glassMismatches = 0
    /// Frames that went in part (the frame byte budget), the rest in the next frame.
    var partialFrames = 0
    var shell: VirtualShell

    /// `configuration` turned by one detent at each of `detents` until `end`, its bus modelled at
    /// `busHertz` (by default its `bus_hz`); with `timesWrites` false the shell reports `bus_hz` times.
    init(
        _ configuration: Configuration, detents: [Timestamp], until end: Timestamp, busHertz: Int? = nil,
        timesWrites: Bool = true
    ) {
        shell = VirtualShell(
            engine: DeviceEngine(
                configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero),
            panel: configuration.display.panel, address: configuration.display.address, busHertz: busHertz)
        shell.timesWrites = timesWrites
        var sampler = SamplePageSampler()
        shell.feed(.start, at: .zero, sampler: &sampler)
        var waiting: [Timestamp] = []
        var now = Timestamp.zero
        var next = 0
        while now <= end {
            while next < detents.count, detents[next] <= now {
                let before = shell.engine.presenter.pager.currentPage
                shell.feed(.crown(.rotated(detents: 1, at: detents[next])), at: now, sampler: &sampler)
                if shell.engine.presenter.pager.currentPage != before { waiting.append(detents[next]) }
                next += 1
            }
            let effects = shell.engine.handle(.tick, at: now)
            if shell.perform(effects, at: now, sampler: &sampler) {
                let frameBytes = effects.display.framedByteCount
                frames += 1
                bytes += frameBytes
                if next > 0 { largestFrame = max(largestFrame, frameBytes) }
                glass += waiting.map { shell.busFreeAt - $0 }
                waiting = []
                frameTimes.append(now)
                positions.append(shell.engine.presenter.lastContentPosition ?? -1)
                // A scrub's frame cut short by the frame byte budget is whole in the next one.
                if shell.engine.presenter.isFrameIncomplete {
                    partialFrames += 1
                } else if shell.glass != shell.engine.presenter.lastFrame {
                    glassMismatches += 1
                }
            }
            guard let wake = shell.wake(after: now, nextInput: next < detents.count ? detents[next] : nil), wake <= end
            else { break }
            now = wake
        }
    }
}
