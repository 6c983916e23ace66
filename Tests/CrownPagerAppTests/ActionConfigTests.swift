import CrownPagerApp
import CrownVocabulary
import PagerConfig
import PagerSettings
import Testing

/// `[[page]] action`, `confirm`, `action_timeout`, `stay` and `[pager]`: read, defaulted, and
/// every mistake named with its line and the fix.
@Suite struct ActionConfigTests {
    static func error(_ text: String) -> String? {
        do throws(ConfigError) {
            _ = try parseConfiguration(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func anActionPageReadsItsCommandConfirmationAndTimeout() throws {
        let configuration = try parseConfiguration(
            """
            [[page]]
            kind = "text"
            title = "Restart foo"
            text = "x"
            action = ["systemctl", "restart", "foo.service"]
            confirm = "hold"
            action_timeout = "1min"
            stay = true
            [[page]]
            kind = "command"
            argv = ["uptime"]
            action = ["/bin/true"]
            """)
        let first = try #require(configuration.pages.first?.action)
        #expect(first.command.argv == ["systemctl", "restart", "foo.service"])
        #expect(first.confirmation == .hold && first.command.timeout == .seconds(60))
        #expect(first.question == "Press again to restart foo")
        #expect(configuration.pages[0].stay)
        // Defaults: asked with a press, 30 s, named by its command; a page stays only when told.
        let second = try #require(configuration.pages[1].action)
        #expect(second.confirmation == .press && second.command.timeout == .seconds(30))
        #expect(second.command.maximumOutputBytes == 4096)
        #expect(second.question == "Press again to /bin/true")
        #expect(!configuration.pages[1].stay)
        #expect(configuration.pages[1].command?.argv == ["uptime"], "the page's own command is untouched")
        #expect(try parseConfiguration("[[page]]\nkind = \"text\"\ntext = \"x\"").pages[0].action == nil)
    }

    @Test func checkSaysWhatAPressRunsAndWhereHomeIs() throws {
        let configuration = try parseConfiguration(
            """
            [pager]
            home = "Restart foo"
            return_home_after = "2min"
            [[page]]
            kind = "clock"
            [[page]]
            kind = "text"
            title = "Restart foo"
            text = "x"
            action = ["systemctl", "restart", "foo.service"]
            """)
        #expect(
            configuration.summary.suffix(3) == [
                "page 1: Clock (clock)",
                "page 2: Restart foo (text), a press runs systemctl restart foo.service (asked twice)",
                "home: page 2 (Restart foo) after 2min untouched",
            ])
    }

    @Test func actionMistakesNameTheLineAndTheFix() {
        let page = "[[page]]\nkind = \"text\"\ntext = \"x\"\n"
        #expect(
            Self.error(page + "confirm = \"hold\"")
                == "test.toml:4: page[1].confirm: there is no action to confirm or time: add action = [\"program\", \"argument\"] or remove it"
        )
        #expect(
            Self.error(page + "action = []") == "test.toml:4: page[1].action: expected at least 1 element, found none")
        #expect(Self.error(page + "action = [\"\"]") == "test.toml:4: page[1].action: the program's name is empty")
        #expect(
            Self.error(page + "action = [\"true\"]\nconfirm = \"twice\"")
                == "test.toml:5: page[1].confirm: expected one of \"press\", \"hold\" or \"none\", found \"twice\"")
    }

    @Test func homeIsANumberOrATitleOfAPageThatExists() throws {
        let pages = "[[page]]\nkind = \"clock\"\n[[page]]\nkind = \"text\"\ntitle = \"Notes\"\ntext = \"x\"\n"
        let byTitle = try parseConfiguration("[pager]\nhome = \"Notes\"\nreturn_home_after = \"2m\"\n" + pages)
        #expect(byTitle.homeIndex == 1 && byTitle.pager.returnHomeAfter == .seconds(120))
        #expect(try parseConfiguration("[pager]\nhome = 2\n" + pages).homeIndex == 1)
        let defaults = try parseConfiguration(pages)
        #expect(defaults.homeIndex == 0 && defaults.pager.returnHomeAfter == nil)
        #expect(
            Self.error("[pager]\nhome = \"Notse\"\n" + pages)
                == "test.toml:2: pager.home: no page is titled \"Notse\": use one of \"Clock\", \"Notes\", or a number from 1 to 2"
        )
        #expect(
            Self.error("[pager]\nhome = 3\n" + pages)
                == "test.toml:2: pager.home: there is no page 3: use a number from 1 to 2, or a title (\"Clock\", \"Notes\")"
        )
        #expect(
            Self.error("[pager]\nhome = 0\n" + pages)
                == "test.toml:2: pager.home: expected a page's number from 1, or its title in quotes, found the integer 0"
        )
        #expect(
            Self.error("[pager]\nreturn_home_after = \"10ms\"\n" + pages)?.hasPrefix(
                "test.toml:2: pager.return_home_after: ") == true)
    }
}
