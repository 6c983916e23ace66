import CrownVocabulary
import PagerCore
import TestSupport
import Testing

@Suite struct PageStackTests {
    @Test func oneDetentSlidesOnePageAndEndsExactlyOnIt() {
        var pager = barsPager(5)
        let moved = pager.move(by: 1, at: .ms(1000))
        #expect(moved)
        #expect(pager.currentPage == 1)
        #expect(!pager.isSettled(at: .ms(1100)))
        let middle = pager.position(at: .ms(1120))
        #expect(middle > 0 && middle < 1)
        #expect(pager.position(at: .ms(1240)) == 1)
        #expect(pager.isSettled(at: .ms(1240)))
        pager.settle(at: .ms(1240))
        #expect(pager.slide == nil)
    }

    @Test func boundsAreRespectedWithoutWrap() {
        var pager = barsPager(3)
        let movedBack = pager.move(by: -1, at: .ms(0))
        #expect(!movedBack)
        #expect(pager.currentPage == 0)
        pager.move(by: 10, at: .ms(0))
        #expect(pager.currentPage == 2)
        let movedPast = pager.move(by: 1, at: .ms(500))
        #expect(!movedPast)
        #expect(pager.position(at: .ms(1000)) == 2)
    }

    @Test func wrapAroundSlidesForwardThroughTheEnd() {
        var pager = barsPager(3, current: 2, wraps: true)
        pager.move(by: 1, at: .ms(0))
        #expect(pager.currentPage == 0)
        let middle = pager.position(at: .ms(100))
        #expect(middle > 2 && middle < 3)
        #expect(pager.displayedPage(at: .ms(240)) == 0)
        #expect(pager.position(at: .ms(240)) == 0)
        pager.move(by: -2, at: .ms(300))
        #expect(pager.currentPage == 1)
    }

    @Test func aDetentMidSlideRetargetsFromWherePagesStand() {
        var pager = barsPager(5)
        pager.move(by: 1, at: .ms(0))
        let before = pager.position(at: .ms(100))
        pager.move(by: 1, at: .ms(100))
        #expect(pager.currentPage == 2)
        #expect(pager.position(at: .ms(100)) == before)
        #expect(pager.position(at: .ms(340)) == 2)
    }

    @Test func unanimatedMovesJumpAtOnce() {
        var pager = barsPager(5)
        pager.move(by: 3, at: .ms(0), animated: false)
        #expect(pager.position(at: .ms(0)) == 3)
        #expect(pager.isSettled(at: .ms(0)))
        pager.show(page: 0, at: .ms(10), animated: false)
        #expect(pager.currentPage == 0)
    }

    @Test func emptyAndOutOfRangeInputsAreHarmless() {
        var empty = barsPager(0)
        let moved = empty.move(by: 1, at: .zero)
        #expect(!moved)
        #expect(empty.currentPage == 0)
        #expect(empty.displayedPage(at: .zero) == 0)
        var pager = barsPager(2, current: 9)
        #expect(pager.currentPage == 1)
        pager.replacePage(at: 7, with: BarsPage(index: 0))
        pager.replacePages([BarsPage(index: 0)])
        #expect(pager.currentPage == 0)
    }

    @Test func replacingPagesCountsAGenerationAndListsTheirDurations() {
        var pager = barsPager(3)
        let first = pager.contentGeneration
        let initial: [PageDuration] = [.automatic, .automatic, .automatic]
        #expect(pager.pageDurations == initial)
        pager.replacePage(at: 1, with: BarsPage(index: 1, duration: .never))
        let replaced: [PageDuration] = [.automatic, .never, .automatic]
        #expect(pager.pageDurations == replaced)
        let half = PageDuration.after(.milliseconds(500))
        pager.replacePages([BarsPage(index: 0, duration: half), BarsPage(index: 1)])
        let fewer: [PageDuration] = [half, .automatic]
        #expect(pager.pageDurations == fewer)
        // Out of range: nothing replaced, nothing counted.
        let before = pager.contentGeneration
        pager.replacePage(at: 9, with: BarsPage(index: 9))
        #expect(pager.contentGeneration == before)
        #expect(before == first + 2)
    }

    @Test func propertyCurrentPageAlwaysInRange() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<300 {
            let count = Int.random(in: 1...40, using: &generator)
            var pager = barsPager(count, wraps: Bool.random(using: &generator))
            var now = Timestamp.zero
            for _ in 0..<50 {
                now = now + .milliseconds(Int64.random(in: 0...300, using: &generator))
                pager.move(
                    by: Int.random(in: -7...7, using: &generator), at: now, animated: Bool.random(using: &generator))
                #expect((0..<count).contains(pager.currentPage))
                #expect((0..<count).contains(pager.displayedPage(at: now)))
            }
            #expect(pager.position(at: now + .seconds(1)) == Double(pager.currentPage))
        }
    }

    @Test func propertyASequenceAndItsReverseReturnToTheStart() {
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<300 {
            let count = Int.random(in: 1...30, using: &generator)
            let wraps = Bool.random(using: &generator)
            let start = Int.random(in: 0..<count, using: &generator)
            var pager = barsPager(count, current: start, wraps: wraps)
            let steps = (0..<Int.random(in: 1...20, using: &generator)).map { _ in
                Int.random(in: -3...3, using: &generator)
            }
            // Without wrap, only sequences that never reach past an end are reversible.
            var running = start
            var staysInside = true
            for step in steps {
                running += step
                if running < 0 || running >= count { staysInside = false }
            }
            guard wraps || staysInside else { continue }
            var now = Timestamp.zero
            for step in steps + steps.reversed().map({ -$0 }) {
                now = now + .milliseconds(50)
                pager.move(by: step, at: now)
            }
            #expect(pager.currentPage == start)
            #expect(pager.position(at: now + .seconds(1)) == Double(start))
        }
    }
}
