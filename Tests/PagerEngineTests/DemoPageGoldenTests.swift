import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

/// Golden glass of every demo page, through the real encoder and the emulator, at both panel heights.
@Suite struct DemoPageGoldenTests {
    static let panels: [SSD1306Panel] = [.ssd1306_128x64, .ssd1306_128x32]

    func render(_ script: String, panel: SSD1306Panel, style: PageIndicatorStyle = PageIndicatorStyle()) throws
        -> [RenderedFrame]
    {
        var configuration = Configuration.demo()
        configuration.display.panel = panel
        var sampler = SamplePageSampler()
        return HeadlessRender(configuration: configuration, style: style).run(
            try CrownScript(parsing: script), sampler: &sampler
        ).frames
    }

    @Test(.tags(.golden), arguments: panels)
    func everyDemoPage(panel: SSD1306Panel) throws {
        let settled = try render("+1,+1,+1,+1", panel: panel).filter { !$0.name.contains("-frame-") }
        let names = ["welcome", "clock", "system", "about", "unicode"]
        try #require(settled.count == names.count)
        for (frame, name) in zip(settled, names) {
            expectGolden(frame.glass, named: "demo-\(name)-\(panel.name)")
        }
    }

    @Test(.tags(.golden), arguments: panels)
    func middleOfASlideBetweenDemoPages(panel: SSD1306Panel) throws {
        let frames = try render("+1", panel: panel)
        // Step 1 comes after the script's spacing (400 ms); its slide lasts about 200 ms at 60 frames a second.
        let slide = frames.filter { $0.name.hasPrefix("step-01-frame-") }
        try #require(slide.count > 4)
        // The frame nearest the middle of the slide's frames in time (the earlier one of two as near).
        let half = (slide[0].time.nanoseconds + slide[slide.count - 1].time.nanoseconds) / 2
        let middle = try #require(slide.min { abs($0.time.nanoseconds - half) < abs($1.time.nanoseconds - half) })
        #expect(middle.time > .zero && middle.time < .milliseconds(300))
        expectGolden(middle.glass, named: "demo-slide-welcome-to-clock-\(panel.name)")
    }

    @Test func glassIsTheFrameTheRendererDrew() throws {
        let panel = SSD1306Panel.ssd1306_128x64
        let minimal = PageIndicatorStyle(backgroundStyle: .minimal)
        let frames = try render("+2,-1", panel: panel, style: minimal)
        var configuration = Configuration.demo()
        configuration.display.panel = panel
        var engine = DeviceEngine(
            configuration: configuration, style: minimal, clock: SampleReadings.clock, start: .zero)
        _ = engine.handle(.crown(.rotated(detents: 1, at: .zero)), at: .zero)
        let pages = PageBook(specs: configuration.pages)
        var pager = PageStack(pages: pages.pages(clock: SampleReadings.clock))
        pager.move(by: 1, at: .zero, animated: false)
        let expected = PagerRenderer(size: Size(width: 128, height: 64), indicatorStyle: minimal).render(
            pager, at: .zero)
        #expect(frames.last?.glass == expected)
    }
}
