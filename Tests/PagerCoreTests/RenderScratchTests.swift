import CrownVocabulary
import PagerCore
import PagerGraphics
import Testing

/// Counts the drawings of pages that share it.
private final class DrawCounter {
    var draws = 0
}

/// A bars page that counts its drawings and draws the instant's tenth of a second too, so its
/// frames really change with time.
private struct CountedPage: PageContent {
    var bars: BarsPage
    var counter: DrawCounter
    var title: String { bars.title }

    func draw(into canvas: inout Bitmap, at instant: Timestamp) {
        counter.draws += 1
        bars.draw(into: &canvas, at: instant)
        let tenths = Int(instant.nanoseconds / 100_000_000 % 40)
        canvas.fillRect(Rect(x: 2 + tenths * 2, y: 2, width: 2, height: 2))
    }
}

private func countedController(
    _ count: Int, counter: DrawCounter, offset: Int = 0, style: PageIndicatorStyle = PageIndicatorStyle()
) -> (PagerController<CountedPage>, PagerRenderer) {
    let renderer = PagerRenderer(size: Size(width: 128, height: 64), indicatorStyle: style)
    let controller = PagerController(
        pages: countedPages(count, counter: counter, offset: offset), style: style,
        viewport: renderer.contentRect.size)
    return (controller, renderer)
}

private func countedPages(_ count: Int, counter: DrawCounter, offset: Int = 0) -> [CountedPage] {
    (0..<count).map { CountedPage(bars: BarsPage(index: $0 + offset), counter: counter) }
}

@Suite("A frame drawn into a frame loop's reused buffers equals the frame drawn afresh")
struct RenderScratchTests {
    @Test func aSlideDrawsItsTwoPagesEveryFrame() {
        let counter = DrawCounter()
        var (controller, renderer) = countedController(3, counter: counter)
        var frame = Bitmap(width: 0, height: 0)
        var scratch = PagerRenderer.RenderScratch()
        controller.turn(1, at: 0)
        var slideFrames = 0
        for ms in stride(from: Int64(0), through: 1000, by: 16) {
            _ = controller.advance(to: .ms(ms))
            let before = counter.draws
            renderer.render(controller, at: .ms(ms), into: &frame, scratch: &scratch)
            let draws = counter.draws - before
            // Two pages while the slide is between them, one at rest: nothing kept from before.
            #expect(draws == 1 || draws == 2)
            if draws == 2 { slideFrames += 1 }
            #expect(frame == renderer.render(controller, at: .ms(ms)))
        }
        #expect(slideFrames > 5)
    }

    @Test func replacedPagesAreDrawnAgain() {
        let counter = DrawCounter()
        var (controller, renderer) = countedController(3, counter: counter)
        var frame = Bitmap(width: 0, height: 0)
        var scratch = PagerRenderer.RenderScratch()
        renderer.render(controller, at: .ms(0), into: &frame, scratch: &scratch)
        let old = frame
        // The same number of pages, other content.
        controller.replacePages(countedPages(3, counter: counter, offset: 5))
        renderer.render(controller, at: .ms(0), into: &frame, scratch: &scratch)
        #expect(frame == renderer.render(controller, at: .ms(0)))
        #expect(frame != old)
    }

    @Test(arguments: [PageControlBackgroundStyle.automatic, .prominent, .minimal])
    func pagingBackAndForthGivesEveryFrameAsDrawnAfresh(background: PageControlBackgroundStyle) {
        let counter = DrawCounter()
        var (controller, renderer) = countedController(
            4, counter: counter, style: PageIndicatorStyle(backgroundStyle: background))
        var frame = Bitmap(width: 0, height: 0)
        var scratch = PagerRenderer.RenderScratch()
        var frames = 0
        for (turn, detents) in [1, -1, 1, 1, -1, -1, 1].enumerated() {
            let start = Int64(turn) * 1500
            controller.turn(detents, at: start)
            for ms in stride(from: start, to: start + 1500, by: 30) {
                _ = controller.advance(to: .ms(ms))
                renderer.render(controller, at: .ms(ms), into: &frame, scratch: &scratch)
                #expect(frame == renderer.render(controller, at: .ms(ms)))
                frames += 1
            }
        }
        #expect(frames == 350)
    }

    @Test func aScratchPassedToAnotherRendererDrawsItsIndicator() {
        let counter = DrawCounter()
        let (controller, renderer) = countedController(5, counter: counter)
        var frame = Bitmap(width: 0, height: 0)
        var scratch = PagerRenderer.RenderScratch()
        renderer.render(controller, at: .ms(0), into: &frame, scratch: &scratch)
        var larger = renderer
        larger.indicatorStyle = PageIndicatorStyle(dotDiameter: 5, dotSpacing: 4)
        larger.render(controller, at: .ms(10), into: &frame, scratch: &scratch)
        let fresh = larger.render(controller, at: .ms(10))
        #expect(frame == fresh)
        #expect(fresh != renderer.render(controller, at: .ms(10)))
    }
}
