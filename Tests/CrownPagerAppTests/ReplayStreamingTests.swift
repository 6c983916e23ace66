import Foundation
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// `crownpager replay` reads its trace a line and a transfer at a time, and writes each frame as it comes.
@Suite(.tags(.endToEnd)) struct ReplayStreamingTests {
    /// A trace that turns the panel on, sends `fills` messages of 64 KiB that a few characters
    /// each spell (to 0x3d, where no panel answers, so the emulator passes over them quickly),
    /// then draws a box in a corner.
    private func fillTrace(_ fills: Int, in scratch: ScratchDirectory) throws -> String {
        let path = scratch.path + "/fills-\(fills).txt"
        var text = "w3@0x3c 0x00 0x8d 0x14\nw2@0x3c 0x00 0xaf\nw3@0x3c 0x00 0x20 0x00\n"
        text += String(repeating: "w65535@0x3d 0x40 0x00=\n", count: fills)
        text += "w4@0x3c 0x00 0x21 0x00 0x7f\nw4@0x3c 0x00 0x22 0x00 0x07\n"
        text += "w9@0x3c 0x40 0xff 0x81 0x81 0x81 0x81 0x81 0x81 0xff\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// 9,000 lines of 23 bytes spell 590 MB of messages: read whole, they took 626 MB and
    /// aborted under a 1 GiB limit. Read a transfer at a time, they fit in what 30 lines take.
    @Test func aLongTraceReplaysInTheAddressSpaceOfAShortOne() throws {
        let scratch = try ScratchDirectory()
        let short = try fillTrace(30, in: scratch)
        let long = try fillTrace(9_000, in: scratch)
        // The least address space the short trace replays in, to 4 MiB.
        var failing = 0
        var passing = 2 << 20
        while passing - failing > 4096 {
            let middle = (failing + passing) / 2
            if try runCrownPager(["replay", short], addressSpaceKiB: middle).status == 0 {
                passing = middle
            } else {
                failing = middle
            }
        }
        let limit = passing + 32 << 10
        let shortRun = try runCrownPager(["replay", short], addressSpaceKiB: limit)
        let longRun = try runCrownPager(["replay", long], addressSpaceKiB: limit)
        #expect(shortRun.status == 0, "\(shortRun.standardError.prefix(2000))")
        #expect(longRun.status == 0, "under \(limit) KiB: \(longRun.standardError.prefix(2000))")
        #expect(longRun.standardOutput == shortRun.standardOutput)
        #expect(longRun.standardOutput.contains("█▀▀▀▀▀▀█"), "\(longRun.standardOutput)")
        // The same first twenty problems (a message each to 0x3d), the rest counted.
        let shortErrors = shortRun.standardError.replacingOccurrences(of: short, with: "TRACE").split(separator: "\n")
        let longErrors = longRun.standardError.replacingOccurrences(of: long, with: "TRACE").split(separator: "\n")
        #expect(longErrors.count == 21 && shortErrors.count == 21)
        #expect(longErrors.prefix(20) == shortErrors.prefix(20))
        #expect(
            longErrors.first?.hasPrefix("crownpager: TRACE: transaction 3, byte 0: no device answers at 0x3d") == true)
        #expect(longErrors.last == "crownpager: TRACE: 8980 more problems")
        #expect(shortErrors.last == "crownpager: TRACE: 10 more problems")
    }

    /// `--every-frame` names a frame by its transfer's number in the trace (not its line's), and
    /// writes the glass too when the last frame does not show it.
    @Test func everyFrameWritesTheFramesOfTheTransfers() throws {
        let scratch = try ScratchDirectory()
        let trace = scratch.path + "/t.txt"
        let lines = [
            "w4@0x3c 0x00 0x8d 0x14 0xaf", "w2@0x3c 0x40 0x01", "",
            "w4@0x3c 0x00 0xb0 0x00 0x10  w2@0x3c 0x40 0x03", "w2@0x3c 0x00 0xa7",
        ]
        try lines.joined(separator: "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let out = scratch.path + "/frames"
        let run = try runCrownPager(["replay", trace, "--out", out, "--every-frame"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "wrote 3 frames to \(out)\n")
        let names = ["transfer-00002", "transfer-00004", "glass"]
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out).sorted()
                == names.flatMap { [$0 + ".pbm", $0 + ".png"] }.sorted())
        let transfers = try I2CTrace.parse(lines.joined(separator: "\n"))
        for (name, count) in zip(names, [2, 4, 5]) {
            var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
            emulator.replay(Array(transfers.prefix(count)))
            let written = try PBM.decode(Array(Data(contentsOf: URL(fileURLWithPath: out + "/" + name + ".pbm"))))
            #expect(written == emulator.glass, "\(name)")
        }
    }

    /// A trace wrong on its last line writes no frame: it is read to its end before any is written.
    @Test func aTraceWrongAtItsEndWritesNoFrames() throws {
        let scratch = try ScratchDirectory()
        let trace = scratch.path + "/t.txt"
        try "w4@0x3c 0x00 0x8d 0x14 0xaf\nw2@0x3c 0x40 0x01\nw2@0x3c 0x40\n".write(
            toFile: trace, atomically: true, encoding: .utf8)
        let out = scratch.path + "/frames"
        let run = try runCrownPager(["replay", trace, "--out", out, "--every-frame"])
        #expect(run.status == 65, "\(run.standardError)")
        #expect(run.standardError.contains("t.txt: line 3, 'w2@0x3c': expected 2 data bytes, found 1"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A line past 1 MiB is no trace line: refused with its number, as a file past 1 MiB was.
    @Test func anEndlessLineIsRefusedWithItsNumber() throws {
        let scratch = try ScratchDirectory()
        let trace = scratch.path + "/t.txt"
        try ("w2@0x3c 0x00 0xaf\n" + String(repeating: "0", count: 3 << 20)).write(
            toFile: trace, atomically: true, encoding: .utf8)
        let run = try runCrownPager(["replay", trace])
        #expect(run.status == 65, "\(run.standardError)")
        #expect(
            run.standardError
                == "crownpager: cannot read the trace: \(trace): line 2 is longer than the 1048576 bytes a line may hold: name a text file\n"
        )
    }

    /// An SPI panel's trace (`cmd`/`data` lines) streams through `replay` too, to the glass the render showed.
    @Test func anSPIPanelsTraceReplaysToTheRenderedGlass() throws {
        let scratch = try ScratchDirectory()
        let configuration = scratch.path + "/spi.toml"
        try "[display]\nbus = \"spi0.0\"\n".write(toFile: configuration, atomically: true, encoding: .utf8)
        let trace = scratch.path + "/spi.txt"
        let render = try runCrownPager([
            "render", "--config", configuration, "--out", scratch.path + "/r", "--crown", "+1,+1", "--frozen",
            "--steps-only", "--no-png", "--trace", trace,
        ])
        #expect(render.status == 0, "\(render.standardError)")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(text.contains("\ncmd 0xae ") && text.contains("\ndata 0x") && !text.contains("@0x3c"))
        let replay = try runCrownPager(["replay", trace, "--out", scratch.path + "/g"])
        #expect(replay.status == 0 && replay.standardError.isEmpty, "\(replay.standardError)")
        let glass = try PBM.decode(Array(Data(contentsOf: URL(fileURLWithPath: scratch.path + "/g/glass.pbm"))))
        let shown = try PBM.decode(Array(Data(contentsOf: URL(fileURLWithPath: scratch.path + "/r/step-02.pbm"))))
        #expect(glass == shown)
    }
}
