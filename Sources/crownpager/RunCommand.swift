import ArgumentParser
import CrownInput
import CrownPagerApp
import GlassViews
import LinuxSystem
import PagerCore
import PagerEngine
import PagerSettings

/// `crownpager run` (the default): the pager on the panel, or mocked in the terminal.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the pager: on the panel of a Raspberry Pi, or in this terminal against an SSD1306 emulator.",
        discussion: """
            The pages, display and knob come from --config FILE, else from the built-in \
            configuration (a system overview, the clock, CPU temperature, memory and disk), or the \
            demo with --demo. Flags override the configuration. Without a file, the pager drives the \
            panel on /dev/i2c-1 on a board with a device tree (a Pi), with the knob on GPIO17, 27 \
            and 22; elsewhere it runs in this terminal. --mock and --i2c-bus N choose explicitly. \
            Keys (always, in a terminal): Down, j or the mouse wheel turn the crown to the next page; \
            Up or k back; Page Down/Up turn five detents; Enter or space press the crown (back to the \
            first page); l stands for a long press (the list of page titles: turn to pick, press to \
            jump); r redraws; q or Ctrl-C quits and restores the terminal. Works inside tmux and over \
            SSH; at 128 columns or more the glass is drawn with half blocks, otherwise with braille.
            """ + "\n" + SettingFlags.help)

    @OptionGroup var display: DisplayOptions
    @OptionGroup var pagerOptions: PagerOptions
    @OptionGroup var settingFlags: SettingFlags
    @OptionGroup(title: "Real panel") var hardware: HardwareOptions
    @OptionGroup(title: "Crown on GPIO lines") var gpio: GPIOOptions

    @Option(help: .setting("--evdev", valueName: "/dev/input/eventN"))
    var evdev: String?

    @Flag(help: "No knob: only the terminal's keys turn the crown, whatever the configuration says.")
    var keyboard = false

    @Flag(help: "With a real panel: leave the last picture on it at exit instead of blanking it and switching it off.")
    var persist = false

    @Option(
        help: ArgumentHelp(
            "Run the pages, display and crown of this configuration file (SIGHUP reloads it); 'built-in' for the default.",
            valueName: "file"))
    var config: String?

    @Flag(
        help: """
            When the --config file does not load, run the built-in pages instead, the first one \
            showing the error (file:line): a service's panel then says what to fix. A reload (SIGHUP) \
            reads the file again.
            """)
    var builtInOnError = false

    @Flag(
        help:
            "Show the demo pages (a welcome, a clock, this machine, text, Unicode, a tall page) instead of the configuration's."
    )
    var demo = false

    @Flag(help: "Draw in this terminal against the emulator, whatever the configuration's display bus says.")
    var mock = false

    @Option(
        help: ArgumentHelp(
            "Record the glass (the mock's or a real panel's) as an animated GIF into this file, at real times.",
            valueName: "file"))
    var record: String?

    @OptionGroup(title: "Recording (--record)") var picture: PictureOptions

    @Option(
        help: ArgumentHelp(
            "Listen for crownpager notify, show, set and status on this socket; unset, "
                + "/run/crownpager/control.sock for the service, $XDG_RUNTIME_DIR/crownpager/control.sock for the mock.",
            valueName: "path"))
    var socket: String?

    func validate() throws {
        guard [gpio.chip != nil, evdev != nil, keyboard].filter({ $0 }).count <= 1 else {
            throw ValidationError("say where the crown is once: --chip, --evdev or --keyboard")
        }
        guard !(mock && hardware.i2cBus != nil) else { throw ValidationError("give --mock or --i2c-bus, not both") }
        guard !(mock && hardware.spi != nil) else { throw ValidationError("give --mock or --spi, not both") }
        guard config == nil || !(demo || pagerOptions.pages != nil) else {
            throw ValidationError("--demo and --pages show the demo pages: leave out --config")
        }
    }

    func run() throws {
        if let trace = display.trace { try report { try TraceFile.checkFolder(of: trace) } }
        var overrides = RunOverrides()
        if let panel = display.chosenPanel { overrides.set(Settings.displayPanel, panel) }
        overrides.mock = mock
        hardware.apply(to: &overrides)
        try report { try pagerOptions.apply(to: &overrides) }
        try settingFlags.apply(to: &overrides)
        if let wiring = gpio.wiring {
            overrides.crown = .gpio(wiring, QuadratureConfiguration())
        } else if let evdev {
            overrides.crown = .evdev(path: evdev, inverted: false)
        } else if keyboard {
            overrides.crown = .keyboard
        }

        var configuration = Configuration.builtIn
        let file = config == "built-in" ? nil : config
        // The built-in pages in place of a file that did not load: their knob is not one a file named.
        var fellBack = false
        if let file {
            do throws(CrownPagerError) {
                configuration = try Configuration.load(path: file)
            } catch {
                guard builtInOnError else { throw fail(error) }
                OperatorLog.warning("crownpager: runs the built-in pages: \(error)")
                configuration = .builtIn(rejecting: "\(error)")
                fellBack = true
            }
        }
        if demo || pagerOptions.pages != nil { configuration = Configuration.demo(pageCount: pagerOptions.pages) }
        let automatic = config == nil && hardware.i2cBus == nil && hardware.spi == nil && !mock
        let target = DisplayTarget.choose(
            for: overrides.applied(to: configuration).display, automatic: automatic, board: .current())
        let run = LinuxShell(
            configuration: configuration, path: file, target: target, overrides: overrides, tracePath: display.trace,
            persist: persist)
        run.controlSocketPath = socket ?? ControlSocketPath.forRun(mock: target == .emulator)
        run.softwareVersion = BuildVersion.number
        run.cameraPalette = picture.chosenPalette ?? .white
        if let palette = picture.chosenPalette { run.mirrorPalette = palette }
        run.mirrorScale = picture.scale ?? 4
        if let record, let palette = picture.chosenPalette {
            let display = overrides.applied(to: configuration).display
            try report {
                run.recorder = try GlassRecorder(
                    path: record, panel: display.panel, address: display.address, scale: picture.scale ?? 2,
                    palette: palette)
            }
        }
        var endedBy: ProcessSignal?
        try report {
            run.knob = try openCrown(
                overrides.crown, configured: configuration.crown, target: target,
                explicit: file != nil && !fellBack && configuration.crown.sourceIsExplicit)
            endedBy = try run.run()
        }
        // In a terminal a signal ends the mock as it ends any program there (128 + the signal, as
        // the shell reports it); a panel's run, a service, stops cleanly with 0.
        if target == .emulator, let endedBy { throw ExitCode(128 + endedBy.number) }
    }

    /// The knob: a flag's always (its failure is an error); on a panel, `[crown]` (an error when
    /// a file names its `source`, else a warning: the keys still work, the pages still show). The mock
    /// reads only the keys unless a flag names a knob: a desktop has no encoder on GPIO17.
    func openCrown(
        _ flag: CrownChoice?, configured: CrownSection, target: DisplayTarget, explicit: Bool
    ) throws(CrownPagerError) -> Knob? {
        if let flag { return try flag.open() }
        guard target != .emulator else { return nil }
        do throws(CrownPagerError) {
            return try CrownChoice(configured).open()
        } catch {
            guard !explicit else { throw .crownSource(source: configured.source, reason: error) }
            OperatorLog.warning("crownpager: no knob (\(error)); the terminal's keys turn the crown")
            return nil
        }
    }
}
