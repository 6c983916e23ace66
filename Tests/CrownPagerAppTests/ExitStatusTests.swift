import Foundation
import TestSupport
import Testing

/// The built `crownpager`'s exit statuses (sysexits.h): one representative failure for each.
@Suite(.tags(.endToEnd)) struct ExitStatusTests {
    /// 64 EX_USAGE, from the argument parser and from a bad `--crown` step found later.
    @Test(arguments: [
        ["render", "--out", "/tmp/x", "--fps", "0"], ["render", "--out", "/tmp/x", "--crown", "+1,sideways"],
    ])
    func aWrongCommandLineExits64(arguments: [String]) throws {
        let run = try runCrownPager(arguments)
        #expect(run.status == 64, "\(run.standardError)")
    }

    /// 65 EX_DATAERR: a trace that does not parse, a picture that is no picture.
    @Test func malformedInputExits65() throws {
        let scratch = try ScratchDirectory()
        let trace = scratch.path + "/broken.txt"
        try "w2@0x3c 0x00\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let replay = try runCrownPager(["replay", trace])
        #expect(replay.status == 65, "\(replay.standardError)")
        #expect(replay.standardError.contains("broken.txt: line 1"), "\(replay.standardError)")
        let junk = scratch.path + "/junk.pbm"
        try "P1\n2 2\n1".write(toFile: junk, atomically: true, encoding: .utf8)
        let image = try runCrownPager(["render", "--out", scratch.path + "/o", "--indicator-image", junk])
        #expect(image.status == 65, "\(image.standardError)")
    }

    /// 66 EX_NOINPUT: a configuration, a crown script or an indicator image that does not exist.
    @Test(arguments: [
        ["check", "/nonexistent/crownpager.toml"],
        ["render", "--out", "/tmp/x", "--script", "/nonexistent/walk.crown"],
        ["replay", "/nonexistent/trace.txt"], ["render", "--out", "/tmp/x", "--indicator-image", "/nonexistent/a.xbm"],
    ])
    func aMissingInputFileExits66(arguments: [String]) throws {
        let run = try runCrownPager(arguments)
        #expect(run.status == 66, "\(run.standardError)")
        #expect(run.standardError.contains("/nonexistent/"), "\(run.standardError)")
    }

    /// 69 EX_UNAVAILABLE: no panel answers on the bus; no such input device.
    @Test func anUnavailableDeviceExits69() throws {
        let fake = try FakeBusRun()
        let (status, _, error) = try fake.run(["run", "--i2c-bus", "1"], devices: "1:0x3d")
        #expect(status == 69, "\(error)")
        let evdev = try runCrownPager(["doctor", "crown", "--evdev", "/nonexistent/event7"])
        #expect(evdev.status == 69, "\(evdev.standardError)")
    }

    /// 74 EX_IOERR: an output folder that cannot be made.
    @Test func anOutputThatCannotBeWrittenExits74() throws {
        let run = try runCrownPager(["render", "--out", "/proc/crownpager-frames", "--frozen", "--steps-only"])
        #expect(run.status == 74, "\(run.standardError)")
        let diagram = try runCrownPager(["wiring-diagram", "--out", "/proc/crownpager-wiring.png"])
        #expect(diagram.status == 74, "\(diagram.standardError)")
        #expect(diagram.standardError.contains("cannot write the wiring diagram: "), "\(diagram.standardError)")
    }

    /// 78 EX_CONFIG: a configuration file with a wrong value, for `check` and for `run`.
    @Test func aBadConfigurationExits78() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/crownpager.toml"
        try "[display]\nbrightness = 300\n".write(toFile: path, atomically: true, encoding: .utf8)
        for arguments in [["check", path], ["run", "--config", path]] {
            let run = try runCrownPager(arguments)
            #expect(run.status == 78, "\(arguments): \(run.standardError)")
            #expect(run.standardError.contains(":2: display.brightness"), "\(run.standardError)")
        }
    }

    /// The help lists the statuses; success stays 0.
    @Test func theHelpDocumentsTheStatuses() throws {
        let help = try runCrownPager(["--help"])
        #expect(help.status == 0)
        for part in [
            "64 a wrong command line", "66 an input file missing", "69 a", "74 an I/O error", "78 a bad configuration",
            "128 + N",
        ] {
            #expect(help.standardOutput.contains(part), "\(part): \(help.standardOutput)")
        }
    }
}
