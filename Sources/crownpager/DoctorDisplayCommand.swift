import ArgumentParser
import CrownPagerApp
import LinuxSystem
import PagerEngine
import PagerSettings
import SSD1306

/// `crownpager doctor display`: the bus, the address, the controller and a test pattern.
struct DoctorDisplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display",
        abstract:
            "Check the I2C bus and the display's address (or the SPI device and lines), guess SSD1306 or SH1106, and draw a test pattern.",
        discussion: """
            Tries 0x3c, then 0x3d (or only --address when given), reads the controller's status byte, \
            draws a border, corner marks and the panel's name, and says what to put in the configuration. \
            The pattern stays on the panel so you can look at it. Then it lists the settings that protect \
            the panel from burn-in (dim_after, off_after, pixel_shift, invert_every) as --config sets them.
            """)

    @Option(
        name: .customLong("i2c-bus"), help: ArgumentHelp("The bus the display is on: /dev/i2c-<n>.", valueName: "n"))
    var i2cBus: Int = 1

    @Option(
        name: .customLong("spi"),
        help: ArgumentHelp(
            "Check a panel on SPI at /dev/spidevB.C instead, e.g. 0.0; SPI cannot read, so name the panel with --panel.",
            valueName: "B.C"))
    var spi: String?

    @Option(
        name: .customLong("dc-line"),
        help: ArgumentHelp("With --spi: the DC line (default 24, pin 18).", valueName: "n"))
    var dcLine: UInt32 = 24

    @Option(
        name: .customLong("reset-line"),
        help: ArgumentHelp(
            "With --spi: the RES line (default 25, pin 22), or none when RES is tied high.", valueName: "n"))
    var resetLine: String = "25"

    @Option(help: ArgumentHelp("With --spi: the GPIO chip of DC and RES.", valueName: "path"))
    var gpioChip: String = "/dev/gpiochip0"

    @Option(help: "Only try this address (default: 0x3c, then 0x3d); \(addressSyntax).")
    var address: String?

    @Option(
        help:
            "The panel to draw for: \(SSD1306Panel.all.map(\.name).joined(separator: ", ")) (default: from the status byte)."
    )
    var panel: String?

    @Option(help: "Rotate the pattern by 0 or 180 degrees.")
    var rotate: Int = 0

    @Option(
        help: ArgumentHelp(
            "Record every I2C write to this file, one i2ctransfer line per transaction.", valueName: "file"))
    var trace: String?

    @Option(
        help: ArgumentHelp(
            "Report the burn-in settings of this configuration file (default: the built-in defaults).",
            valueName: "file"))
    var config: String?

    func validate() throws {
        guard (0...1023).contains(i2cBus) else {
            throw ValidationError("--i2c-bus must be a bus number such as 1, not \(i2cBus)")
        }
        if let address { _ = try addressOption(address) }
        if let spi { _ = try spiOption(spi) }
        if resetLine != "none", UInt32(resetLine) == nil {
            throw ValidationError("--reset-line must be a GPIO line such as 25, or none, not '\(resetLine)'")
        }
        if let panel, SSD1306Panel.all.first(where: { $0.name == panel.lowercased() }) == nil {
            throw ValidationError(
                "unknown panel '\(panel)': choose one of \(SSD1306Panel.all.map(\.name).joined(separator: ", "))")
        }
        guard DisplayRotation(degrees: rotate) != nil else {
            throw ValidationError("--rotate must be 0 or 180, not \(rotate)")
        }
    }

    func run() throws {
        let doctor = DisplayDoctor(
            busPath: "/dev/i2c-\(i2cBus)",
            addresses: address.flatMap { I2CAddress(parsing: $0) }.map { [$0] } ?? [
                .ssd1306Primary, .ssd1306Secondary,
            ],
            panel: panel.flatMap { name in SSD1306Panel.all.first { $0.name == name.lowercased() } },
            settings: DisplaySettings(rotation: DisplayRotation(degrees: rotate) ?? .normal), tracePath: trace,
            spi: spi.flatMap { SPIDevice(parsing: $0) }.map {
                SPIDisplayWiring(
                    devicePath: $0.path, chipPath: gpioChip, dataCommandLine: dcLine, resetLine: UInt32(resetLine))
            })
        var display = Configuration.builtIn.display
        if let config { try report { display = try Configuration.load(path: config).display } }
        try report(prefix: "\u{2717} ") { try doctor.run { print($0) } }
        for line in PanelCare.report(display, source: config ?? "the built-in defaults") { print(line) }
    }
}
