import ArgumentParser
import CrownPagerApp
import MockDisplay
import PagerEngine
import SSD1306

/// `crownpager replay`: a trace into the emulator, the glass out.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Feed an I2C trace (i2ctransfer lines) to the SSD1306 emulator and show what the glass shows.",
        discussion: """
            Without --out the glass is printed as text (half blocks). Anything the emulator finds \
            wrong (an unknown command, a write to another address) is listed on standard error.
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
        let text = try readTextFile(trace, what: "trace")
        let result: (frames: [RenderedFrame], diagnostics: [SSD1306Emulator.Diagnostic])
        do {
            result = try TraceReplay(panel: panel, address: address).run(text, everyFrame: everyFrame)
        } catch {
            throw fail(.trace(error, path: trace))
        }
        for diagnostic in result.diagnostics.prefix(20) { OperatorLog.warning("crownpager: \(trace): \(diagnostic)") }
        if result.diagnostics.count > 20 {
            OperatorLog.warning("crownpager: \(trace): \(result.diagnostics.count - 20) more problems")
        }
        if let out {
            try report { try FrameOutput(directory: out).write(result.frames) }
            print("wrote \(result.frames.count) frames to \(out)")
        } else if let glass = result.frames.last?.glass {
            for line in TerminalGlassRenderer.halfBlockLines(glass) { print(line) }
        }
    }
}
