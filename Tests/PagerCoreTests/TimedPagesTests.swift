import CrownVocabulary
import PagerCore
import PagerGraphics
import TestSupport
import Testing

/// A controller over bars pages with their own durations, on a 128x64 panel.
private func timedController(
    _ durations: [PageDuration], pageDuration: TimeSpan? = .seconds(1), resume: TimeSpan? = .seconds(10),
    loops: Bool = true, style: PageIndicatorStyle = PageIndicatorStyle(), size: Size = Size(width: 128, height: 64)
) -> (PageNavigator<BarsPage>, PagerRenderer) {
    let renderer = PagerRenderer(size: size, indicatorStyle: style)
    let configuration = PagerConfiguration(
        pageDuration: pageDuration, timerResumeDelay: resume, resetsToInitialPageAfterEnd: loops)
    let pages = durations.indices.map { BarsPage(index: $0, duration: durations[$0]) }
    let controller = PageNavigator(
        pages: pages, configuration: configuration, style: style, viewport: renderer.contentRect.size)
    return (controller, renderer)
}

private func nanoseconds(_ value: Int64) -> Timestamp { Timestamp(nanoseconds: value) }

/// Timed pages (UIKit's `UIPageControlTimerProgress`): the timer's states, its deadlines and the dot's looks.
@Suite struct TimedPagesTests {
    static let sizes = [Size(width: 128, height: 64), Size(width: 128, height: 32)]

    /// The deadlines `advance` meets from `start` up to `end`, advancing to each.
    static func wakes(_ pager: inout PageNavigator<BarsPage>, from start: Timestamp, to end: Timestamp) -> [Timestamp]
    {
        var now = start
        var wakes: [Timestamp] = []
        while let next = pager.nextDeadline(after: now), next <= end {
            wakes.append(next)
            _ = pager.advance(to: next)
            now = next
        }
        return wakes
    }

    @Test func theDotStepsExactlyWhenItsLookChangesAndThePageMovesOnWhenDue() {
        var (pager, _) = timedController([.automatic, .automatic, .automatic])
        #expect(pager.timerSteps == 3, "a 5-pixel dot has three rows inside its outline")
        #expect(pager.timerLook(at: .zero) == .running(step: 0, steps: 3))
        let wakes = Self.wakes(&pager, from: .zero, to: .ms(1000))
        #expect(wakes == [nanoseconds(333_333_334), nanoseconds(666_666_667), .ms(1000)])
        #expect(pager.timerLook(at: nanoseconds(333_333_333)) == .running(step: 0, steps: 3))
        #expect(pager.currentPage == 1 && pager.timerLook(at: .ms(1000)) == .running(step: 0, steps: 3))
    }

