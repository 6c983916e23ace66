import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// A page of random rectangles, some taller than the screen.
private struct RandomPage: PageContent {
    var title: String
    var picture: Bitmap

    func contentHeight(in viewport: Size) -> Int { max(viewport.height, picture.height) }

    func draw(into canvas: inout Bitmap, at instant: Timestamp) {
        canvas.blit(picture, at: Point(x: 0, y: 0), opaque: true)
    }
}

private func randomPage(_ index: Int, viewport: Size, using generator: inout SeededGenerator) -> RandomPage {
    let tall = Int.random(in: 0..<4, using: &generator) == 0
    var picture = Bitmap(width: viewport.width, height: tall ? viewport.height * 3 / 2 : viewport.height)
    for _ in 0..<Int.random(in: 1...12, using: &generator) {
        let x = Int.random(in: 0..<picture.width, using: &generator)
        let y = Int.random(in: 0..<picture.height, using: &generator)
        let width = Int.random(in: 1...40, using: &generator)
        let height = Int.random(in: 1...20, using: &generator)
        picture.fillRect(Rect(x: x, y: y, width: width, height: height))
    }
    return RandomPage(title: "P\(index)", picture: picture)
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
        var session = PagerSession(
            pages: pages, panel: panel, interface: SSD1306Emulator(panel: panel),
            pagerConfiguration: PagerConfiguration(wrapsAround: Bool.random(using: &generator)),
            indicatorStyle: style)
        session.start()
        var now = Timestamp.zero
        var linesMoved = 0
        var frames = 0
        for _ in 0..<16 {
            let detents = Int.random(in: 1...2, using: &generator) * (Bool.random(using: &generator) ? 1 : -1)
            session.handle(.rotated(detents: detents, at: now))
            let until = now + .milliseconds(Int64.random(in: 20...400, using: &generator))
            while now < until {
                let line = session.display.displayStartLine
                if session.present(at: now) {
                    frames += 1
                    #expect(
                        session.display.interface.glass == session.frame(at: now), "\(panel.name) \(side) at \(now)")
                    #expect(session.display.interface.registers.displayStartLine == session.display.displayStartLine)
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
        #expect(session.display.interface.diagnostics.isEmpty)
    }
}
