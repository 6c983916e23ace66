import CI2C
import CrownVocabulary
import Glibc
import SSD1306

/// Where a display on SPI is wired: its spidev device, its D/C# and RES# lines and the clock.
package struct SPIDisplayWiring: Hashable, Sendable, CustomStringConvertible {
    /// The spidev device node, e.g. `/dev/spidev0.0` (SPI0, chip select CE0).
    package var devicePath: String
    /// The GPIO chip of the D/C# and RES# lines, e.g. `/dev/gpiochip0`.
    package var chipPath: String
    /// The line of the display's D/C# pin (low: command, high: data).
    package var dataCommandLine: UInt32
    /// The line of the display's RES# pin, pulsed at open; nil when RES# is tied high or to the Pi's reset.
    package var resetLine: UInt32?
    /// The SPI clock, in hertz (SSD1306 datasheet 13: a 100 ns cycle, so at most 10 MHz).
    package var hertz: UInt32

    /// A display on `devicePath` with D/C# on `dataCommandLine` and RES# on `resetLine` of `chipPath`.
    package init(
        devicePath: String, chipPath: String = "/dev/gpiochip0", dataCommandLine: UInt32, resetLine: UInt32?,
        hertz: UInt32 = 8_000_000
    ) {
        self.devicePath = devicePath
        self.chipPath = chipPath
        self.dataCommandLine = dataCommandLine
        self.resetLine = resetLine
        self.hertz = hertz
    }

    /// The device and the lines, for the journal: `/dev/spidev0.0 (DC GPIO24, RES GPIO25, 8 MHz on /dev/gpiochip0)`.
    package var description: String {
        let reset = resetLine.map { "RES GPIO\($0)" } ?? "RES not wired"
        let clock = hertz % 1_000_000 == 0 ? "\(hertz / 1_000_000) MHz" : "\(hertz / 1000) kHz"
        return "\(devicePath) (DC GPIO\(dataCommandLine), \(reset), \(clock) on \(chipPath))"
    }
}