    @Test func anImageDotStepsOnlyByTheRowsWhoseFillingShows() {
        // The star's lower rows are all outline: only two rows inside it can fill.
        let style = PageIndicatorStyle(images: PageIndicatorImages(preferredIndicatorImage: .star))
        let (pager, _) = timedController([.automatic, .automatic], style: style)
        #expect(pager.timerSteps == 2)
        #expect(pager.nextDeadline(after: .zero) == .ms(500))
        #expect(pager.timerLook(at: .ms(500)) == .running(step: 1, steps: 2))
        #expect(pager.nextDeadline(after: .ms(500)) == .ms(1000))
        #expect(
            PageIndicatorStyle(images: PageIndicatorImages(preferredIndicatorImage: .bookmark)).timerSteps(forPage: 0)
                == 4)
        #expect(PageIndicatorStyle(dotDiameter: 7).timerSteps(forPage: 0) == 5)
        #expect(PageIndicatorStyle(dotDiameter: 3).timerSteps(forPage: 0) == 1)
    }

    @Test func aTurnPausesAndTheTimerResumesAfterTheIdleTimeWithThePagesFullTime() {
        var (pager, _) = timedController([.automatic, .automatic, .automatic])
        _ = pager.advance(to: .ms(700))
        let turned = pager.turn(1, at: 700)
        #expect(turned.first == .timerPaused(at: .ms(700)))
        #expect(pager.currentPage == 1 && pager.timer.isPaused && pager.timerLook(at: .ms(701)) == .paused)
        #expect(!pager.isAutoAdvancing && pager.timerResumeInstant == .ms(10_700))
        // The plate, the crown's idle: then nothing until the resume.
        let wakes = Self.wakes(&pager, from: .ms(700), to: .ms(10_700))
        #expect(wakes.last == .ms(10_700))
        #expect(wakes.dropLast().allSatisfy { $0 <= .ms(2000) }, "\(wakes)")
        #expect(pager.timer.isRunning && pager.timer.pageStart == .ms(10_700) && pager.currentPage == 1)
        let due = pager.advance(to: .ms(11_700))
        #expect(due == [.autoAdvanced(to: 2, at: .ms(11_700))])
    }

    @Test func everyPressOrTurnPushesTheResumeBack() {
        var (pager, _) = timedController([.automatic, .automatic, .automatic], resume: .seconds(2))
        pager.turn(1, at: 100)
        pager.press(at: 1500)
        let before = pager.advance(to: .ms(2100))
        #expect(!before.contains(.timerResumed(at: .ms(2100))) && pager.timer.isPaused)
        let resumed = pager.advance(to: .ms(3550))
        #expect(resumed.contains(.timerResumed(at: .ms(3550))), "two seconds after the release at 1550 ms")
        #expect(pager.currentPage == 0, "the press went back to the first page")
    }

    @Test func aTimerThatNeverResumesWakesNothingOnceTheCrownSettles() {
        var (pager, _) = timedController([.automatic, .automatic], resume: nil)
        pager.turn(1, at: 0)
        _ = Self.wakes(&pager, from: .zero, to: .ms(60_000))
        #expect(pager.nextDeadline(after: .ms(60_000)) == nil)
        #expect(pager.timerLook(at: .ms(60_000)) == .paused && pager.currentPage == 1)
    }

    @Test func withoutLoopingTheTimerStopsOnTheLastPage() {
        var (pager, _) = timedController([.automatic, .automatic, .automatic], loops: false)
        var events: [PagerEvent] = []
        for ms in [Int64(1000), 2000, 3000, 4000] { events += pager.advance(to: .ms(ms)) }
        #expect(
            events == [
                .autoAdvanced(to: 1, at: .ms(1000)), .autoAdvanced(to: 2, at: .ms(2000)), .timerFinished(at: .ms(3000)),
            ])
        #expect(pager.currentPage == 2 && pager.timer.phase == .finished && !pager.isAutoAdvancing)
        #expect(pager.timerLook(at: .ms(4000)) == nil, "the plain solid dot")
        #expect(pager.timerProgress(at: .ms(4000)) == 1)
        #expect(pager.nextDeadline(after: .ms(4000)) == nil)

        // Going back by hand pauses it; once left alone it runs to the end again.
        pager.turn(-1, at: 5000)
        _ = pager.advance(to: .ms(15_000))
        #expect(pager.currentPage == 1 && pager.timer.isRunning)
        let ends = pager.advance(to: .ms(16_000)) + pager.advance(to: .ms(17_000))
        #expect(ends == [.autoAdvanced(to: 2, at: .ms(16_000)), .timerFinished(at: .ms(17_000))])
    }

    @Test func loopingGoesFromTheLastPageToTheFirst() {
        var (pager, _) = timedController([.automatic, .automatic], loops: true)
        let events = pager.advance(to: .ms(1000)) + pager.advance(to: .ms(2000))
        #expect(events == [.autoAdvanced(to: 1, at: .ms(1000)), .autoAdvanced(to: 0, at: .ms(2000))])
    }

    @Test func aPagesOwnDurationWinsAndNeverStopsThePagerThere() {
        var (pager, _) = timedController([.after(.seconds(2)), .automatic, .never, .automatic])
        let first = pager.advance(to: .ms(1000))
        #expect(first.isEmpty && pager.currentPage == 0, "the first page's own 2 s")
        let moved = pager.advance(to: .ms(2000)) + pager.advance(to: .ms(3000))
        #expect(moved == [.autoAdvanced(to: 1, at: .ms(2000)), .autoAdvanced(to: 2, at: .ms(3000))])
        // The page that opts out: a solid dot, no deadline, the timer running but with nothing to count.
        #expect(pager.currentPageDuration == nil && pager.timerLook(at: .ms(3000)) == nil)
        _ = Self.wakes(&pager, from: .ms(3000), to: .ms(4000))
        #expect(pager.nextDeadline(after: .ms(4000)) == nil && !pager.isAutoAdvancing)
        // Turned on from it, the next page's time starts after the idle time.
        pager.turn(1, at: 5000)
        #expect(pager.timerLook(at: .ms(5001)) == .paused)
        _ = pager.advance(to: .ms(15_000))
        let wrapped = pager.advance(to: .ms(16_000))
        #expect(wrapped == [.autoAdvanced(to: 0, at: .ms(16_000))])
    }

    @Test func onlyPagesWithTheirOwnDurationAreTimedWithoutAPagerDuration() {
        var (pager, _) = timedController([.automatic, .after(.milliseconds(500)), .automatic], pageDuration: nil)
        #expect(pager.hasTimedPages && pager.currentPageDuration == nil)
        #expect(pager.nextDeadline(after: .zero) == nil)
        pager.turn(1, at: 0)
        #expect(pager.timerLook(at: .ms(1)) == .paused)
        _ = pager.advance(to: .ms(10_000))
        let moved = pager.advance(to: .ms(10_500))
        #expect(moved == [.autoAdvanced(to: 2, at: .ms(10_500))])
        #expect(pager.nextDeadline(after: .ms(10_500)) == pager.nextDeadline(after: .ms(10_600)))
    }

    @Test func untimedPagesNeitherPauseNorWake() {
        var (pager, _) = timedController([.automatic, .automatic], pageDuration: nil)
        let events = pager.turn(1, at: 0)
        #expect(!events.contains(.timerPaused(at: .zero)) && !pager.hasTimedPages)
        _ = Self.wakes(&pager, from: .zero, to: .ms(5000))
        #expect(pager.nextDeadline(after: .ms(5000)) == nil)
    }

    @Test func theListOfTitlesHoldsTheTimer() {
        var (pager, _) = timedController([.automatic, .automatic], resume: .seconds(1))
        _ = pager.handle(.pressed(at: .zero))
        _ = pager.advance(to: .ms(900))  // a long press: the list opens
        #expect(pager.overview != nil && pager.timerLook(at: .ms(900)) == nil)
        _ = Self.wakes(&pager, from: .ms(900), to: .ms(30_000))
        #expect(pager.nextDeadline(after: .ms(30_000)) == nil && pager.timer.isPaused)
        pager.press(at: 30_000)  // picks the page: the list closes, the timer resumes a second after the release
        #expect(pager.overview == nil && pager.timerResumeInstant == .ms(31_050))
    }

    @Test func replacingThePagesKeepsTheTimerSane() {
        var (pager, _) = timedController([.automatic, .automatic, .automatic, .automatic], loops: false)
        for ms in [Int64(1000), 2000, 3000] { _ = pager.advance(to: .ms(ms)) }
        #expect(pager.currentPage == 3)
        pager.replacePages([BarsPage(index: 0), BarsPage(index: 1)])
        #expect(pager.currentPage == 1)
        // The new last page's time runs from where the old page's started, and then the timer stops.
        let events = pager.advance(to: .ms(4000))
        #expect(events == [.timerFinished(at: .ms(4000))])
        pager.replacePages([BarsPage(index: 0, duration: .never), BarsPage(index: 1, duration: .never)])
        #expect(!pager.hasTimedPages && pager.timerLook(at: .ms(5000)) == nil)
        #expect(pager.nextDeadline(after: .ms(5000)) == nil)
    }

    @Test func aLateAdvanceStartsTheNextPageNow() {
        var (pager, _) = timedController([.automatic, .automatic, .automatic])
        let events = pager.advance(to: .ms(5000))
        #expect(events == [.autoAdvanced(to: 1, at: .ms(1000))], "one page per wake, not a burst")
        #expect(pager.timer.pageStart == .ms(5000))
    }

    /// Over random timed pagers: the timer wakes exactly when its look changes or something
    /// happens (a resume, a page moving on, the end), never between, and nothing while paused but the resume.
    @Test func theTimerWakesExactlyWhenSomethingChanges() {
        var generator = SeededGenerator(seed: 1714)
        let durations: [PageDuration] = [
            .automatic, .automatic, .never, .after(.milliseconds(700)), .after(.milliseconds(2500)),
        ]
        var timerWakes = 0
        for _ in 0..<120 {
            let count = Int.random(in: 1...5, using: &generator)
            let pages = (0..<count).map { _ in durations.randomElement(using: &generator) ?? .automatic }
            let images =
                Bool.random(using: &generator)
                ? PageIndicatorImages(preferredIndicatorImage: IndicatorImage.builtIns.randomElement(using: &generator))
                : PageIndicatorImages()
            var (pager, _) = timedController(
                pages, pageDuration: Bool.random(using: &generator) ? .milliseconds(1300) : nil,
                resume: [TimeSpan?.none, .seconds(1), .seconds(4)].randomElement(using: &generator) ?? nil,
                loops: Bool.random(using: &generator), style: PageIndicatorStyle(images: images))
            var now = Timestamp.zero
            for _ in 0..<40 {
                if Int.random(in: 0..<6, using: &generator) == 0 {
                    now = now + .milliseconds(Int64.random(in: 0...3000, using: &generator))
                    _ = pager.advance(to: now)
                    pager.turn(Int.random(in: -1...1, using: &generator), at: now.nanoseconds / 1_000_000)
                }
                let look = pager.timerLook(at: now)
                guard let deadline = pager.timerDeadline(after: now) else {
                    #expect(!pager.timer.isRunning || pager.currentPageDuration == nil || pager.overview != nil)
                    now = now + .milliseconds(1000)
                    _ = pager.advance(to: now)
                    continue
                }
                timerWakes += 1
                #expect(deadline > now)
                if pager.timer.isPaused { #expect(deadline == pager.timerResumeInstant) }
                let justBefore = Timestamp(nanoseconds: deadline.nanoseconds - 1)
                #expect(pager.timerLook(at: justBefore) == look, "nothing changes before the deadline")
                var woken = pager
                let events = woken.advance(to: deadline).filter {
                    switch $0 {
                    case .timerResumed, .autoAdvanced, .timerFinished: return true
                    default: return false
                    }
                }
                #expect(!events.isEmpty || woken.timerLook(at: deadline) != look, "a wake that changes nothing")
                pager = woken
                now = deadline
            }
        }
        #expect(timerWakes > 1000)
    }

    // MARK: The dot's looks

    /// The indicator strip of a frame.
    static func strip(_ frame: Bitmap, _ renderer: PagerRenderer) -> Bitmap {
        frame.cropped(to: renderer.indicatorColumn)
    }

    /// A timed pager of four pages of 4 s showing its second, at 0% (just after its slide),
    /// midway, paused and (not looping) finished on the last page.
    static func looks(size: Size, style: PageIndicatorStyle) -> [(String, Bitmap)] {
        var (pager, renderer) = timedController(
            [.automatic, .automatic, .automatic, .automatic], pageDuration: .seconds(4), loops: false, style: style,
            size: size)
        _ = pager.advance(to: .ms(4000))
        let start = pager
        _ = pager.advance(to: .ms(4240))
        let zero = renderer.render(pager, at: .ms(4240))
        _ = pager.advance(to: .ms(6000))
        let midway = renderer.render(pager, at: .ms(6000))
        // A turn on and back pauses it on the same page (a press would go to the first).
        var held = start
        _ = held.advance(to: .ms(6000))
        _ = held.handle(.rotated(detents: 1, at: .ms(6000)))
        _ = held.handle(.rotated(detents: -1, at: .ms(6400)))
        _ = held.advance(to: .ms(9000))
        let paused = renderer.render(held, at: .ms(9000))
        var finished = start
        for ms in [Int64(8000), 12_000, 16_000, 16_400] { _ = finished.advance(to: .ms(ms)) }
        let end = renderer.render(finished, at: .ms(16_400))
        return [("0-percent", zero), ("midway", midway), ("paused", paused), ("finished", end)]
    }

    @Test(.tags(.golden), arguments: sizes)
    func theDotAtZeroMidwayPausedAndFinished(size: Size) {
        let name = "\(size.width)x\(size.height)"
        let style = PageIndicatorStyle()
        let looks = Self.looks(size: size, style: style)
        let renderer = PagerRenderer(size: size, indicatorStyle: style)
        for (state, frame) in looks { expectGolden(frame, named: "timer-\(state)-\(name)") }
        let strips = looks.map { Self.strip($0.1, renderer) }
        // Each look differs from the others; finished is the plain solid dot of an untimed pager.
        #expect(Set(strips.map { PBM.plain($0) }).count == 4)
        let (plain, _) = barsController(4, current: 3, size: size)
        #expect(strips[3] == Self.strip(renderer.render(plain, at: .zero), renderer))
        // At 0% the dot is not the hollow dot of the other pages.
        let (other, _) = barsController(4, current: 0, size: size)
        #expect(strips[0] != Self.strip(renderer.render(other, at: .zero), renderer))
    }

    @Test(.tags(.golden), arguments: sizes)
    func theLooksWorkWithIndicatorImages(size: Size) {
        let name = "\(size.width)x\(size.height)"
        var images = PageIndicatorImages(preferredIndicatorImage: .bookmark)
        images.setIndicatorImage(.star, forPage: 1)
        let style = PageIndicatorStyle(images: images)
        let looks = Self.looks(size: size, style: style)
        for (state, frame) in looks { expectGolden(frame, named: "timer-star-\(state)-\(name)") }
        let renderer = PagerRenderer(size: size, indicatorStyle: style)
        #expect(Set(looks.map { PBM.plain(Self.strip($0.1, renderer)) }).count == 4)
    }

    @Test(.tags(.golden), arguments: sizes)
    func theLooksWorkOnEveryBackground(size: Size) {
        let name = "\(size.width)x\(size.height)"
        let prominent = Self.looks(size: size, style: PageIndicatorStyle(backgroundStyle: .prominent))
        for (state, frame) in prominent where state != "finished" {
            expectGolden(frame, named: "timer-prominent-\(state)-\(name)")
        }
        // Minimal draws what automatic draws once its plate has gone: the same looks.
        let minimal = Self.looks(size: size, style: PageIndicatorStyle(backgroundStyle: .minimal))
        let automatic = Self.looks(size: size, style: PageIndicatorStyle())
        #expect(minimal.map { $0.1 } == automatic.map { $0.1 })
        #expect(Set(prominent.map { PBM.plain($0.1) }).count == 4)
    }

    @Test(arguments: sizes)
    func theLooksDifferInARowAtTheBottomToo(size: Size) {
        let style = PageIndicatorStyle(crownSide: .bottom)
        let renderer = PagerRenderer(size: size, indicatorStyle: style)
        let strips = Self.looks(size: size, style: style).map { Self.strip($0.1, renderer) }
        #expect(Set(strips.map { PBM.plain($0) }).count == 4)
        let (plain, _) = barsController(4, current: 3, size: size, style: style)
        #expect(strips[3] == Self.strip(renderer.render(plain, at: .zero), renderer))
    }
}
