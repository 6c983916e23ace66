import ArgumentParser
import CrownPagerApp
import PagerEngine
import PagerSettings
import SSD1306

/// The real panel: which bus and address, and how to show the picture on it.
struct HardwareOptions: ParsableArguments {
    @Option(name: .customLong("i2c-bus"), help: .setting("--i2c-bus", valueName: "n"))
    var i2cBus: Int?

    @Option(
        name: .customLong("spi"),
        help: ArgumentHelp(
            "Drive a panel on SPI at /dev/spidevB.C, e.g. 0.0 (SPI0, CE0: pin 24); DC and RES on --dc-line and --reset-line.",
            valueName: "B.C"))
    var spi: String?

    @Option(name: .customLong("dc-line"), help: .setting("--dc-line"))
    var dcLine: Int?

    @Option(name: .customLong("reset-line"), help: .setting("--reset-line"))
    var resetLine: String?

    @Option(help: .setting("--address"))
    var address: String?

    @Option(help: "Contrast from 0 to 255 alone (applied after --brightness).")
    var contrast: Int?

    @Flag(help: "Show lit pixels dark and dark pixels lit.")
    var invert = false

    func validate() throws {
        if let i2cBus, !(0...1023).contains(i2cBus) {
            throw ValidationError("--i2c-bus must be a bus number such as 1, not \(i2cBus)")
        }
        if let address { _ = try addressOption(address) }
        guard spi == nil || i2cBus == nil else { throw ValidationError("give --spi or --i2c-bus, not both") }
        if let spi { _ = try spiOption(spi) }
        try checkSPILines(dcLine: dcLine, resetLine: resetLine)
        if let contrast, !(0...255).contains(contrast) {
            throw ValidationError("--contrast must be between 0 and 255, not \(contrast)")
        }
    }

    var parsedAddress: I2CAddress? { address.flatMap { I2CAddress(parsing: $0) } }

    /// The flags given, laid over a configuration by `run`.
    func apply(to overrides: inout RunOverrides) {
        if let i2cBus { overrides.set(Settings.displayBus, .i2c(i2cBus)) }
        if let device = spi.flatMap({ SPIDevice(parsing: $0) }) { overrides.set(Settings.displayBus, .spi(device)) }
        if let dcLine { overrides.set(Settings.displayDataCommandLine, dcLine) }
        if let line = resetLine.flatMap({ Settings.displayResetLine.parse($0) }) {
            overrides.set(Settings.displayResetLine, line)
        }
        if let parsedAddress { overrides.set(Settings.displayAddress, parsedAddress) }
        overrides.contrast = contrast
        overrides.inverted = invert
    }
}

/// Checks `--dc-line` and `--reset-line` (a GPIO line, or `none` for RES tied high).
func checkSPILines(dcLine: Int?, resetLine: String?) throws(ValidationError) {
    if let dcLine, !(0...511).contains(dcLine) {
        throw ValidationError("--dc-line must be a GPIO line from 0 to 511, not \(dcLine)")
    }
    if let resetLine, resetLine != "none", Int(resetLine).map({ (0...511).contains($0) }) != true {
        throw ValidationError(
            "--reset-line must be a GPIO line from 0 to 511, or none when RES is tied high, not '\(resetLine)'")
    }
}

/// The device `--spi text` names (`0.0` or `spi0.0`); the error says how to write one.
func spiOption(_ text: String) throws(ValidationError) -> SPIDevice {
    guard let device = SPIDevice(parsing: text) else {
        throw ValidationError("--spi must be B.C for /dev/spidevB.C, such as 0.0, not '\(text)'")
    }
    return device
}

/// How `--address` is read, for the help of every command that takes it.
let addressSyntax = "0x3c and 3c are hexadecimal, digits alone (60) decimal"

/// The address `--address text` names, by `I2CAddress.rule`; the error states the rule.
func addressOption(_ text: String) throws(ValidationError) -> I2CAddress {
    guard let address = I2CAddress(parsing: text) else {
        throw ValidationError("--address must be \(I2CAddress.rule), not '\(text)'")
    }
    return address
}
