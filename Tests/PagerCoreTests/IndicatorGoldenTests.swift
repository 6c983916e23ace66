import PagerCore
import PagerGraphics
import TestSupport
import Testing

/// Golden frames of every indicator state at 128x64 and 128x32.
@Suite struct IndicatorGoldenTests {
    static let sizes = [Size(width: 128, height: 64), Size(width: 128, height: 32)]

    func name(_ size: Size) -> String { "\(size.width)x\(size.height)" }

    @Test(.tags(.golden), arguments: sizes, [1, 2, 7, 12, 40])
    func dotsForFirstMiddleAndLastPage(size: Size, pages: Int) {
        for (label, current) in [("first", 0), ("middle", pages / 2), ("last", pages - 1)]
        where pages > 1 || label == "first" {
            let (pager, renderer) = barsController(pages, current: current, size: size)
            expectGolden(renderer.render(pager, at: .zero), named: "indicator-\(pages)-pages-\(label)-\(name(size))")
        }
    }

    @Test(arguments: sizes)
    func aSinglePageHidesItsDotOnlyWhenAsked(size: Size) {
        let (pager, renderer) = barsController(1, size: size, style: PageIndicatorStyle(hidesForSinglePage: true))
        let frame = renderer.render(pager, at: .zero)
        #expect(frame.cropped(to: renderer.indicatorColumn).litPixelCount == 0)
    }

    @Test(.tags(.golden), arguments: sizes, PageControlBackgroundStyle.allCases)
    func backgroundStylesIdleAndWhileTurning(size: Size, background: PageControlBackgroundStyle) {
        var (pager, renderer) = barsController(
            7, current: 3, size: size, style: PageIndicatorStyle(backgroundStyle: background))
        expectGolden(renderer.render(pager, at: .zero), named: "background-\(background)-idle-\(name(size))")
        pager.turn(1, at: 0)
        expectGolden(renderer.render(pager, at: .ms(300)), named: "background-\(background)-turning-\(name(size))")
        if background == .automatic {
            expectGolden(renderer.render(pager, at: .ms(1100)), named: "background-automatic-fading-\(name(size))")
            #expect(
                renderer.render(pager, at: .ms(1300))
                    == renderer.render(barsController(7, current: 4, size: size).0, at: .ms(1300)))
        }
    }

    @Test(.tags(.golden), arguments: sizes)
    func customIndicatorImages(size: Size) {
        var images = PageIndicatorImages()
        images.setIndicatorImage(.location, forPage: 0)
        let style = PageIndicatorStyle(images: images)
        let (first, renderer) = barsController(5, current: 0, size: size, style: style)
        expectGolden(renderer.render(first, at: .zero), named: "images-location-current-\(name(size))")
        let (other, _) = barsController(5, current: 2, size: size, style: style)
        expectGolden(renderer.render(other, at: .zero), named: "images-location-other-\(name(size))")
        var bookmarks = PageIndicatorImages(preferredIndicatorImage: .bookmark)
        bookmarks.setIndicatorImage(.house, forPage: 0)
        let (marked, markedRenderer) = barsController(
            4, current: 1, size: size, style: PageIndicatorStyle(images: bookmarks))
        expectGolden(markedRenderer.render(marked, at: .zero), named: "images-bookmarks-and-house-\(name(size))")
    }

    @Test(.tags(.golden), arguments: sizes, [CrownSide.left, .bottom])
    func placementBesideALeftCrownOrAtTheBottom(size: Size, side: CrownSide) {
        var (pager, renderer) = barsController(5, current: 1, size: size, style: PageIndicatorStyle(crownSide: side))
        expectGolden(renderer.render(pager, at: .zero), named: "placement-\(side)-\(name(size))")
        pager.turn(1, at: 0)
        expectGolden(renderer.render(pager, at: .ms(60)), named: "placement-\(side)-sliding-\(name(size))")
    }

    @Test(.tags(.golden), arguments: sizes)
    func tallPageCapsuleTimerAndOverview(size: Size) {
        var (tall, renderer) = barsController(4, current: 1, size: size, tall: [1])
        tall.turn(1, at: 0)
        expectGolden(renderer.render(tall, at: .ms(400)), named: "capsule-\(name(size))")
        let (timed, _) = barsController(4, size: size, configuration: PagerConfiguration(pageDuration: .seconds(1)))
        expectGolden(renderer.render(timed, at: .ms(400)), named: "timer-40-percent-\(name(size))")
        var list = barsController(40, current: 20, size: size).0
        _ = list.handle(.pressed(at: .ms(0)))
        _ = list.advance(to: .ms(600))
        expectGolden(renderer.render(list, at: .ms(700)), named: "overview-40-pages-\(name(size))")
    }
}

