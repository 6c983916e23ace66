import CrownInput
import CrownVocabulary
import TestSupport
import Testing

/// Generated bouncy waveforms (chatter around each edge, random speeds, random reversals):
/// exactly the detents turned, each with its sign and the time of its last clean edge.
@Suite struct BouncyWaveformTests {
    static let settings: [(QuadratureStepping, Bool)] = [
        (.full, false), (.full, true), (.half, false), (.half, true), (.quarter, false), (.quarter, true),
    ]

    @Test(arguments: settings)
    func everyDetentIsReportedOnceWithItsSign(stepping: QuadratureStepping, inverted: Bool) {
        let configuration = QuadratureConfiguration(stepping: stepping, inverted: inverted)
        for seed in UInt64(1)...40 {
            var random = SeededGenerator(seed: seed &* 7919 &+ UInt64(stepping.transitionsPerDetent))
            var builder = WaveformBuilder(configuration: configuration, shape: shape(for: stepping))
            var direction = 1
            for _ in 0..<Int.random(in: 20...80, using: &random) {
                if Int.random(in: 0..<4, using: &random) == 0 { direction = -direction }
                if Int.random(in: 0..<6, using: &random) == 0 { builder.changeSpeed(using: &random) }
                if Int.random(in: 0..<5, using: &random) == 0 {
                    builder.wiggle(Bool.random(using: &random) ? 1 : -1, using: &random)
                } else {
                    builder.detent(direction, using: &random)
                }
            }
            let (events, decoder) = decode(
                builder.waveform.edges, with: CrownDecoderConfiguration(quadrature: configuration))
            let got = detents(events)
            let expected = builder.waveform.expected
            #expect(got.map(\.detents) == expected.map(\.detents), "seed \(seed): signs and count")
            #expect(got.map(\.at) == expected.map(\.at), "seed \(seed): each at its last clean edge")
            #expect(decoder.encoder.statistics.invalidTransitions == 0)
        }
    }

    @Test(arguments: settings)
    func aMovementThatReturnsToItsStartNetsZero(stepping: QuadratureStepping, inverted: Bool) {
        let configuration = QuadratureConfiguration(stepping: stepping, inverted: inverted)
        for seed in UInt64(100)...140 {
            var random = SeededGenerator(seed: seed)
            var builder = WaveformBuilder(configuration: configuration, shape: shape(for: stepping))
            // A random walk of quarter steps, not aligned to detents, then straight back home.
            var direction = 1
            for _ in 0..<Int.random(in: 10...200, using: &random) {
                if Int.random(in: 0..<3, using: &random) == 0 { direction = -direction }
                if Int.random(in: 0..<8, using: &random) == 0 { builder.changeSpeed(using: &random) }
                builder.quarterStep(direction, using: &random)
            }
            let away = builder.position
            while builder.position != 0 { builder.quarterStep(builder.position > 0 ? -1 : 1, using: &random) }
            let (events, _) = decode(builder.waveform.edges, with: CrownDecoderConfiguration(quadrature: configuration))
            #expect(detents(events).reduce(0) { $0 + $1.detents } == 0, "seed \(seed), \(away) quarter steps away")
        }
    }

    @Test func chatterIsCountedAsFilteredGlitches() {
        var random = SeededGenerator(seed: 5)
        var builder = WaveformBuilder(configuration: QuadratureConfiguration())
        builder.shape.chatterProbability = 1
        for _ in 0..<10 { builder.detent(1, using: &random) }
        let (events, decoder) = decode(builder.waveform.edges, with: CrownDecoderConfiguration())
        #expect(detents(events).count == 10)
        let chatterEdges = builder.waveform.edges.count - 40
        #expect(chatterEdges > 0)
        #expect(decoder.glitchesFiltered == chatterEdges, "each chatter edge is one quarter step straight back")
    }

    @Test func sampledLinesThatSkipStatesNeverReportAWrongSign() {
        // Polling too slowly skips states: some detents are lost, none is reported backwards.
        for seed in UInt64(1)...30 {
            var random = SeededGenerator(seed: seed)
            var decoder = QuadratureDecoder()
            var position = 0
            var direction = 1
            for tick in 0..<400 {
                if Int.random(in: 0..<40, using: &random) == 0 { direction = -direction }
                position += direction * Int.random(in: 0...2, using: &random)
                let state = QuadratureState(phase: QuadratureState.bothHigh.phase + position)
                if case .rotated(let detents, _)? = decoder.update(to: state, at: .milliseconds(Int64(tick))) {
                    #expect(detents == direction, "seed \(seed) tick \(tick)")
                }
            }
        }
    }

    /// Quarter stepping relies on the line debounce: chatter must end within it, and clean edges come slower.
    private func shape(for stepping: QuadratureStepping) -> Waveform.Shape {
        var shape = Waveform.Shape()
        if stepping == .quarter { shape.minimumGap = .milliseconds(4) }
        return shape
    }
}
