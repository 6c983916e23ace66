import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import Testing

@Suite struct TraceRoundTripTests {
    @Test(arguments: [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32])
    func aRendersTraceReplaysToTheSameGlass(panel: SSD1306Panel) throws {
        let script = try CrownScript(parsing: "+1,+1,press,+3,-1")
        var configuration = Configuration.demo()
        configuration.display.panel = panel
        var sampler = SamplePageSampler()
        let run = HeadlessRender(configuration: configuration, style: PageIndicatorStyle()).run(
            script, sampler: &sampler)
        let text = run.transfers.map { I2CTrace.format($0) }.joined(separator: "\n")
        let parsed = try I2CTrace.parse(text)
        #expect(parsed == run.transfers)

        var fresh = SSD1306Emulator(panel: panel)
        fresh.replay(parsed)
        #expect(fresh.glass == run.frames.last?.glass)
        #expect(fresh.diagnostics.isEmpty)
    }

    @Test func anSPIPanelsTraceOfCmdAndDataLinesReplaysToTheSameGlass() throws {
        let script = try CrownScript(parsing: "+1,+1,press,+3,-1")
        var records = DisplayBatch()
        var last: Bitmap?
        var sampler = SamplePageSampler()
        _ = HeadlessRender(configuration: .demo(), style: PageIndicatorStyle()).run(script, sampler: &sampler) {
            frame, sent in
            records.append(contentsOf: sent)
            last = frame.glass
            return true
        }
        let text = "# an SPI trace\n" + SPITrace.format(records)
        #expect(text.contains("\ncmd 0xae ") && text.contains("\ndata 0x"))
        var replay = TraceReplay(panel: .ssd1306_128x64, everyFrame: true)
        var frames: [RenderedFrame] = []
        for record in try SPITrace.parse(text) {
            if let frame = replay.replay(record.kind, record.bytes) { frames.append(frame) }
        }
        #expect(frames.last?.glass == last && replay.diagnostics.isEmpty && replay.finalFrame == nil)
        // One frame a data record, as for an I2C trace's data transactions.
        #expect(frames.count == records.filter { $0.kind == .data }.count)
    }

    @Test func unchangedFramesPutNothingOnTheBus() throws {
        // A wait changes no pixel: no frame is sent for it.
        var sampler = SamplePageSampler()
        let run = HeadlessRender(configuration: .demo(), style: PageIndicatorStyle()).run(
            try CrownScript(parsing: "+1\nwait 2s\n+1"), sampler: &sampler)
        // Updates are partial (only changed windows go out), so every data transaction after the
        // first frame changes the glass, and none is sent for a frame that did not change.
        var changes: [Bitmap] = []
        for frame in run.frames where changes.last != frame.glass { changes.append(frame.glass) }
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        var dataTransfers = 0
        for transfer in run.transfers {
            let before = emulator.glass
            emulator.write(transfer.bytes, to: transfer.address)
            guard transfer.bytes.first == 0x40 else { continue }
            dataTransfers += 1
            if dataTransfers > 1 { #expect(emulator.glass != before) }
        }
        #expect(dataTransfers >= changes.count)
        #expect(run.frames.count > changes.count)
    }
}

@Suite struct StreamingRenderTests {
    /// `render` hands frames over as they come and keeps none: the same frames and the same
    /// transfers as the run that collects them, however long the script.
    @Test func aStreamedRenderGivesTheSameFramesAndTransfers() throws {
        var configuration = Configuration.demo()
        configuration.timer.duration = .milliseconds(1000)
        configuration.timer.resumeAfter = .milliseconds(1000)  // the turn pauses the timer: it resumes within the wait
        let script = try CrownScript(parsing: "+1\nwait 3s\npress")
        let renderer = HeadlessRender(configuration: configuration, style: PageIndicatorStyle())
        var sampler = SamplePageSampler()
        let collected = renderer.run(script, sampler: &sampler)
        var frames: [RenderedFrame] = []
        var transfers: [I2CTransfer] = []
        var streamSampler = SamplePageSampler()
        _ = renderer.run(script, sampler: &streamSampler) { frame, sent in
            frames.append(frame)
            transfers += sent.transfers(at: configuration.display.address)
            return true
        }
        #expect(frames == collected.frames && transfers == collected.transfers)
        #expect(frames.count > 20)  // slides, and the timed pages moving on by themselves

        // Stopping early stops the run.
        var count = 0
        var stopSampler = SamplePageSampler()
        _ = renderer.run(script, sampler: &stopSampler) { _, _ in
            count += 1
            return count < 5
        }
        #expect(count == 5)
    }
}
