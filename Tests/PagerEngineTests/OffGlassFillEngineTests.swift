import CrownVocabulary
import PagerCore
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine

/// A 128x32 panel through the engine: the 32 RAM rows the glass does not show take what a turn
/// brings into view while the bus idles, once after a settle, and the engine then sleeps.
@Suite struct OffGlassFillEngineTests {
    /// Text pages on a 128x32 panel, the screen saver off.
    static func configuration(pages: Int = 20) -> Configuration {
        var configuration = DeviceEngineTests.configuration(pages: pages)
        configuration.display.panel = .ssd1306_128x32
        configuration.pages = (1...pages).map {
            PageSpec(title: "Page \($0)", kind: .text(String(repeating: "\($0) ", count: 6)))
        }
        return configuration
    }

    @Test func aSettledPanelFillsTheRowsOffTheGlassOnceAndThenSleeps() {
        var sampler = SamplePageSampler()
        var shell = VirtualShell.started(Self.configuration(), sampler: &sampler)
        shell.run(events: [], from: .zero, until: .zero, sampler: &sampler)
        let glassBefore = shell.glass
        shell.run(events: [], from: .milliseconds(1), until: .milliseconds(60_000), sampler: &sampler)
        // The fill leaves the glass as it was.
        #expect(shell.glass == glassBefore)
        // The initialisation, the whole first frame, then the 4 RAM pages off the glass, one a tick.
        let fills = Array(shell.sentFrames.dropFirst(2))
        #expect(fills.count == 4)
        let largest = fills.map(\.bytes).max() ?? 0
        #expect(largest <= 128 + 8)
        #expect(!shell.engine.presenter.isOffGlassFillPending)
        // Asleep: nothing on the glass can change, nothing is left to fill.
        #expect(shell.engine.nextDeadline == nil)
    }

    @Test func slidesAndASpinOverFilledRowsKeepTheGlassTheFrameAndStayUnderTheirCeilings() {
        let slides = (0..<6).map { Timestamp.milliseconds(100 + Int64($0) * 1000) }
        let spin = (0..<30).map { Timestamp.milliseconds(100) + TimeSpan(nanoseconds: Int64($0) * 33_333_333) }
        for (detents, ceiling) in [(slides, 6_000), (spin, 5_700)] {
            let run = ModelledBusRun(Self.configuration(), detents: detents, until: .milliseconds(6500))
            #expect(run.glassMismatches == 0)
            #expect(run.shell.writesOnBusyBus == 0)
            #expect(run.largestFrame <= 222)
            #expect(run.bytes <= ceiling, "\(run.bytes) bytes in \(run.frames) frames")
        }
    }
}
