import Foundation
import TestSupport
import Testing

/// Error messages of the built `crownpager`: lines counted from 1, missing folders named, control characters escaped.
@Suite(.tags(.endToEnd)) struct ErrorMessageTests {
    /// A bad line 3 of a trace is reported as line 3, with CRLF or LF line ends.
    @Test func replayCountsLinesFromOne() throws {
        let scratch = try ScratchDirectory()
        for ending in ["\n", "\r\n"] {
            let trace = scratch.path + "/bad.txt"
            let lines = ["# a comment", "w2@0x3c 0x00 0xaf", "w2@0x3c 0x00", "w2@0x3c 0x00 0xa4"]
            try (lines.joined(separator: ending) + ending).write(toFile: trace, atomically: true, encoding: .utf8)
            let run = try runCrownPager(["replay", trace])
            #expect(run.status == 65, "\(run.standardError)")
            let expected = trace + ": line 3, 'w2@0x3c'"
            #expect(run.standardError.contains(expected), "\(run.standardError)")
        }
    }

    /// A bad line 3 of a configuration is reported as line 3, whatever kind of mistake it is.
    @Test func checkCountsLinesFromOne() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/c.toml"
        let thirdLines = [
            "brightness = 250", "brightness = ", "colour = 1", "brightness = 1 2", "dim_after = \"soon\"",
            "panel = \"128x64",
        ]
        for third in thirdLines {
            let text = "# line 1\n[display]\n" + third + "\n"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let run = try runCrownPager(["check", path])
            #expect(run.status == 78, "\(third): \(run.standardError)")
            let expected = path + ":3:"
            #expect(run.standardError.contains(expected), "\(third): \(run.standardError)")
        }
    }

    @Test(arguments: [["render", "--frozen", "--out", "FRAMES"], ["run", "--mock", "--keyboard"]])
    func aTraceIntoAMissingFolderNamesTheFolder(command: [String]) throws {
        let scratch = try ScratchDirectory()
        var arguments = command.map { $0 == "FRAMES" ? scratch.path + "/frames" : $0 }
        arguments += ["--trace", "/nonexistent/dir/t.txt"]
        let run = try runCrownPager(arguments)
        #expect(run.status == 74, "\(run.standardError)")  // EX_IOERR, as for any output file
        let expected = "cannot write the trace /nonexistent/dir/t.txt: the folder /nonexistent/dir does not exist"
        #expect(run.standardError.contains(expected), "\(run.standardError)")
    }

    /// The folder render makes for its frames may take the trace too, although it does not exist yet.
    @Test func aTraceIntoTheFramesFolderRenderMakesIsFine() throws {
        let scratch = try ScratchDirectory()
        let frames = scratch.path + "/new-frames"
        let run = try runCrownPager([
            "render", "--out", frames, "--crown", "+1", "--frozen", "--no-png", "--trace", frames + "/t.txt",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: frames + "/t.txt"))
    }

    /// Text from a file or the command line reaches the terminal with its control characters escaped.
    @Test func controlCharactersInMessagesAreEscaped() throws {
        let scratch = try ScratchDirectory()
        let escape = "\u{1B}[2J"
        let config = scratch.path + "/c.toml"
        try "[[page]]\nkind = \"image\"\npath = \"x\\u001b[2J.png\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let quoted = try runCrownPager(["check", config])
        #expect(quoted.status != 0)
        #expect(!quoted.standardError.contains(escape), "\(quoted.standardError)")
        #expect(quoted.standardError.contains("x\\u{1B}[2J.png"), "\(quoted.standardError)")

        let missing = scratch.path + "/a" + escape + "\tb.toml"
        let named = try runCrownPager(["check", missing])
        #expect(named.status == 66, "\(named.standardError)")
        #expect(!named.standardError.contains(escape))
        #expect(named.standardError.contains("/a\\u{1B}[2J\tb.toml"), "\(named.standardError)")
    }

    /// The argument parser's messages quote the command line too, and are escaped the same way.
    @Test func controlCharactersInCommandLineErrorsAreEscaped() throws {
        let palette = "x\u{1B}[2J"
        let run = try runCrownPager(["render", "--out", "/nonexistent/frames", "--palette", palette])
        #expect(run.status == 64, "\(run.standardError)")
        #expect(!run.standardError.contains("\u{1B}"))
        #expect(run.standardError.contains("x\\u{1B}[2J"), "\(run.standardError)")
        let help = try runCrownPager(["render", "--help"])
        #expect(help.status == 0 && help.standardOutput.contains("--palette") && help.standardError.isEmpty)
    }
}
