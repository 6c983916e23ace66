import CrownVocabulary
import PagerControl
import PagerCore
import PagerSettings
import PagerTools
import Testing

@testable import PagerEngine

/// `crownpager show` and `set` as the engine decides them, in virtual time: the page a request
/// names, pushed values on text and gauge pages, `stale_after`, and the refusals that change nothing.
@Suite struct ControlEngineTests {
    static let file = """
        [[page]]
        kind = "text"
        title = "Hello"
        text = "fixed"

        [[page]]
        kind = "text"
        title = "Washer"
        source = "push"
        stale_after = "10min"

        [[page]]
        kind = "gauge"
        title = "Tank"
        source = "push"
        unit = "%"
        stale_after = "1h"
        """

    static func engine() throws -> DeviceEngine {
        // No screen saver: the only deadlines are the control's.
        let pages = try Configuration(parsing: file, file: "t.toml", files: NoFiles()).pages
        return IdleDeadlineTests.started(IdleDeadlineTests.configuration(pages))
    }

    static func control(_ engine: inout DeviceEngine, _ request: PagerCommand, id: Int = 7, at instant: Timestamp)
        -> ControlReply?
    {
        let effects = engine.handle(.control(request, reply: id), at: instant)
        #expect(effects.replies.count == 1)
        return effects.replies.first
    }

    /// MQTT names its pages by index: a page titled "2" is never taken for the second page, as a
    /// person's word would be (a number is tried before a title).
    @Test func aPageByIndexIsThatPageWhateverTheTitles() throws {
        let file = """
            [[page]]
            kind = "text"
            title = "2"
            source = "push"

            [[page]]
            kind = "text"
            title = "Washer"
            source = "push"
            """
        let pages = try Configuration(parsing: file, file: "t.toml", files: NoFiles()).pages
        var engine = IdleDeadlineTests.started(IdleDeadlineTests.configuration(pages))
        #expect(Self.control(&engine, .set(page: .named("2"), value: "typed"), at: .milliseconds(100))?.refusal == nil)
        #expect(engine.pushedValues.states[1] == .text("typed") && engine.pushedValues.states[0] == nil)
        #expect(Self.control(&engine, .set(page: .index(0), value: "zero"), at: .milliseconds(200))?.refusal == nil)
        #expect(engine.pushedValues.states[0] == .text("zero"))
        let gone = Self.control(&engine, .set(page: .index(5), value: "x"), at: .milliseconds(300))
        #expect(gone?.refusal == .unknownPage)
        #expect(gone?.message == "no page \"6\": use a title or a number from 1 to 2")
        // An unreadable value marks a pushed page; a page that is gone (a reload since) is left alone.
        let marked = engine.handle(.unreadable(page: 7, problem: "not text"), at: .milliseconds(400))
        #expect(marked.replies.isEmpty && marked.display.isEmpty)
    }

    @Test func pushedPagesAreReadFromTheFile() throws {
        let configuration = try Configuration(parsing: Self.file, file: "t.toml", files: NoFiles())
        #expect(configuration.pages[0].push == nil)
        #expect(configuration.pages[1].push == PushedValue(staleAfter: .milliseconds(600_000)))
        #expect(configuration.pages[2].push == PushedValue(staleAfter: .milliseconds(3_600_000)))
        guard case .gauge(let gauge) = configuration.pages[2].kind else {
            Issue.record("not a gauge")
            return
        }
        #expect(gauge.source == ValueSource.push)
        // Nothing is read for them, so nothing wakes an idle pager for them.
        #expect(configuration.pages.allSatisfy { $0.read == nil })
        #expect(PageBook(specs: configuration.pages).intervals == [nil, nil, nil])
    }

    @Test func mistakesSayWhereAndWhat() {
        let mistakes = [
            (
                "[[page]]\nkind = \"text\"\ntext = \"a\"\nstale_after = \"5s\"\n",
                "t.toml:4: page[1].stale_after: stale_after marks a pushed value: add source = \"push\" or remove stale_after"
            ),
            (
                "[[page]]\nkind = \"text\"\nsource = \"command\"\n",
                "t.toml:3: page[1].source: a text page's source is \"push\" (its text from crownpager set) or \"mqtt\" (from topic), found \"command\""
            ),
            ("[[page]]\nkind = \"text\"\n", "t.toml:1: page[1].text: missing: the text to show, e.g. text = \"Hello\""),
        ]
        for (text, expected) in mistakes {
            do {
                _ = try Configuration(parsing: text, file: "t.toml", files: NoFiles())
                Issue.record("no error for:\n\(text)")
            } catch {
                #expect(error.description == expected, "for:\n\(text)")
            }
        }
    }

