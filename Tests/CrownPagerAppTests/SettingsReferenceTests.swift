import Foundation
import PagerEngine
import PagerSettings
import TestSupport
import Testing

/// The settings table against what people read: the configuration article's reference and the flags' help.
@Suite struct SettingsReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Words separated by single spaces, as help reads once its wrapping is undone.
    static func words(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    /// PagerEngine's configuration article holds exactly the reference the table writes, between its markers.
    @Test func theArticleReferenceIsTheTables() throws {
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/PagerSettings/PagerSettings.docc/Configuration.md"),
            encoding: .utf8)
        let begin = try #require(article.range(of: "<!-- settings:begin -->\n"))
        let end = try #require(article.range(of: "\n<!-- settings:end -->"))
        #expect(String(article[begin.upperBound..<end.lowerBound]) == ConfigurationSetting.reference)
    }

    @Test(.tags(.endToEnd)) func checkPrintsTheReference() throws {
        let printed = try runCrownPager(["check", "--print-reference"])
        #expect(printed.status == 0 && printed.standardOutput == ConfigurationSetting.reference + "\n")
    }

    /// Every flag of the table is in `run --help` with the table's documentation.
    @Test(.tags(.endToEnd)) func everyTableFlagHasTheTablesHelp() throws {
        let help = try runCrownPager(["run", "--help"])
        #expect(help.status == 0)
        let text = Self.words(help.standardOutput)
        let flags = ConfigurationSetting.all.compactMap { setting in setting.flag.map { (setting, $0) } }
        #expect(flags.count >= 15)
        for (setting, flag) in flags {
            let documented = try #require(text.range(of: Self.words(setting.flagHelp)), "\(flag.name): no help")
            // The flag and its value name come just before its help.
            let before = text[
                (text.index(documented.lowerBound, offsetBy: -60, limitedBy: text.startIndex) ?? text.startIndex)..<documented
                    .lowerBound]
            #expect(before.contains(flag.name + " "), "\(flag.name): \(before)")
        }
    }

    /// The flags check ranges as the file does: the table's.
    @Test(.tags(.endToEnd)) func flagRangesAreTheTables() throws {
        let brightness = try #require(ConfigurationSetting.overridden(byFlag: "--brightness")?.integerRange)
        let run = try runCrownPager(["run", "--mock", "--brightness", "\(brightness.upperBound + 1)"])
        #expect(run.status != 0)
        #expect(run.standardError.contains("--brightness must be between 0 and 100, not '101'"), "\(run.standardError)")
        // A choice is refused in the table's words too, with the value given.
        let side = try runCrownPager(["render", "--out", "/tmp/unused", "--crown-side", "top"])
        #expect(side.status == 64)
        #expect(side.standardError.contains(#"--crown-side must be "right", "left" or "bottom", not 'top'"#))
        // A duration flag says what it takes where the command line differs from the file.
        let duration = try runCrownPager(["render", "--out", "/tmp/unused", "--page-duration", "50ms"])
        #expect(duration.status == 64)
        #expect(duration.standardError.contains("--page-duration must be a time such as 3s or 500ms, at least 100ms"))
    }
}
