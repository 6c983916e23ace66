import CrownVocabulary
import PagerCore
import PagerGraphics
import TestSupport
import Testing

/// The page control's behaviour over time: transitions, ends, tall pages, presses, timers, the plate.
@Suite struct PageNavigatorTests {
    @Test func discreteStepsSlideAndScrubbingStepsThroughEveryPage() throws {
        var (pager, _) = barsController(40)
        #expect(pager.turn(1, at: 0) == [.pageChanged(to: 1, interaction: .discrete, at: .ms(0))])
        #expect(pager.pager.slide != nil && !pager.pager.isSettled(at: .ms(100)))
        pager.turn(1, at: 400)
        pager.turn(1, at: 450)
        let scrubbed = pager.turn(1, at: 500)
        #expect(scrubbed == [.pageChanged(to: 4, interaction: .continuous, at: .ms(500))])
        #expect(pager.interactionState == .continuous)
        // Scrubbing is a stepped slide, a page each 1/60 s: whole pages only, in order, none
        // skipped (it used to jump at once, with no slide: pages between were never seen).
        let slide = try #require(pager.pager.slide)
        #expect(slide.isStepped && slide.pageInterval == PageNavigator<BarsPage>.scrubPageInterval)
        let shown = (500...560).map { pager.pager.position(at: .ms(Int64($0))) }
        let wholePages = shown.allSatisfy { (position: Double) in position == position.rounded() }
        #expect(wholePages && shown.contains(3) && shown.last == 4, "\(shown)")
        // Built apart: Swift 6.0.3 cannot type-check it inside #expect in reasonable time.
        let steps: [Double] = zip(shown, shown.dropFirst()).map { (before: Double, after: Double) in after - before }
        #expect(steps.allSatisfy { (step: Double) in step == 0 || step == 1 })
        #expect(pager.advance(to: .ms(900)) == [.idle(at: .ms(800))])
        #expect(pager.interactionState == .none)
    }

    @Test func scrubbingPastEitherEndLandsOnTheFirstOrLastPage() {
        for wraps in [false, true] {
            var (pager, _) = barsController(7, current: 4, configuration: PagerConfiguration(wrapsAround: wraps))
            for ms in stride(from: Int64(0), to: 200, by: 20) { pager.turn(1, at: ms) }
            #expect(pager.currentPage == 6)
            _ = pager.advance(to: .ms(2000))
            for ms in stride(from: Int64(2000), to: 2300, by: 20) { pager.turn(-1, at: ms) }
            #expect(pager.currentPage == 0)
        }
    }

    @Test func theMinimalStyleNeverScrubs() {
        var (pager, _) = barsController(20, style: PageIndicatorStyle(backgroundStyle: .minimal))
        var events: [PagerEvent] = []
        for ms in stride(from: Int64(0), to: 100, by: 10) { events += pager.turn(1, at: ms) }
        #expect(events.allSatisfy { if case .pageChanged(_, .discrete, _) = $0 { true } else { false } })
        #expect(pager.currentPage == 10, "one page a detent: no acceleration either")
    }

    @Test(.tags(.golden)) func aTallPageScrollsFirstThenPages() {
        var (pager, renderer) = barsController(3, tall: [1])
        #expect(pager.turn(1, at: 0) == [.pageChanged(to: 1, interaction: .discrete, at: .ms(0))])
        #expect(pager.turn(1, at: 400) == [.scrolled(offset: 32, at: .ms(400))])
        #expect(pager.turn(1, at: 800) == [.scrolled(offset: 64, at: .ms(800))])
        expectGolden(renderer.render(pager, at: .ms(1200)), named: "tall-page-at-its-end-128x64")
        #expect(pager.turn(1, at: 1200) == [.pageChanged(to: 2, interaction: .discrete, at: .ms(1200))])
        // Back again: the tall page is entered at its end.
        #expect(pager.turn(-1, at: 1600) == [.pageChanged(to: 1, interaction: .discrete, at: .ms(1600))])
        #expect(pager.scroll.offset == 64)
        #expect(pager.turn(-1, at: 2000) == [.scrolled(offset: 32, at: .ms(2000))])
        expectGolden(renderer.render(pager, at: .ms(2100)), named: "tall-page-scrolling-128x64")
        expectGolden(renderer.render(pager, at: .ms(2400)), named: "tall-page-middle-capsule-128x64")
    }

