import ArgumentParser
import CrownPagerApp
import CrownVocabulary
import GlassViews
import PagerCore
import PagerEngine
import PagerSettings
import PagerTools
import SSD1306

/// `crownpager render`: the pager without a terminal, frames to files.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract:
            "Write the glass after each crown step, and the frames of each transition, as PBM and PNG files or an animated GIF.",
        discussion: """
            Frames go through the SSD1306 encoder into the emulator, so the files show the glass, \
            exactly as the panel would. Crown steps: +N/-N detents, press, long-press, hold <time>, \
            wait <time>, and @<time> <step> for a step at an absolute time; separated by commas \
            (--crown) or lines (--script, where # starts a comment). --gif writes the same frames \
            as one animated GIF at their real times (at most 50 pictures a second, the last held a \
            second), looping.
            """ + "\n" + SettingFlags.help)

    @OptionGroup var display: DisplayOptions
    @OptionGroup var pagerOptions: PagerOptions
    @OptionGroup var settingFlags: SettingFlags

    @Option(help: ArgumentHelp("The folder the frames go to; created if missing.", valueName: "dir"))
    var out: String?

    @Option(
        help: ArgumentHelp("Write the frames as an animated GIF to this file, at their real times.", valueName: "file"))
    var gif: String?

    // Unconditional: the next word is the steps even when it starts with a dash, so that
    // `--crown -1` is a turn back and not an unknown option -1.
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Crown steps, e.g. \"+1,+1,-1,press\" or -1.", valueName: "steps"))
    var crown: String?

    @Option(help: ArgumentHelp("A crown script file with timed turns and presses.", valueName: "file"))
    var script: String?

    @Option(help: "Frames per second while something moves (1 to 240); run paces at 60.")
    var fps: Int = 60

    @OptionGroup(title: "Pictures") var picture: PictureOptions

    @Option(
        help: ArgumentHelp(
            "Draw the pages, display and indicator of this configuration file, as run does; 'built-in' for the default. Without it, the demo pages.",
            valueName: "file"))
    var config: String?

    @Flag(help: "Show fixed sample readings (10:09:30, a sample host) so frames are reproducible.")
    var frozen = false

    @Flag(help: "Write only the glass after each step, not the frames of each transition.")
    var stepsOnly = false

    @Flag(name: .customLong("no-png"), help: "Write PBM files only.")
    var noPNG = false

    func validate() throws {
        guard crown == nil || script == nil else { throw ValidationError("give --crown or --script, not both") }
        guard config == nil || pagerOptions.pages == nil else {
            throw ValidationError("--pages shows the demo pages: leave out --config")
        }
        guard (1...240).contains(fps) else { throw ValidationError("--fps must be between 1 and 240, not \(fps)") }
        guard out != nil || gif != nil else { throw ValidationError("say where the frames go: --out, --gif or both") }
    }

    func run() throws {
        guard let colours = picture.chosenPalette else { throw ExitCode.validationFailure }
        let scale = picture.scale ?? 4
        let scriptText: String
        if let script {
            scriptText = try readTextFile(script, what: "crown script")
        } else {
            scriptText = crown ?? ""
        }
        let parsed: CrownScript
        do {
            parsed = try CrownScript(parsing: scriptText)
        } catch {
            throw fail(.crownScript(error, script: script))
        }
        // The same configuration and overrides `run` would use: what is drawn here is what a panel shows.
        var overrides = RunOverrides()
        if let panel = display.chosenPanel { overrides.set(Settings.displayPanel, panel) }
        overrides.mock = true
        try report { try pagerOptions.apply(to: &overrides) }
        try settingFlags.apply(to: &overrides)
        var configuration = Configuration.demo(pageCount: pagerOptions.pages)
        if let config { try report { configuration = try config == "built-in" ? .builtIn : .load(path: config) } }
        configuration = overrides.applied(to: configuration)
        var style = PageIndicatorStyle()
        try report { style = try overrides.indicatorStyle(configuration) }
        let renderer = HeadlessRender(configuration: configuration, style: style, framesPerSecond: fps)
        // The trace may go into --out, which the render makes.
        if let trace = display.trace { try report { try TraceFile.checkFolder(of: trace, created: out) } }
        // Frames go to files as they come, the trace grows as it goes: memory stays flat however
        // long the script runs (a timed page's progress draws a frame every 1/60 s).
        let output = out.map { FrameOutput(directory: $0, png: !noPNG, scale: scale, palette: colours) }
        if let output { try report { try output.write([]) } }  // the folder first: the trace or GIF may go into it
        var trace: TraceFile?
        if let path = display.trace {
            try report { trace = try TraceFile(path: path, format: .of(configuration.display)) }
        }
        let panel = configuration.display.panel
        var recorder: GlassRecorder?
        if let gif {
            try report {
                recorder = try GlassRecorder(
                    path: gif, panel: panel, address: configuration.display.address, scale: scale, palette: colours)
            }
        }
        var written = 0
        var recordCount = 0
        var failure: CrownPagerError?
        func emit(_ frame: RenderedFrame, _ records: DisplayBatch) -> Bool {
            do throws(CrownPagerError) {
                try trace?.append(records)
                recordCount += records.count
                // The GIF shows every frame at its time, whatever --steps-only leaves out of the folder.
                recorder?.record(glass: frame.glass, at: .zero + frame.time)
                guard let output, !stepsOnly || !frame.name.contains("-frame-") else { return true }
                try output.write([frame])
                written += 1
                return true
            } catch {
                failure = error
                return false
            }
        }
        let log: [EngineLog]
        let unifontWarnings: [String]
        // Characters misc-fixed lacks come from GNU Unifont, as in run.
        if frozen {
            var sampler = UnicodePageSampler(SamplePageSampler())
            log = renderer.run(parsed, start: .zero, sampler: &sampler, emit: emit)
            unifontWarnings = sampler.warnings
        } else {
            var sampler = UnicodePageSampler(LivePageSampler())
            log = renderer.run(parsed, start: LiveReadings().monotonicNow(), sampler: &sampler, emit: emit)
            unifontWarnings = sampler.warnings
        }
        for warning in unifontWarnings { OperatorLog.warning("crownpager: warning: \(warning)") }
        for case .warning(let warning) in log { OperatorLog.warning("crownpager: warning: \(warning)") }
        if let failure { throw fail(failure) }
        if let recorder, let gif {
            try report { try recorder.finish(at: .zero + parsed.duration) }
            print("wrote \(recorder.counts.written) pictures of the glass to \(gif)")
        }
        if let out { print("wrote \(written) frames (\(noPNG ? "PBM" : "PBM and PNG")) to \(out)") }
        if let trace {
            try report { try trace.close() }
            let what = trace.format == .spi ? "SPI records" : "I2C transfers"
            print("wrote \(recordCount) \(what) to \(trace.path)")
        }
    }
}
