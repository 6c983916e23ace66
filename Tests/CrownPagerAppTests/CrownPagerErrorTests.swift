import CrownInput
import CrownPagerApp
import Foundation
import LinuxSystem
import PagerConfig
import PagerCore
import PagerEngine
import PagerSettings
import SSD1306
import TestSupport
import Testing

/// Each throw site gives the case of its layer, with the structured context, not a sentence.
struct CrownPagerErrorTests {
    /// The error `body` throws, nil when it throws none.
    func thrown(_ body: () throws(CrownPagerError) -> Void) -> CrownPagerError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingConfigurationIsAFileReadErrorWithThePathAndErrno() {
        let error = thrown { () throws(CrownPagerError) in
            _ = try Configuration.load(path: "/nonexistent/crownpager.toml")
        }
        #expect(
            error
                == .readFile(
                    .failed(operation: .open, path: "/nonexistent/crownpager.toml", errno: .noSuchFileOrDirectory)))
    }

    @Test func aBadConfigurationCarriesTheFileLineAndKey() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/crownpager.toml"
        try "[display]\nbrightness = 300\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = thrown { () throws(CrownPagerError) in _ = try Configuration.load(path: path) }
        guard case .configuration(let config)? = error else {
            Issue.record("expected .configuration, got \(String(describing: error))")
            return
        }
        #expect(config.file == path && config.line == 2 && config.key == "display.brightness")
        #expect(error?.description == config.description)
    }

    @Test func indicatorImagesTellAMissingFileFromABadOne() throws {
        let cell = PageIndicatorStyle().cellSize
        let missing = thrown { () throws(CrownPagerError) in
            _ = try IndicatorImageFile.load("/nonexistent/a.xbm", cell: cell)
        }
        guard case .image(let unreadable)? = missing else {
            Issue.record("expected .image, got \(String(describing: missing))")
            return
        }
        #expect(unreadable.kind == .unreadable)
        let scratch = try ScratchDirectory()
        let junk = scratch.path + "/junk.xbm"
        try "hello".write(toFile: junk, atomically: true, encoding: .utf8)
        let bad = thrown { () throws(CrownPagerError) in _ = try IndicatorImageFile.load(junk, cell: cell) }
        guard case .image(let invalid)? = bad else {
            Issue.record("expected .image, got \(String(describing: bad))")
            return
        }
        #expect(invalid.kind == .invalid && invalid.description.contains("junk.xbm is unreadable"))
        let unknown = thrown { () throws(CrownPagerError) in _ = try IndicatorImageFile.load("moon", cell: cell) }
        guard case .image(let name)? = unknown else {
            Issue.record("expected .image, got \(String(describing: unknown))")
            return
        }
        #expect(name.kind == .invalid)
    }

    @Test func anOutputThatCannotBeWrittenIsAFileWriteError() {
        let error = thrown { () throws(CrownPagerError) in
            try TraceFile.write(DisplayBatch(), format: .spi, to: "/nonexistent/folder/trace.txt")
        }
        #expect(
            error == .missingFolder(what: "trace", path: "/nonexistent/folder/trace.txt", folder: "/nonexistent/folder")
        )
        let appended = thrown { () throws(CrownPagerError) in
            try TraceFile.write(
                DisplayBatch([.init(kind: .commands, bytes: [0xAE])]), format: .i2c(.ssd1306Primary),
                to: "/nonexistent/folder/t.txt")
        }
        #expect(
            appended == .missingFolder(what: "trace", path: "/nonexistent/folder/t.txt", folder: "/nonexistent/folder"))
        let frames = thrown { () throws(CrownPagerError) in
            try FrameOutput(directory: "/proc/crownpager-frames").write([])
        }
        guard case .writeFile(.failed(.createDirectory, "/proc/crownpager-frames", _))? = frames else {
            Issue.record("expected .writeFile of the folder, got \(String(describing: frames))")
            return
        }
    }

    @Test func aMissingInputDeviceIsAnInputDeviceError() {
        let error = thrown { () throws(CrownPagerError) in
            do throws(InputEventError) { _ = try EvdevCrownSource(path: "/nonexistent/event7") } catch {
                throw .inputDevice(error)
            }
        }
        #expect(error == .inputDevice(.notFound(path: "/nonexistent/event7")))
        let chosen = thrown { () throws(CrownPagerError) in
            _ = try CrownChoice.evdev(path: "/nonexistent/event7", inverted: false).open()
        }
        #expect(chosen == error)
    }

    @Test func aMissingGPIOChipIsACrownErrorNamingTheChip() {
        let wiring = GPIOCrownWiring(chipPath: "/nonexistent/gpiochip9")
        let error = thrown { () throws(CrownPagerError) in
            _ = try CrownChoice.gpio(wiring, QuadratureConfiguration()).open()
        }
        guard case .crown(let gpio)? = error else {
            Issue.record("expected .crown, got \(String(describing: error))")
            return
        }
        // Without libgpiod on this machine the load fails first; either way the chip is named.
        #expect(gpio.chipPath == "/nonexistent/gpiochip9")
        #expect(gpio.operation == .openChip || gpio.operation == .loadLibrary, "\(gpio)")
    }

    @Test func aMissingBusIsADisplayErrorWithThePathAndOperation() {
        let doctor = DisplayDoctor(busPath: "/nonexistent/i2c-9")
        let error = thrown { () throws(CrownPagerError) in try doctor.run { _ in } }
        guard case .display(let i2c)? = error else {
            Issue.record("expected .display, got \(String(describing: error))")
            return
        }
        #expect(
            i2c.operation == .open && i2c.path == "/nonexistent/i2c-9" && i2c.address == nil && i2c.kind == .busMissing)
    }

    @Test func aFileTheUserNamedIsAReadErrorWithThePath() {
        let error = thrown { () throws(CrownPagerError) in _ = try TextFile.read("/nonexistent/walk.crown", limit: 1024)
        }
        #expect(
            error
                == .readFile(.failed(operation: .open, path: "/nonexistent/walk.crown", errno: .noSuchFileOrDirectory)))
    }

    /// The sentences wrap the inner error's, which keeps its fix.
    @Test func wrappingCasesKeepTheInnerSentence() {
        let inner = CrownPagerError.inputDevice(.notFound(path: "/dev/input/event7"))
        let source = CrownPagerError.crownSource(source: "evdev", reason: inner)
        #expect(source.description == "[crown] source = \"evdev\": " + inner.description)
        let script: CrownScriptError
        do throws(CrownScriptError) {
            _ = try CrownScript(parsing: "+1,sideways")
            Issue.record("a bad step was read")
            return
        } catch {
            script = error
        }
        #expect(CrownPagerError.crownScript(script, script: nil).description == "--crown: " + script.description)
        #expect(
            CrownPagerError.crownScript(script, script: "walk.crown").description == "walk.crown: " + script.description
        )
        let trace = I2CTraceError(line: 2, token: "w2@0x3c", problem: .incompleteMessage(expected: 2, found: 1))
        #expect(CrownPagerError.trace(trace, path: "t.txt").description == "t.txt: " + trace.description)
        #expect(
            CrownPagerError.restartNeeded.description
                == "the panel, bus or address changed: restart crownpager to use them")
    }
}
