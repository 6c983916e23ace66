import CrownInput
import CrownVocabulary
import PagerCore

/// Decoder and interpreter throughput, and the latency from a detent's last edge to a page change.
///
/// The stream is simulated: a hand turning a KY-040 at varying speeds, reversing now and then,
/// with contact chatter after most edges. Latency is read off the stream's own timestamps (the
/// instant the page change is decided minus the detent's last clean edge); throughput is wall
/// time on one core for the decoder and the interpreter together.
func runCrownBenchmarks() {
    print("crown: decoder + interpreter, one core, simulated bouncy stream")
    for (name, stepping) in [("full step", QuadratureStepping.full), ("half step", .half), ("quarter step", .quarter)] {
        let stream = SimulatedKnob(stepping: stepping, detents: 100_000, seed: 42)
        let configuration = CrownDecoderConfiguration(quadrature: QuadratureConfiguration(stepping: stepping))
        var result = BenchmarkRun()
        let clock = ContinuousClock()
        let elapsed = clock.measure { result = run(stream, configuration) }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let edges = stream.edges.count
        print(
            "  \(name): \(edges) edges (\(stream.detentEdges.count) detents, \(edges - stream.cleanEdges) chatter) in \(fixed2(seconds * 1000)) ms"
                + " = \(fixed2(Double(edges) / seconds / 1e6)) M edges/s, \(fixed2(seconds / Double(edges) * 1e9)) ns per edge"
        )
        print(
            "    detents decoded: \(result.detents) (turned: \(stream.detentEdges.count)), pages moved: \(result.pages) (scrubbing accelerates);"
                + " last edge to decision: mean \(fixed2(result.meanLatencyMicroseconds)) us, max \(fixed2(result.maxLatencyMicroseconds)) us"
                + (configuration.lineDebounce > .zero
                    ? " (lines debounced \(configuration.lineDebounce.milliseconds) ms)" : ""))
    }
}

/// What one pass over a stream decided.
struct BenchmarkRun {
    /// Detents the decoder reported, summed by size.
    var detents = 0
    /// Pages the interpreter moved by, steps and scrubs together (acceleration makes it more than the detents).
    var pages = 0
    var latencies: [Int64] = []
    var meanLatencyMicroseconds: Double {
        latencies.isEmpty ? 0 : Double(latencies.reduce(0, +)) / Double(latencies.count) / 1000
    }
    var maxLatencyMicroseconds: Double { Double(latencies.max() ?? 0) / 1000 }
}

/// Feeds the stream as a poll loop would: settling debounced levels at their deadlines, then each edge.
///
/// Each detent the decoder reports is matched with the detent's last clean edge in the stream;
/// the latency is the instant the interpreter decided a page change for it minus that edge.
func run(_ stream: SimulatedKnob, _ configuration: CrownDecoderConfiguration) -> BenchmarkRun {
    var decoder = CrownDecoder(configuration: configuration)
    var interpreter = CrownInterpreter()
    var result = BenchmarkRun()
    func decide(_ events: [CrownEvent], at instant: Timestamp) {
        for event in events {
            guard case .rotated(let detents, _) = event else { continue }
            var decided = false
            for gesture in interpreter.interpret(event) {
                switch gesture {
                case .step(let pages, _), .scrub(let pages, _):
                    result.pages += abs(pages)
                    decided = true
                default:
                    break
                }
            }
            for _ in 0..<abs(detents) where decided && result.detents < stream.detentEdges.count {
                result.latencies.append((instant - stream.detentEdges[result.detents]).nanoseconds)
                result.detents += 1
            }
            if !decided { result.detents += abs(detents) }
        }
    }
    for edge in stream.edges {
        while let deadline = decoder.nextDeadline, deadline < edge.at {
            decide(decoder.advance(to: deadline), at: deadline)
        }
        decide(decoder.feed(edge), at: edge.at)
    }
    if let deadline = decoder.nextDeadline { decide(decoder.advance(to: deadline), at: deadline) }
    return result
}

/// A deterministic bouncy stream: edges, and the time of each detent's last clean edge.
struct SimulatedKnob {
    var edges: [LineEdge] = []
    var detentEdges: [Timestamp] = []
    var cleanEdges = 0

    init(stepping: QuadratureStepping, detents: Int, seed: UInt64) {
        var random = seed
        func next(_ range: ClosedRange<Int64>) -> Int64 {
            // SplitMix64: fast and reproducible.
            random &+= 0x9E37_79B9_7F4A_7C15
            var z = random
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return range.lowerBound + Int64(z % UInt64(range.upperBound - range.lowerBound + 1))
        }
        let resting = QuadratureState.bothHigh
        var position = 0
        var now = Timestamp.milliseconds(1)
        var direction = 1
        // Quarter stepping runs on 2 ms debounced lines, so its clean edges come at least 4 ms apart.
        let fastest: Int64 = stepping == .quarter ? 4_000_000 : 2_000_000
        var gap = fastest
        for _ in 0..<detents {
            if next(0...4) == 0 { direction = -direction }
            if next(0...9) == 0 { gap = next(fastest...40_000_000) }
            for _ in 0..<stepping.transitionsPerDetent {
                let old = QuadratureState(phase: resting.phase + position)
                position += direction
                let new = QuadratureState(phase: resting.phase + position)
                let line: CrownLine = old.a != new.a ? .a : .b
                let level = line == .a ? new.a : new.b
                now = now + TimeSpan(nanoseconds: gap)
                edges.append(LineEdge(line: line, level: level, at: now))
                cleanEdges += 1
                // Chatter on 60% of edges: up to three bounces within 1.5 ms.
                guard next(0...9) < 6 else { continue }
                var t = now
                for _ in 0..<next(1...3) {
                    t = t + TimeSpan(nanoseconds: next(20_000...250_000))
                    edges.append(LineEdge(line: line, level: !level, at: t))
                    t = t + TimeSpan(nanoseconds: next(20_000...250_000))
                    edges.append(LineEdge(line: line, level: level, at: t))
                }
            }
            detentEdges.append(now)
        }
    }
}

/// A figure with at most two decimals, without Foundation.