/// Invariants over random sessions, replayed from fixed seeds.
@Suite struct PagerPropertyTests {
    @Test(.tags(.slow)) func theCurrentPageAlwaysStaysInRange() {
        var generator = SeededGenerator(seed: 2024)
        for _ in 0..<150 {
            let count = Int.random(in: 1...30, using: &generator)
            let style = PageIndicatorStyle(
                backgroundStyle: PageControlBackgroundStyle.allCases.randomElement(using: &generator) ?? .automatic)
            var (pager, renderer) = barsController(
                count, tall: [Int.random(in: 0..<count, using: &generator)],
                configuration: PagerConfiguration(wrapsAround: Bool.random(using: &generator)), style: style)
            var now: Int64 = 0
            for _ in 0..<60 {
                now += Int64.random(in: 0...500, using: &generator)
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: pager.press(at: now)
                case 1:
                    _ = pager.handle(.pressed(at: .ms(now)))
                    now += 700
                    _ = pager.advance(to: .ms(now))
                    _ = pager.handle(.released(at: .ms(now)))
                default: pager.turn(Int.random(in: -3...3, using: &generator), at: now)
                }
                #expect((0..<count).contains(pager.currentPage))
                #expect((0..<count).contains(pager.pager.displayedPage(at: .ms(now))))
                #expect(pager.overview.map { (0..<count).contains($0.selection) } ?? true)
                #expect((0...pager.scroll.maximum).contains(pager.scroll.offset))
                _ = renderer.render(pager, at: .ms(now))
            }
        }
    }

    @Test func aDetentSequenceAndItsReverseReturnToTheStart() {
        var generator = SeededGenerator(seed: 77)
        var checked = 0
        for _ in 0..<300 {
            let count = Int.random(in: 2...12, using: &generator)
            let tall = Set((0..<count).filter { _ in Int.random(in: 0..<3, using: &generator) == 0 })
            let start = Int.random(in: 0..<count, using: &generator)
            var (pager, _) = barsController(count, current: start, tall: tall)
            let steps = (0..<Int.random(in: 1...15, using: &generator)).map { _ in
                Bool.random(using: &generator) ? 1 : -1
            }
            // Detents 400 ms apart: discrete steps. A sequence that bounces off an end is not reversible.
            var now: Int64 = 0
            var bounced = false
            for step in steps + steps.reversed().map({ -$0 }) {
                now += 400
                if pager.turn(step, at: now).contains(where: { if case .bounced = $0 { true } else { false } }) {
                    bounced = true
                }
            }
            guard !bounced else { continue }
            checked += 1
            #expect(pager.currentPage == start)
            #expect(pager.scroll.offset == 0)
        }
        #expect(checked > 100)
    }

    @Test func theWindowAlwaysHoldsTheCurrentPageWithoutOverlap() {
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<2000 {
            let pages = Int.random(in: 1...60, using: &generator)
            let current = Int.random(in: 0..<pages, using: &generator)
            let side = CrownSide.allCases.randomElement(using: &generator) ?? .right
            let length = Int.random(in: 5...128, using: &generator)
            let strip =
                side.isVertical
                ? Rect(x: 0, y: 0, width: 7, height: length) : Rect(x: 0, y: 0, width: length, height: 7)
            let style = PageIndicatorStyle(
                maximumVisibleDots: Bool.random(using: &generator) ? Int.random(in: 1...9, using: &generator) : nil,
                crownSide: side)
            let dots = PageIndicatorLayout.dots(
                numberOfPages: pages, currentPage: current, in: strip, style: style,
                currentStretch: Bool.random(using: &generator) ? style.pitch : 0)
            #expect(dots.filter(\.isCurrent).map(\.page) == [current])
            #expect(dots.map(\.page) == Array((dots.first?.page ?? 0)..<((dots.first?.page ?? 0) + dots.count)))
            #expect(dots.allSatisfy { strip.intersection($0.bounds) == $0.bounds })
            #expect(zip(dots, dots.dropFirst()).allSatisfy { $0.bounds.intersection($1.bounds).isEmpty })
        }
    }
}
