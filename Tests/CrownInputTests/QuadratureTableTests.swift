import CrownInput
import CrownVocabulary
import Testing

/// The 16-entry transition table, and every transition from every reachable decoder state.
@Suite struct QuadratureTableTests {
    @Test func theTableFollowsTheGrayCodeCycle() {
        for previous in QuadratureState.all {
            for current in QuadratureState.all {
                let expected: QuadratureTransition
                switch (current.phase - previous.phase + 4) % 4 {
                case 0: expected = .none
                case 1: expected = .clockwise
                case 3: expected = .counterclockwise
                default: expected = .invalid
                }
                #expect(QuadratureTransition(from: previous, to: current) == expected, "\(previous) → \(current)")
            }
        }
        #expect(QuadratureTransition.table.count == 16)
        #expect(QuadratureTransition.table.filter { $0 == .invalid }.count == 4)
        #expect(QuadratureTransition.table.filter { $0 == .clockwise }.count == 4)
    }

    @Test func invalidTransitionsChangeBothLinesAndValidOnesExactlyOne() {
        for previous in QuadratureState.all {
            for current in QuadratureState.all {
                let changed = (previous.a != current.a ? 1 : 0) + (previous.b != current.b ? 1 : 0)
                let transition = QuadratureTransition(from: previous, to: current)
                #expect((changed == 2) == (transition == .invalid))
                #expect((changed == 0) == (transition == .none))
                // Reversing a transition reverses its direction.
                #expect(QuadratureTransition(from: current, to: previous).quarterSteps == -transition.quarterSteps)
            }
        }
    }

    /// The specification the decoder must meet, written as plainly as possible.
    struct Model {
        let perDetent: Int
        let resting: QuadratureState
        var state: QuadratureState
        var offset = 0
        var synchronized = true

        func isDetent(_ state: QuadratureState) -> Bool { ((state.phase - resting.phase + 4) % 4) % perDetent == 0 }

        mutating func apply(_ next: QuadratureState) -> Int? {
            defer { state = next }
            switch (next.phase - state.phase + 4) % 4 {
            case 0: return nil
            case 2:
                offset = 0
                synchronized = isDetent(next)
                return nil
            case let step:
                if !synchronized {
                    if isDetent(next) {
                        synchronized = true
                        offset = 0
                    }
                    return nil
                }
                offset += step == 1 ? 1 : -1
                guard abs(offset) == perDetent else { return nil }
                defer { offset = 0 }
                return offset > 0 ? 1 : -1
            }
        }
    }

    @Test(arguments: QuadratureStepping.allCases, [QuadratureState.bothHigh, .bothLow])
    func everyTransitionFromEveryReachableOffset(stepping: QuadratureStepping, resting: QuadratureState) {
        let configuration = QuadratureConfiguration(stepping: stepping, restingState: resting)
        var covered = Set<[UInt8]>()
        // Reach every state with every offset a decoder can hold there: walk m quarter steps from rest.
        for walk in -8...8 {
            var decoder = QuadratureDecoder(configuration: configuration)
            var model = Model(perDetent: stepping.transitionsPerDetent, resting: resting, state: resting)
            for index in 0..<abs(walk) {
                let next = QuadratureState(phase: resting.phase + (walk > 0 ? index + 1 : -(index + 1)))
                let reported = decoder.update(to: next, at: .milliseconds(Int64(index)))
                #expect(reported.map(sign) == model.apply(next))
            }
            let before = decoder.statistics
            for current in QuadratureState.all {
                var trial = decoder
                var expectation = model
                let previous = trial.state
                covered.insert([previous.rawValue, current.rawValue])
                let reported = trial.update(to: current, at: .milliseconds(100))
                let expected = expectation.apply(current)
                let label = "\(stepping) rest \(resting) walk \(walk): \(previous) → \(current)"
                #expect(reported.map(sign) == expected, "\(label)")
                #expect(trial.quarterSteps == expectation.offset, "\(label)")
                #expect(trial.isSynchronized == expectation.synchronized, "\(label)")
                #expect(trial.state == current)
                let transition = QuadratureTransition(from: previous, to: current)
                #expect(
                    trial.statistics.invalidTransitions == before.invalidTransitions + (transition == .invalid ? 1 : 0))
                #expect(trial.statistics.transitions == before.transitions + abs(transition.quarterSteps))
                if let event = reported { #expect(event.timestamp == .milliseconds(100)) }
            }
        }
        #expect(covered.count == 16, "all 16 (previous, current) pairs exercised")
    }

