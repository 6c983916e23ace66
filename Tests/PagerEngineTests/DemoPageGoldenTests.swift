import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// Golden glass of every demo page, through the real encoder and the emulator, at both panel heights.
@Suite struct DemoPageGoldenTests {
    static let panels: [SSD1306Panel] = [.ssd1306_128x64, .ssd1306_128x32]

    func frozenPages(_ instant: Timestamp) -> [DemoPage] {
        demoPages(clock: SampleReadings.clock, system: SampleReadings.system)
    }

    @Test(arguments: panels)
    func everyDemoPage(panel: SSD1306Panel) throws {
        let script = try CrownScript(parsing: "+1,+1,+1,+1")
        let run = HeadlessRender(panel: panel).run(script, pages: frozenPages)
        let settled = run.frames.filter { !$0.name.contains("-frame-") }
        let names = ["welcome", "clock", "system", "about", "unicode"]
        try #require(settled.count == names.count)
        for (frame, name) in zip(settled, names) {
            expectGolden(frame.glass, named: "demo-\(name)-\(panel.name)")
        }
    }

    @Test(arguments: panels)
    func middleOfASlideBetweenDemoPages(panel: SSD1306Panel) throws {
        let run = HeadlessRender(panel: panel, framesPerSecond: 25).run(
            try CrownScript(parsing: "+1"), pages: frozenPages)
        let middle = try #require(run.frames.first { $0.name == "step-01-frame-002" })
        #expect(middle.time == .milliseconds(80))
        expectGolden(middle.glass, named: "demo-slide-welcome-to-clock-\(panel.name)")
    }

    @Test func glassIsTheFrameTheRendererDrew() throws {
        let panel = SSD1306Panel.ssd1306_128x64
        let minimal = PageIndicatorStyle(backgroundStyle: .minimal)
        let run = HeadlessRender(panel: panel, indicatorStyle: minimal).run(
            try CrownScript(parsing: "+2,-1"), pages: frozenPages)
        var pager = Pager(pages: frozenPages(.zero))
        pager.move(by: 1, at: .zero, animated: false)
        let expected = PagerRenderer(size: Size(width: 128, height: 64), indicatorStyle: minimal).render(
            pager, at: .zero)
        #expect(run.frames.last?.glass == expected)
    }
}
