import CrownPagerApp
import LinuxSystem
import PagerEngine
import PagerSettings
import Testing

/// `display.bus = "spi0.0"` and its lines: read from the file, laid over by the flags, chosen as the target.
@Suite struct SPIConfigurationTests {
    static let desktop = BoardFacts(hasDeviceTree: false, i2cBuses: [0, 1])

    @Test func aPanelOnSPIIsReadWithItsLinesAndClock() throws {
        let configuration = try parseConfiguration(
            """
            [display]
            bus = "spi0.1"
            gpio_chip = "/dev/gpiochip4"
            dc_line = 23
            reset_line = "none"
            spi_hz = 4000000
            """)
        let display = configuration.display
        #expect(display.spi == SPIDevice(bus: 0, chipSelect: 1) && display.spi?.path == "/dev/spidev0.1")
        #expect(display.dataCommandLine == 23 && display.resetLine == nil && display.spiHertz == 4_000_000)
        // Named, SPI is driven even where an automatic run would not drive an I2C panel.
        let target = DisplayTarget.choose(for: display, automatic: true, board: Self.desktop)
        #expect(target == .spiPanel(devicePath: "/dev/spidev0.1"))
        #expect(
            display.spiWiring(devicePath: "/dev/spidev0.1")
                == SPIDisplayWiring(
                    devicePath: "/dev/spidev0.1", chipPath: "/dev/gpiochip4", dataCommandLine: 23, resetLine: nil,
                    hertz: 4_000_000))
        #expect(
            configuration.summary[1] == "display: 128x64 on /dev/spidev0.1 (DC GPIO23, RES not wired), brightness 80")
        // Pacing models SPI's 8 clocks a byte as the pacer's 9: 4 MHz is an I2C clock of 4.5 MHz.
        #expect(display.pacingHertz == 4_500_000)
        #expect(Configuration().display.pacingHertz == 400_000 && Configuration().display.resetLine == 25)
    }

    @Test func theFlagsChooseSPIOrTakeItBack() throws {
        let file = try parseConfiguration("[display]\nbus = \"spi0.0\"")
        var overrides = RunOverrides()
        overrides.set(Settings.displayBus, .i2c(1))
        #expect(overrides.applied(to: file).display.spi == nil)
        overrides = RunOverrides()
        overrides.set(Settings.displayBus, .spi(SPIDevice(bus: 0, chipSelect: 0)))
        overrides.set(Settings.displayDataCommandLine, 5)
        overrides.set(Settings.displayResetLine, nil)
        let display = overrides.applied(to: Configuration()).display
        #expect(display.spi == SPIDevice(bus: 0, chipSelect: 0) && display.dataCommandLine == 5)
        #expect(display.resetLine == nil)
        overrides.mock = true
        #expect(
            DisplayTarget.choose(for: overrides.applied(to: file).display, automatic: false, board: Self.desktop)
                == .emulator)
    }

    @Test func spiDevicesAreWrittenAsTheBusNames() {
        #expect(SPIDevice(parsing: "spi0.0") == SPIDevice(bus: 0, chipSelect: 0))
        #expect(SPIDevice(parsing: "1.2")?.description == "spi1.2")
        for text in ["spi0", "spi.0", "0.", "spi0.0.0", "spi-1.0", "spi0.x", "spi٣.0"] {
            #expect(SPIDevice(parsing: text) == nil, "\(text)")
        }
    }

    @Test func aReloadThatMovesTheSPIPanelNeedsARestart() {
        var moved = Configuration().display
        moved.spi = SPIDevice(bus: 0, chipSelect: 0)
        #expect(moved.connection != Configuration().display.connection)
        var otherLine = moved
        otherLine.dataCommandLine = 5
        #expect(otherLine.connection != moved.connection)
        var brighter = moved
        brighter.brightness = 10
        #expect(brighter.connection == moved.connection)
    }
}
