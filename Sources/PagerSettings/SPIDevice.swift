/// A spidev device: SPI bus `bus`, chip select `chipSelect` (`/dev/spidev<bus>.<chipSelect>`).
package struct SPIDevice: Hashable, Sendable, CustomStringConvertible {
    /// The SPI controller: 0 is SPI0 on a Raspberry Pi (pins 19, 21, 23).
    package var bus: Int
    /// The chip select: 0 is CE0 (pin 24), 1 is CE1 (pin 26).
    package var chipSelect: Int

    /// The device on `bus` with chip select `chipSelect`.
    package init(bus: Int, chipSelect: Int) {
        self.bus = bus
        self.chipSelect = chipSelect
    }

    /// `0.0` or `spi0.0` (as `display.bus` writes it); nil for anything else.
    package init?(parsing text: String) {
        let numbers = text.hasPrefix("spi") ? text.dropFirst(3) : Substring(text)
        let parts = numbers.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let bus = Int(parts[0]), let select = Int(parts[1]), (0...255).contains(bus), (0...255).contains(select)
        else { return nil }
        self.init(bus: bus, chipSelect: select)
    }

    /// The device node, e.g. `/dev/spidev0.0`.
    package var path: String { "/dev/spidev\(bus).\(chipSelect)" }

    /// `spi0.0`, as `display.bus` takes it.
    package var description: String { "spi\(bus).\(chipSelect)" }

    /// How to write one, for every message about one (command line and file).
    package static let rule = "\"spiB.C\" for /dev/spidevB.C, e.g. \"spi0.0\" (SPI0, CE0)"
}
