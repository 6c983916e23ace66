import CrownVocabulary
import Foundation
import PagerCore
import PagerSettings
import PagerTools
import SSD1306
import Testing

@testable import PagerEngine

/// The run loop's pacing, simulated: the real run state and SSD1306 bytes, with time as a
/// parameter and the bus's speed modelled, so nothing sleeps and the figures are exact.
@Suite struct ConfigPacingTests {
    static func configuration(pages: [PageSpec], busHertz: Int = 400_000) -> Configuration {
        var configuration = Configuration()
        configuration.pages = pages
        configuration.display.bus = nil
        configuration.display.busHertz = busHertz
        configuration.display.dimAfter = nil
        configuration.display.offAfter = nil
        return configuration
    }

    static func state(_ configuration: Configuration) -> EngineHarness {
        var engine = DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero)
        _ = engine.handle(.start, at: .zero)
        return EngineHarness(engine: engine)
    }

    @Test func spinningAt30DetentsPerSecondOnA400kHzBusKeepsUpWithNoBacklog() {
        let pages = (1...60).map { PageSpec(title: "Page \($0)", kind: .text(String(repeating: "\($0) ", count: 40))) }
        var state = Self.state(Self.configuration(pages: pages))
        let render = TimeSpan.milliseconds(2)
        let detents = (0..<90).map { Timestamp.milliseconds(100) + TimeSpan(nanoseconds: Int64($0) * 33_333_333) }
        // The window commands and the 1024 data bytes; the first frame after init adds Display On (00h AFh).
        let fullFrame = FramePacer.busTime(bytes: 1032 + 2, transactions: 3, hertz: 400_000)

        var now = Timestamp.zero
        var next = 0  // the next detent not yet handled
        var handledUpTo = 0  // detents handled before the frame being drawn
        var shown = 0  // detents whose page has reached the glass
        var latencies: [TimeSpan] = []
        var frames = 0
        var maximumFrame = TimeSpan(nanoseconds: 0)
        while now < .milliseconds(3500) {
            // Every detent that arrived while the bus was busy is taken at once: the next frame shows the newest state.
            while next < detents.count, detents[next] <= now {
                state.handle(.rotated(detents: 1, at: detents[next]))
                next += 1
            }
            switch state.decide(at: now) {
            case .drawFrame:
                handledUpTo = next
                let transfers = state.drawFrame(at: now + render)
                let busTime = FramePacer.busTime(
                    bytes: transfers.reduce(0) { $0 + $1.bytes.count }, transactions: transfers.count, hertz: 400_000)
                maximumFrame = max(maximumFrame, busTime)
                frames += 1
                // The write blocks until the bus has carried the frame: then the glass shows it.
                now = state.engine.pacer.busFreeAt
                while shown < handledUpTo {
                    latencies.append(now - detents[shown])
                    shown += 1
                }
            case .wait(let until):
                let input = next < detents.count ? detents[next] : nil
                guard let wake = [until, input].compactMap({ $0 }).min() else {
                    now = .milliseconds(3500)
                    break
                }
                now = max(now, wake)
            }
        }
        #expect(latencies.count == detents.count)
        #expect(state.engine.presenter.pager.currentPage > 30)
        // Worst case: a detent just after a frame went out waits for it, then its own frame is rendered and sent.
        let bound = maximumFrame + render + maximumFrame
        #expect(
            latencies.allSatisfy { $0 <= bound },
            "latencies \(latencies.map(\.milliseconds)) ms, bound \(bound.milliseconds) ms")
        #expect(maximumFrame <= fullFrame)
        // No backlog: the last detents wait no longer than the first ones.
        let early = latencies.prefix(30).map(\.nanoseconds).max() ?? 0
        let late = latencies.suffix(30).map(\.nanoseconds).max() ?? 0
        #expect(late <= early)
        if ProcessInfo.processInfo.environment["PACING_FIGURES"] != nil {
            print(
                "pacing: \(frames) frames, max frame \(maximumFrame.nanoseconds / 1000) us, latency max \((latencies.map(\.nanoseconds).max() ?? 0) / 1000) us, mean \(latencies.map(\.nanoseconds).reduce(0, +) / Int64(max(1, latencies.count)) / 1000) us"
            )
        }
        // Once the spinning stops the glass settles: the plate fades at its deadlines (a deadline
        // that passed while the loop slept is drawn, not skipped), then no frame is drawn for nothing.
        var settling = 0
        while case .drawFrame = state.decide(at: now + .milliseconds(5000)), settling < 10 {
            _ = state.drawFrame(at: now + .milliseconds(5000))
            settling += 1
        }
        #expect(settling <= 2)
        #expect(state.decide(at: now + .milliseconds(5000)) == .wait(until: nil))
    }

    @Test func whenTheBusIsFreeADetentReachesTheGlassWithinOneFrameAndTheRender() {
        // Scrubbing shows pages at once (no slide), so the bus is idle when each detent comes.
        var state = Self.state(
            Self.configuration(pages: (1...40).map { PageSpec(title: "P\($0)", kind: .text("\($0)")) }))
        let render = TimeSpan.milliseconds(2)
        var now = Timestamp.milliseconds(100)
        // Settle the first frame, then three quick detents start a scrub.
        _ = state.drawFrame(at: now)
        for step in 0..<3 { state.handle(.rotated(detents: 1, at: now + .milliseconds(Int64(step) * 30))) }
        now = now + .milliseconds(60)
        _ = state.drawFrame(at: now)
        now = max(now, state.engine.pacer.busFreeAt) + .milliseconds(20)
        let detent = now
        state.handle(.rotated(detents: 1, at: detent))
        #expect(state.decide(at: now) == .drawFrame)
        let transfers = state.drawFrame(at: now + render)
        let frameTime = FramePacer.busTime(
            bytes: transfers.reduce(0) { $0 + $1.bytes.count }, transactions: transfers.count, hertz: 400_000)
        #expect(state.engine.pacer.busFreeAt - detent <= frameTime + render)
    }

    @Test func anIdlePagerWakesOnlyForItsRefreshes() {
        let pages = [
            PageSpec(
                title: "Clock",
                kind: .clock(time: try! ClockFormat.parse("%H:%M:%S").get(), date: try! ClockFormat.parse("%a").get())),
            PageSpec(title: "Note", kind: .text("static")),
            PageSpec(title: "Far", kind: .system([.load], refresh: .milliseconds(500))),
        ]
        var state = Self.state(Self.configuration(pages: pages))
        var now = Timestamp.zero
        var wakes: [Timestamp] = []
        var reads: [Int] = []
        var framesWithBytes = 0
        let end = Timestamp.milliseconds(10_000)
        while now <= end {
            var clock = SampleReadings.clock
            clock.second = Int(now.nanoseconds / 1_000_000_000) % 60
            let (pages, frame) = state.read(at: now, clock: clock)
            reads += pages
            if !frame.isEmpty { framesWithBytes += 1 }
            switch state.decide(at: now) {
            case .drawFrame:
                if !state.drawFrame(at: now).isEmpty { framesWithBytes += 1 }
            case .wait(let until):
                guard let until else {
                    now = end + .milliseconds(1)
                    continue
                }
                now = until
                if now <= end { wakes.append(now) }
            }
        }
        // The clock's second: ten wakes in ten seconds, one frame each; the far page (500 ms) is never read.
        #expect(wakes == (1...10).map { Timestamp.milliseconds(Int64($0) * 1000) })
        #expect(framesWithBytes == 11)
        #expect(!reads.contains(2))
        #expect(reads.filter { $0 == 0 }.count == 11)
    }

    @Test func theScreenDimsThenSwitchesOffAndTheFirstDetentOnlyWakesIt() {
        var configuration = Self.configuration(pages: (1...3).map { PageSpec(title: "P\($0)", kind: .text("\($0)")) })
        configuration.display.dimAfter = .milliseconds(60_000)
        configuration.display.offAfter = .milliseconds(600_000)
        var state = Self.state(configuration)
        _ = state.drawFrame(at: .zero)
        #expect(state.decide(at: .milliseconds(1)) == .wait(until: .milliseconds(60_000)))
        let dim = state.drawFrame(at: .milliseconds(60_000))
        #expect(state.engine.screen == .dimmed)
        #expect(dim.contains { $0.bytes.starts(with: [0x00, 0x81]) })  // Set Contrast Control (81h)
        #expect(state.decide(at: .milliseconds(60_001)) == .wait(until: .milliseconds(600_000)))
        let off = state.drawFrame(at: .milliseconds(600_000))
        #expect(state.engine.screen == .off && off.contains { $0.bytes == [0x00, 0xAE] })  // Set Display OFF (AEh)
        #expect(state.decide(at: .milliseconds(600_001)) == .wait(until: nil))

        state.handle(.rotated(detents: 1, at: .milliseconds(700_000)))
        let wake = state.drawFrame(at: .milliseconds(700_000))
        #expect(state.engine.screen == .bright && wake.contains { $0.bytes == [0x00, 0xAF] })  // Set Display ON (AFh)
        #expect(state.engine.presenter.pager.currentPage == 0 && state.engine.wakeEventsSwallowed == 1)
        state.handle(.rotated(detents: 1, at: .milliseconds(701_000)))
        #expect(state.engine.presenter.pager.currentPage == 1)
        // The tally the run's last line reports: the waking detent counted, not applied.
        state.handle(.rotated(detents: -2, at: .milliseconds(702_000)))
        state.handle(.pressed(at: .milliseconds(703_000)))
        state.handle(.rotated(detents: .min, at: .milliseconds(704_000)))
        let tally = state.engine.crownTally
        #expect(tally.detentsForward == 2 && tally.presses == 1)
        #expect(tally.detentsBack == .max && tally.detents == .max && tally.detentsApplied == .max)
        var small = CrownTally()
        small.count(.rotated(detents: 3, at: .zero), applied: true)
        small.count(.rotated(detents: -1, at: .zero), applied: false)
        #expect(small.detents == 4 && small.detentsApplied == 3 && small.detentsBack == 1)
    }
}

