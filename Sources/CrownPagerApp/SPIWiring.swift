import LinuxSystem
import PagerEngine
import PagerSettings

extension DisplaySection {
    /// How a panel on SPI at `devicePath` is wired, by `[display]`: the GPIO chip, DC, RES and the clock.
    package func spiWiring(devicePath: String) -> SPIDisplayWiring {
        SPIDisplayWiring(
            devicePath: devicePath, chipPath: gpioChip, dataCommandLine: UInt32(clamping: dataCommandLine),
            resetLine: resetLine.map { UInt32(clamping: $0) }, hertz: UInt32(clamping: spiHertz))
    }
}
