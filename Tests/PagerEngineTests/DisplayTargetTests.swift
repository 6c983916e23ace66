import PagerEngine
import PagerSettings
import Testing

/// The glass a run drives, chosen from board facts made by hand: the same on a desktop, a
/// Raspberry Pi or CI, since the engine never looks at the file system.
@Suite struct DisplayTargetTests {
    /// The built-in configuration's display: bus 1.
    static let builtIn = Configuration.builtIn.display
    static let desktop = BoardFacts(hasDeviceTree: false, i2cBuses: [0, 1, 2, 3])
    static let pi = BoardFacts(hasDeviceTree: true, i2cBuses: [1, 20, 21], gpioChips: ["/dev/gpiochip0"])
    static let piWithoutI2C = BoardFacts(hasDeviceTree: true, i2cBuses: [20, 21], gpioChips: ["/dev/gpiochip0"])

    @Test func aDesktopRunsTheMockEvenWithI2CAdapters() {
        // Its /dev/i2c-N are the monitors' DDC lines: no display commands go there unasked.
        #expect(DisplayTarget.choose(for: Self.builtIn, automatic: true, board: Self.desktop) == .emulator)
        #expect(DisplayTarget.choose(for: Self.builtIn, automatic: true, board: BoardFacts()) == .emulator)
    }

    @Test func aPiWithTheBusDrivesThePanel() {
        #expect(
            DisplayTarget.choose(for: Self.builtIn, automatic: true, board: Self.pi) == .panel(busPath: "/dev/i2c-1"))
    }

    @Test func aPiWithoutTheBusRunsTheMock() {
        // I2C not enabled yet (raspi-config): the mock, not an error at every boot.
        #expect(DisplayTarget.choose(for: Self.builtIn, automatic: true, board: Self.piWithoutI2C) == .emulator)
    }

    @Test func aBusNamedExplicitlyIsDrivenWhateverTheFacts() {
        var display = Self.builtIn
        display.bus = 3
        // A file or --i2c-bus: a missing bus is then an error with its fix, not a silent mock.
        for board in [Self.desktop, Self.pi, Self.piWithoutI2C, BoardFacts()] {
            #expect(DisplayTarget.choose(for: display, automatic: false, board: board) == .panel(busPath: "/dev/i2c-3"))
        }
    }

    @Test func mockRunsTheEmulatorEvenOnAPi() throws {
        let configuration = try Configuration(
            parsing: "[display]\nbus = \"mock\"\n", file: "test.toml", files: NoPictures())
        #expect(configuration.display.bus == nil)
        for automatic in [true, false] {
            #expect(DisplayTarget.choose(for: configuration.display, automatic: automatic, board: Self.pi) == .emulator)
        }
    }
}

/// A file reader for text that names no picture.
private struct NoPictures: FileReading {
    func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8] {
        throw FileReadError("no files here")
    }
}
