import CrownPagerApp
import Foundation
import PagerEngine
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// `crownpager run --config FILE` on the fake /dev/i2c-1: configured pages on the panel, SIGHUP reloads.
@Suite(.tags(.endToEnd), .serialized) struct ConfigRunEndToEndTests {
    /// Reads standard error until it contains `text` (bounded: 30 s).
    static func waitFor(_ text: String, in handle: FileHandle, collected: inout String) -> Bool {
        waitUntil {
            // Read only while the text is not in yet: availableData waits for the run's next line.
            if collected.contains(text) { return true }
            collected += String(decoding: handle.availableData, as: UTF8.self)
            return collected.contains(text)
        }
    }

    @Test func configuredPagesReachThePanelAndSIGHUPReloadsOrKeepsTheOld() throws {
        let fake = try FakeBusRun()
        let path = fake.scratch.path + "/crownpager.toml"
        let good = """
            [display]
            bus = 1
            [[page]]
            kind = "text"
            title = "Hello"
            text = "from a file"
            """
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        let (process, _, error) = try fake.start(["run", "--config", path], devices: "1:0x3c")
        #expect(try fake.waitForFirstFrame())
        var messages = ""
        #expect(Self.waitFor("1 pages from \(path)", in: error.fileHandleForReading, collected: &messages))

        // The glass shows the configured page, as the library draws it.
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        let expected = PanelPresenter(
            pages: [ConfiguredPage(title: "Hello", body: .text("from a file"))], panel: .ssd1306_128x64
        ).frame(at: .zero)
        for transfer in try fake.transfers() { emulator.write(transfer.bytes, to: transfer.address) }
        #expect(emulator.glass == expected)

        // A broken file: the running configuration stays, and the journal says why.
        try "[display]\nbrightness = 300\n".write(toFile: path, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        #expect(
            Self.waitFor(
                "kept the running configuration: \(path):2: display.brightness", in: error.fileHandleForReading,
                collected: &messages))
        #expect(process.isRunning)

        try (good + "\n[[page]]\nkind = \"text\"\ntext = \"two\"\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        #expect(Self.waitFor("reloaded \(path): 2 pages", in: error.fileHandleForReading, collected: &messages))

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(messages)")
        // On SIGTERM the panel was switched off (AEh, then the charge pump), then its RAM blanked.
        var off = SSD1306Emulator(panel: .ssd1306_128x64)
        for transfer in try fake.transfers() { off.write(transfer.bytes, to: transfer.address) }
        #expect(!off.registers.isDisplayOn && !off.registers.isChargePumpEnabled && off.displayRAM.litPixelCount == 0)
    }

    @Test func aBrokenFileWithBuiltInOnErrorRunsTheBuiltInPagesUntilAReloadReadsItFixed() throws {
        let fake = try FakeBusRun()
        let path = fake.scratch.path + "/crownpager.toml"
        try "[display]\nbrightness = 300\n".write(toFile: path, atomically: true, encoding: .utf8)
        let (process, _, error) = try fake.start(["run", "--config", path, "--built-in-on-error"], devices: "1:0x3c")
        #expect(try fake.waitForFirstFrame())
        var messages = ""
        #expect(
            Self.waitFor(
                "runs the built-in pages: \(path):2: display.brightness", in: error.fileHandleForReading,
                collected: &messages))
        #expect(process.isRunning)

        try "[display]\nbus = 1\n[[page]]\nkind = \"text\"\ntext = \"fixed\"\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        #expect(Self.waitFor("reloaded \(path): 1 pages", in: error.fileHandleForReading, collected: &messages))
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(messages)")
    }

    @Test func aBrokenFileWithoutBuiltInOnErrorEndsTheRun() throws {
        let fake = try FakeBusRun()
        let path = fake.scratch.path + "/crownpager.toml"
        try "[display]\nbrightness = 300\n".write(toFile: path, atomically: true, encoding: .utf8)
        let (process, _, _) = try fake.start(["run", "--config", path], devices: "1:0x3c")
        process.waitUntilExit()
        #expect(process.terminationStatus == 78)
    }

    @Test func anAdapterUnpluggedMidRunIsNamedAndReopenedWhenItReturns() throws {
        let fake = try FakeBusRun()
        let path = fake.scratch.path + "/crownpager.toml"
        // A clock with seconds: a frame every second, so the run writes without input.
        let configuration = """
            [display]
            bus = 1
            [[page]]
            kind = "clock"
            time = "%H:%M:%S"
            """
        try configuration.write(toFile: path, atomically: true, encoding: .utf8)
        let (process, _, error) = try fake.start(["run", "--config", path], devices: "1:0x3c")
        #expect(try fake.waitForFirstFrame())
        var messages = ""
        #expect(Self.waitFor("1 pages from \(path)", in: error.fileHandleForReading, collected: &messages))

        // The adapter goes away: its node is unlinked under the open descriptor.
        let node = fake.scratch.path + "/root/dev/i2c-1"
        #expect(unlink(node) == 0)
        #expect(
            Self.waitFor(
                "the display stopped answering (/dev/i2c-1 disappeared (could not write to 0x3c on /dev/i2c-1: ",
                in: error.fileHandleForReading, collected: &messages))
        #expect(
            Self.waitFor(
                "the USB or bit-banged adapter was unplugged or its driver unloaded; waiting for it to come back)",
                in: error.fileHandleForReading, collected: &messages))
        #expect(!messages.contains("check the wiring"))
        // Still running: what follows waits for it to take the device back, which an ended run never does.
        #expect(process.isRunning)

        // It comes back: the run reopens it, initialises the panel afresh and sends the whole frame.
        let before = try fake.transfers().count
        #expect(FileManager.default.createFile(atPath: node, contents: nil))
        #expect(Self.waitFor("the display answers again after", in: error.fileHandleForReading, collected: &messages))
        _ = try waitUntil { try fake.transfers().dropFirst(before).contains(where: { $0.bytes.count == 1025 }) }
        let after = try fake.transfers().dropFirst(before)
        #expect(after.first?.bytes.starts(with: [0x00, 0xAE]) == true)
        #expect(after.contains { $0.bytes.count == 1025 })

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(messages)")
    }
}
