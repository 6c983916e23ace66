import CrownInput
import CrownVocabulary
import TestSupport

/// Generated encoder waveforms: what a hand on a cheap knob produces, edge by edge, with chatter.
struct Waveform {
    /// The raw edges, in time order.
    var edges: [LineEdge] = []
    /// The detents a perfect decoder reports: their signs and the time of the edge completing each.
    var expected: [(detents: Int, at: Timestamp)] = []

    /// Chatter and speed limits: every burst of chatter ends before the next clean edge.
    struct Shape {
        var minimumGap: TimeSpan = .milliseconds(2)
        var maximumGap: TimeSpan = .milliseconds(40)
        /// The longest a burst of chatter lasts after its clean edge.
        var chatterSpan: TimeSpan = .microseconds(1_500)
        /// The longest a bouncing contact stays at one level within a burst.
        var bounceGap: TimeSpan = .microseconds(400)
        var chatterProbability = 0.6
    }
}

extension TimeSpan {
    static func microseconds(_ value: Int64) -> TimeSpan { TimeSpan(nanoseconds: value * 1000) }
}

/// Builds waveforms from moves, tracking the knob's true quarter-step position.
struct WaveformBuilder {
    let configuration: QuadratureConfiguration
    var shape = Waveform.Shape()
    var waveform = Waveform()
    private(set) var position = 0
    private(set) var now = Timestamp.milliseconds(1)
    private var speed: TimeSpan = .milliseconds(10)

    init(configuration: QuadratureConfiguration, shape: Waveform.Shape = Waveform.Shape()) {
        self.configuration = configuration
        self.shape = shape
    }

    var state: QuadratureState { QuadratureState(phase: configuration.restingState.phase + position) }
    var perDetent: Int { configuration.stepping.transitionsPerDetent }

    /// Picks a new turning speed: the gap between clean edges for the next moves.
    mutating func changeSpeed(using random: inout SeededGenerator) {
        speed = TimeSpan(
            nanoseconds: Int64.random(
                in: shape.minimumGap.nanoseconds...shape.maximumGap.nanoseconds, using: &random))
    }

    /// One quarter step in `direction` (+1 clockwise), its clean edge maybe followed by chatter.
    mutating func quarterStep(_ direction: Int, using random: inout SeededGenerator) {
        let old = state
        position += direction
        let new = state
        let line: CrownLine = old.a != new.a ? .a : .b
        let level = line == .a ? new.a : new.b
        // The gap varies a little around the speed, never below the minimum.
        let jitter = Int64.random(in: 0...(speed.nanoseconds / 4), using: &random)
        now = now + TimeSpan(nanoseconds: max(shape.minimumGap.nanoseconds, speed.nanoseconds - jitter))
        waveform.edges.append(LineEdge(line: line, level: level, at: now))
        guard Double.random(in: 0..<1, using: &random) < shape.chatterProbability else { return }
        // Chatter: the contact opens and closes again a few times, shortly after the clean edge.
        var t = now
        let end = now + shape.chatterSpan
        var bouncing = true
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let gap = TimeSpan(nanoseconds: Int64.random(in: 20_000...shape.bounceGap.nanoseconds, using: &random))
            guard t + gap + gap < end else { break }
            t = t + gap
            waveform.edges.append(LineEdge(line: line, level: !level, at: t))
            t = t + TimeSpan(nanoseconds: Int64.random(in: 20_000...gap.nanoseconds, using: &random))
            waveform.edges.append(LineEdge(line: line, level: level, at: t))
            bouncing.toggle()
        }
    }

    /// One whole detent in `direction`: the decoder must report it at its last clean edge.
    mutating func detent(_ direction: Int, using random: inout SeededGenerator) {
        for _ in 0..<perDetent { quarterStep(direction, using: &random) }
        let sign = configuration.inverted ? -direction : direction
        waveform.expected.append((sign, now))
    }

    /// Part of a detent and back: the decoder must report nothing.
    mutating func wiggle(_ direction: Int, using random: inout SeededGenerator) {
        guard perDetent > 1 else { return }
        let depth = Int.random(in: 1..<perDetent, using: &random)
        for _ in 0..<depth { quarterStep(direction, using: &random) }
        for _ in 0..<depth { quarterStep(-direction, using: &random) }
    }
}

/// The decoder's output for `edges`, with any settled levels flushed at the end.
func decode(_ edges: [LineEdge], with configuration: CrownDecoderConfiguration) -> (
    events: [CrownEvent], decoder: CrownDecoder
) {
    var decoder = CrownDecoder(configuration: configuration)
    var events: [CrownEvent] = []
    for edge in edges { events += decoder.feed(edge) }
    if let last = edges.last { events += decoder.advance(to: last.at + .seconds(1)) }
    return (events, decoder)
}

/// The detents in `events`, with their times.
func detents(_ events: [CrownEvent]) -> [(detents: Int, at: Timestamp)] {
    events.compactMap { event in
        if case .rotated(let detents, let at) = event { return (detents, at) }
        return nil
    }
}
