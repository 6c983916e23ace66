import CrownVocabulary
import PagerCore
import PagerSettings
import PagerTools
import SSD1306
import Testing

@testable import PagerEngine

/// A shell that records what the runner asked of it, its panel answering or not.
private struct RecordingShell: EngineShell {
    var answers = true
    /// Each send: what caused it, and how many records.
    var sends: [(cause: String, records: Int)] = []
    var log: [EngineLog] = []
    var commandsStopped = 0
    var kept: [[PagerNotification]] = []

    mutating func send(_ records: DisplayBatch, for cause: EngineInput, at now: Timestamp) -> TimeSpan? {
        let name =
            switch cause {
            case .start: "start"
            case .tick: "tick"
            case .sampled: "sampled"
            case .clock: "clock"
            case .stop: "stop"
            default: "other"
            }
        sends.append((name, records.count))
        return answers ? .milliseconds(1) : nil
    }

    mutating func log(_ line: EngineLog) { log.append(line) }
    mutating func stopCommands() { commandsStopped += 1 }
    mutating func keepNotifications(_ notifications: [PagerNotification]) { kept.append(notifications) }
}

@Suite struct EngineRunnerTests {
    static func engine(firstPage: PageSpec) -> DeviceEngine {
        var configuration = DeviceEngineTests.configuration()
        configuration.pages[0] = firstPage
        return DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero)
    }

    @Test func theFirstTickAsksForTheValuesAndTheFrameComesAsTheyArriveInOneFeed() {
        var engine = Self.engine(
            firstPage: PageSpec(title: "Load", kind: .system([.load], refresh: .milliseconds(1000))))
        var shell = RecordingShell()
        var sampler = SamplePageSampler()
        EngineRunner.feed(.start, at: .zero, engine: &engine, shell: &shell, sampler: &sampler)
        #expect(shell.sends.map(\.cause) == ["start"])
        #expect(engine.nextDeadline == .zero)  // the first frame is due at once
        #expect(EngineRunner.feed(.tick, at: .zero, engine: &engine, shell: &shell, sampler: &sampler))
        // The tick asked; the value came back through the queue and the frame with it.
        #expect(shell.sends.map(\.cause) == ["start", "sampled"])
        #expect(engine.book.readings[0] != .pending && engine.nextDeadline == .milliseconds(1000))
    }

    @Test func aPageWithoutValuesIsDrawnByTheFirstTickItself() {
        var engine = Self.engine(firstPage: PageSpec(title: "Note", kind: .text("static")))
        var shell = RecordingShell()
        var sampler = SamplePageSampler()
        EngineRunner.feed(.start, at: .zero, engine: &engine, shell: &shell, sampler: &sampler)
        EngineRunner.feed(.tick, at: .zero, engine: &engine, shell: &shell, sampler: &sampler)
        #expect(shell.sends.map(\.cause) == ["start", "tick"])
    }

    @Test func aSendThatFailsIsFedBackAsDisplayFailed() {
        var engine = Self.engine(firstPage: PageSpec(title: "Note", kind: .text("static")))
        var shell = RecordingShell()
        var sampler = SamplePageSampler()
        EngineRunner.feed(.start, at: .zero, engine: &engine, shell: &shell, sampler: &sampler)
        shell.answers = false
        #expect(!EngineRunner.feed(.tick, at: .zero, engine: &engine, shell: &shell, sampler: &sampler))
        #expect(engine.health.failures == 1)
        #expect(shell.log.contains { if case .displayLost = $0 { return true } else { return false } })
        EngineRunner.feed(
            .stop(persist: false), at: .milliseconds(1000), engine: &engine, shell: &shell, sampler: &sampler)
        #expect(shell.commandsStopped == 1)
    }
}