    @Test func aKY040TurnedClockwiseReportsPlusOneAtTheLastEdge() {
        // At rest CLK (A) and DT (B) are both high; clockwise, CLK falls first.
        var decoder = QuadratureDecoder()
        let sequence: [(QuadratureLine, Bool)] = [(.a, false), (.b, false), (.a, true), (.b, true)]
        var events: [CrownEvent] = []
        for (index, (line, level)) in sequence.enumerated() {
            if let event = decoder.update(line, level: level, at: .milliseconds(Int64(index))) { events.append(event) }
        }
        #expect(events == [.rotated(detents: 1, at: .milliseconds(3))])
        #expect(decoder.statistics.clockwiseDetents == 1)
    }

    @Test func invertedReportsClockwiseAsNegative() {
        var decoder = QuadratureDecoder(configuration: QuadratureConfiguration(inverted: true))
        var events: [CrownEvent] = []
        for step in 1...4 {
            if let event = decoder.update(to: QuadratureState(phase: QuadratureState.bothHigh.phase + step), at: .zero)
            {
                events.append(event)
            }
        }
        #expect(events == [.rotated(detents: -1, at: .zero)])
        #expect(decoder.statistics.clockwiseDetents == 1, "statistics count the physical direction")
    }

    @Test func halfSteppingRestsAtBothLowAndBothHigh() {
        var decoder = QuadratureDecoder(configuration: QuadratureConfiguration(stepping: .half))
        var reported: [QuadratureState] = []
        for step in 1...8 {
            let next = QuadratureState(phase: QuadratureState.bothHigh.phase + step)
            if decoder.update(to: next, at: .zero) != nil { reported.append(next) }
        }
        #expect(reported == [.bothLow, .bothHigh, .bothLow, .bothHigh])
    }

    @Test func aReversalRightAfterADetentLosesNothing() {
        var decoder = QuadratureDecoder()
        var net = 0
        let rest = QuadratureState.bothHigh.phase
        for phase in [1, 2, 3, 4, 3, 2, 1, 0, -1, -2, -3, -4] {
            if case .rotated(let detents, _)? = decoder.update(to: QuadratureState(phase: rest + phase), at: .zero) {
                net += detents
            }
        }
        #expect(net == -1)
        #expect(decoder.statistics.clockwiseDetents == 1 && decoder.statistics.counterclockwiseDetents == 2)
    }

    @Test func bounceAcrossADetentEdgeReportsOnce() {
        var decoder = QuadratureDecoder()
        let rest = QuadratureState.bothHigh.phase
        var events = 0
        for phase in [1, 2, 3, 4, 3, 4, 3, 4, 3, 4]
        where decoder.update(to: QuadratureState(phase: rest + phase), at: .zero) != nil {
            events += 1
        }
        #expect(events == 1)
        #expect(decoder.statistics.bounces == 6)
    }

    @Test func anImpossibleTransitionIsIgnoredUntilTheNextDetentPosition() {
        var decoder = QuadratureDecoder()
        let rest = QuadratureState.bothHigh.phase
        // 11 → 01 → 10 skips 00: ignored; 10 → 11 reaches the detent position again, silently.
        #expect(decoder.update(to: QuadratureState(phase: rest + 1), at: .zero) == nil)
        #expect(decoder.update(to: QuadratureState(phase: rest + 3), at: .zero) == nil)
        #expect(!decoder.isSynchronized)
        #expect(decoder.update(to: QuadratureState(phase: rest + 4), at: .zero) == nil)
        #expect(decoder.isSynchronized)
        #expect(decoder.statistics.invalidTransitions == 1)
        // From there a full cycle counts again.
        var events: [CrownEvent] = []
        for step in 5...8 {
            if let event = decoder.update(to: QuadratureState(phase: rest + step), at: .zero) { events.append(event) }
        }
        #expect(events == [.rotated(detents: 1, at: .zero)])
    }

    @Test func aRepeatedLevelIsAMissedEdgeAndCounted() {
        var decoder = QuadratureDecoder()
        #expect(decoder.update(.a, level: true, at: .zero) == nil)
        #expect(decoder.statistics.repeatedLevels == 1)
        #expect(decoder.statistics.glitchesFiltered == 1)
    }

    @Test func aDecoderStartingBetweenDetentsWaitsForOne() {
        var decoder = QuadratureDecoder(state: .bothLow)
        #expect(!decoder.isSynchronized)
        let rest = QuadratureState.bothHigh.phase
        // 00 → 10 → 11: reaches the detent position; no detent is claimed for half a turn.
        #expect(decoder.update(to: QuadratureState(phase: rest + 3), at: .zero) == nil)
        #expect(decoder.update(to: QuadratureState(phase: rest + 4), at: .zero) == nil)
        #expect(decoder.isSynchronized)
    }

    private func sign(_ event: CrownEvent) -> Int {
        if case .rotated(let detents, _) = event { return detents }
        return 0
    }
}
