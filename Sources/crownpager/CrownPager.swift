import ArgumentParser
import CrownPagerApp

/// The command-line program: the pager mocked in the terminal, headless renders, and more.
@main
struct CrownPager: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crownpager",
        abstract: "watchOS-style vertical pages on an SSD1306 OLED, turned by a rotary encoder.",
        // No empty line: generate-manual copies it into crownpager.1, where groff warns about one.
        discussion: """
            On a Raspberry Pi wired as in Hardware/, `crownpager` runs the pager on the panel, turned by \
            the knob; on a desktop it runs in this terminal against an SSD1306 emulator: Down/j/wheel \
            turns to the next page, Up/k back, Enter or space presses the crown, q quits.
            Exit statuses (sysexits.h): 0 success; 64 a wrong command line; 65 bad data (a PBM, PNG \
            or XBM picture, a crown script, a trace); 66 an input file missing or unreadable; 69 a \
            device unavailable (no panel answers, no GPIO chip or input device, no terminal for the \
            mock); 73 an output path that cannot be written (a folder, a block device); 74 an I/O \
            error (a device failing midway, an output file); 78 a bad configuration file; 128 + N \
            when signal N ends the terminal mock. notify, show, set, status, brightness, display and \
            press give 65 for a request the running pager refused and 69 when no pager listens at the control socket.
            """,
        version: BuildVersion.text,
        subcommands: [
            RunCommand.self, RenderCommand.self, ReplayCommand.self, DoctorCommand.self, CheckCommand.self,
            WiringDiagramCommand.self, NotifyCommand.self, ShowCommand.self, SetCommand.self, StatusCommand.self,
            BrightnessCommand.self,
            DisplayCommand.self, PressCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )

    /// Runs the command; the parser's own messages (which quote the command line) reach standard error
    /// through `OperatorLog` (as errors), so control characters in them are escaped like every other message's.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let status = exitCode(for: error)
            // Help and --version go to standard output as the parser writes them.
            guard !status.isSuccess else { exit(withError: error) }
            let message = fullMessage(for: error)
            if !message.isEmpty { OperatorLog.error(message) }
            exit(withError: ExitCode(status.rawValue))
        }
    }
}
