import CrownVocabulary
import Foundation
import PagerCore
import PagerGraphics
import PagerSettings
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine

/// The pacer on buses of other speeds than the configuration says: the rate learnt from the
/// writes' times, frames never sent before the bus is free, fewer and larger steps on a slow bus.
@Suite struct BusSpeedTests {
    /// Text pages (as the engine bench's), `bus_hz` at `configured`, the modelled bus at `real`.
    static func run(
        detents: [Timestamp], until end: Timestamp, configured: Int, real: Int, timesWrites: Bool = true,
        pages: Int = 100
    ) -> ModelledBusRun {
        var configuration = DeviceEngineTests.configuration(pages: pages)
        configuration.pages = (1...pages).map {
            PageSpec(title: "Page \($0)", kind: .text(String(repeating: "\($0) ", count: 12)))
        }
        configuration.display.busHertz = configured
        return ModelledBusRun(
            configuration, detents: detents, until: end, busHertz: real, timesWrites: timesWrites)
    }

    static let slides = (0..<6).map { Timestamp.milliseconds(100 + Int64($0) * 1000) }
    static let spin = (0..<90).map { Timestamp.milliseconds(100) + TimeSpan(nanoseconds: Int64($0) * 33_333_333) }

    // MARK: The estimate

    @Test func theEstimateConvergesOnTheRealRateWhateverTheConfigurationSays() {
        var generator = SeededGenerator(seed: 0xB05_5BEED)
        for _ in 0..<200 {
            let configured = Int.random(in: 50_000...1_500_000, using: &generator)
            let real = Int.random(in: 20_000...2_000_000, using: &generator)
            var estimate = BusRateEstimate(hertz: configured)
            for write in 0..<BusRateEstimate.window {
                let bytes = Int.random(in: 20...1100, using: &generator)
                let transactions = Int.random(in: 1...6, using: &generator)
                estimate.record(
                    bits: FramePacer.bits(bytes: bytes, transactions: transactions),
                    took: FramePacer.busTime(bytes: bytes, transactions: transactions, hertz: real))
                // Two writes outvote the configured clock; one faster than it is believed at once.
                if write >= 1 || real > configured {
                    #expect(abs(estimate.hertz - real) * 100 <= real, "configured \(configured), real \(real)")
                }
            }
        }
    }

    @Test func oneSlowWriteMovesNeitherTheEstimateNorTheFrameInterval() {
        var pacer = FramePacer(busHertz: 400_000)
        var now = Timestamp.zero
        func frame(bytes: Int, took: TimeSpan) {
            #expect(pacer.decide(at: now, animating: true, nextDeadline: nil) == .drawFrame)
            pacer.frameSent(bytes: bytes, transactions: 4, at: now)
            pacer.written(took: took)
            now = max(pacer.busFreeAt, now + pacer.frameInterval)
        }
        for _ in 0..<10 { frame(bytes: 120, took: FramePacer.busTime(bytes: 120, transactions: 4, hertz: 400_000)) }
        let steady = (pacer.busRate, pacer.frameInterval)
        #expect(steady.1 == FramePacer.sixtyHertz)
        // The process preempted mid-write, or a retried transfer: ten times as long, once.
        frame(bytes: 120, took: FramePacer.busTime(bytes: 120, transactions: 4, hertz: 40_000))
        #expect(pacer.busRate.picosecondsPerBit == steady.0.picosecondsPerBit)
        #expect(pacer.frameInterval == FramePacer.sixtyHertz)
        // The bus stays free at the real rate: the next frame is not held back by the outlier's estimate.
        for _ in 0..<3 { frame(bytes: 120, took: FramePacer.busTime(bytes: 120, transactions: 4, hertz: 400_000)) }
        #expect(pacer.busRate.hertz >= 399_000 && pacer.frameInterval == FramePacer.sixtyHertz)
    }