    @Test(.tags(.golden)) func turningPastAnEndBouncesAndSpringsBack() {
        let minimal = PageIndicatorStyle(backgroundStyle: .minimal)
        var (pager, renderer) = barsController(3, current: 2, style: minimal)
        #expect(pager.turn(1, at: 0) == [.bounced(direction: 1, at: .ms(0))])
        #expect(pager.rubberBand?.offset(at: .ms(100)) == -4)
        #expect(pager.isAnimating(at: .ms(100)) && !pager.isAnimating(at: .ms(300)))
        expectGolden(renderer.render(pager, at: .ms(100)), named: "rubber-band-past-last-128x64")
        #expect(
            renderer.render(pager, at: .ms(300))
                == renderer.render(barsController(3, current: 2, style: minimal).0, at: .ms(300)))
        var first = barsController(3).0
        #expect(first.turn(-1, at: 0) == [.bounced(direction: -1, at: .ms(0))])
        #expect(first.rubberBand?.offset(at: .ms(100)) == 4)
    }

    @Test(.tags(.golden)) func aLongPressOpensTheTitleListAndAPressJumps() {
        var (pager, renderer) = barsController(12, current: 2)
        _ = pager.handle(.pressed(at: .ms(0)))
        #expect(pager.advance(to: .ms(700)) == [.overviewOpened(at: .ms(600))])
        _ = pager.handle(.released(at: .ms(800)))
        #expect(pager.turn(1, at: 1000) == [.overviewSelected(page: 3, at: .ms(1000))])
        pager.turn(1, at: 1400)
        pager.turn(1, at: 1800)
        expectGolden(renderer.render(pager, at: .ms(1900)), named: "overview-12-pages-128x64")
        #expect(pager.currentPage == 2, "turning in the list moves only the highlight")
        #expect(
            pager.press(at: 2400) == [
                .overviewClosed(at: .ms(2450)), .pageChanged(to: 5, interaction: .discrete, at: .ms(2450)),
            ])
        #expect(pager.pager.slide == nil, "a jump, not a slide through the pages between")
    }

    @Test func aShortPressReturnsToTheFirstPageUnlessThePageHasAnAction() {
        var (pager, _) = barsController(5, current: 3)
        #expect(pager.press(at: 0) == [.pageChanged(to: 0, interaction: .discrete, at: .ms(50))])
        let pages = [BarsPage(index: 0), BarsPage(index: 1, hasPressAction: true)]
        var acting = PageNavigator(pages: pages, currentPage: 1, viewport: Size(width: 120, height: 64))
        #expect(acting.press(at: 0) == [.pageAction(page: 1, at: .ms(50))])
        #expect(acting.currentPage == 1)
    }

    @Test func aLongPressActsOnAHoldPageAndOpensTheTitleListElsewhere() {
        let pages = [BarsPage(index: 0), BarsPage(index: 1, hasHoldAction: true)]
        var acting = PageNavigator(pages: pages, currentPage: 1, viewport: Size(width: 120, height: 64))
        _ = acting.handle(.pressed(at: .ms(0)))
        #expect(acting.advance(to: .ms(700)) == [.pageAction(page: 1, at: .ms(600))])
        #expect(acting.overview == nil)
        _ = acting.handle(.released(at: .ms(800)))
        #expect(acting.press(at: 1000) == [.pageChanged(to: 0, interaction: .discrete, at: .ms(1050))])
        _ = acting.handle(.pressed(at: .ms(2000)))
        #expect(acting.advance(to: .ms(2700)) == [.overviewOpened(at: .ms(2600))])
    }

    @Test func returningHomeClosesTheListAndSlidesOrJumps() {
        var (pager, _) = barsController(5, current: 3)
        #expect(pager.goToPage(3, at: .ms(0), animated: true) == [])
        #expect(
            pager.goToPage(0, at: .ms(0), animated: true) == [
                .pageChanged(to: 0, interaction: .discrete, at: .ms(0))
            ])
        #expect(pager.pager.slide != nil)
        _ = pager.handle(.pressed(at: .ms(1000)))
        _ = pager.advance(to: .ms(1700))
        _ = pager.handle(.released(at: .ms(1800)))
        #expect(pager.overview != nil)
        #expect(
            pager.goToPage(2, at: .ms(2000), animated: false) == [
                .overviewClosed(at: .ms(2000)), .pageChanged(to: 2, interaction: .discrete, at: .ms(2000)),
            ])
        #expect(pager.overview == nil && pager.currentPage == 2 && pager.pager.slide == nil)
    }

    @Test func displayOnlyIgnoresTheCrown() {
        var (pager, _) = barsController(5, current: 1, configuration: PagerConfiguration(isDisplayOnly: true))
        #expect(pager.turn(1, at: 0) == [])
        #expect(pager.press(at: 100) == [])
        #expect(pager.currentPage == 1 && pager.lastInteraction == nil)
    }

    @Test(.tags(.golden)) func timedPagesFillTheDotMoveOnAndPauseOnATurn() {
        var (pager, renderer) = barsController(3, configuration: PagerConfiguration(pageDuration: .seconds(1)))
        #expect(pager.timerProgress(at: .ms(500)) == 0.5)
        expectGolden(renderer.render(pager, at: .ms(700)), named: "timer-progress-70-percent-128x64")
        // Three rows inside the 5-pixel dot's outline: a step every third of a second, to the nanosecond.
        #expect(pager.nextDeadline(after: .ms(500)) == Timestamp(nanoseconds: 666_666_667))
        #expect(pager.advance(to: .ms(1000)) == [.autoAdvanced(to: 1, at: .ms(1000))])
        #expect(pager.advance(to: .ms(2000)) == [.autoAdvanced(to: 2, at: .ms(2000))])
        #expect(pager.advance(to: .ms(3000)) == [.autoAdvanced(to: 0, at: .ms(3000))], "after the last, the first")
        let events = pager.turn(1, at: 3500)
        #expect(events.first == .timerPaused(at: .ms(3500)))
        #expect(pager.advance(to: .ms(9000)).allSatisfy { if case .autoAdvanced = $0 { false } else { true } })
        #expect(pager.currentPage == 1)
        pager.resumeTimer(at: .ms(9000))
        #expect(pager.advance(to: .ms(10_000)).contains(.autoAdvanced(to: 2, at: .ms(10_000))))
    }

    @Test func theAutomaticPlateShowsWhileTurningThenFadesAndGoes() {
        var (pager, _) = barsController(5)
        #expect(pager.backgroundPlate(at: .ms(0)) == .hidden)
        pager.turn(1, at: 0)
        #expect(pager.backgroundPlate(at: .ms(999)) == .shown)
        #expect(pager.backgroundPlate(at: .ms(1000)) == .fading)
        #expect(pager.backgroundPlate(at: .ms(1250)) == .hidden)
        #expect(pager.nextDeadline(after: .ms(400)) == .ms(1000))
        #expect(pager.advance(to: .ms(1300)).contains(.backgroundHidden(at: .ms(1250))))
        #expect(pager.nextDeadline(after: .ms(1300)) == nil)
        #expect(
            barsController(5, style: PageIndicatorStyle(backgroundStyle: .prominent)).0.backgroundPlate(at: .zero)
                == .shown)
        var minimal = barsController(5, style: PageIndicatorStyle(backgroundStyle: .minimal)).0
        minimal.turn(1, at: 0)
        #expect(minimal.backgroundPlate(at: .ms(10)) == .hidden)
    }

    @Test func warningsNameThePages() {
        #expect(barsController(10).0.warnings.isEmpty)
        #expect(barsController(11).0.warnings == [.tooManyPages(count: 11, limit: 10)])
        var images = PageIndicatorImages()
        images.setIndicatorImage(.location, forPage: 0)
        #expect(
            barsController(3, style: PageIndicatorStyle(images: images)).0.warnings.isEmpty, "dot + one image is fine")
        images.setIndicatorImage(.star, forPage: 3)
        let warnings = barsController(5, style: PageIndicatorStyle(images: images)).0.warnings
        #expect(warnings == [.tooManyIndicatorImages(kinds: 3, pages: [0, 3], titles: ["Page 0", "Page 3"])])
        #expect(warnings.first?.description.contains("1 (Page 0), 4 (Page 3)") == true)
    }
}
