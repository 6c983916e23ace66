import ArgumentParser
import CrownPagerApp
import GlassViews
import PagerEngine
import PagerTools
import SSD1306

/// `crownpager replay`: a trace into the emulator, the glass out.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Feed an I2C trace (i2ctransfer lines) to the SSD1306 emulator and show what the glass shows.",
        discussion: """
            Without --out the glass is printed as text (half blocks). Anything the emulator finds \
            wrong (an unknown command, a write to another address) is listed on standard error. \
            The trace is read a line at a time, so one of any length replays in little memory; \
            a line longer than 1 MiB is refused.
            """)

    @Argument(help: ArgumentHelp("The trace file, one i2ctransfer write per line.", valueName: "trace"))
    var trace: String

    @Option(help: "The panel: \(SSD1306Panel.all.map(\.name).joined(separator: ", ")).")
    var panel: String = SSD1306Panel.ssd1306_128x64.name

    @Option(help: "The address the emulated panel answers at: 0x3c or 0x3d; \(addressSyntax).")
    var address: String = "0x3c"

    @Option(help: ArgumentHelp("Write the glass as PBM and PNG files into this folder.", valueName: "dir"))
    var out: String?

    @Flag(help: "With --out, write the glass after every display-data transaction too.")
    var everyFrame = false

    func validate() throws {
        guard SSD1306Panel.all.contains(where: { $0.name == panel.lowercased() }) else {
            throw ValidationError(
                "unknown panel '\(panel)': choose one of \(SSD1306Panel.all.map(\.name).joined(separator: ", "))")
        }
        _ = try addressOption(address)
    }

    var parsedAddress: I2CAddress? {
        I2CAddress(parsing: address)
    }

    func run() throws {
        guard let panel = SSD1306Panel.all.first(where: { $0.name == self.panel.lowercased() }),
            let address = parsedAddress
        else {
            throw ExitCode.validationFailure
        }
        // The whole trace first, writing nothing: a trace that is wrong on its last line writes
        // no frames, and the emulator's problems are listed before any frame is written.
        var replay = TraceReplay(panel: panel, address: address, everyFrame: everyFrame)
        let read = try replayTrace(into: &replay).bytes
        for diagnostic in replay.diagnostics { OperatorLog.warning("crownpager: \(trace): \(diagnostic)") }
        let unlisted = replay.diagnosticCount - replay.diagnostics.count
        if unlisted > 0 { OperatorLog.warning("crownpager: \(trace): \(unlisted) more problems") }
        guard let out else {
            for line in TerminalGlassRenderer.halfBlockLines(replay.emulator.glass) { print(line) }
            return
        }
        let output = FrameOutput(directory: out)
        var written = 0
        if everyFrame {
            // Again, each frame written as it comes and dropped: a trace of any length makes
            // frames in the memory of one.
            replay = TraceReplay(panel: panel, address: address, everyFrame: true)
            written = try replayTrace(into: &replay, writingTo: output, byteLimit: read).frames
        }
        if let last = replay.finalFrame {
            try report { try output.write([last]) }
            written += 1
        }
        print("wrote \(written) frames to \(out)")
    }

    /// Replays the trace into `replay`, writing frames to `output`, at most `byteLimit` bytes of
    /// it; returns the bytes read and the frames written. Its errors end the program with their
    /// message and status.
    private func replayTrace(
        into replay: inout TraceReplay, writingTo output: FrameOutput? = nil, byteLimit: Int = .max
    ) throws -> (bytes: Int, frames: Int) {
        do throws(CrownPagerError) {
            return try TraceFile.replay(trace, into: &replay, writingTo: output, byteLimit: byteLimit)
        } catch {
            if case .readLines = error { throw fail(error, prefix: "cannot read the trace: ") }
            throw fail(error)
        }
    }
}
