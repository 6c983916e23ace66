import PagerCore
import TestSupport
import Testing

@Suite struct SlideAnimationTests {
    @Test func endsExactlyOnTheTargetAndStaysThere() {
        let slide = SlideAnimation(from: 0, to: 1, start: .ms(100), duration: .milliseconds(240))
        #expect(slide.position(at: .ms(100)) == 0)
        #expect(slide.position(at: .ms(340)) == 1)
        #expect(slide.position(at: .ms(10_000)) == 1)
        #expect(slide.isDone(at: .ms(340)))
        #expect(!slide.isDone(at: .ms(339)))
        #expect(slide.velocity(at: .ms(340)) == 0)
    }

    @Test func easesOutMonotonicallyWithoutOvershoot() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let from = Double(Int.random(in: -20...20, using: &generator))
            let to = from + Double(Int.random(in: -5...5, using: &generator))
            let velocity = Double.random(in: -60...60, using: &generator)
            let slide = SlideAnimation(
                from: from, to: to, start: .zero, duration: .milliseconds(240), initialVelocity: velocity)
            var previous = from
            for ms in stride(from: Int64(0), through: 240, by: 4) {
                let p = slide.position(at: .ms(ms))
                #expect(min(from, to) - 1e-9 <= p && p <= max(from, to) + 1e-9)
                if to >= from { #expect(p >= previous - 1e-9) } else { #expect(p <= previous + 1e-9) }
                previous = p
            }
            #expect(slide.position(at: .ms(240)) == to)
        }
    }

    @Test func easesOutFasterAtTheStartThanAtTheEnd() {
        let slide = SlideAnimation(from: 0, to: 1, start: .zero, duration: .milliseconds(200))
        let early = slide.position(at: .ms(50)) - slide.position(at: .ms(0))
        let late = slide.position(at: .ms(200)) - slide.position(at: .ms(150))
        #expect(early > 2 * late)
        #expect(slide.velocity(at: .ms(1)) > slide.velocity(at: .ms(150)))
    }

    @Test func carriesTheSpeedOfARunningSlide() {
        let fast = SlideAnimation(from: 0, to: 2, start: .zero, duration: .milliseconds(240), initialVelocity: 20)
        let rest = SlideAnimation(from: 0, to: 2, start: .zero, duration: .milliseconds(240))
        #expect(fast.position(at: .ms(30)) > rest.position(at: .ms(30)))
    }
}
