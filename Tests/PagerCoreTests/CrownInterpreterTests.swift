import PagerCore
import TestSupport
import Testing

@Suite struct CrownInterpreterTests {
    @Test func eachDetentIsAStepWithOneDetentPerPage() {
        var crown = CrownInterpreter()
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(0))) == [.step(pages: 1, at: .ms(0))])
        #expect(crown.interpret(.rotated(detents: -2, at: .ms(10))) == [.step(pages: -2, at: .ms(10))])
        #expect(crown.interpret(.rotated(detents: 0, at: .ms(20))) == [])
    }

    @Test func sensitivityNeedsSeveralDetentsPerPage() {
        var crown = CrownInterpreter(configuration: CrownConfiguration(detentsPerPage: 3))
        // Detents 150 ms apart: deliberate clicks, not a scrub.
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(0))) == [])
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(150))) == [])
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(300))) == [.step(pages: 1, at: .ms(300))])
        // Turning back discards what was pending in the other direction.
        #expect(crown.interpret(.rotated(detents: 2, at: .ms(450))) == [])
        #expect(crown.interpret(.rotated(detents: -1, at: .ms(600))) == [])
        #expect(crown.pendingDetents == -1)
        // A long pause forgets leftovers.
        #expect(crown.interpret(.rotated(detents: -1, at: .ms(5600))) == [])
        #expect(crown.pendingDetents == -1)
    }

    @Test func leftoverDetentsAreForgottenExactlyWhenTheDetentMemoryRunsOut() {
        var crown = CrownInterpreter(configuration: CrownConfiguration(detentsPerPage: 2, allowsScrubbing: false))
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(100))) == [])
        // Idle comes first (300 ms), then the detent memory (800 ms) forgets the leftover.
        #expect(crown.advance(to: .ms(400)) == [.idle(at: .ms(400))])
        #expect(crown.nextDeadline == .ms(900))
        #expect(crown.advance(to: .ms(899)) == [] && crown.pendingDetents == 1)
        #expect(crown.advance(to: .ms(900)) == [.detentsForgotten(at: .ms(900))])
        #expect(crown.pendingDetents == 0 && crown.nextDeadline == nil)
        // With nothing left over there is nothing to forget, and no deadline for it.
        var whole = CrownInterpreter()
        _ = whole.interpret(.rotated(detents: 1, at: .ms(0)))
        #expect(whole.advance(to: .ms(5000)) == [.idle(at: .ms(300))])
    }

    @Test func shortAndLongPresses() {
        var crown = CrownInterpreter()
        #expect(crown.interpret(.pressed(at: .ms(0))) == [])
        #expect(crown.isPressed)
        #expect(crown.interpret(.released(at: .ms(120))) == [.shortPress(at: .ms(120))])
        #expect(!crown.isPressed)

        #expect(crown.interpret(.pressed(at: .ms(1000))) == [])
        #expect(crown.nextDeadline == .ms(1600))
        #expect(crown.advance(to: .ms(1500)) == [])
        #expect(crown.advance(to: .ms(1700)) == [.longPress(at: .ms(1600))])
        #expect(crown.advance(to: .ms(1800)) == [])
        #expect(crown.interpret(.released(at: .ms(1900))) == [])
        #expect(crown.nextDeadline == nil)
    }

    @Test func aLongHoldReleasedWithoutAdvanceIsStillALongPress() {
        var crown = CrownInterpreter()
        _ = crown.interpret(.pressed(at: .ms(0)))
        #expect(crown.interpret(.released(at: .ms(700))) == [.longPress(at: .ms(700))])
    }

    @Test func aReleaseWithoutPressIsIgnored() {
        var crown = CrownInterpreter()
        #expect(crown.interpret(.released(at: .ms(5))) == [])
    }
}

/// Discrete steps, scrubbing, acceleration and idle, driven by timestamped detents (no sleeping).
@Suite struct CrownFeelTests {
    @Test func slowDetentsAreDiscreteStepsAndFastOnesScrub() {
        var crown = CrownInterpreter()
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(0))) == [.step(pages: 1, at: .ms(0))])
        #expect(crown.interactionState == .discrete)
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(200))) == [.step(pages: 1, at: .ms(200))])
        // Three detents within 90 ms of each other are one fast turn: scrubbing.
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(260))) == [.step(pages: 1, at: .ms(260))])
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(320))) == [.scrub(pages: 1, at: .ms(320))])
        #expect(crown.interactionState == .continuous)
        // A slower detent does not end the scrub; only idle does.
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(450))) == [.scrub(pages: 1, at: .ms(450))])
    }

    @Test func accelerationGrowsWithSpeedOnlyWhileScrubbing() {
        var crown = CrownInterpreter()
        _ = crown.interpret(.rotated(detents: 1, at: .ms(0)))
        _ = crown.interpret(.rotated(detents: 1, at: .ms(50)))
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(100))) == [.scrub(pages: 1, at: .ms(100))])
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(130))) == [.scrub(pages: 2, at: .ms(130))])
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(140))) == [.scrub(pages: 4, at: .ms(140))])

        var plain = CrownInterpreter(configuration: CrownConfiguration(accelerationInterval: nil))
        let pages = [0, 50, 100, 130, 140].flatMap { plain.interpret(.rotated(detents: 1, at: .ms($0))) }
        #expect(pages.last == .scrub(pages: 1, at: .ms(140)))
    }

    @Test func idleEndsTheInteractionOnceTheCrownStops() {
        var crown = CrownInterpreter()
        #expect(crown.nextDeadline == nil)
        _ = crown.interpret(.rotated(detents: 1, at: .ms(1000)))
        #expect(crown.nextDeadline == .ms(1300))
        #expect(crown.advance(to: .ms(1299)) == [])
        #expect(crown.advance(to: .ms(1400)) == [.idle(at: .ms(1300))])
        #expect(crown.interactionState == .none)
        #expect(crown.advance(to: .ms(2000)) == [])
        #expect(crown.nextDeadline == nil)
    }

    @Test func withoutScrubbingEveryTurnIsDiscrete() {
        var crown = CrownInterpreter(configuration: CrownConfiguration(allowsScrubbing: false))
        let gestures = (0..<6).flatMap { crown.interpret(.rotated(detents: 1, at: .ms(Int64($0) * 10))) }
        #expect(gestures == (0..<6).map { .step(pages: 1, at: .ms(Int64($0) * 10)) })
        #expect(crown.interactionState == .discrete)
    }

    @Test func reversingEndsAScrub() {
        var crown = CrownInterpreter()
        for ms: Int64 in [0, 30, 60] { _ = crown.interpret(.rotated(detents: 1, at: .ms(ms))) }
        #expect(crown.interactionState == .continuous)
        #expect(crown.interpret(.rotated(detents: -1, at: .ms(90))) == [.step(pages: -1, at: .ms(90))])
        #expect(crown.interactionState == .discrete)
    }
}
