import LinuxHardware
import PagerEngine

extension DisplaySection {
    /// How a panel on SPI at `devicePath` is wired, by `[display]`: the GPIO chip, DC, RES and the clock.
    public func spiWiring(devicePath: String) -> SPIDisplayWiring {
        SPIDisplayWiring(
            devicePath: devicePath, chipPath: gpioChip, dataCommandLine: UInt32(clamping: dataCommandLine),
            resetLine: resetLine.map { UInt32(clamping: $0) }, hertz: UInt32(clamping: spiHertz))
    }
}

extension SPIDisplayWiring: CustomStringConvertible {
    /// The device and the lines, for the journal: `/dev/spidev0.0 (DC GPIO24, RES GPIO25, 8 MHz)`.
    public var description: String {
        let reset = resetLine.map { "RES GPIO\($0)" } ?? "RES not wired"
        let clock =
            hertz % 1_000_000 == 0 ? "\(hertz / 1_000_000) MHz" : "\(hertz / 1000) kHz"
        return "\(devicePath) (DC GPIO\(dataCommandLine), \(reset), \(clock) on \(chipPath))"
    }
}