/// A display on 4-wire SPI (SSD1306 datasheet 8.1.3), through spidev and two GPIO lines: the
/// display interface the driver's records go through, as `I2CDisplayInterface` is on I2C.
///
/// Each record's kind sets D/C#: commands drive it low, display data high; its bytes go out with
/// SPI_IOC_MESSAGE, in pieces of at most spidev's buffer (4096 bytes unless its `bufsiz`
/// parameter says otherwise). Chip select (CE0 or CE1) picks the device: there is no address. Opening sets SPI mode 0, 8 bits a word and the clock, and
/// pulses RES# low when it is wired (datasheet 8.9 wants at least 3 us; 10 ms, then 10 ms before the
/// first command, as common drivers do). SPI cannot read: there is no status byte to ask.
package final class SPIDisplayInterface: DisplayInterface {
    /// Where the display is wired.
    package let wiring: SPIDisplayWiring
    /// The most bytes one SPI_IOC_MESSAGE carries.
    package let bufferSize: Int
    private var descriptor: Int32
    private let dataCommand: GPIOOutputLine
    private let reset: GPIOOutputLine?

    /// How long RES# is held low at open, and how long the controller is given after it.
    package static let resetPulse = TimeSpan.milliseconds(10)

    /// Opens the device and the lines, sets mode 0, 8 bits and the clock, and pulses RES# when wired.
    package static func open(_ wiring: SPIDisplayWiring) throws(SPIDisplayError) -> SPIDisplayInterface {
        let path = wiring.devicePath
        var descriptor: Int32
        repeat {
            descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC)
        } while descriptor < 0 && Glibc.errno == EINTR
        guard descriptor >= 0 else { throw .device(SPIError(operation: .open, path: path, errno: .current)) }
        let setup: [(SPIError.Operation, (Int32) -> Int32)] = [
            // Mode 0: CPOL 0, CPHA 0 (SPI_MODE_0), data sampled on the rising clock (datasheet 8.1.3).
            (.setMode, { crownpager_spi_set_mode($0, 0) }),
            (.setBitsPerWord, { crownpager_spi_set_bits_per_word($0, 8) }),
            (.setSpeed, { crownpager_spi_set_max_speed($0, wiring.hertz) }),
        ]
        for (operation, call) in setup where call(descriptor) != 0 {
            let error = SPIError(operation: operation, path: path, errno: .current)
            _ = Glibc.close(descriptor)
            throw .device(error)
        }
        let dataCommand: GPIOOutputLine
        var resetLine: GPIOOutputLine?
        do throws(GPIOError) {
            dataCommand = try GPIOOutputLine(chipPath: wiring.chipPath, offset: wiring.dataCommandLine, initial: false)
        } catch {
            _ = Glibc.close(descriptor)
            throw .dataCommandLine(error)
        }
        do throws(GPIOError) {
            if let line = wiring.resetLine {
                let reset = try GPIOOutputLine(chipPath: wiring.chipPath, offset: line, initial: true)
                try reset.set(false)
                sleep(for: resetPulse)
                try reset.set(true)
                sleep(for: resetPulse)
                // The line stays requested: released, a chip may let RES# float and the module's pull-down win.
                resetLine = reset
            }
        } catch {
            _ = Glibc.close(descriptor)
            throw .resetLine(error)
        }
        return SPIDisplayInterface(
            wiring: wiring, descriptor: descriptor, dataCommand: dataCommand, reset: resetLine,
            bufferSize: spidevBufferSize())
    }

    private init(
        wiring: SPIDisplayWiring, descriptor: Int32, dataCommand: GPIOOutputLine, reset: GPIOOutputLine?,
        bufferSize: Int
    ) {
        self.wiring = wiring
        self.descriptor = descriptor
        self.dataCommand = dataCommand
        self.reset = reset
        self.bufferSize = bufferSize
    }

    deinit { close() }

    /// Closes the device and releases the lines; later writes fail with EBADF. Safe to call twice.
    package func close() {
        dataCommand.close()
        reset?.close()
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    /// Sends one record: D/C# low for commands, high for display data, then its bytes on the wire.
    package func send(_ kind: DisplayRecordKind, _ bytes: ArraySlice<UInt8>) throws(SPIDisplayError) {
        do throws(GPIOError) {
            try dataCommand.set(kind == .data)
        } catch {
            throw .dataCommandLine(error)
        }
        // Offsets from the record's first byte: a slice's own indices are its batch's.
        var start = 0
        while start < bytes.count {
            let end = min(start + bufferSize, bytes.count)
            let sent = bytes.withUnsafeBufferPointer { buffer in
                retryingInterrupts {
                    crownpager_spi_write(
                        descriptor, buffer.baseAddress.map { $0 + start }, UInt32(end - start), wiring.hertz)
                }
            }
            guard sent >= 0 else {
                throw .device(SPIError(operation: .write, path: wiring.devicePath, errno: .current))
            }
            start = end
        }
    }

    private func retryingInterrupts(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result == -1 && Glibc.errno == EINTR { continue }
            return result
        }
    }

    /// spidev's buffer size (its `bufsiz` module parameter), 4096 when it cannot be read.
    static func spidevBufferSize() -> Int {
        let text = try? FileSystem.readText(atPath: "/sys/module/spidev/parameters/bufsiz", maximumBytes: 32)
        let digits = text?.split(whereSeparator: { $0 == "\n" || $0 == " " }).first
        return digits.flatMap { Int($0) }.map { max($0, 1) } ?? 4096
    }

    private static func sleep(for span: TimeSpan) {
        var request = timespec(
            tv_sec: Int(span.nanoseconds / 1_000_000_000), tv_nsec: Int(span.nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && Glibc.errno == EINTR { request = remaining }
    }
}
