import CrownInput
import CrownPagerApp
import Foundation
import Glibc
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

/// `[crown]` and the flags become the run's knob; flags override the configuration.
@Suite(.tags(.endToEnd), .serialized) struct RunCrownTests {
    @Test func crownSectionsChooseTheirSource() {
        var section = CrownSection()
        section.chip = "/dev/gpiochip4"
        (section.lineA, section.lineB, section.lineButton) = (5, 6, 13)
        section.stepping = .half
        section.inverted = true
        #expect(
            CrownChoice(section)
                == .gpio(
                    GPIOCrownWiring(chipPath: "/dev/gpiochip4", lineA: 5, lineB: 6, button: 13),
                    QuadratureConfiguration(stepping: .half, inverted: true)))
        section.source = "evdev"
        section.evdevPath = "/dev/input/event3"
        #expect(CrownChoice(section) == .evdev(path: "/dev/input/event3", inverted: true))
        section.source = "keyboard"
        #expect(CrownChoice(section) == .keyboard)
    }

    @Test func flagsOverrideTheFileAndLeaveTheRest() {
        var file = Configuration.builtIn
        file.display.panel = .ssd1306_128x32
        file.display.brightness = 40
        file.crown.wrap = true
        var overrides = RunOverrides()
        overrides.set(Settings.displayRotation, .rotated180)
        overrides.contrast = 200
        overrides.set(Settings.crownDetentsPerPage, 3)
        overrides.mock = true
        let run = overrides.applied(to: file)
        #expect(run.display.panel == .ssd1306_128x32 && run.display.brightness == 40 && run.crown.wrap)
        #expect(run.display.bus == nil && run.display.rotation == .rotated180 && run.crown.detentsPerPage == 3)
        #expect(run.display.settings.contrast == 200)
        let pi = BoardFacts(hasDeviceTree: true, i2cBuses: [1])
        #expect(DisplayTarget.choose(for: run.display, automatic: false, board: pi) == .emulator)
        #expect(DisplayTarget.choose(for: file.display, automatic: true, board: pi) == .panel(busPath: "/dev/i2c-1"))
    }

    @Test func theMockAppliesTheDisplaySettingsThroughTheEmulator() {
        var configuration = Configuration.demo()
        configuration.display.rotation = .rotated180
        configuration.display.brightness = 10
        configuration.display.contrast = 200
        configuration.display.isInverted = true
        var shell = VirtualShell(
            engine: DeviceEngine(
                configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero),
            panel: .ssd1306_128x64, address: configuration.display.address)
        var sampler = SamplePageSampler()
        shell.feed(.start, at: .zero, sampler: &sampler)
        // Values are read first; the frame follows on the next turn at the same instant.
        for _ in 0..<3 { shell.turn(at: .zero, crown: [], sampler: &sampler) }
        let emulator = shell.emulator
        #expect(emulator.registers.contrast == 200 && emulator.registers.isInverse)
        var expected = demoFrame(.ssd1306_128x64).rotated180()
        for y in 0..<expected.height { for x in 0..<expected.width { expected[x, y].toggle() } }
        #expect(emulator.glass == expected)
    }

    /// A configuration file for the fake bus and chip, with `crown` as its `[crown]` section.
    static func file(in fake: FakeBusRun, crown: String) throws -> String {
        let path = fake.scratch.path + "/crownpager.toml"
        let text =
            "[display]\nbus = 1\n\(crown)\n"
            + ["One", "Two", "Three"].map { "[[page]]\nkind = \"text\"\ntext = \"\($0)\"\n" }.joined()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theCrownSectionTurnsTheConfiguredPages() throws {
        let knob = try FakeKnobRun()
        let path = try Self.file(
            in: knob.bus, crown: "[crown]\nsource = \"gpio\"\nchip = \"/dev/gpiochip0\"\nacceleration = false")
        let (process, _, error) = try knob.start(["run", "--config", path, "--persist"])
        #expect(try knob.bus.waitForFirstFrame())
        knob.write(FakeKnobRun.detents(2))
        let third = settledFrame(
            ["One", "Two", "Three"].map { ConfiguredPage(title: "Text", body: .text($0)) }, .ssd1306_128x64,
            after: [1, 1])
        let shown = try knob.bus.waitForGlass(third)
        let messages = FakeBusRun.stop(process, error: error)
        #expect(shown, "\(messages)")
        #expect(
            messages.contains("3 pages from \(path); the crown on /dev/gpiochip0 lines 17 (A), 27 (B), 22 (button)"),
            "\(messages)")
        #expect(process.terminationStatus == 0)
    }

    @Test func aCrownTheFileNamesButTheMachineLacksIsAnErrorWithTheFix() throws {
        let fake = try FakeBusRun()
        let gpio = try Self.file(in: fake, crown: "[crown]\nsource = \"gpio\"\nchip = \"/dev/gpiochip4\"")
        // The fake kernel has no GPIO chip, whatever this machine has: the run says there is none, and names the mock.
        let (status, _, error) = try fake.run(["run", "--config", gpio], devices: "1:0x3c")
        #expect(status == 69)  // EX_UNAVAILABLE: the chip the file names is missing
        #expect(error.contains("[crown] source = \"gpio\": could not open /dev/gpiochip4"), "\(error)")
        #expect(error.contains("this machine has no GPIO chip (no /dev/gpiochip*): "), "\(error)")
        #expect(
            error.contains("--mock") && error.contains("bus = \"mock\"") && !error.contains("gpiodetect"), "\(error)")
        // With another chip the path is wrong: gpiodetect lists the chips.
        let (otherStatus, _, otherError) = try fake.run(
            ["run", "--config", gpio], devices: "1:0x3c", extra: ["FAKE_GPIO_CHIPS": "0:54"])
        #expect(otherStatus == 69)
        #expect(
            otherError.contains("could not open /dev/gpiochip4") && otherError.contains("gpiodetect"), "\(otherError)")
        #expect(
            otherError.contains("this machine has /dev/gpiochip0") && !otherError.contains("no GPIO chip"),
            "\(otherError)")
        let evdev = try Self.file(in: fake, crown: "[crown]\nsource = \"evdev\"\nevdev = \"/dev/input/event7\"")
        let (evdevStatus, _, evdevError) = try fake.run(["run", "--config", evdev], devices: "1:0x3c")
        #expect(evdevStatus == 69)
        #expect(
            evdevError.contains("[crown] source = \"evdev\": ") && evdevError.contains("/dev/input/event7"),
            "\(evdevError)")
        // The keyboard needs nothing; a flag overrides the file's knob.
        let keyboard = try Self.file(in: fake, crown: "[crown]\nsource = \"gpio\"\nchip = \"/dev/gpiochip4\"")
        let (process, _, _) = try fake.start(["run", "--config", keyboard, "--keyboard"], devices: "1:0x3c")
        #expect(try fake.waitForFirstFrame())
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

