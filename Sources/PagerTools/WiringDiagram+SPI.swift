import PagerEngine
import PagerGraphics
import PagerSettings

/// What the SPI wiring diagram shows: the controller and chip select, and the GPIO lines of DC and RES.
package struct SPIDiagramWiring: Hashable, Sendable {
    /// `/dev/spidevB.C`: SPI0 or SPI1 and its chip select.
    package var device: SPIDevice
    /// `display.dc_line`: the BCM GPIO of D/C#.
    package var dataCommandLine: Int
    /// `display.reset_line`: the BCM GPIO of RES#, nil when RES is tied high.
    package var resetLine: Int?

    /// The wiring of `Hardware/README.md`'s SPI section unless told otherwise: SPI0 CE0, DC on GPIO24, RES on GPIO25.
    package init(device: SPIDevice = SPIDevice(bus: 0, chipSelect: 0), dataCommandLine: Int = 24, resetLine: Int? = 25)
    {
        self.device = device
        self.dataCommandLine = dataCommandLine
        self.resetLine = resetLine
    }
}

/// Why an SPI wiring cannot be drawn on the 40-pin header.
package enum SPIDiagramError: Error, Hashable, Sendable {
    /// The controller or chip select has no pins on the header (SPI0 has CE0 and CE1, SPI1 CE0 to CE2).
    case noSuchChipSelect(SPIDevice)
    /// A DC or RES line is not a GPIO of the header (GPIO0 to 27), or is one of the bus's own pins.
    case lineNotFree(role: String, line: Int)

    /// What an operator reads.
    package var message: String {
        switch self {
        case .noSuchChipSelect(let device):
            return "spi\(device.bus).\(device.chipSelect) has no pins on the 40-pin header: SPI0 has CE0 and CE1 "
                + "(spi0.0, spi0.1), SPI1 CE0 to CE2 (spi1.0 to spi1.2)"
        case .lineNotFree(let role, let line):
            return "\(role) GPIO\(line) is not a free GPIO of the 40-pin header: choose GPIO0 to 27 besides the SPI "
                + "pins, as dc_line = 24 and reset_line = 25 are"
        }
    }
}

extension WiringDiagram {
    /// The header pin of each BCM GPIO on the 40-pin header.
    static let gpioPins: [Int: Int] = [
        2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19, 9: 21, 25: 22,
        11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
    ]

    /// What each header pin carries, as the SPI diagram names it.
    static func signal(ofPin pin: Int) -> String {
        switch pin {
        case 1, 17: return "3V3"
        case 2, 4: return "5V"
        case 6, 9, 14, 20, 25, 30, 34, 39: return "GND"
        default: break
        }
        guard let gpio = gpioPins.first(where: { $0.value == pin })?.key else { return "" }
        let roles: [Int: String] = [
            10: " MOSI", 9: " MISO", 11: " SCLK", 8: " CE0", 7: " CE1", 2: " SDA1", 3: " SCL1", 14: " TXD", 15: " RXD",
            20: " MOSI1", 21: " SCLK1", 18: " CE0.1", 17: " CE1.1", 16: " CE2.1",
        ]
        return "GPIO\(gpio)" + (roles[gpio] ?? "")
    }

    /// The SPI controller's clock, data and chip-select GPIOs, or nil where the header has none.
    static func busLines(_ device: SPIDevice) -> (clock: Int, data: Int, select: Int)? {
        switch (device.bus, device.chipSelect) {
        case (0, 0...1): return (11, 10, device.chipSelect == 0 ? 8 : 7)
        case (1, 0...2): return (21, 20, [18, 17, 16][device.chipSelect])
        default: return nil
        }
    }

    /// The 7-pin SPI module (GND VCC D0 D1 RES DC CS) wired to `wiring`'s controller and lines,
    /// every wire labelled; an error when a line cannot be drawn on the header.
    ///
    /// Wires to the header's odd (left) column run straight across. Wires to its even column
    /// leave to the right and come back under the header, nested so that none crosses another:
    /// the lowest pin runs innermost.
    package static func renderSPI(_ wiring: SPIDiagramWiring) -> Result<Bitmap, SPIDiagramError> {
        switch spiWires(wiring) {
        case .success(let wires): return .success(drawSPI(wires: wires, wiring: wiring))
        case .failure(let error): return .failure(error)
        }
    }

