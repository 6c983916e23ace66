import CrownVocabulary
import FakeKernel
import Foundation
import Glibc
import LinuxSystem
import Testing

/// A fake kernel with `/dev/gpiochip0` (54 lines, as on a Raspberry Pi), or the chips given, under a fresh root.
final class FakeGPIOMachine {
    let root: String

    init(lines: UInt32 = 54, chips: [Int32] = [0]) throws {
        root = NSTemporaryDirectory() + "crownpager-fake-gpio-" + UUID().uuidString
        #expect(fake_kernel_enable(root) == 0)
        for chip in chips { #expect(fake_gpio_add_chip(chip, lines) == 0) }
    }

    deinit {
        fake_kernel_disable()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Drives `offset` to `level` at `nanoseconds` on the kernel's clock.
    func set(_ offset: UInt32, _ level: Bool, at nanoseconds: UInt64) {
        #expect(fake_gpio_set_line(0, offset, level ? 1 : 0, nanoseconds) == 0)
    }
}

@Suite(.serialized) struct GPIOLinesTests {
    @Test func theLinesAreInputsWithPullUpsOnBothEdgesAndTheKernelDebouncesWhereItCan() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        let lines = try GPIOLines(
            chipPath: "/dev/gpiochip0", offsets: [17, 27, 22], debounce: [.zero, .zero, .milliseconds(5)])
        for offset: UInt32 in [17, 27, 22] {
            #expect(fake_gpio_is_requested(0, offset) == 1 && fake_gpio_has_pull_up(0, offset) == 1)
            #expect(fake_gpio_detects_both_edges(0, offset) == 1)
        }
        #expect(fake_gpio_is_requested(0, 18) == 0)
        // Nothing drives the lines: the pull-ups hold them high.
        #expect(try lines.levels() == [true, true, true])
        let kernelDebounces = GPIOLines.apiMajor >= 2
        #expect(lines.kernelDebounces == kernelDebounces)
        #expect(fake_gpio_debounce_us(0, 22) == (kernelDebounces ? 5000 : 0) && fake_gpio_debounce_us(0, 17) == 0)
        #expect(lines.descriptors.count == (kernelDebounces ? 1 : 3))
        #expect(GPIOLines.libraryVersion.hasPrefix("\(GPIOLines.apiMajor)."))
        lines.close()
        #expect(fake_gpio_is_requested(0, 17) == 0)
        // Released lines can be requested again.
        _ = try GPIOLines(chipPath: "/dev/gpiochip0", offsets: [17])
    }

    @Test func aChipThatGoesAwayFailsReadsWithENODEVAndCanBeRequestedAgainWhenBack() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        let lines = try GPIOLines(chipPath: "/dev/gpiochip0", offsets: [17, 27, 22])
        #expect(fake_gpio_remove_chip(0) == 0)
        // poll() wakes on the requests' descriptors, and reading them fails: the chip is gone.
        do throws(GPIOError) {
            _ = try lines.waitForEdges(timeoutMilliseconds: 1000)
            Issue.record("read edges of a removed chip")
        } catch {
            #expect(error.chipGone && error.operation == .read && error.errno == .operationNotSupportedByDevice)
        }
        #expect(throws: GPIOError.self) { try GPIOLines(chipPath: "/dev/gpiochip0", offsets: [17]) }
        lines.close()
        #expect(fake_gpio_add_chip(0, 54) == 0)
        let again = try GPIOLines(chipPath: "/dev/gpiochip0", offsets: [17, 27, 22])
        machine.set(17, false, at: 1_000)
        #expect(try again.waitForEdges(timeoutMilliseconds: 1000).map(\.offset) == [17])
    }

