import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// A picture of random rectangles, or (one in four) a text taller than the screen.
private func randomPage(_ index: Int, viewport: Size, using generator: inout SeededGenerator) -> ConfiguredPage {
    if Int.random(in: 0..<4, using: &generator) == 0 {
        let words = (0..<Int.random(in: 20...60, using: &generator)).map { _ in
            "w\(Int.random(in: 1...99_999, using: &generator))"
        }
        return ConfiguredPage(title: "P\(index)", body: .text(words.joined(separator: " ")))
    }
    var picture = Bitmap(width: viewport.width, height: viewport.height)
    for _ in 0..<Int.random(in: 1...12, using: &generator) {
        let x = Int.random(in: 0..<picture.width, using: &generator)
        let y = Int.random(in: 0..<picture.height, using: &generator)
        let width = Int.random(in: 1...40, using: &generator)
        let height = Int.random(in: 1...20, using: &generator)
        picture.fillRect(Rect(x: x, y: y, width: width, height: height))
    }
    return ConfiguredPage(title: "P\(index)", body: .image(picture))
}

@Test func afterEveryFrameOfRandomSlidesTheGlassEqualsTheRenderedFrame() {
    // Through the session the engine drives: random pages, random turns (direction, size, pace) and
    // frame instants; the driver moves the start line where that is cheaper, and the glass must
    // still equal the frame the renderer drew, every frame.
    var generator = SeededGenerator(seed: 0x511D_E5)
    let cases: [(SSD1306Panel, CrownSide)] = [
        (.ssd1306_128x64, .right), (.ssd1306_128x64, .left), (.ssd1306_128x64, .bottom),
        (.ssd1306_128x32, .right), (.ssd1306_64x48, .left), (.sh1106_128x64, .right), (.ssd1306_96x16, .right),
    ]
    for (panel, side) in cases {
        let style = PageIndicatorStyle(crownSide: side)
        let viewport = PagerRenderer(size: panel.size, indicatorStyle: style).contentRect.size
        let pages = (0..<7).map { randomPage($0, viewport: viewport, using: &generator) }
        var session = PanelPresenter(
            pages: pages, panel: panel,
            pagerConfiguration: PagerConfiguration(wrapsAround: Bool.random(using: &generator)),
            indicatorStyle: style)
        // The session queues its records, as the engine's does; the shell's part is the emulator's.
        var emulator = SSD1306Emulator(panel: panel)
        session.start()
        emulator.send(session.display.interface.take())
        var now = Timestamp.zero
        var linesMoved = 0
        var frames = 0
        for _ in 0..<16 {
            let detents = Int.random(in: 1...2, using: &generator) * (Bool.random(using: &generator) ? 1 : -1)
            session.handle(.rotated(detents: detents, at: now))
            let until = now + .milliseconds(Int64.random(in: 20...400, using: &generator))
            while now < until {
                let line = session.display.displayStartLine
                let presented = session.present(at: now)
                emulator.send(session.display.interface.take())
                if presented {
                    frames += 1
                    #expect(emulator.glass == session.frame(at: now), "\(panel.name) \(side) at \(now)")
                    #expect(emulator.registers.displayStartLine == session.display.displayStartLine)
                }
                if session.display.displayStartLine != line { linesMoved += 1 }
                now = now + .milliseconds(Int64.random(in: 4...25, using: &generator))
            }
        }
        #expect(frames > 40, "\(panel.name) \(side)")
        if side == .bottom {
            #expect(linesMoved == 0, "pages moving sideways keep the start line")
        } else if panel != .ssd1306_96x16 {
            #expect(linesMoved > 0, "\(panel.name) \(side): slides moved the start line")
        }
        #expect(emulator.diagnostics.isEmpty)
    }
}
