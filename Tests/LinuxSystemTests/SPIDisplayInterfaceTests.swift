import FakeKernel
import Glibc
import LinuxSystem
import PagerGraphics
import SSD1306
import Testing

/// What the fake spidev0.0 received, as the equivalent I2C writes (control byte, then the bytes).
func spiTransfers(bus: Int32 = 0, select: Int32 = 0) -> [[UInt8]] {
    (0..<fake_spi_transfer_count(bus, select)).map { index in
        var bytes = [UInt8](repeating: 0, count: fake_spi_transfer_length(bus, select, index))
        _ = fake_spi_copy_transfer(bus, select, index, &bytes, bytes.count)
        return bytes
    }
}

/// Named with GPIO so Scripts/test.sh runs it under the other libgpiod major too.
@Suite(.serialized) struct SPIDisplayInterfaceGPIOTests {
    let wiring = SPIDisplayWiring(
        devicePath: "/dev/spidev0.0", dataCommandLine: 24, resetLine: 25, hertz: 8_000_000)

    @Test func openSetsModeZeroEightBitsTheClockAndPulsesResetBeforeTheFirstByte() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        #expect(fake_spi_add_device(0, 0, 0, 24) == 0)
        var driver = SSD1306Driver(interface: try SPIDisplayInterface.open(wiring), panel: .ssd1306_128x64)
        #expect(fake_spi_mode(0, 0) == 0 && fake_spi_bits_per_word(0, 0) == 8)
        #expect(fake_spi_max_speed_hz(0, 0) == 8_000_000)
        // RES# requested high, held low, released high: at least 3 us low (datasheet 8.9).
        let reset = outputChanges(25)
        #expect(reset.map { $0.level } == [true, false, true])
        if reset.count == 3 {
            #expect(reset[2].nanoseconds - reset[1].nanoseconds >= 3_000)
        }
        try driver.initialize()
        var frame = Bitmap(width: 128, height: 64)
        frame.fillRect(Rect(x: 4, y: 8, width: 20, height: 10))
        try driver.writeFrame(frame)
        let first = fake_spi_transfer_time(0, 0, 0)
        #expect(first > 0 && reset.last.map { $0.nanoseconds <= first } == true)
        // Replayed as I2C writes, the bytes on the wire show the frame.
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        let transfers = spiTransfers()
        for bytes in transfers { emulator.write(bytes, to: .ssd1306Primary) }
        #expect(emulator.glass == frame)
        // D/C# was low for commands and high for data: the controls are 00h and 40h, both seen.
        #expect(Set(transfers.compactMap { $0.first }) == [0x00, 0x40])
    }

    @Test func aTransactionLongerThanSpidevsBufferGoesOutInPieces() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        #expect(fake_spi_add_device(0, 0, 0, 24) == 0)
        let bus = try SPIDisplayInterface.open(
            SPIDisplayWiring(devicePath: "/dev/spidev0.0", dataCommandLine: 24, resetLine: nil))
        #expect(outputChanges(25).isEmpty)
        try bus.send(.data, ArraySlice(repeating: 0xA5, count: 5000))
        try bus.send(.commands, [0xAF])
        #expect(spiTransfers().map { $0.count } == [bus.bufferSize + 1, 5000 - bus.bufferSize + 1, 2])
        #expect(spiTransfers().map { $0.first } == [0x40, 0x40, 0x00])
        #expect(outputChanges(24).map { $0.level } == [false, true, false])
    }

    @Test func theBufferIsSpidevsBufsizParameter() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        #expect(fake_spi_add_device(0, 0, 0, 24) == 0)
        #expect(fake_spi_set_buffer_size(1000) == 0)
        let bus = try SPIDisplayInterface.open(
            SPIDisplayWiring(devicePath: "/dev/spidev0.0", dataCommandLine: 24, resetLine: nil))
        #expect(bus.bufferSize == 1000)
        // 2500 bytes in three messages, none longer than the buffer spidev would refuse to pass.
        try bus.send(.data, ArraySlice(repeating: 0x0F, count: 2500))
        #expect(spiTransfers().map { $0.count } == [1001, 1001, 501])
    }

    @Test func aClockSpidevRefusesNamesTheStepAndLeavesTheLinesFree() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        #expect(fake_spi_add_device(0, 0, 0, 24) == 0)
        do throws(SPIDisplayError) {
            _ = try SPIDisplayInterface.open(
                SPIDisplayWiring(devicePath: "/dev/spidev0.0", dataCommandLine: 24, resetLine: 25, hertz: 0))
            Issue.record("opened with a clock of 0 Hz")
        } catch {
            #expect(error == .device(SPIError(operation: .setSpeed, path: "/dev/spidev0.0", errno: .invalidArgument)))
            #expect(error.description.hasPrefix("could not set the clock of /dev/spidev0.0: "))
        }
        #expect(fake_gpio_is_requested(0, 24) == 0 && outputChanges(25).isEmpty)
    }

    @Test func aMissingDeviceSaysToEnableSPI() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        do throws(SPIDisplayError) {
            _ = try SPIDisplayInterface.open(wiring)
            Issue.record("opened a missing spidev")
        } catch {
            guard case .device(let spi) = error else {
                Issue.record("not the device: \(error)")
                return
            }
            #expect(spi.kind == .deviceMissing && spi.operation == .open && spi.errno == .noSuchFileOrDirectory)
            #expect(error.description.contains("dtparam=spi=on") && error.description.contains("/dev/spidev0.0"))
        }
        // The lines were not taken: nothing holds them after the failure.
        #expect(fake_gpio_is_requested(0, 24) == 0 && fake_gpio_is_requested(0, 25) == 0)
    }

    @Test func aBusyDataCommandLineNamesTheLineAndGpioinfo() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        #expect(fake_spi_add_device(0, 0, 0, 24) == 0)
        #expect(fake_gpio_hold_line(0, 24, "another-program") == 0)
        do throws(SPIDisplayError) {
            _ = try SPIDisplayInterface.open(wiring)
            Issue.record("opened with a busy DC line")
        } catch {
            guard case .dataCommandLine(let gpio) = error else {
                Issue.record("not the DC line: \(error)")
                return
            }
            #expect(gpio.kind == .lineBusy && gpio.offset == 24)
            #expect(error.description.hasPrefix("the display's DC line: could not request line 24"))
            #expect(error.description.contains("gpioinfo gpiochip0"))
        }
        #expect(fake_gpio_is_requested(0, 25) == 0)
    }
}
