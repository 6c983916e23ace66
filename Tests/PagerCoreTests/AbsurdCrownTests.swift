import CrownVocabulary
import PagerCore
import Testing

/// Crown facts a broken or crafted device can send (found by Scripts/dev/fuzz.sh): never a trap, never a hang.
@Suite struct AbsurdCrownTests {
    @Test(arguments: [Int.min, Int.max, Int.min + 1, -(1 << 40), 1 << 40])
    func hugeTurnsStepAtMostOneGesturesWorth(detents: Int) {
        for wraps in [false, true] {
            var (controller, renderer) = barsController(3, configuration: PagerConfiguration(wrapsAround: wraps))
            let events = controller.turn(detents, at: 0)
            #expect(events.count <= PageNavigator<BarsPage>.maximumStepsPerGesture)
            #expect((0..<3).contains(controller.currentPage))
            _ = renderer.render(controller, at: .ms(100))
            // A second turn the same way piles onto the first: the counts saturate instead of overflowing.
            _ = controller.turn(detents, at: 10)
            #expect((0..<3).contains(controller.currentPage))
            _ = renderer.render(controller, at: .ms(500))
        }
    }

    @Test func hugeTurnsWhileScrubbingAndInTheOverview() {
        var (controller, renderer) = barsController(12)
        for ms in stride(from: Int64(0), to: 200, by: 20) { controller.turn(1, at: ms) }
        #expect(controller.interactionState == .continuous)
        controller.turn(Int.max, at: 210)
        controller.turn(Int.max, at: 220)
        #expect(controller.currentPage == 11)
        _ = controller.handle(.pressed(at: .ms(2000)))
        _ = controller.advance(to: .ms(3000))
        #expect(controller.overview != nil)
        controller.turn(Int.min, at: 3100)
        controller.turn(Int.max, at: 4100)
        _ = renderer.render(controller, at: .ms(4200))
    }

    @Test func timeRunningBackwardsByAlmostTheWholeClock() {
        var crown = CrownInterpreter()
        for ms: Int64 in [-40, -20, 0] { _ = crown.interpret(.rotated(detents: 1, at: .ms(ms))) }
        #expect(crown.interactionState == .continuous)
        // From 0 back to Int64.min: a span so far into the past that twice it would overflow.
        let gestures = crown.interpret(.rotated(detents: 1, at: Timestamp(nanoseconds: .min)))
        #expect(gestures == [.scrub(pages: 4, at: Timestamp(nanoseconds: .min))])
        _ = crown.advance(to: Timestamp(nanoseconds: .max))
    }
}
