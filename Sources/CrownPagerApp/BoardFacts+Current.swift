import LinuxSystem
import PagerEngine

extension BoardFacts {
    /// The facts about this machine, read from the file system once: the device tree, the I2C
    /// adapters (`/dev/i2c-N`) and the GPIO chips.
    package static func current() -> BoardFacts {
        BoardFacts(
            hasDeviceTree: FileSystem.exists(atPath: "/proc/device-tree"), i2cBuses: I2CAdapters.present(),
            gpioChips: GPIOChips.present())
    }
}