/// The wiring picture of Hardware/README.md, drawn by CrownPager.
@Suite(.tags(.endToEnd)) struct WiringDiagramTests {
    @Test(.tags(.golden)) func theDiagramIsItsGoldenAndTheCommandWritesItAsPNG() throws {
        expectGolden(WiringDiagram.render(), named: "wiring_diagram")
        let scratch = try ScratchDirectory()
        let run = try runCrownPager(["wiring-diagram", "--out", scratch.path + "/wiring.png", "--scale", "1"])
        #expect(run.status == 0, "\(run.standardError)")
        let png = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/wiring.png"))
        #expect(Array(png) == PNG.encode(WiringDiagram.render(), scale: 1, lit: .black, dark: .white))
        let shipped = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Hardware/pictures/wiring.png").standardized)
        #expect(
            Array(shipped) == PNG.encode(WiringDiagram.render(), scale: 2, lit: .black, dark: .white),
            "run Scripts/dev/render-pictures.sh")
    }

    @Test(.tags(.golden)) func theSPIDiagramIsItsGoldenAndTheShippedPicture() throws {
        let drawn = try WiringDiagram.renderSPI(SPIDiagramWiring()).get()
        expectGolden(drawn, named: "wiring_diagram_spi")
        let scratch = try ScratchDirectory()
        let run = try runCrownPager([
            "wiring-diagram", "--spi", "0.0", "--out", scratch.path + "/spi.png", "--scale", "1",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let png = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/spi.png"))
        #expect(Array(png) == PNG.encode(drawn, scale: 1, lit: .black, dark: .white))
        let shipped = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Hardware/pictures/wiring-spi.png").standardized)
        #expect(
            Array(shipped) == PNG.encode(drawn, scale: 2, lit: .black, dark: .white),
            "run Scripts/dev/render-pictures.sh")
    }

    @Test func theConfigurationsSPIWiringIsDrawnAndFlagsOverrideIt() throws {
        let scratch = try ScratchDirectory()
        let config = scratch.path + "/spi.toml"
        try "[display]\nbus = \"spi0.1\"\ndc_line = 23\nreset_line = 5\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let fromFile = try runCrownPager(["wiring-diagram", "--config", config, "--out", scratch.path + "/a.png"])
        #expect(fromFile.status == 0, "\(fromFile.standardError)")
        let expected = try WiringDiagram.renderSPI(
            SPIDiagramWiring(device: SPIDevice(bus: 0, chipSelect: 1), dataCommandLine: 23, resetLine: 5)
        ).get()
        let written = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/a.png"))
        #expect(Array(written) == PNG.encode(expected, scale: 2, lit: .black, dark: .white))
        // CE1 is pin 26, DC (GPIO23) pin 16, RES (GPIO5) pin 29: the lit pin boxes say so.
        let pins: [Int] = [16, 17, 19, 20, 23, 26, 29]
        let used: [Int] = WiringDiagram.usedPins(
            of: SPIDiagramWiring(device: SPIDevice(bus: 0, chipSelect: 1), dataCommandLine: 23, resetLine: 5))
        #expect(used == pins)
        // A flag wins over the file; a line on the bus's own pins is refused with the rule.
        let overridden = try runCrownPager([
            "wiring-diagram", "--config", config, "--reset-line", "none", "--out", scratch.path + "/b.png",
        ])
        #expect(overridden.status == 0, "\(overridden.standardError)")
        let untied = try WiringDiagram.renderSPI(
            SPIDiagramWiring(device: SPIDevice(bus: 0, chipSelect: 1), dataCommandLine: 23, resetLine: nil)
        ).get()
        let writtenUntied = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/b.png"))
        #expect(Array(writtenUntied) == PNG.encode(untied, scale: 2, lit: .black, dark: .white))
        let refused = try runCrownPager(["wiring-diagram", "--spi", "0.0", "--dc-line", "10", "--out", "/tmp/x.png"])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("dc_line GPIO10 is not a free GPIO"), "\(refused.standardError)")
        let noBus = try runCrownPager(["wiring-diagram", "--spi", "2.0", "--out", "/tmp/x.png"])
        #expect(noBus.standardError.contains("spi2.0 has no pins on the 40-pin header"), "\(noBus.standardError)")
    }
}