    @Test func edgesOfSeparateLinesComeMergedInTheKernelsTimeOrder() throws {
        let machine = try FakeGPIOMachine()
        let lines = try GPIOLines(chipPath: "/dev/gpiochip0", offsets: [17, 27, 22])
        #expect(try lines.waitForEdges(timeoutMilliseconds: 0).isEmpty)
        // A turn of one detent: A falls, B falls, A rises, B rises; the times decide the order.
        machine.set(17, false, at: 1_000)
        machine.set(27, false, at: 2_000)
        machine.set(17, true, at: 3_000)
        machine.set(27, true, at: 4_000)
        machine.set(27, true, at: 5_000)  // no change: no edge
        #expect(try lines.levels() == [true, true, true])
        let edges = try lines.waitForEdges(timeoutMilliseconds: 1000)
        #expect(
            edges == [
                GPIOEdge(offset: 17, rising: false, timestamp: Timestamp(nanoseconds: 1_000)),
                GPIOEdge(offset: 27, rising: false, timestamp: Timestamp(nanoseconds: 2_000)),
                GPIOEdge(offset: 17, rising: true, timestamp: Timestamp(nanoseconds: 3_000)),
                GPIOEdge(offset: 27, rising: true, timestamp: Timestamp(nanoseconds: 4_000)),
            ])
        #expect(try lines.readEdges().isEmpty)
        machine.set(22, false, at: 6_000)
        #expect(try lines.levels() == [true, true, false])
        #expect(
            try lines.readEdges() == [GPIOEdge(offset: 22, rising: false, timestamp: Timestamp(nanoseconds: 6_000))])
    }

    @Test func manyEdgesAreAllReadInOrder() throws {
        let machine = try FakeGPIOMachine()
        let lines = try GPIOLines(chipPath: "/dev/gpiochip0", offsets: [17, 27])
        for step in 0..<200 { machine.set(step % 2 == 0 ? 17 : 27, step % 4 >= 2, at: UInt64(step + 1) * 100) }
        let edges = try lines.readEdges()
        #expect(edges.map(\.timestamp.nanoseconds) == (0..<200).map { Int64($0 + 1) * 100 })
    }

    @Test func aBouncingLineAmongQuietOnesIsStillReadInTimeOrder() throws {
        // Found by Scripts/dev/soak.sh: with libgpiod 1.x each line has its own queue, and A bouncing
        // three times for each edge of B fills one read's room with A's edges while B's lag behind.
        let machine = try FakeGPIOMachine()
        let lines = try GPIOLines(chipPath: "/dev/gpiochip0", offsets: [17, 27])
        var levels: [UInt32: Bool] = [17: true, 27: true]
        for step in 0..<400 {
            let offset: UInt32 = step % 4 == 3 ? 27 : 17
            levels[offset]?.toggle()
            machine.set(offset, levels[offset] ?? true, at: UInt64(step + 1) * 100)
        }
        let edges = try lines.readEdges()
        #expect(edges.map(\.timestamp.nanoseconds) == (0..<400).map { Int64($0 + 1) * 100 })
    }

    @Test func aMissingChipNamesGpiodetect() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        let error = try requestError(chip: "/dev/gpiochip3")
        #expect(error.kind == .chipMissing && error.operation == .openChip && error.chipPath == "/dev/gpiochip3")
        #expect(error.chipsOnMachine == ["/dev/gpiochip0"])
        #expect(error.description.hasPrefix("could not open /dev/gpiochip3: "))
        #expect(error.description.contains("gpiodetect") && error.description.contains("--chip"))
        #expect(
            error.description.contains("this machine has /dev/gpiochip0") && !error.description.contains("no GPIO chip")
        )
    }

    @Test func aMachineWithoutGPIOSaysSoAndNamesTheMock() throws {
        let machine = try FakeGPIOMachine(chips: [])
        defer { withExtendedLifetime(machine) {} }
        let error = try requestError()
        #expect(error.kind == .noChipsOnMachine && error.chipsOnMachine == [] && error.chipPath == "/dev/gpiochip0")
        #expect(error.description.hasPrefix("could not open /dev/gpiochip0: "))
        for hint in ["this machine has no GPIO chip (no /dev/gpiochip*): ", "--mock", "bus = \"mock\" under [display]"]
        {
            #expect(error.description.contains(hint), "\(hint)")
        }
        #expect(!error.description.contains("gpiodetect"), "no chip to detect")
        // The kind follows the fact the error is handed; without it, the chip is only missing.
        let unknown = GPIOError(
            operation: .openChip, chipPath: "/dev/gpiochip0", offset: nil, errno: .noSuchFileOrDirectory)
        #expect(unknown.kind == .chipMissing && unknown.fix.contains("gpiodetect"))
    }

    @Test func theMachinesChipsAreTheKernelsInNumberOrder() throws {
        do {
            let machine = try FakeGPIOMachine(chips: [3, 0, 2])
            defer { withExtendedLifetime(machine) {} }
            #expect(GPIOChips.present() == ["/dev/gpiochip0", "/dev/gpiochip2", "/dev/gpiochip3"])
            // A chip the kernel lists but whose node is not in /dev (a container given no devices) does not count.
            #expect(unlink(machine.root + "/dev/gpiochip2") == 0)
            #expect(GPIOChips.present() == ["/dev/gpiochip0", "/dev/gpiochip3"])
        }
        let empty = try FakeGPIOMachine(chips: [])
        defer { withExtendedLifetime(empty) {} }
        #expect(GPIOChips.present().isEmpty)
    }

    @Test func anOffsetPastTheLastLineNamesTheLineAndTheRange() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        let error = try requestError(offsets: [17, 60, 22])
        #expect(error.kind == .noSuchLine && error.offset == 60 && error.chipLines == 54)
        #expect(error.description.contains("line 60 on /dev/gpiochip0"))
        #expect(error.description.contains("54 lines, 0 to 53") && error.description.contains("gpioinfo gpiochip0"))
        #expect(fake_gpio_is_requested(0, 17) == 0, "a failed request leaves nothing requested")
    }

    @Test func aLineInUseNamesTheLineAndWhoMightHoldIt() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        #expect(fake_gpio_hold_line(0, 27, "rotary-encoder") == 0)
        let error = try requestError()
        #expect(error.kind == .lineBusy && error.offset == 27 && error.errno == .resourceBusy)
        #expect(error.description.contains("could not request line 27 on /dev/gpiochip0"))
        for hint in ["gpioinfo gpiochip0", "another program", "dtoverlay=rotary-encoder"] {
            #expect(error.description.contains(hint), "\(hint)")
        }
        #expect(fake_gpio_is_requested(0, 17) == 0 && fake_gpio_is_requested(0, 22) == 0)
        // Ours twice: the second request finds the line busy too.
        let first = try GPIOLines(chipPath: "/dev/gpiochip0", offsets: [17])
        #expect(try requestError(offsets: [17]).kind == .lineBusy)
        first.close()
    }

    @Test func noPermissionNamesTheGroupAndTheUdevRule() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        #expect(fake_kernel_deny("/dev/gpiochip0") == 0)
        let error = try requestError()
        #expect(error.kind == .permissionDenied && error.errno == .permissionDenied)
        for hint in [
            "could not open /dev/gpiochip0", "`gpio` group", "usermod -aG gpio", "99-crownpager-gpio.rules",
            "root is not needed",
        ] {
            #expect(error.description.contains(hint), "\(hint)")
        }
    }

    @Test func aMissingLibgpiodNamesBothSonamesTheLoaderAndTheFix() {
        // The load itself happens once per process; GPIOEndToEndTests runs the program with a bad
        // CROWNPAGER_LIBGPIOD. Here: the message built from what the shim reports.
        let loader =
            "libgpiod.so.3: cannot open shared object file: No such file or directory; "
            + "libgpiod.so.2: cannot open shared object file: No such file or directory"
        let error = GPIOError(
            operation: .loadLibrary, chipPath: "/dev/gpiochip0", offset: nil, errno: Errno(rawValue: ELIBACC),
            loaderMessage: loader)
        #expect(error.kind == .libraryMissing)
        #expect(
            error.description == "could not load libgpiod (neither libgpiod.so.3, the 2.x API, nor libgpiod.so.2, "
                + "the 1.x API) for /dev/gpiochip0: \(loader); install libgpiod: sudo apt install libgpiod3 (Debian 13) "
                + "or libgpiod2 (Debian 12)")
        let chosen = GPIOError(
            operation: .loadLibrary, chipPath: "/dev/gpiochip0", offset: nil, errno: Errno(rawValue: ELIBACC),
            loaderMessage: "/opt/x.so: cannot open shared object file", libraryOverride: "/opt/x.so")
        #expect(
            chosen.description.hasPrefix(
                "could not load libgpiod from CROWNPAGER_LIBGPIOD=/opt/x.so (instead of "
                    + "libgpiod.so.3 or libgpiod.so.2) for /dev/gpiochip0: /opt/x.so: cannot open shared object file; ")
        )
        #expect(
            chosen.fix.hasSuffix("or libgpiod2 (Debian 12), or unset CROWNPAGER_LIBGPIOD or point it at a libgpiod"))
    }

    @Test func theChipLooksLikeTheKernelsToLibgpiod() throws {
        let machine = try FakeGPIOMachine()
        defer { withExtendedLifetime(machine) {} }
        var status = stat()
        #expect(stat("/dev/gpiochip0", &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFCHR && status.st_rdev == 254 << 8)
        let dev = try String(contentsOfFile: machine.root + "/sys/bus/gpio/devices/gpiochip0/dev", encoding: .utf8)
        #expect(dev == "254:0\n")
        let subsystem = realpath("/sys/dev/char/254:0/subsystem", nil)
        defer { free(subsystem) }
        #expect(subsystem.map { String(cString: $0) } == "/sys/bus/gpio")
    }

    private func requestError(chip: String = "/dev/gpiochip0", offsets: [UInt32] = [17, 27, 22]) throws -> GPIOError {
        do throws(GPIOError) {
            _ = try GPIOLines(chipPath: chip, offsets: offsets)
        } catch {
            return error
        }
        Issue.record("the request succeeded")
        return GPIOError(operation: .request, chipPath: chip, offset: nil, errno: .noSuchFileOrDirectory)
    }
}

/// Scripts/test.sh says which libgpiod the run must load: the system's, or CROWNPAGER_LIBGPIOD's (2.x on Debian 12).
@Test func theLoadedLibgpiodIsTheMajorTheScriptExpects() {
    let expected = ProcessInfo.processInfo.environment["CROWNPAGER_EXPECT_GPIOD_MAJOR"].flatMap { Int($0) }
    #expect(GPIOLines.apiMajor == (expected ?? GPIOLines.apiMajor) && [1, 2].contains(GPIOLines.apiMajor))
    #expect(GPIOLines.libraryVersion.hasPrefix("\(GPIOLines.apiMajor)."))
}
