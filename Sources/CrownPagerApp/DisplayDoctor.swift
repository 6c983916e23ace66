import LinuxSystem
import PagerEngine
import PagerSettings
import PagerTools
import SSD1306

/// `crownpager doctor display`: is the bus there, does a display answer, which controller,
/// and a test pattern to confirm size, offset and rotation by eye.
package struct DisplayDoctor {
    /// The adapter's device node, e.g. `/dev/i2c-1`.
    package var busPath: String
    /// The addresses to try, in order.
    package var addresses: [I2CAddress]
    /// The panel to draw for; nil picks one from the status byte.
    package var panel: SSD1306Panel?
    /// Rotation and the rest, applied to the pattern.
    package var settings: DisplaySettings
    /// Where to record the I2C trace, if anywhere.
    package var tracePath: String?
    /// A panel on SPI instead of `busPath`: its device, DC and RES lines.
    package var spi: SPIDisplayWiring?

    /// A check of `busPath` at `addresses`, or of the panel on `spi` when given.
    package init(
        busPath: String, addresses: [I2CAddress] = [.ssd1306Primary, .ssd1306Secondary], panel: SSD1306Panel? = nil,
        settings: DisplaySettings = DisplaySettings(), tracePath: String? = nil, spi: SPIDisplayWiring? = nil
    ) {
        self.spi = spi
        self.busPath = busPath
        self.addresses = addresses
        self.panel = panel
        self.settings = settings
        self.tracePath = tracePath
    }

    /// Runs the checks, telling `say` each finding; throws the first problem (`.display` with the
    /// bus, address and errno, or `.writeFile` for the trace).
    package func run(say: (String) -> Void) throws(CrownPagerError) {
        if let spi { return try runSPI(spi, say: say) }
        let bus: LinuxI2CBus
        do { bus = try LinuxI2CBus.open(path: busPath) } catch { throw .display(error) }
        say("\u{2713} \(busPath) opens")

        var found: (address: I2CAddress, status: ControllerStatus)?
        var firstMiss: I2CError?
        for address in addresses {
            do throws(I2CError) {
                found = (address, ControllerStatus(rawValue: try bus.readByte(from: address)))
                break
            } catch  where error.kind == .noAcknowledge {
                say("\u{00B7} nothing answers at \(address)")
                if firstMiss == nil { firstMiss = error }
            } catch {
                throw .display(error)
            }
        }
        guard let found else {
            throw firstMiss.map(CrownPagerError.display) ?? CrownPagerError.usage("no address to try")
        }
        let status = found.status
        say(
            "\u{2713} a display answers at \(found.address): status byte \(hex(status.rawValue)), display \(status.isDisplayOn ? "on" : "off")"
        )
        let guess = status.likelyController
        switch guess {
        case .sh1106?: say("\u{2713} the status byte suggests an SH1106 (a 1.3-inch module): use --panel sh1106-128x64")
        case .ssd1306?, .ssd1309?:
            say(
                "\u{2713} the status byte suggests an SSD1306 (or an SSD1309, which answers alike: a 2.42-inch "
                    + "module is one; use --panel ssd1309-128x64)")
        case .sh1107?:
            say(
                "\u{2713} the status byte carries the SH1107's ID (07h): a 64x128 or 128x128 module; use --panel "
                    + "sh1107-64x128 (a 128x64 module stood on its end) or sh1107-128x128")
        case nil: say("\u{00B7} the status byte does not say which controller this is")
        }
        if guess == .sh1107 {
            say(
                "  (the SH1107 datasheet documents that ID; which of its two sizes this is, only the test pattern shows)"
            )
        } else {
            say("  (a hint only: neither datasheet documents those bits; the test pattern decides)")
        }

        let chosen = panel ?? Self.defaultPanel(for: guess)
        try drawPattern(
            on: .i2c(I2CDisplayInterface(bus: bus, address: found.address)), panel: chosen,
            trace: .i2c(found.address), say: say)
        let configuration = "crownpager run --i2c-bus \(busNumber) --address \(found.address) --panel \(chosen.name)"
        for line in advice(for: chosen, configuration: configuration) { say(line) }
    }

    /// The SPI checks: the device and lines open (RES pulsed), then the pattern. SPI cannot read,
    /// so nothing tells the controller: the pattern for `panel` (an SSD1306 when not given) decides.
    private func runSPI(_ wiring: SPIDisplayWiring, say: (String) -> Void) throws(CrownPagerError) {
        let bus: SPIDisplayInterface
        do { bus = try SPIDisplayInterface.open(wiring) } catch { throw .spiDisplay(error) }
        let reset = wiring.resetLine.map { ", RES on GPIO\($0) pulsed low" } ?? ", RES not wired"
        say("\u{2713} \(wiring.devicePath) opens; DC on GPIO\(wiring.dataCommandLine)\(reset)")
        say(
            "\u{00B7} SPI has no read-back: the controller cannot say which it is; the pattern is drawn for "
                + "\((panel ?? .ssd1306_128x64).name) unless --panel names another (sh1106-128x64 for a 1.3-inch module, "
                + "ssd1309-128x64 for a 2.42-inch one, sh1107-64x128 or sh1107-128x128 for an SH1107)")
        let chosen = panel ?? .ssd1306_128x64
        try drawPattern(on: .spi(bus), panel: chosen, trace: .spi, say: say)
        var configuration = "crownpager run --spi \(spiName(wiring.devicePath)) --dc-line \(wiring.dataCommandLine)"
        configuration += " --reset-line \(wiring.resetLine.map(String.init) ?? "none") --panel \(chosen.name)"
        for line in advice(for: chosen, configuration: configuration) { say(line) }
    }

    /// Initialises the panel and draws the test pattern, recording the trace when asked.
    private func drawPattern(
        on display: RunDisplay, panel chosen: SSD1306Panel, trace format: TraceFile.Format, say: (String) -> Void
    ) throws(CrownPagerError) {
        var driver = SSD1306Driver(interface: TracingDisplay(display), panel: chosen, settings: settings)
        try driver.initialize()
        try driver.writeFrame(DisplayTestPattern.render(chosen))
        if let tracePath { try TraceFile.write(driver.interface.records, format: format, to: tracePath) }
        say(
            "\u{2713} drew the test pattern for \(chosen.name): a border on the outermost pixels, a filled square "
                + "top left, a hollow one bottom right, '\(chosen.name)' in the middle")
    }

    /// The panel to draw for when none is named: the status byte's controller, at its usual size.
    static func defaultPanel(for controller: SSD1306Controller?) -> SSD1306Panel {
        switch controller {
        case .sh1106?: return .sh1106_128x64
        case .sh1107?: return .sh1107_128x128
        default: return .ssd1306_128x64
        }
    }

    /// `0.0` for `/dev/spidev0.0`.
    private func spiName(_ path: String) -> String {
        path.hasPrefix("/dev/spidev") ? String(path.dropFirst("/dev/spidev".count)) : path
    }

    private func advice(for panel: SSD1306Panel, configuration base: String) -> [String] {
        let other: String
        switch panel.controller {
        case .sh1106: other = "128x64"
        case .sh1107: other = panel.width == 64 ? "sh1107-128x128" : "sh1107-64x128"
        default: other = "sh1106-128x64"
        }
        var configuration = base
        if settings.rotation == .rotated180 { configuration += " --rotate 180" }
        return [
            "Look at the panel:",
            "  - whole border, filled square top left: right as it is",
            "  - an edge of the border missing, or noise down one side: try --panel \(other)",
            "  - every other line lit, or the picture squashed or doubled: try --panel 128x32 (or 128x64)",
            "  - the filled square bottom right, text upside down: add --rotate \(settings.rotation == .normal ? 180 : 0)",
            "  - nothing lit on a 2.42-inch module: an SSD1309 needs --panel ssd1309-128x64, and a pulse on its RES pin "
                + "after power-up (Hardware/README.md)",
            "Configuration: \(configuration)",
        ]
    }

    private var busNumber: String {
        busPath.split(separator: "-").last.map(String.init) ?? "1"
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return byte < 0x10 ? "0x0" + digits : "0x" + digits
    }
}