    @Test func showGoesToAPageByTitleOrNumberAndRefusesAnUnknownOne() throws {
        var engine = try Self.engine()
        #expect(engine.snapshot.page == 0)
        #expect(Self.control(&engine, .show(page: .named("tank")), at: .milliseconds(100)) == ControlReply(id: 7))
        #expect(engine.snapshot.page == 2)
        // It slides there as a turn does: a frame is due now.
        #expect(engine.snapshot.isAnimating)
        #expect(engine.nextDeadline == .milliseconds(100))
        #expect(Self.control(&engine, .show(page: .named("2")), id: 8, at: .milliseconds(900)) == ControlReply(id: 8))
        #expect(engine.snapshot.page == 1)
        let refused = Self.control(&engine, .show(page: .named("Kitchen")), at: .milliseconds(1000))
        #expect(refused?.refusal == .unknownPage)
        #expect(refused?.message == "no page \"Kitchen\": use a title or a number from 1 to 3")
        #expect(Self.control(&engine, .show(page: .named("4")), at: .milliseconds(1000))?.refusal == .unknownPage)
        #expect(engine.snapshot.page == 1)
    }

    @Test func aPushedTextShowsAndGoesStaleAfterItsTime() throws {
        var engine = try Self.engine()
        let page = 1
        #expect(engine.presenter.pager.pages[page].body == .output(lines: [], status: "waiting for a value"))
        #expect(engine.nextDeadline == nil)
        let setAt = Timestamp.milliseconds(5000)
        #expect(
            Self.control(&engine, .set(page: .named("Washer"), value: "12 min\nleft"), at: setAt) == ControlReply(id: 7)
        )
        #expect(engine.presenter.pager.pages[page].body == .output(lines: ["12 min", "left"], status: nil))
        #expect(engine.stalePages.isEmpty)
        // Idle afterwards, the engine wakes once: when the value goes stale.
        IdleDeadlineTests.turn(&engine, at: setAt)
        let staleAt = setAt + .milliseconds(600_000)
        #expect(engine.nextDeadline == staleAt)
        IdleDeadlineTests.turn(&engine, at: staleAt - .milliseconds(1))
        #expect(engine.stalePages.isEmpty)
        IdleDeadlineTests.turn(&engine, at: staleAt)
        #expect(engine.stalePages == [page])
        #expect(engine.presenter.pager.pages[page].body == .output(lines: ["12 min", "left"], status: "stale"))
        #expect(engine.nextDeadline == nil)
        // Set again, it is fresh.
        _ = Self.control(&engine, .set(page: .named("2"), value: "done"), at: staleAt + .milliseconds(10))
        #expect(engine.stalePages.isEmpty)
        #expect(engine.presenter.pager.pages[page].body == .output(lines: ["done"], status: nil))
    }

    @Test func aGaugeTakesANumberAndMarksItStale() throws {
        var engine = try Self.engine()
        #expect(
            Self.control(&engine, .set(page: .named("Tank"), value: " 42.5 "), at: .milliseconds(10))
                == ControlReply(id: 7))
        #expect(engine.book.readings[2] == .number(42.5, text: "42.5%"))
        let refused = Self.control(&engine, .set(page: .named("Tank"), value: "full"), at: .milliseconds(20))
        #expect(refused?.refusal == .badValue)
        #expect(refused?.message == "page 3 (Tank) is a gauge: its value is a number, e.g. 48.3")
        #expect(
            Self.control(&engine, .set(page: .named("Tank"), value: "nan"), at: .milliseconds(20))?.refusal == .badValue
        )
        #expect(engine.book.readings[2] == .number(42.5, text: "42.5%"))
        IdleDeadlineTests.turn(&engine, at: .milliseconds(10 + 3_600_000))
        #expect(engine.book.readings[2] == .number(42.5, text: "42.5% stale"))
        #expect(engine.stalePages == [2])
    }

    @Test func aPageThatIsNotPushedRefusesAValueAndKeepsItsOwn() throws {
        var engine = try Self.engine()
        let before = engine.presenter.pager.pages[0]
        let refused = Self.control(&engine, .set(page: .named("Hello"), value: "x"), at: .milliseconds(10))
        #expect(refused?.refusal == .notPushed)
        #expect(refused?.message == "page 1 (Hello) takes no pushed value: give it source = \"push\" to set it")
        #expect(engine.presenter.pager.pages[0] == before)
        #expect(engine.nextDeadline == nil)
    }
}
