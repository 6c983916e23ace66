import PagerSettings
import PagerTools
import Testing

/// `crownpager wiring-diagram`'s SPI picture: which header pins a wiring uses, and the wirings
/// the 40-pin header cannot carry (BCM2835 ARM Peripherals §10: SPI0 has CE0 and CE1; SPI1, the
/// auxiliary SPI, CE0 to CE2).
@Suite struct WiringDiagramTests {
    @Test func theDefaultWiringUsesTheBusPinsAndItsTwoLines() throws {
        let pins = WiringDiagram.usedPins(of: SPIDiagramWiring())
        // SCLK pin 23, MOSI 19, CE0 24; DC GPIO24 on pin 18, RES GPIO25 on 22.
        for pin in [18, 19, 22, 23, 24] { #expect(pins.contains(pin), "pin \(pin) in \(pins)") }
        #expect(Set(pins).count == pins.count, "a pin wired twice: \(pins)")
        #expect(pins.allSatisfy { (1...40).contains($0) })
        #expect(try WiringDiagram.renderSPI(SPIDiagramWiring()).get().size.width > 0)
    }

    @Test func theSecondControllerAndItsThirdChipSelectAreDrawn() {
        let pins = WiringDiagram.usedPins(of: SPIDiagramWiring(device: SPIDevice(bus: 1, chipSelect: 2)))
        // SCLK1 GPIO21 pin 40, MOSI1 GPIO20 pin 38, CE2.1 GPIO16 pin 36.
        for pin in [36, 38, 40] { #expect(pins.contains(pin), "pin \(pin) in \(pins)") }
    }

    @Test(arguments: [
        SPIDevice(bus: 0, chipSelect: 2), SPIDevice(bus: 1, chipSelect: 3), SPIDevice(bus: 2, chipSelect: 0),
    ])
    func aChipSelectTheHeaderLacksIsNamed(_ device: SPIDevice) {
        let wiring = SPIDiagramWiring(device: device)
        #expect(WiringDiagram.usedPins(of: wiring).isEmpty)
        guard case .failure(let error) = WiringDiagram.renderSPI(wiring) else {
            Issue.record("spi\(device.bus).\(device.chipSelect) was drawn")
            return
        }
        #expect(error == .noSuchChipSelect(device))
        #expect(error.message.hasPrefix("spi\(device.bus).\(device.chipSelect) has no pins on the 40-pin header"))
    }

    /// MOSI, SCLK, CE0 and MISO (GPIO10, 11, 8, 9) are the bus's; GPIO28 and up are not on the header.
    @Test(arguments: [10, 11, 8, 9, 28, -1])
    func aDataCommandLineThatIsTheBusOrOffTheHeaderIsRefused(line: Int) {
        let wiring = SPIDiagramWiring(dataCommandLine: line)
        #expect(WiringDiagram.renderSPI(wiring) == .failure(.lineNotFree(role: "dc_line", line: line)))
        #expect(WiringDiagram.usedPins(of: wiring).isEmpty)
    }

    @Test func oneGPIOForBothLinesIsRefusedAsTheResetLine() {
        let wiring = SPIDiagramWiring(dataCommandLine: 24, resetLine: 24)
        #expect(WiringDiagram.renderSPI(wiring) == .failure(.lineNotFree(role: "reset_line", line: 24)))
    }
}
