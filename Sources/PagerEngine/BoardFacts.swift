import PagerSettings

/// What the shell found on the board the pager runs on, handed in as a value: the engine never
/// looks at the file system, so its choices are the same, and testable, on any machine.
package struct BoardFacts: Hashable, Sendable {
    /// Whether the board describes itself with a device tree (`/proc/device-tree`): a Raspberry Pi
    /// or another single-board computer, not a desktop PC or a virtual machine.
    package var hasDeviceTree: Bool
    /// The I2C adapters present, by number, in order: 1 for `/dev/i2c-1`.
    package var i2cBuses: [Int]
    /// The GPIO chips' device nodes present, in number order, e.g. `/dev/gpiochip0`.
    package var gpioChips: [String]

    /// Facts as the shell found them; the defaults describe a machine with none of them.
    package init(hasDeviceTree: Bool = false, i2cBuses: [Int] = [], gpioChips: [String] = []) {
        self.hasDeviceTree = hasDeviceTree
        self.i2cBuses = i2cBuses
        self.gpioChips = gpioChips
    }
}

/// The glass a run drives.
package enum DisplayTarget: Hashable, Sendable {
    /// The SSD1306 emulator, its glass drawn in this terminal: the mock.
    case emulator
    /// The real panel on this I2C adapter, e.g. `/dev/i2c-1`.
    case panel(busPath: String)
    /// The real panel on this SPI device, e.g. `/dev/spidev0.0`, its D/C# and RES# lines as `[display]` says.
    case spiPanel(devicePath: String)

    /// The target for `display` on `board`: the panel on its bus, or the emulator when the bus is `"mock"`.
    ///
    /// `automatic` (no file, no `--i2c-bus`, no `--mock`) drives the panel only on a board with
    /// a device tree (a Raspberry Pi) that has the bus: a desktop's `/dev/i2c-N` are its
    /// monitors' DDC lines, which must not receive display commands. A bus the user named is
    /// driven whatever the facts say: a missing one is then an error that names the fix.
    package static func choose(for display: DisplaySection, automatic: Bool, board: BoardFacts) -> DisplayTarget {
        guard let bus = display.bus else { return .emulator }
        // SPI is only ever asked for: the file's display.bus or --spi.
        if let spi = display.spi { return .spiPanel(devicePath: spi.path) }
        if automatic, !(board.hasDeviceTree && board.i2cBuses.contains(bus)) { return .emulator }
        return .panel(busPath: "/dev/i2c-\(bus)")
    }
}