    /// The header pins `wiring` uses, in order; empty when it cannot be drawn.
    package static func usedPins(of wiring: SPIDiagramWiring) -> [Int] {
        guard case .success(let wires) = spiWires(wiring) else { return [] }
        return wires.map { $0.pin }.sorted()
    }

    /// Each wire of `wiring`: the header pin, the module's pin and the wire's label.
    static func spiWires(_ wiring: SPIDiagramWiring) -> Result<
        [(pin: Int, devicePin: String, label: String)], SPIDiagramError
    > {
        guard let bus = busLines(wiring.device), let cs = gpioPins[bus.select] else {
            return .failure(.noSuchChipSelect(wiring.device))
        }
        // The bus's own pins, MISO too (SPI0: GPIO9, SPI1: GPIO19), though nothing is read back.
        let busGPIOs: Set<Int> = [bus.clock, bus.data, bus.select, wiring.device.bus == 0 ? 9 : 19]
        var wires: [(pin: Int, devicePin: String, label: String)] = [
            (20, "GND", "ground"), (17, "VCC", "3V3 power"),
            (gpioPins[bus.clock] ?? 0, "D0", "GPIO\(bus.clock) SCLK (clock)"),
            (gpioPins[bus.data] ?? 0, "D1", "GPIO\(bus.data) MOSI (data)"),
        ]
        let lines: [(String, Int?, String)] = [
            ("dc_line", wiring.dataCommandLine, "DC"), ("reset_line", wiring.resetLine, "RES"),
        ]
        for (role, line, devicePin) in lines {
            guard let line else { continue }
            guard let pin = gpioPins[line], !busGPIOs.contains(line) else {
                return .failure(.lineNotFree(role: role, line: line))
            }
            wires.append((pin, devicePin, "GPIO\(line) \(role)"))
        }
        wires.append((cs, "CS", "GPIO\(bus.select) CE\(wiring.device.chipSelect) (CS)"))
        let pins = wires.map { $0.pin }
        guard Set(pins).count == pins.count else {
            // Only DC and RES can land on one pin: the same GPIO given twice.
            return .failure(.lineNotFree(role: "reset_line", line: wiring.resetLine ?? wiring.dataCommandLine))
        }
        return .success(wires)
    }

