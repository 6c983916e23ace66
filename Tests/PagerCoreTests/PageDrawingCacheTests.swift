import CrownVocabulary
import PagerCore
import PagerGraphics
import Testing

/// Counts the drawings of pages that share it.
private final class DrawCounter {
    var draws = 0
}

/// A bars page that counts its drawings and says whether it draws alike at every instant; one
/// that does not draws the instant's tenth of a second too, so its frames really change.
private struct CountedPage: PageContent {
    var bars: BarsPage
    var drawsAlikeAtEveryInstant: Bool
    var counter: DrawCounter
    var title: String { bars.title }

    func draw(into canvas: inout Bitmap, at instant: Timestamp) {
        counter.draws += 1
        bars.draw(into: &canvas, at: instant)
        if !drawsAlikeAtEveryInstant {
            let tenths = Int(instant.nanoseconds / 100_000_000 % 40)
            canvas.fillRect(Rect(x: 2 + tenths * 2, y: 2, width: 2, height: 2))
        }
    }
}

private func countedController(
    _ count: Int, alike: Bool, counter: DrawCounter, offset: Int = 0, style: PageIndicatorStyle = PageIndicatorStyle()
) -> (PageNavigator<CountedPage>, PagerRenderer) {
    let renderer = PagerRenderer(size: Size(width: 128, height: 64), indicatorStyle: style)
    let controller = PageNavigator(
        pages: countedPages(count, alike: alike, counter: counter, offset: offset), style: style,
        viewport: renderer.contentRect.size)
    return (controller, renderer)
}

private func countedPages(_ count: Int, alike: Bool, counter: DrawCounter, offset: Int = 0) -> [CountedPage] {
    (0..<count).map {
        CountedPage(bars: BarsPage(index: $0 + offset), drawsAlikeAtEveryInstant: alike, counter: counter)
    }
}

@Suite("The renderer keeps the drawings of pages that draw alike at every instant")
struct PageDrawingCacheTests {
    /// Turns one page on at 0 ms, then renders frames at `instants` (ms) into one scratch, each
    /// expected to equal the frame drawn afresh; returns how many page drawings those frames made.
    private func drawingsOverFrames(alike: Bool, instants: [Int64]) -> Int {
        let counter = DrawCounter()
        var (controller, renderer) = countedController(3, alike: alike, counter: counter)
        var frame = Bitmap(width: 0, height: 0)
        var scratch = PagerRenderer.RenderScratch()
        controller.turn(1, at: 0)
        var drawsWithScratch = 0
        for ms in instants {
            _ = controller.advance(to: .ms(ms))
            let before = counter.draws
            renderer.render(controller, at: .ms(ms), into: &frame, scratch: &scratch)
            drawsWithScratch += counter.draws - before
            let fresh = renderer.render(controller, at: .ms(ms))
            #expect(frame == fresh)
        }
        return drawsWithScratch
    }

    @Test func aSlideDrawsEachPageOnceAndEveryFrameEqualsOneDrawnAfresh() {
        // 63 frames over the slide and after it: page 0 and page 1, drawn once each.
        let instants = Array(stride(from: Int64(0), through: 1000, by: 16))
        let draws = drawingsOverFrames(alike: true, instants: instants)
        #expect(instants.count == 63)
        #expect(draws == 2)
    }

    @Test func pagesThatChangeWithTimeAreDrawnEveryFrame() {
        // At rest on page 1: one drawing a frame, eleven frames.
        let instants = Array(stride(from: Int64(2000), through: 3000, by: 100))
        let draws = drawingsOverFrames(alike: false, instants: instants)
        #expect(draws == 11)
    }

    @Test func replacedPagesAreDrawnAgain() {
        let counter = DrawCounter()
        var (controller, renderer) = countedController(3, alike: true, counter: counter)
        var frame = Bitmap(width: 0, height: 0)
        var scratch = PagerRenderer.RenderScratch()
        renderer.render(controller, at: .ms(0), into: &frame, scratch: &scratch)
        let old = frame
        // The same number of pages, other content: the kept drawing must not stand for it.
        controller.replacePages(countedPages(3, alike: true, counter: counter, offset: 5))
        renderer.render(controller, at: .ms(10), into: &frame, scratch: &scratch)
        let fresh = renderer.render(controller, at: .ms(10))
        #expect(frame == fresh)
        #expect(frame != old)
    }

    @Test(arguments: [PageControlBackgroundStyle.automatic, .prominent, .minimal])
    func pagingBackAndForthGivesEveryFrameAsDrawnAfresh(background: PageControlBackgroundStyle) {
        // Kept drawings placed again, back and forth, under every indicator (the dot back on a
        // page, the plate shown and gone): every frame as drawn afresh.
        let counter = DrawCounter()
        var (controller, renderer) = countedController(
            4, alike: true, counter: counter, style: PageIndicatorStyle(backgroundStyle: background))
        var frame = Bitmap(width: 0, height: 0)
        var scratch = PagerRenderer.RenderScratch()
        var frames = 0
        for (turn, detents) in [1, -1, 1, 1, -1, -1, 1].enumerated() {
            let start = Int64(turn) * 1500
            controller.turn(detents, at: start)
            for ms in stride(from: start, to: start + 1500, by: 30) {
                _ = controller.advance(to: .ms(ms))
                renderer.render(controller, at: .ms(ms), into: &frame, scratch: &scratch)
                let fresh = renderer.render(controller, at: .ms(ms))
                #expect(frame == fresh)
                frames += 1
            }
        }
        #expect(frames == 350)
    }

    @Test func aScratchPassedToAnotherRendererDrawsItsIndicator() {
        let counter = DrawCounter()
        let (controller, renderer) = countedController(5, alike: true, counter: counter)
        var frame = Bitmap(width: 0, height: 0)
        var scratch = PagerRenderer.RenderScratch()
        // Twice, so the pages' drawings are kept.
        renderer.render(controller, at: .ms(0), into: &frame, scratch: &scratch)
        renderer.render(controller, at: .ms(10), into: &frame, scratch: &scratch)
        var larger = renderer
        larger.indicatorStyle = PageIndicatorStyle(dotDiameter: 5, dotSpacing: 4)
        larger.render(controller, at: .ms(20), into: &frame, scratch: &scratch)
        let fresh = larger.render(controller, at: .ms(20))
        let kept = renderer.render(controller, at: .ms(20))
        #expect(frame == fresh)
        #expect(fresh != kept)
    }
}
