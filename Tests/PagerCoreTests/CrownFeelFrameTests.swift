import CrownVocabulary
import PagerCore
import PagerGraphics
import TestSupport
import Testing

/// The crown's feel frame by frame: detents short of a page nudge the content, scrubbing passes
/// every page, and the rubber band gives as stiffly as it is told.
@Suite struct CrownFeelFrameTests {
    static let size = Size(width: 128, height: 32)
    static let prominent = PageIndicatorStyle(backgroundStyle: .prominent)

    static func controller(_ count: Int, current: Int = 0, crown: CrownConfiguration = CrownConfiguration())
        -> (PageNavigator<BarsPage>, PagerRenderer)
    {
        barsController(count, current: current, size: size, crown: crown, style: prominent)
    }

    @Test(.tags(.golden)) func aDetentShortOfAPageNudgesTheContentAndTheDetentMemorySnapsItBack() {
        var (pager, renderer) = Self.controller(5, current: 1, crown: CrownConfiguration(detentsPerPage: 3))
        let atRest = renderer.render(pager, at: .ms(0))
        #expect(pager.turn(1, at: 0) == [])
        #expect(pager.contentShift(at: .ms(120)) == -2, "a third of the 6-pixel nudge")
        expectGolden(renderer.render(pager, at: .ms(120)), named: "nudge-1-of-3-detents-128x32")
        #expect(pager.turn(1, at: 150) == [])
        #expect(pager.contentShift(at: .ms(270)) == -4)
        expectGolden(renderer.render(pager, at: .ms(270)), named: "nudge-2-of-3-detents-128x32")
        #expect(pager.isAnimating(at: .ms(200)) && !pager.isAnimating(at: .ms(400)), "the nudge holds")
        // The leftover detents are forgotten exactly when the detent memory (800 ms) runs out.
        _ = pager.advance(to: .ms(500))
        #expect(pager.interpreter.nextDeadline == .ms(950))
        #expect(pager.nextDeadline(after: .ms(500)) == .ms(950))
        _ = pager.advance(to: .ms(949))
        #expect(pager.interpreter.pendingDetents == 2 && pager.contentShift(at: .ms(949)) == -4)
        _ = pager.advance(to: .ms(950))
        #expect(pager.interpreter.pendingDetents == 0 && pager.nudge?.start == .ms(950))
        let back = pager.contentShift(at: .ms(1010))
        #expect(back < 0 && back > -4)
        expectGolden(renderer.render(pager, at: .ms(1010)), named: "nudge-snapping-back-128x32")
        _ = pager.advance(to: .ms(1190))
        #expect(pager.nudge == nil && !pager.isAnimating(at: .ms(1190)))
        #expect(renderer.render(pager, at: .ms(1190)) == atRest)
        // One detent a page never nudges.
        var plain = Self.controller(5, current: 1).0
        plain.turn(1, at: 0)
        #expect(plain.nudge == nil)
    }

    @Test(.tags(.golden)) func theDetentThatTurnsThePageTakesTheNudgeAlong() throws {
        var (pager, renderer) = Self.controller(5, current: 1, crown: CrownConfiguration(detentsPerPage: 2))
        #expect(pager.turn(1, at: 0) == [])
        #expect(pager.contentShift(at: .ms(120)) == -3)
        #expect(pager.turn(1, at: 150) == [.pageChanged(to: 2, interaction: .discrete, at: .ms(150))])
        // Back to place over the slide's own time: the two end together.
        let nudge = try #require(pager.nudge)
        #expect(nudge.to == 0 && nudge.end == pager.pager.slide?.end)
        expectGolden(renderer.render(pager, at: .ms(200)), named: "nudge-turning-on-128x32")
        _ = pager.advance(to: .ms(390))
        #expect(pager.nudge == nil && pager.contentShift(at: .ms(390)) == 0 && pager.pager.position(at: .ms(390)) == 2)
    }

