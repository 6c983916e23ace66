import PagerCore
import PagerEngine
import Testing

@Suite struct CrownScriptTests {
    @Test func inlineStepsAreSpacedSoSlidesSettle() throws {
        let script = try CrownScript(parsing: "+1,+1,-1")
        #expect(script.steps.map(\.at) == [.zero, .milliseconds(400), .milliseconds(800)])
        #expect(
            script.events(startingAt: .milliseconds(1000)) == [
                .rotated(detents: 1, at: .milliseconds(1000)),
                .rotated(detents: 1, at: .milliseconds(1400)),
                .rotated(detents: -1, at: .milliseconds(1800)),
            ])
        #expect(script.duration == .milliseconds(1200))
    }

    @Test func fileWithTimesPressesWaitsAndComments() throws {
        let script = try CrownScript(
            parsing: """
                # open the clock, look at it for two seconds, then go home
                +1
                wait 2s
                @3s press          # short press: back to the first page
                long-press
                hold 1.5s
                @7.25s -2
                """)
        #expect(
            script.steps.map(\.at) == [
                .zero, .seconds(3), .milliseconds(3480), .milliseconds(4680), .milliseconds(7250),
            ])
        #expect(
            script.steps.map(\.action) == [
                .turn(1), .hold(.milliseconds(80)), .hold(.milliseconds(800)), .hold(.milliseconds(1500)), .turn(-2),
            ])
        #expect(script.events(startingAt: .zero).contains(.released(at: .milliseconds(3080))))
    }

    @Test func emptyScriptsAreFine() throws {
        #expect(try CrownScript(parsing: "").steps.isEmpty)
        #expect(try CrownScript(parsing: " , ,\n# nothing\n").steps.isEmpty)
    }

    @Test(arguments: [
        ("+1\nturn left", 2, "turn left"),
        ("+1,1", 1, "1"),
        ("wait", 1, "wait"),
        ("wait soon", 1, "soon"),
        ("@2s +1\n@1s -1", 2, "@1s"),
        ("@5s", 1, "@5s"),
        ("+99999999999999999999", 1, "+99999999999999999999"),
        ("hold -3s", 1, "-3s"),
    ])
    func badStepsNameTheLineAndToken(text: String, line: Int, token: String) {
        #expect(throws: CrownScriptError.self) { try CrownScript(parsing: text) }
        do {
            _ = try CrownScript(parsing: text)
        } catch {
            #expect(error.line == line)
            #expect(error.token == token)
            #expect(error.description.contains("line \(line)"))
        }
    }

    /// A script saved with CRLF line ends (Windows editors) reads exactly as the same script with LF ends.
    @Test func crlfLineEndsReadAsLF() throws {
        let lf = "# go to the clock\n+1\nwait 2s\n@3s press   # back\nlong-press\n\nhold 1.5s\n@7.25s -2\n"
        let crlf = lf.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        #expect(crlf.utf8.contains(0x0D))
        let expected = try CrownScript(parsing: lf)
        #expect(expected.steps.count == 5)
        #expect(try CrownScript(parsing: crlf) == expected)
        // Errors name the same line.
        do {
            _ = try CrownScript(parsing: "+1\r\n+1\r\nturn left\r\n")
            Issue.record("no error")
        } catch {
            #expect(error.line == 3)
            #expect(error.token == "turn left")
        }
    }

    /// Found by Scripts/dev/fuzz.sh: the smallest Int as a turn trapped in `abs`.
    @Test func theSmallestIntegerIsNoTurn() {
        #expect(throws: CrownScriptError.self) { try CrownScript(parsing: "-9223372036854775808") }
        #expect(throws: CrownScriptError.self) { try CrownScript(parsing: "+9223372036854775807") }
        #expect((try? CrownScript(parsing: "-10000"))?.steps.count == 1)
    }
}