/// The engine driven by hand in a test: the shell's part (answers to reads) done on the spot.
struct EngineHarness {
    var engine: DeviceEngine

    /// A crown fact, at its own instant.
    mutating func handle(_ event: CrownEvent) { _ = engine.handle(.crown(event), at: event.timestamp) }

    /// What the engine does next at `now`, in the pacer's words: draw now, or wait until when.
    mutating func decide(at now: Timestamp) -> FramePacer.Decision {
        guard let deadline = engine.nextDeadline else { return .wait(until: nil) }
        return deadline <= now ? .drawFrame : .wait(until: deadline)
    }

    /// Ticks at `now`, answering reads with the sample readings (the clock at `clock`); the pages
    /// read, and the frame the engine drew once their values were in.
    mutating func read(at now: Timestamp, clock: ClockReading = SampleReadings.clock)
        -> (pages: [Int], frame: DisplayBatch)
    {
        var pages: [Int] = []
        var frame = DisplayBatch()
        let effects = engine.handle(.tick, at: now)
        if effects.readsClock {
            pages += engine.book.specs.indices.filter {
                engine.schedule.isInFlight($0) && engine.book.specs[$0].isClockPage
            }
            frame.append(contentsOf: engine.handle(.clock(clock), at: now).display)
        }
        for read in effects.reads {
            pages.append(read.page)
            guard let answer = SamplePageSampler().answer(read, at: now) else { continue }
            frame.append(contentsOf: engine.handle(answer, at: now).display)
        }
        return (pages, frame)
    }

    /// Ticks at `now`, its reads answered: the transfers that went out (the frame comes with the
    /// last value when values were asked for).
    mutating func drawFrame(at now: Timestamp) -> [I2CTransfer] {
        let effects = engine.handle(.tick, at: now)
        var sent = effects.display
        if effects.readsClock { sent.append(contentsOf: engine.handle(.clock(SampleReadings.clock), at: now).display) }
        for read in effects.reads {
            guard let answer = SamplePageSampler().answer(read, at: now) else { continue }
            sent.append(contentsOf: engine.handle(answer, at: now).display)
        }
        return sent.transfers(at: .ssd1306Primary)
    }
}

extension PageSpec {
    var isClockPage: Bool {
        if case .clock = kind { return true }
        return false
    }
}