    @Test func aSlowBusStretchesTheFrameIntervalToWholeSixtiethsAndNoFurtherThanFour() {
        for (hertz, bytes, steps) in [
            (400_000, 300, Int64(1)), (100_000, 150, 1), (100_000, 300, 2), (100_000, 500, 3), (10_000, 300, 4),
        ] {
            var pacer = FramePacer(busHertz: hertz)
            pacer.frameSent(bytes: bytes, transactions: 4, at: .zero)
            pacer.written(took: FramePacer.busTime(bytes: bytes, transactions: 4, hertz: hertz))
            #expect(pacer.frameInterval == FramePacer.sixtyHertz * steps, "\(hertz) Hz, \(bytes) bytes")
            // A still frame (a whole one after a start) does not stretch it.
            var still = FramePacer(busHertz: hertz)
            still.frameSent(bytes: 1032, transactions: 2, at: .zero, moving: false)
            #expect(still.frameInterval == FramePacer.sixtyHertz)
        }
    }

    // MARK: Pacing

    @Test func noFrameIsDrawnBeforeTheBusIsFreeByTheMeasuredRateWhatever() {
        // Random buses, frames, turns and deadlines straight into the pacer; the shell reports each
        // write's real time. Whatever is due (input, an animation, a deadline), no frame goes
        // before the real bus has carried the last one.
        var generator = SeededGenerator(seed: 0xFAC3_0001)
        for _ in 0..<100 {
            let real = Int.random(in: 20_000...1_000_000, using: &generator)
            var pacer = FramePacer(busHertz: Int.random(in: 50_000...1_000_000, using: &generator))
            var realFree = Timestamp.zero
            var now = Timestamp.zero
            var drawn = 0
            for _ in 0..<300 {
                now = now + .milliseconds(Int64.random(in: 0...20, using: &generator))
                if Bool.random(using: &generator) { pacer.invalidate() }
                let deadline: Timestamp? =
                    Bool.random(using: &generator)
                    ? now - .milliseconds(Int64.random(in: 0...5, using: &generator)) : nil
                let decision = pacer.decide(
                    at: now, animating: Bool.random(using: &generator), nextDeadline: deadline)
                guard decision == .drawFrame else { continue }
                #expect(
                    now >= realFree,
                    "real \(real) Hz: a frame at \(now.nanoseconds), bus free at \(realFree.nanoseconds)")
                let bytes = Int.random(in: 0...1100, using: &generator)
                let transactions = bytes == 0 ? 0 : Int.random(in: 1...8, using: &generator)
                pacer.frameSent(bytes: bytes, transactions: transactions, at: now)
                guard bytes > 0 else { continue }
                let took = FramePacer.busTime(bytes: bytes, transactions: transactions, hertz: real)
                realFree = now + took
                pacer.written(took: took)
                drawn += 1
            }
            #expect(drawn > 5)
        }
    }

    @Test func throughTheEngineNoFrameGoesOnABusyBusAndTheGlassIsAlwaysTheFrame() {
        // bus_hz and the real bus disagree either way; slides and a spin, the shell timing its writes.
        for (configured, real) in [(400_000, 100_000), (100_000, 400_000), (1_000_000, 100_000), (400_000, 1_000_000)] {
            for detents in [Self.slides, Self.spin] {
                let run = Self.run(detents: detents, until: .milliseconds(6500), configured: configured, real: real)
                #expect(run.shell.writesOnBusyBus == 0, "bus_hz \(configured), real \(real)")
                #expect(run.glassMismatches == 0)
                // Slides keep within the budget by their offset: only a scrub's frames go in part.
                if detents == Self.slides { #expect(run.partialFrames == 0) }
                #expect(abs(run.shell.engine.pacer.busRate.hertz - real) * 100 <= real)
                #expect(run.glass.count == detents.count)
                // Latency bounded: the frame on the bus, then the newest one (the largest is 414 bytes).
                let bound = FramePacer.busTime(bytes: 414, transactions: 6, hertz: real) * 2
                #expect(run.glass.allSatisfy { $0 <= bound }, "bus_hz \(configured), real \(real): \(run.glass)")
            }
        }
        // A shell that does not time its writes leaves the pacer at bus_hz: frames pile up on the slow bus.
        let untimed = Self.run(
            detents: Self.slides, until: .milliseconds(6500), configured: 400_000, real: 100_000, timesWrites: false)
        #expect(untimed.shell.writesOnBusyBus > 0)
    }

    @Test func aSlowBusShowsSlidesInFewerLargerStepsAtAnEvenPaceNeverBackwards() {
        let fast = Self.run(detents: Self.slides, until: .milliseconds(6500), configured: 400_000, real: 400_000)
        let slow = Self.run(detents: Self.slides, until: .milliseconds(6500), configured: 400_000, real: 100_000)
        #expect(slow.frames * 3 < fast.frames * 2, "\(slow.frames) frames at 100 kHz, \(fast.frames) at 400 kHz")
        for run in [fast, slow] {
            #expect(zip(run.positions, run.positions.dropFirst()).allSatisfy { $0 <= $1 }, "\(run.positions)")
            #expect(run.shell.engine.presenter.pager.currentPage == Self.slides.count)
        }
        // After the first slide has shown what its frames cost, 100 kHz slides step every 2/60 s.
        let later = zip(slow.frameTimes, slow.frameTimes.dropFirst()).filter { $0.0 > .milliseconds(1100) }
        // (Gaps between slides, and the plate fading after one, are longer.)
        let gaps = later.map { $0.1 - $0.0 }.filter { $0 < .milliseconds(60) }
        #expect(!gaps.isEmpty && gaps.allSatisfy { $0 == FramePacer.sixtyHertz * 2 }, "\(gaps.map(\.nanoseconds))")
        let fastGaps = zip(fast.frameTimes, fast.frameTimes.dropFirst()).map { $0.1 - $0.0 }.filter {
            $0 < .milliseconds(60)
        }
        #expect(fastGaps.allSatisfy { $0 == FramePacer.sixtyHertz }, "\(fastGaps.map(\.nanoseconds))")
    }

    // MARK: Bus bytes at each speed

    /// Bytes ceilings for the scripted workloads: deterministic, as the renderer and the driver
    /// are. The times are reported (PACING_FIGURES=1), never asserted.
    @Test(arguments: [
        // The largest frame is held to the frame byte budget: 222 bytes at 400 kHz, 300 elsewhere.
        BusWorkload(slides: true, hertz: 100_000, frames: 46, bytes: 5_800, largest: 300),
        BusWorkload(slides: true, hertz: 400_000, frames: 87, bytes: 8_500, largest: 222),
        BusWorkload(slides: true, hertz: 1_000_000, frames: 87, bytes: 8_700, largest: 300),
        // (The crown's feel, which steps a scrub through every page and ends it with a bounce at
        // an end, draws this spin with one frame and about 300 bytes more than before it; the
        // budget, which sends a scrub's larger frames in two, with 10 to 15 frames more.)
        BusWorkload(slides: false, hertz: 100_000, frames: 106, bytes: 18_900, largest: 300),
        BusWorkload(slides: false, hertz: 400_000, frames: 112, bytes: 18_900, largest: 222),
        BusWorkload(slides: false, hertz: 1_000_000, frames: 108, bytes: 19_000, largest: 300),
    ])
    func theScriptedWorkloadsStayUnderTheirBusByteCeilings(_ workload: BusWorkload) {
        let run = Self.run(
            detents: workload.slides ? Self.slides : Self.spin, until: .milliseconds(6500), configured: workload.hertz,
            real: workload.hertz)
        #expect(run.frames <= workload.frames && run.bytes <= workload.bytes && run.largestFrame <= workload.largest)
        #expect(run.shell.writesOnBusyBus == 0)
        if ProcessInfo.processInfo.environment["PACING_FIGURES"] != nil {
            let glass = run.glass.map(\.nanoseconds)
            print(
                "bus \(workload.hertz) Hz, \(workload.slides ? "slides" : "spin"): \(run.frames) frames, "
                    + "\(run.bytes) bytes, largest \(run.largestFrame), glass mean "
                    + "\(glass.reduce(0, +) / Int64(max(1, glass.count)) / 1000) us, max \((glass.max() ?? 0) / 1000) us"
            )
        }
    }
}

/// A scripted workload at one bus speed and its ceilings.
struct BusWorkload: Sendable, CustomTestStringConvertible {
    var slides: Bool
    var hertz: Int
    var frames: Int
    var bytes: Int
    var largest: Int

    var testDescription: String { (slides ? "slides" : "spin") + " at " + String(hertz / 1000) + " kHz" }
}
