import CrownPagerApp
import Foundation
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

/// The built `crownpager` under LD_PRELOAD of the fake kernel, with a fake `/dev/i2c-1`.
struct FakeBusRun {
    let scratch: ScratchDirectory
    /// The fake kernel as a shared object, built by the tests (the package ships none).
    let fakeKernel: String
    var kernelTrace: String { scratch.path + "/kernel-trace.txt" }
    var appTrace: String { scratch.path + "/app-trace.txt" }

    init() throws {
        scratch = try ScratchDirectory()
        fakeKernel = try fakeKernelLibrary()
    }

    /// The program's process, started with `arguments` and the fake kernel serving `devices` (and `extra` settings).
    func start(_ arguments: [String], devices: String, extra: [String: String] = [:]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = crownPagerExecutable()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment(devices: devices)) { $1 }
            .merging(extra) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output, error)
    }

    /// Runs to the end; returns the status, standard output and standard error.
    func run(_ arguments: [String], devices: String, extra: [String: String] = [:]) throws -> (Int32, String, String) {
        let run = try runCrownPager(arguments, environment: environment(devices: devices).merging(extra) { $1 })
        return (run.status, run.standardOutput, run.standardError)
    }

    /// The fake kernel's configuration for the child process.
    func environment(devices: String) -> [String: String] {
        [
            "LD_PRELOAD": fakeKernel, "FAKE_KERNEL_ROOT": scratch.path + "/root", "FAKE_I2C_DEVICES": devices,
            "FAKE_I2C_TRACE": kernelTrace,
        ]
    }

    /// What reached the fake bus, as transfers.
    func transfers() throws -> [I2CTransfer] {
        let text = (try? String(contentsOfFile: kernelTrace, encoding: .utf8)) ?? ""
        // While the program runs, the fake kernel may be halfway through writing the last line
        // (a 1025-byte frame is a long one): only whole lines count.
        let whole = text.lastIndex(of: "\n").map { String(text[...$0]) } ?? ""
        return try I2CTrace.parse(whole)
    }

    /// Ends a started run with SIGTERM; returns its standard error.
    static func stop(_ process: Process, error: Pipe) -> String {
        process.terminate()
        let messages = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return messages
    }

    /// Waits, with a deadline, until the trace replayed into a fresh emulator shows `glass`.
    func waitForGlass(_ glass: Bitmap, panel: SSD1306Panel = .ssd1306_128x64, deadline seconds: Double = 30) throws
        -> Bool
    {
        try waitUntil(seconds: seconds, every: 0.05) {
            var emulator = SSD1306Emulator(panel: panel)
            emulator.replay(try transfers())
            return emulator.glass == glass
        }
    }

    /// Waits, with a deadline, until a display-data transaction has reached the bus (the SPI device when `onSPI`).
    func waitForFirstFrame(deadline seconds: Double = 30, onSPI: Bool = false) throws -> Bool {
        try waitUntil(seconds: seconds) {
            try (onSPI ? spiTransfers() : transfers()).contains(where: { $0.bytes.first == 0x40 })
        }
    }
}

/// A run's transfers replayed into a fresh 128x64 emulator, and the first thing its glass showed
/// once Display On (AFh) was in: the frame, not power-up RAM.
func replayedRun(_ transfers: [I2CTransfer]) -> (emulator: SSD1306Emulator, shownFirst: Bitmap?) {
    var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
    var shownFirst: Bitmap?
    for transfer in transfers {
        emulator.write(transfer.bytes, to: transfer.address)
        if shownFirst == nil, emulator.registers.isDisplayOn { shownFirst = emulator.glass }
    }
    return (emulator, shownFirst)
}

/// `pages` on `panel` after `detents`, 400 ms apart, settled: what the renderer draws.
func settledFrame(_ pages: [ConfiguredPage], _ panel: SSD1306Panel, after detents: [Int] = []) -> Bitmap {
    var session = PanelPresenter(pages: pages, panel: panel)
    for (index, detent) in detents.enumerated() {
        session.handle(.rotated(detents: detent, at: .milliseconds(Int64(index) * 400)))
    }
    session.advance(to: .milliseconds(10_000))
    return session.frame(at: .milliseconds(10_000))
}

