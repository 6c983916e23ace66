import ArgumentParser
import CrownPagerApp
import LinuxSystem
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools

/// `crownpager wiring-diagram --out FILE`: the wiring picture of Hardware/README.md, drawn by CrownPager itself.
///
/// I2C (the OLED on I2C1 and the knob) unless `--spi` is given or `--config` names a panel on SPI
/// (`display.bus = "spi0.0"`): then the 7-pin module on that controller, DC and RES on the
/// configured lines, which `--dc-line` and `--reset-line` override.
struct WiringDiagramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wiring-diagram",
        abstract: "Write the wiring diagram (the Pi's header, the OLED and the encoder) as a PNG.",
        shouldDisplay: false)

    @Option(help: ArgumentHelp("The PNG file to write.", valueName: "file"))
    var out: String

    @Option(help: "Each pixel as a square this many pixels wide (1 to 8).")
    var scale: Int = 2

    @Option(
        help: ArgumentHelp(
            "Draw a 7-pin module on SPI at /dev/spidevB.C, e.g. 0.0 (SPI0, CE0), instead of I2C.", valueName: "B.C"))
    var spi: String?

    @Option(name: .customLong("dc-line"), help: .setting("--dc-line"))
    var dcLine: Int?

    @Option(name: .customLong("reset-line"), help: .setting("--reset-line"))
    var resetLine: String?

    @Option(
        help: ArgumentHelp(
            "Draw the wiring this configuration file describes (display.bus, dc_line, reset_line).",
            valueName: "file"))
    var config: String?

    func validate() throws {
        guard (1...8).contains(scale) else { throw ValidationError("--scale must be between 1 and 8, not \(scale)") }
        if let spi { _ = try spiOption(spi) }
        try checkSPILines(dcLine: dcLine, resetLine: resetLine)
    }

    func run() throws {
        var display = Configuration.builtIn.display
        if let config { try report { display = try Configuration.load(path: config).display } }
        if let spi { display.spi = SPIDevice(parsing: spi) }
        if let dcLine { display.dataCommandLine = dcLine }
        if let resetLine { display.resetLine = resetLine == "none" ? nil : Int(resetLine) }
        var picture = WiringDiagram.render()
        if let device = display.spi {
            let wiring = SPIDiagramWiring(
                device: device, dataCommandLine: display.dataCommandLine, resetLine: display.resetLine)
            switch WiringDiagram.renderSPI(wiring) {
            case .success(let drawn): picture = drawn
            case .failure(let error): throw fail(.usage(error.message), prefix: "cannot draw the wiring: ")
            }
        }
        let png = PNG.encode(picture, scale: scale, lit: .black, dark: .white)
        do throws(FileSystemError) {
            try FileSystem.writeAtomically(png, toPath: out)
        } catch {
            throw fail(.writeFile(error), prefix: "cannot write the wiring diagram: ")
        }
    }
}
