import CrownPagerApp
import Foundation
import PagerCore
import PagerEngine
import PagerGraphics
import PagerTools
import SSD1306
import TestSupport
import Testing

/// The built `crownpager`, run as a user would: output files, messages and exit codes.
@Suite(.tags(.endToEnd)) struct CommandLineTests {
    @Test func renderWritesTheGlassOfEveryStepAndTransition() throws {
        let scratch = try ScratchDirectory()
        let out = scratch.path + "/frames"
        let trace = scratch.path + "/trace.txt"
        let run = try runCrownPager([
            "render", "--out", out, "--crown", "+1,-1", "--frozen", "--fps", "25", "--trace", trace,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("wrote"))

        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(files.contains("step-00.pbm") && files.contains("step-02.png"))
        #expect(files.filter { $0.hasSuffix(".pbm") }.count == files.filter { $0.hasSuffix(".png") }.count)

        // The files are the glass the library renders for the same script.
        var sampler = SamplePageSampler()
        let expected = HeadlessRender(configuration: .demo(), style: PageIndicatorStyle(), framesPerSecond: 25)
            .run(try CrownScript(parsing: "+1,-1"), sampler: &sampler)
        #expect(files.filter { $0.hasSuffix(".pbm") }.count == expected.frames.count)
        for frame in expected.frames {
            let data = try Data(contentsOf: URL(fileURLWithPath: out + "/" + frame.name + ".pbm"))
            #expect(try PBM.decode(Array(data)) == frame.glass, "\(frame.name)")
        }
        let png = try Data(contentsOf: URL(fileURLWithPath: out + "/step-01.png"))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

        // The trace replays into a fresh emulator as the last frame.
        let transfers = try I2CTrace.parse(String(contentsOfFile: trace, encoding: .utf8))
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        emulator.replay(transfers)
        #expect(emulator.glass == expected.frames.last?.glass)
    }

    @Test func scriptFilesAndPanelsAndStepsOnly() throws {
        let scratch = try ScratchDirectory()
        let script = scratch.path + "/walk.crown"
        try "# down two, back home\n+1\n@1s +1\n@2s press\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try runCrownPager([
            "render", "--out", scratch.path + "/f", "--script", script, "--panel", "128x32", "--steps-only", "--no-png",
            "--frozen",
            "--background-style", "minimal",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/f").sorted()
        #expect(files == ["step-00.pbm", "step-01.pbm", "step-02.pbm", "step-03.pbm"])
        let last = try PBM.decode(Array(Data(contentsOf: URL(fileURLWithPath: scratch.path + "/f/step-03.pbm"))))
        let first = try PBM.decode(Array(Data(contentsOf: URL(fileURLWithPath: scratch.path + "/f/step-00.pbm"))))
        #expect(last.size == Size(width: 128, height: 32))
        #expect(last == first, "a short press returns to the first page")
    }

    @Test(arguments: [
        (["render", "--out", "/tmp/x", "--panel", "200x10"], "unknown panel '200x10'"),
        (
            ["render", "--out", "/tmp/x", "--crown", "+1,sideways"],
            "--crown: crown script line 1: cannot read 'sideways'"
        ),
        (["render", "--out", "/tmp/x", "--script", "/nonexistent/walk.crown"], "/nonexistent/walk.crown"),
        (["render", "--out", "/tmp/x", "--fps", "0"], "--fps must be between 1 and 240"),
        (
            ["render", "--out", "/tmp/x", "--crown-side", "top"],
            "--crown-side must be \"right\", \"left\" or \"bottom\", not 'top'"
        ),
        (["render", "--out", "/tmp/x", "--crown", "+1", "--script", "a"], "give --crown or --script, not both"),
        (["--detents-per-page", "0"], "--detents-per-page must be between 1 and 20"),
        (
            ["render", "--out", "/tmp/x", "--sensitivity", "twitchy"],
            "--sensitivity must be \"low\", \"medium\" or \"high\", not 'twitchy'"
        ),
        (["run", "--rubber-band", "bouncy"], "--rubber-band must be \"soft\", \"medium\" or \"stiff\", not 'bouncy'"),
    ])
    func badInputExitsNonZeroWithAMessage(arguments: [String], message: String) throws {
        let run = try runCrownPager(arguments)
        #expect(run.status != 0)
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }

    // The message is built in the body: Swift 6.0.3 crashes on an interpolated string in @Test
    // arguments, and takes too long to type-check concatenated ones in a list of tuples.
    @Test(arguments: [
        ["run", "--address", "0x78"], ["replay", "/dev/null", "--address", "99x"],
        ["doctor", "display", "--address", "3g"],
    ])
    func aBadAddressExitsNonZeroAndSaysTheRule(arguments: [String]) throws {
        let run = try runCrownPager(arguments)
        let message = "--address must be \(I2CAddress.rule), not '\(arguments.last ?? "")'"
        #expect(run.status != 0)
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }

    @Test func replayShowsWhatATraceDrawsAndListsWhatIsWrong() throws {
        let scratch = try ScratchDirectory()
        let trace = scratch.path + "/trace.txt"
        let render = try runCrownPager([
            "render", "--out", scratch.path + "/r", "--crown", "+1", "--frozen", "--steps-only", "--trace", trace,
        ])
        #expect(render.status == 0, "\(render.standardError)")
        let replay = try runCrownPager(["replay", trace, "--out", scratch.path + "/g"])
        #expect(replay.status == 0, "\(replay.standardError)")
        #expect(replay.standardError.isEmpty)
        let glass = try PBM.decode(Array(Data(contentsOf: URL(fileURLWithPath: scratch.path + "/g/glass.pbm"))))
        let rendered = try PBM.decode(Array(Data(contentsOf: URL(fileURLWithPath: scratch.path + "/r/step-01.pbm"))))
        #expect(glass == rendered)

        let printed = try runCrownPager(["replay", trace])
        #expect(printed.standardOutput.split(separator: "\n").count == 32)

        let odd = scratch.path + "/odd.txt"
        try "w2@0x3c 0x00 0xff\nw2@0x3d 0x00 0xaf\n".write(toFile: odd, atomically: true, encoding: .utf8)
        let warned = try runCrownPager(["replay", odd])
        #expect(warned.status == 0)
        #expect(warned.standardError.contains("unknown command 0xff"))
        #expect(warned.standardError.contains("no device answers at 0x3d"))

        let broken = scratch.path + "/broken.txt"
        try "# a comment\nw2@0x3c 0x00\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = try runCrownPager(["replay", broken])
        #expect(refused.status == 65)  // EX_DATAERR: not a trace
        #expect(refused.standardError.contains("broken.txt: line 2"), "\(refused.standardError)")
    }

    /// `--crown -1` is a turn back, not an unknown option: no `=` needed.
    @Test(arguments: ["-1", "-1,+1", "-2,+1,press"])
    func renderTakesStepsThatStartWithADash(steps: String) throws {
        let scratch = try ScratchDirectory()
        let out = scratch.path + "/frames"
        let run = try runCrownPager(["render", "--crown", steps, "--out", out, "--frozen", "--steps-only", "--no-png"])
        #expect(run.status == 0, "\(run.standardError)")
        var sampler = SamplePageSampler()
        let expected = HeadlessRender(configuration: .demo(), style: PageIndicatorStyle())
            .run(try CrownScript(parsing: steps), sampler: &sampler)
            .frames.filter { !$0.name.contains("-frame-") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == expected.count)
        for frame in expected {
            let data = try Data(contentsOf: URL(fileURLWithPath: out + "/" + frame.name + ".pbm"))
            #expect(try PBM.decode(Array(data)) == frame.glass, "\(frame.name)")
        }
    }

    /// `--sensitivity low` asks three detents a page, as `crown.sensitivity = "low"` does: one
    /// detent only nudges, three turn the page the default's one detent turns.
    @Test func renderTakesTheSensitivityFlag() throws {
        let scratch = try ScratchDirectory()
        func stepOne(_ steps: String, _ flags: [String]) throws -> Bitmap {
            let out = scratch.path + "/\(steps)\(flags.joined())"
            let run = try runCrownPager(
                ["render", "--crown", steps, "--out", out, "--frozen", "--steps-only", "--no-png"] + flags)
            #expect(run.status == 0, "\(run.standardError)")
            return try PBM.decode(Array(Data(contentsOf: URL(fileURLWithPath: out + "/step-01.pbm"))))
        }
        let turned = try stepOne("+1", [])
        let nudged = try stepOne("+1", ["--sensitivity", "low"])
        let threeDetents = try stepOne("+3", ["--sensitivity", "LOW", "--rubber-band", "stiff"])
        #expect(nudged != turned)
        #expect(threeDetents == turned)
    }

    /// `--address` reads 0x3c, 3C and 60 as the same address, as the configuration file does.
    @Test func replayReadsTheAddressByTheOneRule() throws {
        let scratch = try ScratchDirectory()
        let trace = scratch.path + "/trace.txt"
        let render = try runCrownPager([
            "render", "--out", scratch.path + "/r", "--frozen", "--steps-only", "--no-png", "--trace", trace,
        ])
        #expect(render.status == 0, "\(render.standardError)")
        for address in ["0x3c", "0X3C", "3c", "3C", "60"] {
            let replay = try runCrownPager(["replay", trace, "--address", address])
            #expect(replay.status == 0 && replay.standardError.isEmpty, "\(address): \(replay.standardError)")
        }
        let elsewhere = try runCrownPager(["replay", trace, "--address", "61"])
        #expect(elsewhere.standardError.contains("no device answers at 0x3c"), "\(elsewhere.standardError)")
    }

    @Test func anOutputFolderThatCannotBeMadeSaysWhy() throws {
        let run = try runCrownPager(["render", "--out", "/proc/crownpager-frames", "--frozen"])
        #expect(run.status == 74)  // EX_IOERR
        #expect(run.standardError.contains("/proc/crownpager-frames"), "\(run.standardError)")
    }

    @Test func theTerminalMockNeedsATerminal() throws {
        let run = try runCrownPager([])
        #expect(run.status == 69)  // EX_UNAVAILABLE: no terminal to draw on
        #expect(run.standardError.contains("standard input is not a terminal"), "\(run.standardError)")
    }

    @Test func versionTellsTheReleaseCommitCompilerAndLibgpiod() throws {
        let run = try runCrownPager(["--version"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(
            lines.first?.hasPrefix("crownpager ") == true && lines.first?.split(separator: ".").count == 3, "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("commit ") == true, "\(lines)")
        #expect(lines.dropFirst(2).first?.hasPrefix("built with Swift") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("libgpiod") == true, "\(lines)")
    }

    @Test func versionNamesTheLibgpiodItLoadsOrSaysThatThereIsNone() throws {
        let missing = try runCrownPager(
            ["--version"], environment: ["CROWNPAGER_LIBGPIOD": "/nonexistent/libgpiod.so.3"])
        #expect(missing.status == 0, "\(missing.standardError)")
        #expect(
            missing.standardOutput.contains("libgpiod: none found (install libgpiod3 or libgpiod2"),
            "\(missing.standardOutput)")
        let found = try runCrownPager(["--version"])
        #expect(found.standardOutput.contains("loaded at run time"), "\(found.standardOutput)")
    }
}
