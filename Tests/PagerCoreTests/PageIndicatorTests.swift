import PagerCore
import PagerGraphics
import TestSupport
import Testing

@Suite struct PageIndicatorTests {
    let column64 = Rect(x: 121, y: 0, width: 7, height: 64)
    let column32 = Rect(x: 121, y: 0, width: 7, height: 32)

    @Test func dotsAreEquidistantCentredAndInPageOrder() {
        let dots = PageIndicatorLayout.dots(numberOfPages: 5, currentPage: 2, in: column64, style: PageIndicatorStyle())
        #expect(dots.map(\.page) == [0, 1, 2, 3, 4])
        #expect(dots.map(\.isCurrent) == [false, false, true, false, false])
        let gaps = zip(dots.dropFirst(), dots).map { $0.center.y - $1.center.y }
        #expect(Set(gaps) == [8])
        #expect(dots.allSatisfy { $0.center.x == 124 && $0.diameter == 5 })
        // Centred: as much room above the first dot as below the last.
        let above = dots[0].center.y - 2 - column64.y
        let below = column64.maxY - 1 - (dots[4].center.y + 2)
        #expect(abs(above - below) <= 1)
    }

    @Test func singlePageIsHiddenOnlyWhenAsked() {
        #expect(
            PageIndicatorLayout.dots(numberOfPages: 1, currentPage: 0, in: column64, style: PageIndicatorStyle()).count
                == 1)
        let hiding = PageIndicatorStyle(hidesForSinglePage: true)
        #expect(PageIndicatorLayout.dots(numberOfPages: 1, currentPage: 0, in: column64, style: hiding).isEmpty)
        #expect(PageIndicatorLayout.dots(numberOfPages: 2, currentPage: 0, in: column64, style: hiding).count == 2)
    }

    @Test func tooManyDotsShowAWindowWithShrunkEnds() {
        let style = PageIndicatorStyle()
        // Eight fit on 64 rows, but the default window is 7, so the current dot can sit in the middle.
        #expect(PageIndicatorLayout.capacity(length: 64, style: style) == 7)
        #expect(PageIndicatorLayout.capacity(length: 64, style: PageIndicatorStyle(maximumVisibleDots: 20)) == 8)
        #expect(PageIndicatorLayout.capacity(length: 32, style: style) == 4)
        let dots = PageIndicatorLayout.dots(numberOfPages: 40, currentPage: 20, in: column64, style: style)
        #expect(dots.count == 7)
        #expect(dots[3].page == 20)
        #expect(dots.first?.diameter == 3 && dots.last?.diameter == 3)
        #expect(dots.contains { $0.page == 20 && $0.isCurrent && $0.diameter == 5 })
        let atStart = PageIndicatorLayout.dots(numberOfPages: 40, currentPage: 0, in: column64, style: style)
        #expect(atStart.first?.diameter == 5 && atStart.last?.diameter == 3)
    }

    @Test func propertyWindowAlwaysContainsTheCurrentPage() {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<2000 {
            let pages = Int.random(in: 1...60, using: &generator)
            let current = Int.random(in: 0..<pages, using: &generator)
            let height = Int.random(in: 5...64, using: &generator)
            let style = PageIndicatorStyle(
                maximumVisibleDots: Bool.random(using: &generator) ? Int.random(in: 1...9, using: &generator) : nil)
            let dots = PageIndicatorLayout.dots(
                numberOfPages: pages, currentPage: current, in: Rect(x: 0, y: 0, width: 7, height: height), style: style
            )
            #expect(dots.filter(\.isCurrent).map(\.page) == [current])
            #expect(dots.allSatisfy { $0.center.y - $0.diameter / 2 >= 0 && $0.center.y + $0.diameter / 2 < height })
            let pitches = Set(zip(dots.dropFirst(), dots).map { $0.center.y - $1.center.y })
            #expect(pitches.count <= 1)
        }
    }
}
