import CrownPagerGPIO
import Glibc

/// One GPIO line requested as an output through libgpiod (1.x or 2.x, as `GPIOLines`), such as a
/// display's D/C# or RES# pin.
///
/// It remembers the level it drives, so `set` to the same level again makes no system call: the
/// SPI display bus sets D/C# before every transaction, and most follow one of the same kind.
package final class GPIOOutputLine {
    /// The chip, e.g. `/dev/gpiochip0`.
    package let chipPath: String
    /// The line's offset on the chip (its BCM GPIO number on a Raspberry Pi).
    package let offset: UInt32
    /// The level driven now: true is high.
    package private(set) var level: Bool
    private var handle: OpaquePointer?

    /// Requests line `offset` of `chipPath` as an output driven to `initial` (true: high) from the start.
    package init(chipPath: String, offset: UInt32, initial: Bool, consumer: String = "crownpager") throws(GPIOError) {
        self.chipPath = chipPath
        self.offset = offset
        level = initial
        var failure = crownpager_gpio_failure()
        var line = CUnsignedInt(offset)
        var value: Int32 = initial ? 1 : 0
        guard let handle = crownpager_gpio_request_output(chipPath, consumer, &line, &value, 1, &failure) else {
            throw GPIOError(failure: failure, chipPath: chipPath, request: .requestOutput)
        }
        self.handle = handle
    }

    deinit { close() }

    /// Releases the line (it keeps its level on most chips); setting it afterwards fails with EBADF.
    package func close() {
        guard let handle else { return }
        crownpager_gpio_release(handle)
        self.handle = nil
    }

    /// Drives the line high (true) or low, unless it is there already.
    package func set(_ high: Bool) throws(GPIOError) {
        guard let handle else { throw setError(.badFileDescriptor) }
        guard high != level else { return }
        guard crownpager_gpio_set_value(handle, 0, high ? 1 : 0) == 0 else { throw setError(.current) }
        level = high
    }

    private func setError(_ errno: Errno) -> GPIOError {
        GPIOError(operation: .setValue, chipPath: chipPath, offset: offset, errno: errno)
    }
}
