import FakeKernel
import Glibc
import LinuxSystem
import Testing

/// The levels requests drove `offset` of gpiochip0 to, with their times (ns), oldest first.
func outputChanges(_ offset: UInt32) -> [(level: Bool, nanoseconds: UInt64)] {
    (0..<fake_gpio_output_change_count(0, offset)).compactMap { index in
        var level: Int32 = 0
        var stamp: UInt64 = 0
        guard fake_gpio_output_change(0, offset, index, &level, &stamp) == 0 else { return nil }
        return (level != 0, stamp)
    }
}

@Suite(.serialized) struct GPIOOutputLineTests {
    @Test func anOutputStartsAtItsLevelAndEachChangeIsDrivenOnce() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        let line = try GPIOOutputLine(chipPath: "/dev/gpiochip0", offset: 24, initial: false)
        #expect(fake_gpio_is_output(0, 24) == 1 && fake_gpio_level(0, 24) == 0)
        try line.set(true)
        #expect(fake_gpio_level(0, 24) == 1 && line.level)
        // The same level again makes no request of the kernel.
        try line.set(true)
        try line.set(false)
        let changes = outputChanges(24)
        #expect(changes.map { $0.level } == [false, true, false])
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.nanoseconds <= $1.nanoseconds })
        line.close()
        #expect(fake_gpio_is_requested(0, 24) == 0)
        do throws(GPIOError) {
            try line.set(true)
            Issue.record("set a released line")
        } catch {
            #expect(error.operation == .setValue && error.errno == .badFileDescriptor)
        }
    }

    @Test func aLineAnotherProgramHoldsIsBusyAndTheMessageSaysSo() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        #expect(fake_gpio_hold_line(0, 24, "spi0 CS1") == 0)
        do throws(GPIOError) {
            _ = try GPIOOutputLine(chipPath: "/dev/gpiochip0", offset: 24, initial: false)
            Issue.record("requested a busy line")
        } catch {
            #expect(error.operation == .requestOutput && error.offset == 24 && error.kind == .lineBusy)
            #expect(
                error.description
                    == "could not request line 24 of /dev/gpiochip0 as an output: \(Errno.resourceBusy.sentence); "
                    + "line 24 is used by another program or driver: `gpioinfo gpiochip0` shows its consumer; stop "
                    + "that program, or wire the display's DC or RES to a free line and name it (--dc-line, --reset-line)"
            )
        }
        do throws(GPIOError) {
            _ = try GPIOOutputLine(chipPath: "/dev/gpiochip0", offset: 60, initial: false)
            Issue.record("requested a line past the chip's last")
        } catch {
            #expect(error.kind == .noSuchLine && error.offset == 60)
        }
    }
}