    @Test func atTheLastPageADetentShortOfAPageIsThatPartOfTheRubberBand() {
        var (pager, _) = Self.controller(3, current: 2, crown: CrownConfiguration(detentsPerPage: 2))
        #expect(pager.turn(1, at: 0) == [])
        #expect(pager.nudge == nil && pager.rubberBand?.distance == 2, "half a page of detents, half the give")
        #expect(pager.contentShift(at: .ms(100)) == -2 && pager.contentShift(at: .ms(300)) == 0)
        #expect(pager.turn(1, at: 150) == [.bounced(direction: 1, at: .ms(150))])
        #expect(pager.rubberBand?.distance == 4)
    }

    @Test(.tags(.golden), arguments: [RubberBandStiffness.soft, .stiff])
    func theRubberBandGivesAsStifflyAsItIsTold(_ stiffness: RubberBandStiffness) {
        var (pager, renderer) = Self.controller(3, current: 2, crown: CrownConfiguration(rubberBand: stiffness))
        #expect(pager.turn(1, at: 0) == [.bounced(direction: 1, at: .ms(0))])
        let duration = stiffness.duration.nanoseconds
        // The give peaks a third of the way, then springs back to rest at the end.
        let instants = [duration / 6, duration / 3, duration * 2 / 3].map { Timestamp(nanoseconds: $0) }
        #expect(pager.contentShift(at: instants[1]) == -stiffness.distance)
        for (index, instant) in instants.enumerated() {
            expectGolden(
                renderer.render(pager, at: instant), named: "rubber-band-\(stiffness.rawValue)-\(index + 1)-128x32")
        }
        #expect(!pager.isAnimating(at: Timestamp(nanoseconds: duration)))
    }

    @Test func scrubbingOntoTheLastPageBouncesOnArrival() throws {
        var (pager, _) = Self.controller(6)
        for ms in [Int64(0), 20, 40, 60] { pager.turn(1, at: ms) }
        #expect(pager.currentPage == 5 && pager.interactionState == .continuous)
        // Half medium's give in half its time, when the stepped slide arrives.
        let band = try #require(pager.rubberBand)
        let slide = try #require(pager.pager.slide)
        #expect(slide.isStepped && slide.end < .ms(120))
        #expect(band.start == slide.end && band.direction == 1)
        #expect(band.distance == 2 && band.duration == .milliseconds(150))
        #expect(pager.contentShift(at: slide.end + .milliseconds(50)) == -2)
        // Turning on against the end while it plays starts nothing new.
        #expect(pager.turn(1, at: 80) == [])
        #expect(pager.rubberBand == band)
        // Once it has played, turning on gives the rubber band.
        #expect(pager.turn(1, at: 340) == [.bounced(direction: 1, at: .ms(340))])
    }

    @Test(.tags(.golden)) func anAcceleratedSpinShowsEveryPageItPassesInOrder() {
        var (pager, renderer) = Self.controller(12)
        // Detents 15 ms apart scrub four pages each; frames come at 60 Hz and report the glass.
        let detents = [Int64(0), 15, 30, 45, 60]
        var next = 0
        var pages: [Int] = []
        var frames: [Bitmap] = []
        for frame in 0..<30 {
            let instant = Timestamp(nanoseconds: Int64(frame) * 16_666_667)
            while next < detents.count, .ms(detents[next]) <= instant {
                pager.turn(1, at: detents[next])
                next += 1
            }
            _ = pager.advance(to: instant)
            let drawn = renderer.render(pager, at: instant)
            pages.append(pager.pager.displayedPage(at: instant))
            pager.glassShows(at: instant)
            if frames.last != drawn { frames.append(drawn) }
        }
        #expect(pager.currentPage == 11 && pages.last == 11)
        let steps: [Int] = zip(pages, pages.dropFirst()).map { (before: Int, after: Int) in after - before }
        #expect(steps.allSatisfy { (step: Int) in step == 0 || step == 1 }, "\(pages)")
        #expect(Set(pages) == Set(0...11))
        // The frames once scrubbing starts (the third detent, at 30 ms): page after page, whole.
        for (index, frame) in frames.dropFirst(3).prefix(4).enumerated() {
            expectGolden(frame, named: "accelerated-spin-frame-\(index + 1)-128x32")
        }
    }
}
