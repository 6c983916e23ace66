import CrownVocabulary
import Foundation
import Glibc
import LinuxSystem
import PagerCore
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

@testable import CrownPagerApp
@testable import PagerEngine

/// The run shell's own turns, on the emulator with a virtual clock: input is taken before
/// frames, and the shell draws what `render` draws.
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

    /// A run shell on the emulator, its knob a crown script on the virtual clock.
    static func shell(
        _ script: CrownScript, configuration: Configuration = configuration(), trace: String? = nil,
        signals: TerminationSignals? = nil
    ) throws -> (LinuxShell, DeviceEngine, LinuxShellState) {
        let run = LinuxShell(configuration: configuration, path: nil, target: .emulator, tracePath: trace)
        run.knob = .script(ScriptCrownSource(script, start: .zero))
        var engine = try run.makeEngine(at: .zero)
        let display = configuration.display
        var loop = LinuxShellState(
            display: .emulator(SSD1306Emulator(panel: display.panel, address: display.address)), signals: signals,
            terminal: nil)
        try run.start(&engine, &loop, at: .zero)
        return (run, engine, loop)
    }

    @Test func aWindowChangeIsTakenWithoutEndingTheRunAndASignalBehindOneStillEndsIt() throws {
        // The signals of this thread (raise(3) sends them here), SIGWINCH among them as for the mock.
        let signals = try TerminationSignals(windowChanges: true)
        let script = try CrownScript(parsing: "@100ms +1")
        var (run, engine, loop) = try Self.shell(script, signals: signals)
        #expect(raise(SIGWINCH) == 0)
        let resized = try run.step(&engine, &loop, at: .milliseconds(100))
        #expect(resized == RunTurn(tookInput: true, drewFrame: true))
        #expect(engine.presenter.pager.currentPage == 1)
        // Taken: nothing is left to wake the loop again.
        #expect(try Readiness.wait(for: [signals.descriptor], timeoutMilliseconds: 0) == [false])

        #expect(raise(SIGWINCH) == 0 && raise(SIGTERM) == 0)
        let ended = try run.step(&engine, &loop, at: .milliseconds(116))
        #expect(ended.ended && ended.signal == .terminate)
        // The SIGWINCH behind it stays pending in this thread: taken here, not left to the next test it runs.
        #expect(signals.next() == .windowChange)
    }

    @Test func detentsThatArriveWhileAFrameIsDueAreInThatFrame() throws {
        // One detent at 100 ms starts a slide; two more come at 130 and 131 ms, while the bus still
        // carries the slide's first frame.
        let script = try CrownScript(parsing: "@1000ms +1\n@1030ms +1\n@1031ms +1")
        var slowBus = Self.configuration()
        slowBus.display.busHertz = 10_000  // a frame takes long enough for two more detents to come
        var (run, engine, loop) = try Self.shell(script, configuration: slowBus)
        #expect(engine.pacer.busFreeAt < .milliseconds(1000))
        #expect(try run.step(&engine, &loop, at: .milliseconds(1000)) == RunTurn(tookInput: true, drewFrame: true))
        let busFree = engine.pacer.busFreeAt
        #expect(busFree > .milliseconds(1031))

        // The same engine driven by hand, input first, and one that misses the late detents.
        var expected = VirtualShell(
            engine: try run.makeEngine(at: .zero), panel: .ssd1306_128x64, address: .ssd1306Primary)
        var sampler = SamplePageSampler()
        expected.feed(.start, at: .zero, sampler: &sampler)
        expected.turn(at: .zero, crown: [], sampler: &sampler)
        expected.turn(
            at: .milliseconds(1000), crown: [.rotated(detents: 1, at: .milliseconds(1000))], sampler: &sampler)
        var stale = expected
        let late = [
            CrownEvent.rotated(detents: 1, at: .milliseconds(1030)), .rotated(detents: 1, at: .milliseconds(1031)),
        ]
        expected.turn(at: busFree, crown: late, sampler: &sampler)
        stale.turn(at: busFree, crown: [], sampler: &sampler)

        // When the bus is free, the one turn takes both detents, then draws: the frame already shows them.
        #expect(try run.step(&engine, &loop, at: busFree) == RunTurn(tookInput: true, drewFrame: true))
        #expect(expected.glass != stale.glass)
        #expect(loop.display.base.glass == expected.glass)
        #expect(engine.presenter.pager.currentPage == 3)
    }

    @Test func runAndRenderDrawTheSameFramesAndTraceFromOneConfigurationAndScript() throws {
        // Pages without live values: the run shell reads this machine, the render fixed samples.
        let configuration = Self.configuration()
        let script = try CrownScript(parsing: "+1,+1,press,+2,-1,long-press,+1,press")
        var sampler = SamplePageSampler()
        let rendered = HeadlessRender(configuration: configuration, style: PageIndicatorStyle()).run(
            script, sampler: &sampler)

        // The run shell, its turns on a virtual clock: each turn at the instant the last one said to wake.
        let scratch = try ScratchDirectory()
        let trace = scratch.path + "/run.trace"
        try TraceFile.write(DisplayBatch(), format: .i2c(.ssd1306Primary), to: trace)
        var (run, engine, loop) = try Self.shell(script, configuration: configuration, trace: trace)
        var glasses: [Bitmap?] = [loop.display.base.glass]
        var now = Timestamp.zero
        let end = Timestamp.zero + script.duration
        while now <= end {
            let turn = try run.step(&engine, &loop, at: now)
            if turn.drewFrame { glasses.append(loop.display.base.glass) }
            if turn.ended { break }
            guard let wake = [engine.nextDeadline, run.knob?.wakeup.deadline].compactMap({ $0 }).min() else { break }
            now = max(now, wake)
        }
        #expect(try I2CTrace.parse(String(contentsOfFile: trace, encoding: .utf8)) == rendered.transfers)
        let sent = rendered.frames.filter { $0.name.contains("-frame-") }.map(\.glass)
        #expect(glasses.count == sent.count)
        #expect(glasses == sent.map { $0 })
    }
}
