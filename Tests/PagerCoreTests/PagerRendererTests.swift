import PagerCore
import PagerGraphics
import TestSupport
import Testing

@Suite struct PagerRendererTests {
    @Test(.tags(.golden), arguments: [(128, 64), (128, 32)])
    func indicatorBesideTheCrown(width: Int, height: Int) {
        let renderer = PagerRenderer(size: Size(width: width, height: height))
        let frame = renderer.render(barsPager(3, current: 1), at: .zero)
        expectGolden(frame, named: "pager-3-pages-current-1-\(width)x\(height)")
    }

    @Test(.tags(.golden), arguments: [(128, 64), (128, 32)])
    func middleOfASlide(width: Int, height: Int) {
        let renderer = PagerRenderer(size: Size(width: width, height: height))
        var pager = barsPager(4, current: 1)
        pager.move(by: 1, at: .zero)
        let frame = renderer.render(pager, at: .ms(60))
        expectGolden(frame, named: "pager-slide-1-to-2-\(width)x\(height)")
        // Both pages are on the glass mid-slide, and the slide ends exactly on page 2.
        let settled = renderer.render(pager, at: .ms(240))
        var alone = barsPager(4, current: 2)
        alone.settle(at: .zero)
        #expect(settled == renderer.render(alone, at: .zero))
    }

    @Test(arguments: [CrownSide.right, .left, .bottom])
    func drawingIntoReusedBitmapsGivesTheSameFrames(side: CrownSide) {
        // Tall pages and short, a slide between them (the page scratch changes size on the way),
        // the plate shown and fading, frames that repeat (the indicator strip kept and copied).
        var (controller, renderer) = barsController(
            4, current: 0, tall: [1], style: PageIndicatorStyle(crownSide: side))
        var frame = Bitmap(rows: ["###"])
        var scratch = PagerRenderer.RenderScratch()
        controller.turn(1, at: 0)
        controller.turn(1, at: 400)
        for ms in stride(from: Int64(0), through: 3000, by: 20) {
            _ = controller.advance(to: .ms(ms))
            renderer.render(controller, at: .ms(ms), into: &frame, scratch: &scratch)
            #expect(frame == renderer.render(controller, at: .ms(ms)))
            #expect(frame.clip == frame.bounds)
        }
    }

    @Test func anIndicatorThatSpillsOutOfItsStripIsDrawnEveryFrameAsBefore() {
        // An image wider than the column (not validated) reaches into the pages: the strip alone
        // cannot stand for it, so reused scratch must still give the frame drawn afresh.
        let wide = IndicatorImage(name: "wide", bitmap: Bitmap(rows: [String](repeating: "###########", count: 5)))
        let style = PageIndicatorStyle(
            images: PageIndicatorImages(preferredIndicatorImage: wide, preferredCurrentPageIndicatorImage: wide))
        var (controller, renderer) = barsController(3, current: 0, style: style)
        var frame = Bitmap(width: 0, height: 0)
        var scratch = PagerRenderer.RenderScratch()
        controller.turn(1, at: 0)
        for ms in stride(from: Int64(0), through: 2000, by: 40) {
            _ = controller.advance(to: .ms(ms))
            renderer.render(controller, at: .ms(ms), into: &frame, scratch: &scratch)
            #expect(frame == renderer.render(controller, at: .ms(ms)))
        }
    }

    @Test(.tags(.golden)) func crownOnTheLeftMirrorsTheColumn() {
        let renderer = PagerRenderer(
            size: Size(width: 128, height: 64), indicatorStyle: PageIndicatorStyle(crownSide: .left))
        #expect(renderer.indicatorColumn.x == 0)
        #expect(renderer.contentRect.x == 8)
        expectGolden(renderer.render(barsPager(5, current: 4), at: .zero), named: "pager-crown-left-128x64")
    }

    @Test(.tags(.golden)) func manyPagesAt32RowsShowAWindow() {
        let renderer = PagerRenderer(size: Size(width: 128, height: 32))
        expectGolden(renderer.render(barsPager(12, current: 6), at: .zero), named: "pager-12-pages-current-6-128x32")
    }
}
