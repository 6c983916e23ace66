import CrownVocabulary
import PagerCore
import PagerSettings
import PagerTools
import Testing

@testable import PagerEngine

/// Home after idle (`pager.home`, `pager.return_home_after`): off by default, a slide while the
/// panel is on and nothing sent while it is off, `stay` pages, home by number and by title, and
/// an idle pager woken once, at the deadline.
@Suite struct HomeAfterIdleEngineTests {
    /// Four static pages A to D, the last one `stay`; home after `after`, the screen saver off unless given.
    static func configuration(
        home: PageReference = .number(1), after: TimeSpan? = .seconds(120), offAfter: TimeSpan? = nil
    ) -> Configuration {
        var stay = PageSpec(title: "D", kind: .text("D"))
        stay.stay = true
        var configuration = IdleDeadlineTests.configuration(
            ["A", "B", "C"].map { PageSpec(title: $0, kind: .text($0)) } + [stay], offAfter: offAfter)
        configuration.pager.home = home
        configuration.pager.returnHomeAfter = after
        return configuration
    }

    /// An engine turned `detents` pages on at 1 s, its slide and the plate's fading over by 5 s.
    static func turned(_ configuration: Configuration, detents: Int = 2) -> DeviceEngine {
        var engine = IdleDeadlineTests.started(configuration)
        _ = engine.handle(.crown(.rotated(detents: detents, at: .milliseconds(1000))), at: .milliseconds(1000))
        _ = TimedPagesEngineTests.run(&engine, until: .milliseconds(5000))
        return engine
    }

    @Test func offByDefault() {
        var configuration = Self.configuration()
        configuration.pager = Configuration().pager
        #expect(configuration.pager.returnHomeAfter == nil)
        let engine = Self.turned(configuration)
        #expect(engine.presenter.pager.currentPage == 2)
        #expect(engine.nextDeadline == nil)
    }

    @Test func anIdlePagerWakesOnceAtTheDeadlineSlidesHomeThenSleeps() {
        var engine = Self.turned(Self.configuration())
        #expect(engine.nextDeadline == .milliseconds(121_000))
        let wakes = TimedPagesEngineTests.run(&engine, until: .milliseconds(3_600_000))
        #expect(TimedPagesEngineTests.quietWakes(wakes, after: .milliseconds(5000)) == [.milliseconds(121_000)])
        #expect(wakes.count > 3, "a slide: frames while it moves")
        #expect(engine.presenter.pager.currentPage == 0)
        #expect(engine.nextDeadline == nil)
    }

    @Test func aTurnStartsTheIdleSpellAgain() {
        var engine = Self.turned(Self.configuration())
        _ = engine.handle(.crown(.rotated(detents: -1, at: .milliseconds(60_000))), at: .milliseconds(60_000))
        _ = TimedPagesEngineTests.run(&engine, until: .milliseconds(65_000))
        #expect(engine.presenter.pager.currentPage == 1)
        #expect(engine.nextDeadline == .milliseconds(180_000))
    }

    @Test func withThePanelOffTheReturnIsInstantAndSendsNothing() {
        var engine = Self.turned(Self.configuration(offAfter: .seconds(60)))
        _ = TimedPagesEngineTests.run(&engine, until: .milliseconds(119_000))
        #expect(engine.screen == .off)
        #expect(engine.nextDeadline == .milliseconds(121_000))
        let effects = engine.handle(.tick, at: .milliseconds(121_000))
        #expect(effects.display.isEmpty)
        #expect(engine.presenter.pager.currentPage == 0)
        #expect(!engine.presenter.isAnimating(at: .milliseconds(121_000)))
        #expect(engine.nextDeadline == nil)
    }

    @Test func aStayPageIsNeverLeft() {
        let engine = Self.turned(Self.configuration(), detents: 3)
        #expect(engine.presenter.pager.currentPage == 3)
        #expect(engine.nextDeadline == nil)
    }

    @Test func homeByNumberAndByTitle() {
        for home in [PageReference.number(3), .title("C")] {
            var engine = IdleDeadlineTests.started(Self.configuration(home: home))
            #expect(engine.nextDeadline == .milliseconds(120_000), "\(home): from the first page")
            _ = TimedPagesEngineTests.run(&engine, until: .milliseconds(125_000))
            #expect(engine.presenter.pager.currentPage == 2, "\(home)")
        }
        // At home already: nothing to wake for.
        let engine = IdleDeadlineTests.started(Self.configuration(home: .title("A")))
        #expect(engine.nextDeadline == nil)
    }

    @Test func aTitleListLeftOpenClosesAtHome() {
        var engine = IdleDeadlineTests.started(Self.configuration())
        _ = engine.handle(.crown(.pressed(at: .milliseconds(1000))), at: .milliseconds(1000))
        _ = engine.handle(.crown(.released(at: .milliseconds(1800))), at: .milliseconds(1800))
        _ = TimedPagesEngineTests.run(&engine, until: .milliseconds(3000))
        #expect(engine.presenter.navigator.overview != nil)
        _ = TimedPagesEngineTests.run(&engine, until: .milliseconds(125_000))
        #expect(engine.presenter.navigator.overview == nil)
    }
}
