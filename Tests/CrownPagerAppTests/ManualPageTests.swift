import Foundation
import TestSupport
import Testing

/// The help text as `generate-manual` (Scripts/release/docs.sh) turns it into crownpager.1.
@Suite(.tags(.endToEnd)) struct ManualPageTests {
    /// Every abstract and discussion of every command and argument, named by where it stands.
    static func helpTexts(in command: [String: Any], path: String) -> [(String, String)] {
        var texts: [(String, String)] = []
        for key in ["abstract", "discussion"] {
            if let text = command[key] as? String { texts.append(("\(path) \(key)", text)) }
        }
        for argument in command["arguments"] as? [[String: Any]] ?? [] {
            let name = (argument["valueName"] as? String) ?? "argument"
            for key in ["abstract", "discussion"] {
                if let text = argument[key] as? String { texts.append(("\(path) \(name) \(key)", text)) }
            }
        }
        for subcommand in command["subcommands"] as? [[String: Any]] ?? [] {
            let name = (subcommand["commandName"] as? String) ?? "?"
            texts += helpTexts(in: subcommand, path: path + " " + name)
        }
        return texts
    }

    /// generate-manual copies help text into the page line for line, so an empty line in it is an
    /// empty roff input line: groff warns, and lintian reports `groff-message Empty input line`.
    @Test func noHelpTextHoldsAnEmptyLine() throws {
        let dump = try runCrownPager(["--experimental-dump-help"])
        #expect(dump.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8))
        let command = try #require((json as? [String: Any])?["command"] as? [String: Any])
        let texts = Self.helpTexts(in: command, path: "crownpager")
        #expect(texts.count > 20, "\(texts.count) help texts")
        for (place, text) in texts {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let empty = lines.dropLast().contains { $0.allSatisfy(\.isWhitespace) }
            #expect(!empty, "\(place) has an empty line: \(text)")
        }
    }
}
