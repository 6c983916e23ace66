import ArgumentParser
import CrownPagerApp
import SSD1306

/// `crownpager doctor display`: the bus, the address, the controller and a test pattern.
struct DoctorDisplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display",
        abstract: "Check the I2C bus and the display's address, guess SSD1306 or SH1106, and draw a test pattern.",
        discussion: """
            Tries 0x3c, then 0x3d (or only --address when given), reads the controller's status byte, \
            draws a border, corner marks and the panel's name, and says what to put in the configuration. \
            The pattern stays on the panel so you can look at it.
            """)

    @Option(
        name: .customLong("i2c-bus"), help: ArgumentHelp("The bus the display is on: /dev/i2c-<n>.", valueName: "n"))
    var i2cBus: Int = 1

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

    func validate() throws {
        guard (0...1023).contains(i2cBus) else {
            throw ValidationError("--i2c-bus must be a bus number such as 1, not \(i2cBus)")
        }
        if let address { _ = try addressOption(address) }
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
            settings: DisplaySettings(rotation: DisplayRotation(degrees: rotate) ?? .normal), tracePath: trace)
        try report(prefix: "\u{2717} ") { try doctor.run { print($0) } }
    }
}
