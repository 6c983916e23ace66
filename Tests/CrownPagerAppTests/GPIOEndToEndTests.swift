import CrownPagerApp
import Foundation
import Glibc
import LinuxSystem
import PagerCore
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// The built `crownpager` under LD_PRELOAD of the fake kernel, with a fake `/dev/i2c-1` and a fake
/// `/dev/gpiochip0` whose edges this test writes into a FIFO (fake_gpio.c reads it in the child).
struct FakeKnobRun {
    let bus: FakeBusRun
    var input: String { bus.scratch.path + "/gpio-input" }

    init() throws {
        bus = try FakeBusRun()
        #expect(mkfifo(input, 0o600) == 0)
    }

    /// The program started with `arguments`, a display at 0x3c on bus 1 and a 54-line chip 0.
    func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        try bus.start(arguments, devices: "1:0x3c", extra: ["FAKE_GPIO_CHIPS": "0:54", "FAKE_GPIO_INPUT": input])
    }

    /// Writes edges, one `<chip> <offset> <level>` line each; the fake stamps them as it reads them.
    func write(_ edges: [(UInt32, Int)]) {
        let text = edges.map { "0 \($0.0) \($0.1)\n" }.joined()
        let descriptor = open(input, O_RDWR | O_CLOEXEC)
        #expect(descriptor >= 0)
        _ = text.utf8CString.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
    }

    /// Writes command lines as they are (`remove 0`, `add 0 54`).
    func command(_ line: String) {
        let descriptor = open(input, O_RDWR | O_CLOEXEC)
        #expect(descriptor >= 0)
        _ = (line + "\n").utf8CString.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
    }

    /// `count` detents clockwise (A falls first), or counterclockwise for a negative count.
    static func detents(_ count: Int) -> [(UInt32, Int)] {
        let (first, second): (UInt32, UInt32) = count > 0 ? (17, 27) : (27, 17)
        return (0..<abs(count)).flatMap { _ in [(first, 0), (second, 0), (first, 1), (second, 1)] }
    }
}