    private static func drawSPI(wires: [(pin: Int, devicePin: String, label: String)], wiring: SPIDiagramWiring)
        -> Bitmap
    {
        let font = BitmapFont.fixed6x10
        let small = BitmapFont.fixed5x8
        let lastRow = max(13, ((wires.map { $0.pin }.max() ?? 26) + 1) / 2)
        let odd = wires.filter { $0.pin % 2 == 1 }.sorted { $0.pin < $1.pin }
        // Innermost first: the lowest even pin turns closest to the header.
        let even = wires.filter { $0.pin % 2 == 0 }.sorted { $0.pin > $1.pin }
        let headerBottom = top - 10 + pitch * lastRow + 2
        // The device's pins for the even wires sit below the header, each wire's way back under
        // them: every vertical then runs below all header rows and their labels.
        let evenDeviceY = { (index: Int) in headerBottom + 10 + 12 * index }
        let lastDeviceY = evenDeviceY(max(0, even.count - 1))
        let channelY = { (index: Int) in lastDeviceY + 10 + 7 * index }
        let turnX = { (index: Int) in evenX + 14 + 6 * index }
        let leftX = { (index: Int) in oddX - 17 - 6 * index }
        let labelX = turnX(even.count) + 8
        let deviceTop = rowY(odd.first?.pin ?? 1) - 30
        let deviceBottom = max(lastDeviceY + 12, deviceTop + 40)
        let height = max(channelY(even.count) + 30, deviceBottom + 30)
        var canvas = Bitmap(width: size.width, height: height)
        let device = "spi\(wiring.device.bus).\(wiring.device.chipSelect)"
        let reset = wiring.resetLine.map { "RES on GPIO\($0)" } ?? "RES tied high"
        canvas.drawText(
            "CrownPager wiring: OLED on SPI (\(device)), DC on GPIO\(wiring.dataCommandLine), \(reset)",
            at: Point(x: 6, y: 4), font: small)
        canvas.drawHorizontalLine(x: 6, y: 16, length: size.width - 12)
        drawSPIHeader(rows: lastRow, used: Set(wires.map { $0.pin }), labelX: labelX, into: &canvas, small: small)
        var devicePins: [(String, Int)] = odd.map { ($0.devicePin, rowY($0.pin)) }
        for (index, wire) in even.enumerated() { devicePins.append((wire.devicePin, evenDeviceY(index))) }
        drawDevice(
            ["OLED", "7-pin SPI"], pins: devicePins, top: deviceTop, bottom: deviceBottom, into: &canvas, font: font,
            small: small)
        for wire in odd {
            canvas.drawHorizontalLine(x: deviceRight, y: rowY(wire.pin), length: oddX - 7 - deviceRight)
            canvas.drawText(wire.label, at: Point(x: deviceRight + 8, y: rowY(wire.pin) - 9), font: small)
        }
        for (index, wire) in even.enumerated() {
            let y = rowY(wire.pin)
            let deviceY = evenDeviceY(index)
            // Out to the right, down under the header, back to the left, up to the device's pin.
            canvas.drawHorizontalLine(x: evenX + 7, y: y, length: turnX(index) - evenX - 6)
            canvas.drawVerticalLine(x: turnX(index), y: y, length: channelY(index) - y + 1)
            canvas.drawHorizontalLine(x: leftX(index), y: channelY(index), length: turnX(index) - leftX(index) + 1)
            canvas.drawVerticalLine(x: leftX(index), y: deviceY, length: channelY(index) - deviceY + 1)
            canvas.drawHorizontalLine(x: deviceRight, y: deviceY, length: leftX(index) - deviceRight + 1)
            canvas.drawText(wire.label, at: Point(x: deviceRight + 8, y: deviceY - 9), font: small)
        }
        let notes = [
            "The knob as in wiring.png: its + on pin 1 (3V3) while pin 17 feeds the OLED.",
            "GPIO numbers are BCM numbers. 3V3 only: the Pi's GPIOs are not 5V tolerant.",
        ]
        for (index, note) in notes.enumerated() {
            canvas.drawText(note, at: Point(x: 6, y: height - 24 + index * 11), font: small)
        }
        return canvas
    }

    private static func drawSPIHeader(
        rows: Int, used: Set<Int>, labelX: Int, into canvas: inout Bitmap, small: BitmapFont
    ) {
        canvas.drawText("Pi header", at: Point(x: oddX - 10, y: top - 22), font: small)
        canvas.strokeRoundedRect(
            Rect(x: oddX - 10, y: top - 10, width: evenX - oddX + 20, height: pitch * rows + 2), radius: 3)
        for row in 0..<rows {
            for (pin, x) in [(2 * row + 1, oddX), (2 * row + 2, evenX)] {
                let box = Rect(x: x - 7, y: rowY(pin) - 7, width: 15, height: 15)
                let label = String(pin)
                let origin = Point(x: box.x + (box.width - small.width(of: label)) / 2 + 1, y: box.y + 4)
                if used.contains(pin) {
                    canvas.fillRect(box)
                    canvas.drawText(label, at: origin, font: small, ink: .off)
                } else {
                    canvas.strokeRect(box)
                    canvas.drawText(label, at: origin, font: small)
                }
            }
            let even = 2 * row + 2
            canvas.drawText(signal(ofPin: even), at: Point(x: labelX, y: rowY(even) - 4), font: small)
            let odd = 2 * row + 1
            if !used.contains(odd) {
                let text = signal(ofPin: odd)
                canvas.drawText(text, at: Point(x: oddX - 12 - small.width(of: text), y: rowY(odd) - 4), font: small)
            }
        }
    }
}
