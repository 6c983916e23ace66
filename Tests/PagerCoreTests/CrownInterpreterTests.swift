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
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(0))) == [])
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(50))) == [])
        #expect(crown.interpret(.rotated(detents: 1, at: .ms(100))) == [.step(pages: 1, at: .ms(100))])
        // Turning back discards what was pending in the other direction.
        #expect(crown.interpret(.rotated(detents: 2, at: .ms(150))) == [])
        #expect(crown.interpret(.rotated(detents: -1, at: .ms(200))) == [])
        #expect(crown.pendingDetents == -1)
        // A long pause forgets leftovers.
        #expect(crown.interpret(.rotated(detents: -1, at: .ms(5000))) == [])
        #expect(crown.pendingDetents == -1)
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