@Suite(.tags(.endToEnd), .serialized) struct GPIOEndToEndTests {
    @Test func aTurnOfTheKnobLandsOnTheExpectedPage() throws {
        let knob = try FakeKnobRun()
        let (process, _, error) = try knob.start([
            "run", "--demo", "--i2c-bus", "1", "--chip", "/dev/gpiochip0", "--no-acceleration", "--persist",
        ])
        #expect(try knob.bus.waitForFirstFrame())
        knob.write(FakeKnobRun.detents(4) + FakeKnobRun.detents(-1))
        // The About page (the fourth), settled: what the renderer draws there.
        let page = demoFrame(.ssd1306_128x64, after: [1, 1, 1, 1, -1])
        let shown = try knob.bus.waitForGlass(page)
        let messages = FakeBusRun.stop(process, error: error)
        #expect(shown, "\(messages)")
        // The program loads the libgpiod this test process loaded (CROWNPAGER_LIBGPIOD passes down).
        let crown =
            "the crown on /dev/gpiochip0 lines 17 (A), 27 (B), 22 (button) (libgpiod \(GPIOLines.libraryVersion), "
        #expect(messages.contains(crown), "\(messages)")
        #expect(process.terminationStatus == 0)
    }

    @Test func aChipThatGoesAwayMidRunLeavesTheKeysAndIsReopenedWhenItReturns() throws {
        let knob = try FakeKnobRun()
        let (process, _, error) = try knob.start([
            "run", "--demo", "--i2c-bus", "1", "--chip", "/dev/gpiochip0", "--no-acceleration", "--persist",
        ])
        #expect(try knob.bus.waitForFirstFrame())
        var messages = ""
        #expect(
            ConfigRunEndToEndTests.waitFor(
                "the crown on /dev/gpiochip0", in: error.fileHandleForReading, collected: &messages))
        knob.command("remove 0")
        #expect(
            ConfigRunEndToEndTests.waitFor(
                "the knob's chip /dev/gpiochip0 disappeared (", in: error.fileHandleForReading, collected: &messages))
        #expect(messages.contains("the terminal's keys still turn the crown; waiting for it to come back"))
        // Still running: what follows waits for it to take the device back, which an ended run never does.
        #expect(process.isRunning, "\(messages)")

        knob.command("add 0 54")
        #expect(
            ConfigRunEndToEndTests.waitFor(
                "the knob is back: /dev/gpiochip0 lines 17 (A), 27 (B), 22 (button)", in: error.fileHandleForReading,
                collected: &messages))
        // The reopened knob turns the pages.
        knob.write(FakeKnobRun.detents(3))
        let shown = try knob.bus.waitForGlass(demoFrame(.ssd1306_128x64, after: [1, 1, 1]))
        messages += FakeBusRun.stop(process, error: error)
        #expect(shown, "\(messages)")
        #expect(process.terminationStatus == 0, "\(messages)")
    }

    @Test func anInputDeviceThatGoesAwayMidRunIsReopenedAndNoDetentIsLostOnceBack() throws {
        let knob = try FakeKnobRun()
        let (process, _, error) = try knob.bus.start(
            ["run", "--demo", "--i2c-bus", "1", "--evdev", "/dev/input/event0", "--no-acceleration", "--persist"],
            devices: "1:0x3c",
            extra: ["FAKE_INPUT_DEVICES": "0:rotary@11", "FAKE_GPIO_INPUT": knob.input])
        #expect(try knob.bus.waitForFirstFrame())
        var messages = ""
        #expect(
            ConfigRunEndToEndTests.waitFor(
                "the crown on /dev/input/event0 \"rotary@11\"", in: error.fileHandleForReading, collected: &messages))
        // Three detents (each EV_REL REL_X +1, then SYN_REPORT) to a page that does not change
        // (the second and third show live values), then the overlay goes away.
        let detent = "input 0 2 0 1\ninput 0 0 0 0"
        knob.command([detent, detent, detent].joined(separator: "\n"))
        #expect(try knob.bus.waitForGlass(demoFrame(.ssd1306_128x64, after: [1, 1, 1])))
        knob.command("input-remove 0")
        #expect(
            ConfigRunEndToEndTests.waitFor(
                "the knob's input device /dev/input/event0 disappeared (", in: error.fileHandleForReading,
                collected: &messages))
        // Still running: what follows waits for it to take the device back, which an ended run never does.
        #expect(process.isRunning, "\(messages)")
        knob.command("input-add 0 rotary@11")
        #expect(
            ConfigRunEndToEndTests.waitFor(
                "the knob is back: /dev/input/event0", in: error.fileHandleForReading, collected: &messages))
        // Every detent after its return counts: one more, and the next page shows.
        knob.command(detent)
        let shown = try knob.bus.waitForGlass(demoFrame(.ssd1306_128x64, after: [1, 1, 1, 1]))
        messages += FakeBusRun.stop(process, error: error)
        #expect(shown, "\(messages)")
        #expect(messages.contains("the crown turned 4 detents (4 forward, 0 back), 4 applied"), "\(messages)")
        #expect(process.terminationStatus == 0, "\(messages)")
    }

    @Test func theDoctorWatchesTheKnobOnGPIOLines() throws {
        let knob = try FakeKnobRun()
        let (process, output, _) = try knob.start([
            "doctor", "crown", "--chip", "/dev/gpiochip0", "--count", "4", "--duration", "30",
        ])
        // The first line says the lines are requested: edges from now on count.
        let first = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(first.hasPrefix("watching /dev/gpiochip0 lines 17 (A), 27 (B), 22 (button)"))
        knob.write(FakeKnobRun.detents(2) + FakeKnobRun.detents(-1) + [(22, 0)])
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = (first + rest).split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("+1 detent clockwise") }.count == 2, "\(lines)")
        #expect(lines.contains { $0.contains("-1 detent counterclockwise") })
        #expect(lines.contains { $0.contains("pressed") })
        #expect(lines.last?.hasPrefix("final: detents +1 (cw 2, ccw 1)") == true, "\(lines)")
    }

    @Test func wrongLinesAndMissingChipsSayWhatToDo() throws {
        let knob = try FakeKnobRun()
        let environment = knob.bus.environment(devices: "1:0x3c").merging(["FAKE_GPIO_CHIPS": "0:54"]) { $1 }
        let wrongLine = try runCrownPager(
            ["doctor", "crown", "--chip", "/dev/gpiochip0", "--line-a", "60"], environment: environment)
        #expect(wrongLine.status == 69)
        #expect(
            wrongLine.standardError.contains("could not find line 60 on /dev/gpiochip0"), "\(wrongLine.standardError)")
        #expect(wrongLine.standardError.contains("54 lines, 0 to 53"))
        let missing = try runCrownPager(
            ["run", "--i2c-bus", "1", "--chip", "/dev/gpiochip4"], environment: environment)
        #expect(missing.status == 69 && missing.standardError.contains("could not open /dev/gpiochip4"))
        #expect(missing.standardError.contains("gpiodetect"))
        let denied = try runCrownPager(
            ["doctor", "crown", "--chip", "/dev/gpiochip0"],
            environment: environment.merging(["FAKE_KERNEL_DENY": "/dev/gpiochip0"]) { $1 })
        #expect(denied.status == 69 && denied.standardError.contains("usermod -aG gpio"))
        let same = try runCrownPager(["doctor", "crown", "--chip", "/dev/gpiochip0", "--line-b", "17"])
        #expect(same.status != 0 && same.standardError.contains("must be different offsets"))
        let twoSources = try runCrownPager(["doctor", "crown", "--chip", "/dev/gpiochip0", "--keyboard"])
        #expect(twoSources.status != 0 && twoSources.standardError.contains("only one of them"))
    }

    @Test func aLibgpiodThatCannotBeLoadedSaysWhatToInstall() throws {
        let knob = try FakeKnobRun()
        let environment = knob.bus.environment(devices: "1:0x3c").merging(["FAKE_GPIO_CHIPS": "0:54"]) { $1 }
        let missing = knob.bus.scratch.path + "/nowhere/libgpiod.so.3"
        let doctor = ["doctor", "crown", "--chip", "/dev/gpiochip0"]
        for arguments in [doctor, ["run", "--i2c-bus", "1", "--chip", "/dev/gpiochip0"]] {
            let run = try runCrownPager(
                arguments, environment: environment.merging(["CROWNPAGER_LIBGPIOD": missing]) { $1 })
            #expect(run.status == 69, "\(arguments): \(run.standardError)")
            for part in [
                "could not load libgpiod from CROWNPAGER_LIBGPIOD=\(missing) (instead of libgpiod.so.3 or libgpiod.so.2)",
                "\(missing): cannot open shared object file",
                "install libgpiod: sudo apt install libgpiod3 (Debian 13) or libgpiod2 (Debian 12)",
            ] {
                #expect(run.standardError.contains(part), "\(arguments): \(run.standardError)")
            }
        }
        // A library that is no libgpiod: dlsym's message names the missing function.
        let other = try runCrownPager(
            doctor, environment: environment.merging(["CROWNPAGER_LIBGPIOD": "libm.so.6"]) { $1 })
        #expect(
            other.status == 69 && other.standardError.contains("undefined symbol: gpiod_"), "\(other.standardError)")
    }
}
