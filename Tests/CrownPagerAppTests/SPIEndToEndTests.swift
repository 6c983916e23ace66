import Foundation
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

extension FakeBusRun {
    var spiTrace: String { scratch.path + "/spi-trace.txt" }

    /// A fake /dev/spidev0.0 whose D/C# is GPIO24 of a 54-line gpiochip0, traced to `spiTrace`, and `held` lines.
    func spiEnvironment(device: Bool = true, held: String = "") -> [String: String] {
        [
            "FAKE_GPIO_CHIPS": "0:54", "FAKE_SPI_DEVICES": device ? "0.0:0:24" : "", "FAKE_SPI_TRACE": spiTrace,
            "FAKE_GPIO_HELD": held,
        ]
    }

    /// The SPI trace's whole lines: transfers as I2C writes, and `# gpio` notes of the output lines.
    func spiLines() -> [Substring] {
        let text = (try? String(contentsOfFile: spiTrace, encoding: .utf8)) ?? ""
        let whole = text.lastIndex(of: "\n").map { text[...$0] } ?? ""
        return whole.split(separator: "\n")
    }

    /// What reached the fake SPI device, as I2C transfers (control byte 00h or 40h from D/C#, then the bytes).
    func spiTransfers() throws -> [I2CTransfer] {
        try I2CTrace.parse(spiLines().joined(separator: "\n"))
    }

    /// The levels and times (ns) GPIO `offset` of chip 0 was driven to before the first SPI transfer.
    func levelsBeforeFirstTransfer(_ offset: Int) -> [(level: Int, nanoseconds: UInt64)] {
        var levels: [(level: Int, nanoseconds: UInt64)] = []
        for line in spiLines() {
            if line.hasPrefix("w") { break }
            let words = line.split(separator: " ")
            guard words.count == 6, words[1] == "gpio", words[2] == "0", Int(words[3]) == offset,
                let level = Int(words[4]), let stamp = UInt64(words[5])
            else { continue }
            levels.append((level, stamp))
        }
        return levels
    }
}

@Suite(.tags(.endToEnd), .serialized) struct SPIEndToEndTests {
    @Test func runDrivesAPanelOnSPIAfterTheResetPulseAndBlanksItOnSIGTERM() throws {
        let fake = try FakeBusRun()
        let (process, _, error) = try fake.start(
            ["run", "--demo", "--spi", "0.0", "--dc-line", "24", "--reset-line", "25", "--trace", fake.appTrace],
            devices: "", extra: fake.spiEnvironment())
        #expect(try fake.waitForFirstFrame(onSPI: true))
        let messages = FakeBusRun.stop(process, error: error)
        #expect(process.terminationStatus == 0, "\(messages)")
        #expect(
            messages.contains("driving 128x64 on /dev/spidev0.0 (DC GPIO24, RES GPIO25, 8 MHz on /dev/gpiochip0)"),
            "\(messages)")
        // RES# requested high, pulled low, released, all before the first byte: at least 3 us low (datasheet 8.9).
        let reset = fake.levelsBeforeFirstTransfer(25)
        #expect(reset.map { $0.level } == [1, 0, 1])
        if reset.count == 3 { #expect(reset[2].nanoseconds - reset[1].nanoseconds >= 3_000) }

        let (emulator, shownFirst) = replayedRun(try fake.spiTransfers())
        #expect(shownFirst == demoFrame(.ssd1306_128x64))
        #expect(emulator.diagnostics.isEmpty)
        #expect(emulator.displayRAM.litPixelCount == 0 && !emulator.registers.isDisplayOn)
        // --trace records the SPI records as the driver made them (cmd and data lines): D/C# and
        // the bytes agree with what reached the device.
        let text = try String(contentsOfFile: fake.appTrace, encoding: .utf8)
        #expect(SPITrace.isSPITrace(text))
        let recorded = try SPITrace.parse(text)
        let reached = try fake.spiTransfers()
        #expect(recorded.transfers(at: .ssd1306Primary) == reached)
        var replayed = SSD1306Emulator(panel: .ssd1306_128x64)
        replayed.send(recorded)
        #expect(replayed.glass == emulator.glass && replayed.displayRAM == emulator.displayRAM)
    }

    @Test func doctorDrawsTheTestPatternOverSPIAndSaysItCannotTellTheController() throws {
        let fake = try FakeBusRun()
        let (status, output, error) = try fake.run(
            ["doctor", "display", "--spi", "0.0", "--panel", "sh1106-128x64"], devices: "",
            extra: fake.spiEnvironment())
        #expect(status == 0, "\(error)")
        for line in [
            "\u{2713} /dev/spidev0.0 opens; DC on GPIO24, RES on GPIO25 pulsed low",
            "SPI has no read-back: the controller cannot say which it is",
            "drew the test pattern for sh1106-128x64",
            "Configuration: crownpager run --spi 0.0 --dc-line 24 --reset-line 25 --panel sh1106-128x64",
        ] {
            #expect(output.contains(line), "\(line)")
        }
        #expect(fake.levelsBeforeFirstTransfer(25).map { $0.level } == [1, 0, 1])
        var emulator = SSD1306Emulator(panel: .sh1106_128x64)
        emulator.replay(try fake.spiTransfers())
        #expect(emulator.glass == DisplayTestPattern.render(.sh1106_128x64))
        #expect(emulator.diagnostics.isEmpty)
    }

    @Test func aMissingSpidevNamesDtparamSPI() throws {
        let fake = try FakeBusRun()
        let (status, _, error) = try fake.run(
            ["run", "--demo", "--spi", "0.0"], devices: "", extra: fake.spiEnvironment(device: false))
        #expect(status == 69, "\(error)")
        #expect(error.contains("could not open /dev/spidev0.0") && error.contains("dtparam=spi=on"), "\(error)")
    }

    @Test func aBusyDCLineNamesTheLineAndGpioinfo() throws {
        let fake = try FakeBusRun()
        let (status, _, error) = try fake.run(
            ["doctor", "display", "--spi", "0.0"], devices: "", extra: fake.spiEnvironment(held: "0:24:spi0 CS1"))
        #expect(status == 69, "\(error)")
        #expect(
            error.contains(
                "the display's DC line: could not request line 24 of /dev/gpiochip0 as an output"), "\(error)")
        #expect(error.contains("line 24 is used by another program or driver: `gpioinfo gpiochip0`"), "\(error)")
    }

    @Test func badSPIFlagsSayHowToWriteThem() throws {
        for (arguments, message) in [
            (["run", "--spi", "0"], "--spi must be B.C for /dev/spidevB.C, such as 0.0, not '0'"),
            (["run", "--spi", "0.0", "--i2c-bus", "1"], "give --spi or --i2c-bus, not both"),
            (["run", "--spi", "0.0", "--mock"], "give --mock or --spi, not both"),
            (["run", "--reset-line", "x"], "--reset-line must be a GPIO line from 0 to 511, or none"),
            (["doctor", "display", "--spi", "spi0"], "--spi must be B.C"),
        ] {
            let run = try runCrownPager(arguments)
            #expect(run.status == 64 && run.standardError.contains(message), "\(arguments): \(run.standardError)")
        }
    }
}
