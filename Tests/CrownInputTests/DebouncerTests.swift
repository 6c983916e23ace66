import CrownInput
import CrownVocabulary
import PagerCore
import TestSupport
import Testing

/// The button's debounce: chatter shorter than the window never makes extra presses.
@Suite struct DebouncerTests {
    @Test func chatterShorterThanTheWindowGivesOnePressAndOneRelease() {
        let window = TimeSpan.milliseconds(5)
        for seed in UInt64(1)...60 {
            var random = SeededGenerator(seed: seed)
            var decoder = CrownDecoder(configuration: CrownDecoderConfiguration(buttonDebounce: window))
            var interpreter = CrownInterpreter()
            var now = Timestamp.milliseconds(10)
            var expected: [CrownEvent] = []
            var events: [CrownEvent] = []
            var gestures: [CrownGesture] = []
            let presses = Int.random(in: 1...12, using: &random)
            for _ in 0..<presses {
                for pressed in [true, false] {
                    // Active low: pressed pulls the line to 0. The burst's first edge is the fact's time.
                    let level = !pressed
                    expected.append(pressed ? .pressed(at: now) : .released(at: now))
                    var t = now
                    events += decoder.feed(LineEdge(line: .button, level: level, at: t))
                    for _ in 0..<Int.random(in: 0...6, using: &random) {
                        t = t + TimeSpan(nanoseconds: Int64.random(in: 10_000...4_900_000, using: &random))
                        events += decoder.feed(LineEdge(line: .button, level: !level, at: t))
                        t = t + TimeSpan(nanoseconds: Int64.random(in: 10_000...4_900_000, using: &random))
                        events += decoder.feed(LineEdge(line: .button, level: level, at: t))
                    }
                    // Held (or left up) for longer than the window, then maybe a deadline passes with no edge.
                    let hold = TimeSpan(nanoseconds: Int64.random(in: 5_000_000...900_000_000, using: &random))
                    if Bool.random(using: &random), let deadline = decoder.nextDeadline, deadline <= t + hold {
                        events += decoder.advance(to: deadline)
                    }
                    now = t + hold
                }
            }
            events += decoder.advance(to: now + .seconds(1))
            #expect(events == expected, "seed \(seed)")
            for event in events { gestures += interpreter.interpret(event) }
            #expect(gestures.count == presses, "one gesture per press")
        }
    }

    @Test func aSpikeShorterThanTheWindowIsNothing() {
        var debouncer = Debouncer(level: true, window: .milliseconds(5))
        #expect(debouncer.feed(level: false, at: .milliseconds(1)) == nil)
        #expect(debouncer.feed(level: true, at: .milliseconds(2)) == nil)
        #expect(debouncer.nextDeadline == .milliseconds(7))
        #expect(debouncer.advance(to: .milliseconds(7)) == nil)
        #expect(debouncer.level && debouncer.filteredEdges == 2 && debouncer.nextDeadline == nil)
    }

    @Test func aChangeSettlesAtItsDeadlineWithTheTimeOfItsFirstEdge() {
        var debouncer = Debouncer(level: true, window: .milliseconds(5))
        _ = debouncer.feed(level: false, at: .milliseconds(10))
        _ = debouncer.feed(level: true, at: .milliseconds(11))
        _ = debouncer.feed(level: false, at: .milliseconds(12))
        #expect(debouncer.advance(to: .milliseconds(16)) == nil, "held 4 ms of 5")
        #expect(debouncer.advance(to: .milliseconds(17)) == DebouncedChange(level: false, at: .milliseconds(10)))
        #expect(debouncer.changes == 1 && debouncer.rawEdges == 3)
    }

    @Test func aZeroWindowPassesEveryEdgeStraightThrough() {
        // The kernel debounces (libgpiod 2): the edges that arrive are already clean.
        var debouncer = Debouncer(level: true, window: .zero)
        #expect(
            debouncer.feed(level: false, at: .milliseconds(1)) == DebouncedChange(level: false, at: .milliseconds(1)))
        #expect(debouncer.feed(level: true, at: .milliseconds(2)) == DebouncedChange(level: true, at: .milliseconds(2)))
        #expect(debouncer.feed(level: true, at: .milliseconds(3)) == nil, "a repeated level is no change")
        #expect(debouncer.nextDeadline == nil)
    }

    @Test func aLongPressIsTimedFromTheFirstEdgeOfTheBurst() {
        var decoder = CrownDecoder()
        var interpreter = CrownInterpreter()
        var gestures: [CrownGesture] = []
        for event in decoder.feed(LineEdge(line: .button, level: false, at: .milliseconds(100))) {
            gestures += interpreter.interpret(event)
        }
        for event in decoder.feed(LineEdge(line: .button, level: true, at: .milliseconds(101))) {
            gestures += interpreter.interpret(event)
        }
        for event in decoder.feed(LineEdge(line: .button, level: false, at: .milliseconds(102))) {
            gestures += interpreter.interpret(event)
        }
        for event in decoder.advance(to: .milliseconds(200)) { gestures += interpreter.interpret(event) }
        #expect(decoder.isPressed)
        gestures += interpreter.advance(to: .milliseconds(700))
        #expect(gestures == [.longPress(at: .milliseconds(700))])
    }
}
