import CrownVocabulary
import Glibc
import PagerCore
import PagerEngine
import SSD1306
import Testing

@testable import CrownPagerApp

/// A knob the test turns: its facts wait behind a pipe, so the run loop's poll(2) finds them as
/// it finds a real knob's.
final class PipeKnob: PollableCrownSource {
    private let readEnd: Int32
    private let writeEnd: Int32
    private var queued: [CrownEvent] = []

    /// A knob with nothing turned yet; nil when the system gives no pipe.
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Facts the loop has not read yet.
    var pending: Int { queued.count }

    /// Turns the knob: `events` become readable.
    func send(_ events: [CrownEvent]) {
        queued += events
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    var sourceDescription: String { "a pipe" }
    var glitchesFiltered: Int { 0 }
    var pollDescriptors: [Int32] { [readEnd] }
    var nextDeadline: Timestamp? { nil }

    func nextEvents(timeoutMilliseconds: Int) throws(CrownPagerError) -> [CrownEvent]? {
        // The loop asks only when the pipe is readable: this read does not block.
        var bytes = [UInt8](repeating: 0, count: 64)
        _ = read(readEnd, &bytes, bytes.count)
        defer { queued = [] }
        return queued
    }
}

/// The run loop's own turns, on the emulator with a virtual clock: input is taken before frames.
@Suite struct RunLoopInputTests {
    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.pages = (1...6).map {
            PageSpec(title: "Page \($0)", kind: .text(String(repeating: "\($0) ", count: 30)))
        }
        configuration.display.bus = nil
        configuration.display.dimAfter = nil
        configuration.display.offAfter = nil
        configuration.crown.acceleration = false
        return configuration
    }

    @Test func detentsThatArriveWhileAFrameIsDueAreInThatFrame() throws {
        let run = PagerRun(configuration: Self.configuration(), path: nil, target: .emulator)
        let knob = try #require(PipeKnob())
        run.crown = knob
        var state = try run.makeState(SSD1306Emulator(panel: .ssd1306_128x64), at: .zero)
        state.session.start()
        var loop = PagerRunLoop(signals: nil, terminal: nil, health: DisplayHealth(policy: run.retryPolicy))
        // The same state driven by hand, input first, and one that misses the late detents.
        var expected = try run.makeState(SSD1306Emulator(panel: .ssd1306_128x64), at: .zero)
        expected.session.start()
        var stale = expected

        // Turns at `now` until one draws, as the loop turns: a turn that only sleeps comes back at once.
        func frameTurn(at now: Timestamp) throws -> RunTurn {
            for _ in 0..<3 {
                let turn = try run.step(&state, &loop, at: now)
                if turn.drewFrame { return turn }
            }
            return RunTurn()
        }

        #expect(try frameTurn(at: .zero).drewFrame)
        let first = CrownEvent.rotated(detents: 1, at: .milliseconds(100))
        knob.send([first])
        #expect(try frameTurn(at: .milliseconds(100)).drewFrame)
        _ = (expected.drawFrame(at: .zero), stale.drawFrame(at: .zero))
        expected.handle(first)
        stale.handle(first)
        _ = (expected.drawFrame(at: .milliseconds(100)), stale.drawFrame(at: .milliseconds(100)))

        // Two detents come while the bus carries the slide's first frame; when it is done, the next frame is due.
        let late = [
            CrownEvent.rotated(detents: 1, at: .milliseconds(130)), .rotated(detents: 1, at: .milliseconds(131)),
        ]
        knob.send(late)
        let now = Timestamp.milliseconds(135)
        #expect(state.decide(at: now, inputPending: false) == .drawFrame)
        #expect(try frameTurn(at: now) == RunTurn(tookInput: true, drewFrame: true))
        #expect(knob.pending == 0)
        for event in late { expected.handle(event) }
        _ = (expected.drawFrame(at: now), stale.drawFrame(at: now))

        // That frame already shows both: the glass is the one drawn with them, not the stale one.
        let glass = state.session.display.bus.base.glass
        #expect(expected.session.display.bus.base.glass != stale.session.display.bus.base.glass)
        #expect(glass == expected.session.display.bus.base.glass)
        #expect(state.session.pager.currentPage == 3 && expected.session.pager.currentPage == 3)
    }
}