/// The demo (`run --demo`) on `panel` after `detents`, settled.
func demoFrame(_ panel: SSD1306Panel, after detents: [Int] = []) -> Bitmap {
    settledFrame(PageBook(specs: Configuration.demo().pages).pages(clock: SampleReadings.clock), panel, after: detents)
}

@Suite(.tags(.endToEnd), .serialized) struct DisplayEndToEndTests {
    @Test func runDrivesThePanelAndBlanksItOnSIGTERM() throws {
        let fake = try FakeBusRun()
        let (process, _, error) = try fake.start(
            ["run", "--demo", "--i2c-bus", "1", "--trace", fake.appTrace], devices: "1:0x3c")
        #expect(try fake.waitForFirstFrame())
        let messages = FakeBusRun.stop(process, error: error)
        #expect(process.terminationStatus == 0, "\(messages)")
        #expect(messages.contains("driving 128x64 at 0x3c on /dev/i2c-1: 6 pages from the demo"))
        // No chip on this machine: the built-in knob is missing, which is no reason to stop.
        #expect(messages.contains("no knob (could not open /dev/gpiochip0"), "\(messages)")

        let transfers = try fake.transfers()
        let (emulator, shownFirst) = replayedRun(transfers)
        #expect(shownFirst == demoFrame(.ssd1306_128x64))
        #expect(emulator.diagnostics.isEmpty)
        #expect(
            emulator.displayRAM.litPixelCount == 0 && !emulator.registers.isDisplayOn
                && !emulator.registers.isChargePumpEnabled)
        // --trace records exactly what the kernel accepted.
        #expect(try I2CTrace.parse(String(contentsOfFile: fake.appTrace, encoding: .utf8)) == transfers)
    }

    @Test func persistLeavesTheLastPictureAndRotationTurnsItOnAnSH1106() throws {
        let fake = try FakeBusRun()
        let (process, _, _) = try fake.start(
            [
                "run", "--demo", "--i2c-bus", "1", "--panel", "sh1106-128x64", "--rotate", "180", "--brightness", "10",
                "--persist",
            ],
            devices: "1:0x3c")
        #expect(try fake.waitForFirstFrame())
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var emulator = SSD1306Emulator(panel: .sh1106_128x64)
        emulator.replay(try fake.transfers())
        #expect(emulator.glass == demoFrame(.sh1106_128x64).rotated180())
        #expect(emulator.registers.contrast == 25 && emulator.registers.vcomhDeselectLevel == 0x00)
        #expect(emulator.diagnostics.isEmpty)
    }

    @Test func noDisplayAtTheAddressStopsWithTheFix() throws {
        let fake = try FakeBusRun()
        let (status, _, error) = try fake.run(["run", "--i2c-bus", "1"], devices: "1:0x3d")
        #expect(status == 69)  // EX_UNAVAILABLE: no panel answers
        #expect(error.contains("could not write to 0x3c on /dev/i2c-1: Remote I/O error (EREMOTEIO, errno 121)"))
        #expect(error.contains("i2cdetect -y 1") && error.contains("--address 0x3d"))
        let (missing, _, missingError) = try fake.run(["run", "--i2c-bus", "4"], devices: "1:0x3c")
        #expect(missing == 69 && missingError.contains("dtparam=i2c_arm=on"))
    }

    @Test(.tags(.golden)) func doctorFindsTheDisplayGuessesTheSH1106AndDrawsTheTestPattern() throws {
        let fake = try FakeBusRun()
        let (status, output, error) = try fake.run(["doctor", "display", "--i2c-bus", "1"], devices: "1:0x3d:0x48")
        #expect(status == 0, "\(error)")
        for line in [
            "\u{2713} /dev/i2c-1 opens", "\u{00B7} nothing answers at 0x3c",
            "a display answers at 0x3d: status byte 0x48, display off",
            "suggests an SH1106", "Configuration: crownpager run --i2c-bus 1 --address 0x3d --panel sh1106-128x64",
        ] {
            #expect(output.contains(line), "\(line)")
        }
        var emulator = SSD1306Emulator(panel: .sh1106_128x64, address: .ssd1306Secondary)
        emulator.replay(try fake.transfers())
        let pattern = DisplayTestPattern.render(.sh1106_128x64)
        #expect(emulator.glass == pattern)
        expectGolden(pattern, named: "doctor_test_pattern_sh1106-128x64")
        expectGolden(DisplayTestPattern.render(.ssd1306_128x32), named: "doctor_test_pattern_128x32")
    }

    @Test(.tags(.golden)) func doctorDrawsTheTestPatternOnAnSSD1309() throws {
        let fake = try FakeBusRun()
        // Modules seen answer an SSD1306's status (06h when off): the doctor cannot tell them apart.
        let (status, output, error) = try fake.run(
            ["doctor", "display", "--i2c-bus", "1", "--panel", "ssd1309-128x64"], devices: "1:0x3c:0x46")
        #expect(status == 0, "\(error)")
        for line in [
            "a display answers at 0x3c: status byte 0x46, display off",
            "(or an SSD1309, which answers alike", "drew the test pattern for ssd1309-128x64",
            "Configuration: crownpager run --i2c-bus 1 --address 0x3c --panel ssd1309-128x64",
        ] {
            #expect(output.contains(line), "\(line)")
        }
        var emulator = SSD1306Emulator(panel: .ssd1309_128x64)
        emulator.replay(try fake.transfers())
        let pattern = DisplayTestPattern.render(.ssd1309_128x64)
        #expect(emulator.glass == pattern)
        #expect(emulator.diagnostics.isEmpty)
        expectGolden(pattern, named: "doctor_test_pattern_ssd1309-128x64")
    }

    @Test(.tags(.golden)) func doctorTellsTheSH1107ByItsIDAndDrawsForBothSizes() throws {
        // The SH1107 answers its documented ID, 07h (47h while the display is off).
        let fake = try FakeBusRun()
        let (status, output, error) = try fake.run(["doctor", "display", "--i2c-bus", "1"], devices: "1:0x3d:0x47")
        #expect(status == 0, "\(error)")
        for line in [
            "a display answers at 0x3d: status byte 0x47, display off", "carries the SH1107's ID (07h)",
            "only the test pattern shows", "drew the test pattern for sh1107-128x128",
            "try --panel sh1107-64x128",
            "Configuration: crownpager run --i2c-bus 1 --address 0x3d --panel sh1107-128x128",
        ] {
            #expect(output.contains(line), "\(line)")
        }
        var emulator = SSD1306Emulator(panel: .sh1107_128x128, address: .ssd1306Secondary)
        emulator.replay(try fake.transfers())
        let pattern = DisplayTestPattern.render(.sh1107_128x128)
        #expect(emulator.glass == pattern)
        #expect(emulator.diagnostics.isEmpty)
        expectGolden(pattern, named: "doctor_test_pattern_sh1107-128x128")

        let narrow = try FakeBusRun()
        let (narrowStatus, _, narrowError) = try narrow.run(
            ["doctor", "display", "--i2c-bus", "1", "--panel", "sh1107-64x128"], devices: "1:0x3c:0x47")
        #expect(narrowStatus == 0, "\(narrowError)")
        var narrowEmulator = SSD1306Emulator(panel: .sh1107_64x128)
        narrowEmulator.replay(try narrow.transfers())
        let narrowPattern = DisplayTestPattern.render(.sh1107_64x128)
        #expect(narrowEmulator.glass == narrowPattern)
        #expect(narrowEmulator.diagnostics.isEmpty)
        expectGolden(narrowPattern, named: "doctor_test_pattern_sh1107-64x128")
    }

    @Test func doctorWithNothingOnTheBusSaysWhatToCheck() throws {
        let fake = try FakeBusRun()
        let (status, output, error) = try fake.run(["doctor", "display", "--i2c-bus", "1"], devices: "1:0x50")
        #expect(status == 69)
        #expect(output.contains("nothing answers at 0x3c") && output.contains("nothing answers at 0x3d"))
        #expect(error.contains("check the wiring") && error.contains("i2cdetect -y 1"))
    }
}
