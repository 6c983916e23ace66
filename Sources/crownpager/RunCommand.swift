import ArgumentParser
import CrownPagerApp
import PagerCore

/// `crownpager run` (the default): the pager, mocked in the terminal when no hardware is configured.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the pager; with no hardware configured, in this terminal against an SSD1306 emulator.",
        discussion: """
            Keys: Down, j or the mouse wheel turn the crown to the next page; Up or k back; \
            Page Down/Up turn five detents; Enter or space press the crown (back to the first page); \
            l stands for a long press (the list of page titles: turn to pick, press to jump); \
            r redraws; q or Ctrl-C quits and restores the terminal. Works inside tmux and over SSH; \
            at 128 columns or more the glass is drawn with half blocks, otherwise with braille. \
            With --i2c-bus N the pager drives a real SSD1306 or SH1106 on /dev/i2c-N instead; the \
            terminal's keys still turn the crown when it runs in a terminal.
            """)

    @OptionGroup var display: DisplayOptions
    @OptionGroup var pagerOptions: PagerOptions
    @OptionGroup(title: "Real panel") var hardware: HardwareOptions
    @OptionGroup(title: "Crown on GPIO lines (with --i2c-bus)") var gpio: GPIOOptions

    @Flag(help: "With --i2c-bus: leave the last picture on the panel at exit instead of blanking it and switching it off.")
    var persist = false

    @Option(help: ArgumentHelp(
        "Run the pages, display and crown of this configuration file (SIGHUP reloads it); 'built-in' for the default.",
        valueName: "file"))
    var config: String?

    @Flag(help: "With --config: draw in this terminal against the emulator, whatever the file's display bus says.")
    var mock = false

    func run() throws {
        if let config {
            var configuration = Configuration.builtIn
            if config != "built-in" { try report { configuration = try Configuration.load(path: config) } }
            let run = ConfiguredRun(
                configuration: configuration, path: config == "built-in" ? nil : config, mock: mock,
                tracePath: display.trace, persist: persist)
            try report { try run.run() }
            return
        }
        guard let panel = display.resolvedPanel else { throw ExitCode.validationFailure }
        var style = PageIndicatorStyle()
        try report { style = try pagerOptions.indicatorStyle() }
        let pages = demoPages(clock: SampleReadings.clock, system: SampleReadings.system, count: pagerOptions.pages)
        for warning in PagerWarning.check(pages: pages, images: style.images) {
            printError("crownpager: warning: \(warning)")
        }
        if let busPath = hardware.busPath, let address = hardware.parsedAddress {
            var run = HardwareRun(
                panel: panel, busPath: busPath, address: address, settings: hardware.settings,
                pagerConfiguration: pagerOptions.pagerConfiguration, crownConfiguration: pagerOptions.crownConfiguration,
                indicatorStyle: style, tracePath: display.trace, persist: persist, pageCount: pagerOptions.pages)
            try report {
                if let wiring = gpio.wiring { run.crown = try GPIOCrownSource(wiring: wiring) }
                try run.run()
            }
            return
        }
        if gpio.chip != nil { throw fail("--chip reads the crown for a real panel: give --i2c-bus too") }
        let mock = TerminalMock(
            panel: panel, pagerConfiguration: pagerOptions.pagerConfiguration,
            crownConfiguration: pagerOptions.crownConfiguration, indicatorStyle: style,
            tracePath: display.trace, pageCount: pagerOptions.pages)
        try report { try mock.run() }
    }
}

/// Runs `body`; an error the app explains becomes its message on standard error and exit status 1.
func report(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as AppError {
        throw fail(error.description)
    }
}

/// Reads a whole text file the user named, or explains why not and exits with status 1.
func readTextFile(_ path: String, what: String) throws -> String {
    do throws(AppError) {
        return try TextFile.read(path, limit: 1 << 20)
    } catch {
        throw fail("cannot read the \(what): \(error)")
    }
}

/// Writes `message` to standard error and returns the exit status 1 to throw: for bad input
/// found while running, where the usage text would only hide the message.
func fail(_ message: String) -> ExitCode {
    printError("crownpager: \(message)")
    return ExitCode.failure
}
