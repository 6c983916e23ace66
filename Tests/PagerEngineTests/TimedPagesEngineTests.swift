import CrownVocabulary
import PagerConfig
import PagerCore
import PagerSettings
import Testing

@testable import PagerEngine

/// Pictures are never read here.
struct NoFiles: FileReading {
    func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8] { [] }
}

/// Timed pages in the engine: wakes only when the dot's look changes or something is due, the
/// screen saver held while the pages move on, a reload, and the `[timer]` table of the file.
@Suite struct TimedPagesEngineTests {
    static func page(_ name: String, _ duration: PageDuration = .automatic) -> PageSpec {
        PageSpec(title: name, kind: .text(name), duration: duration)
    }

    /// Three text pages timed at `duration`, the screen saver off unless given.
    static func configuration(
        duration: TimeSpan? = .seconds(3), loops: Bool = true, resumeAfter: TimeSpan? = .seconds(10),
        dimAfter: TimeSpan? = nil, offAfter: TimeSpan? = nil, dimsWhileAdvancing: Bool = false
    ) -> Configuration {
        var configuration = IdleDeadlineTests.configuration([page("A"), page("B"), page("C")])
        configuration.timer.duration = duration
        configuration.timer.loops = loops
        configuration.timer.resumeAfter = resumeAfter
        configuration.timer.dimsWhileAdvancing = dimsWhileAdvancing
        configuration.display.dimAfter = dimAfter
        configuration.display.offAfter = offAfter
        return configuration
    }

    /// Wakes the engine at each deadline up to `end`, as the shell does; returns the wakes and the screen at each.
    static func run(_ engine: inout DeviceEngine, until end: Timestamp) -> [(Timestamp, ScreenState)] {
        var wakes: [(Timestamp, ScreenState)] = []
        while let next = engine.nextDeadline, next <= end {
            IdleDeadlineTests.turn(&engine, at: next)
            wakes.append((next, engine.screen))
        }
        return wakes
    }

    /// The wakes outside slides: the ones that are not frames of a page moving.
    static func quietWakes(_ wakes: [(Timestamp, ScreenState)], after start: Timestamp) -> [Timestamp] {
        var result: [Timestamp] = []
        var previous = start
        for (wake, _) in wakes where wake > start {
            // A slide wakes every frame (about 17 ms); a timer step or a page comes after a long quiet.
            if wake - previous > .milliseconds(300) { result.append(wake) }
            previous = wake
        }
        return result
    }

    @Test func theEngineWakesForEachStepOfTheDotAndForThePageAndNothingElse() {
        var engine = IdleDeadlineTests.started(Self.configuration())
        #expect(engine.nextDeadline == .milliseconds(1000))
        let wakes = Self.run(&engine, until: .milliseconds(8999))
        #expect(
            Self.quietWakes(wakes, after: .zero)
                == [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000].map { .milliseconds($0) })
        #expect(engine.presenter.pager.currentPage == 2)
        #expect(engine.presenter.framesSent > 3)
    }

    @Test func eachStepSendsTheDotItChanged() {
        var engine = IdleDeadlineTests.started(Self.configuration())
        var sent = 0
        for ms in [Int64(1000), 2000] {
            let effects = engine.handle(.tick, at: .milliseconds(ms))
            #expect(!effects.display.isEmpty, "the dot fills a row at \(ms) ms")
            sent += effects.display.count
        }
        #expect(sent > 0)
    }

    @Test func aPausedTimerWakesOnlyToResume() {
        var engine = IdleDeadlineTests.started(Self.configuration())
        _ = engine.handle(.crown(.rotated(detents: 1, at: .milliseconds(500))), at: .milliseconds(500))
        #expect(engine.presenter.navigator.timer.isPaused)
        let wakes = Self.run(&engine, until: .milliseconds(10_500))
        // The slide, the plate lingering and fading, the crown going idle: then nothing until the resume.
        let late = wakes.map { $0.0 }.filter { $0 > .milliseconds(2000) }
        #expect(late == [.milliseconds(10_500)])
        #expect(engine.presenter.navigator.timer.isRunning && engine.presenter.pager.currentPage == 1)
        #expect(engine.nextDeadline == .milliseconds(11_500))
    }

    @Test func advancingPagesKeepThePanelBrightAndUnwokenByTheSaver() {
        var engine = IdleDeadlineTests.started(
            Self.configuration(duration: .seconds(1), dimAfter: .seconds(2), offAfter: .seconds(4)))
        let wakes = Self.run(&engine, until: .milliseconds(20000))
        #expect(wakes.allSatisfy { $0.1 == .bright })
        #expect(engine.holdsScreen && engine.screen == .bright)
        // Every quiet wake is a third of a second: the dot's steps and the pages, never the saver's 2 s or 4 s.
        let thirds: Set<Int64> = [0, 333_333_334, 666_666_667]
        let quiet = Self.quietWakes(wakes, after: .zero)
        #expect(quiet.count > 30 && quiet.allSatisfy { thirds.contains($0.nanoseconds % 1_000_000_000) })

        // A detent while the pages move on is a turn, not the one that wakes a dark panel.
        let turn = Timestamp.milliseconds(20_000) + .milliseconds(100)
        _ = engine.handle(.crown(.rotated(detents: 1, at: turn)), at: turn)
        #expect(engine.wakeEventsSwallowed == 0 && engine.presenter.navigator.timer.isPaused)
        // Paused, the saver counts from the detent again.
        _ = Self.run(&engine, until: turn + .milliseconds(2500))
        #expect(engine.screen == .dimmed)
    }

    @Test func withDimsWhileAdvancingTheSaverDimsAndSwitchesOffAsUsual() {
        var engine = IdleDeadlineTests.started(
            Self.configuration(
                duration: .seconds(1), dimAfter: .seconds(2), offAfter: .seconds(4), dimsWhileAdvancing: true))
        let wakes = Self.run(&engine, until: .milliseconds(5000))
        #expect(!engine.holdsScreen)
        #expect(wakes.contains { $0.0 == .milliseconds(2000) && $0.1 == .dimmed })
        #expect(wakes.contains { $0.0 == .milliseconds(4000) && $0.1 == .off })
        // Dark, the pages move on unseen: a wake for each page, none for the dot's steps.
        let dark = Self.run(&engine, until: .milliseconds(9000))
        #expect(
            dark.map { $0.0 }.filter { $0 > .milliseconds(5000) } == [6000, 7000, 8000, 9000].map { .milliseconds($0) })
        #expect(engine.presenter.pager.currentPage == 0 && engine.screen == .off)
    }

    @Test func onceTheLastPageFinishesTheSaverCountsFromTheEnd() {
        var engine = IdleDeadlineTests.started(
            Self.configuration(duration: .seconds(1), loops: false, dimAfter: .seconds(2), offAfter: .seconds(4)))
        let wakes = Self.run(&engine, until: .milliseconds(30000))
        #expect(engine.presenter.pager.currentPage == 2 && engine.presenter.navigator.timer.phase == .finished)
        #expect(
            Self.quietWakes(wakes, after: .milliseconds(2500)) == [
                .milliseconds(3000), .milliseconds(5000), .milliseconds(7000),
            ])
        #expect(engine.screen == .off && engine.nextDeadline == nil)
    }

    @Test func aResumingTimerBrightensTheDimmedPanelAtOnce() {
        var engine = IdleDeadlineTests.started(
            Self.configuration(resumeAfter: .seconds(3), dimAfter: .seconds(2), offAfter: .seconds(60)))
        _ = engine.handle(.crown(.rotated(detents: 1, at: .milliseconds(500))), at: .milliseconds(500))
        let wakes = Self.run(&engine, until: .milliseconds(3500))
        #expect(wakes.contains { $0.0 == .milliseconds(2500) && $0.1 == .dimmed })
        #expect(wakes.last?.0 == .milliseconds(3500) && wakes.last?.1 == .bright)
    }

    @Test func aTimerThatNeverResumesLetsTheSaverDim() {
        var engine = IdleDeadlineTests.started(
            Self.configuration(resumeAfter: nil, dimAfter: .seconds(2), offAfter: .seconds(4)))
        _ = engine.handle(.crown(.rotated(detents: 1, at: .milliseconds(500))), at: .milliseconds(500))
        let wakes = Self.run(&engine, until: .milliseconds(60000))
        #expect(wakes.contains { $0.0 == .milliseconds(2500) && $0.1 == .dimmed })
        #expect(engine.screen == .off && engine.nextDeadline == nil)
    }

    @Test func aReloadKeepsThePageAndStartsItsTimeAfresh() {
        var engine = IdleDeadlineTests.started(Self.configuration(duration: .seconds(1)))
        _ = Self.run(&engine, until: .milliseconds(1500))
        #expect(engine.presenter.pager.currentPage == 1)
        var fresh = Self.configuration(duration: .seconds(2), loops: false)
        fresh.pages[1].duration = .after(.seconds(5))
        _ = engine.handle(.reload(fresh, style: PageIndicatorStyle()), at: .milliseconds(1500))
        #expect(engine.presenter.pager.currentPage == 1 && engine.presenter.navigator.timer.isRunning)
        #expect(engine.presenter.navigator.timer.pageStart == .milliseconds(1500))
        #expect(engine.presenter.navigator.currentPageDuration == .seconds(5))
        let wakes = Self.run(&engine, until: .milliseconds(30000))
        let quiet = Self.quietWakes(wakes, after: .milliseconds(1500))
        #expect(quiet.contains(.milliseconds(6500)) && quiet.contains(.milliseconds(8500)))
        #expect(engine.presenter.pager.currentPage == 2 && engine.presenter.navigator.timer.phase == .finished)
        #expect(engine.nextDeadline == nil)
    }

    @Test func aReloadKeepsAPauseInProgressOnTheSamePage() {
        var engine = IdleDeadlineTests.started(Self.configuration())
        _ = engine.handle(.crown(.rotated(detents: 1, at: .milliseconds(500))), at: .milliseconds(500))
        _ = Self.run(&engine, until: .milliseconds(2000))
        let page = engine.presenter.pager.currentPage
        #expect(engine.presenter.navigator.timer.isPaused)
        _ = engine.handle(.reload(Self.configuration(), style: PageIndicatorStyle()), at: .milliseconds(2000))
        let reloaded = engine.presenter.navigator
        #expect(reloaded.timer.isPaused)
        #expect(engine.presenter.pager.currentPage == page)
        // It resumes as it would have without the reload: 10 s after the turn, not after the reload.
        let resume: Timestamp? = reloaded.timerResumeInstant
        #expect(resume == .milliseconds(10_500))
        let look: TimerLook? = reloaded.timerLook(at: .milliseconds(2000))
        #expect(look == .paused)
        _ = Self.run(&engine, until: .milliseconds(10_500))
        let resumed = engine.presenter.navigator.timer
        #expect(resumed.isRunning && resumed.pageStart == .milliseconds(10_500))
    }

    @Test func aReloadThatDropsThePausedPageStartsTheFirstPageAfresh() {
        var engine = IdleDeadlineTests.started(Self.configuration())
        _ = engine.handle(.crown(.rotated(detents: 1, at: .milliseconds(500))), at: .milliseconds(500))
        _ = Self.run(&engine, until: .milliseconds(2000))
        #expect(engine.presenter.pager.currentPage == 1 && engine.presenter.navigator.timer.isPaused)
        var fewer = Self.configuration()
        fewer.pages = [Self.page("A")]
        _ = engine.handle(.reload(fewer, style: PageIndicatorStyle()), at: .milliseconds(2000))
        let reloaded = engine.presenter.navigator
        #expect(engine.presenter.pager.currentPage == 0)
        #expect(reloaded.timer.isRunning && reloaded.timer.pageStart == .milliseconds(2000))
    }

    // MARK: The file

    static let file = """
        [timer]
        duration = "2s"
        resume_after = "5s"
        loop = false
        dims_while_advancing = true

        [[page]]
        kind = "text"
        text = "first"
        duration = "500ms"

        [[page]]
        kind = "text"
        text = "second"

        [[page]]
        kind = "clock"
        duration = "never"
        """

    @Test func theFileSetsTheTimerAndEachPagesDuration() throws {
        let configuration = try Configuration(parsing: Self.file, file: "t.toml", files: NoFiles())
        #expect(
            configuration.timer
                == TimerSection(
                    duration: .seconds(2), resumeAfter: .seconds(5), loops: false, dimsWhileAdvancing: true))
        let durations = configuration.pages.map { $0.duration }
        #expect(durations == [.after(.milliseconds(500)), .automatic, .never])
        let pager = configuration.pagerConfiguration
        #expect(pager.pageDuration == .seconds(2) && pager.timerResumeDelay == .seconds(5))
        #expect(!pager.resetsToInitialPageAfterEnd)

        // What the engine does with it: half a second, two seconds, then the clock stays.
        var engine = IdleDeadlineTests.started(configuration)
        var pages: [Int] = []
        for ms in [Int64(499), 501, 2499, 2501, 10_000] {
            _ = Self.run(&engine, until: .milliseconds(ms))
            pages.append(engine.presenter.pager.currentPage)
        }
        #expect(pages == [0, 1, 1, 2, 2])
        #expect(
            !engine.presenter.navigator.isAutoAdvancing
                && engine.presenter.navigator.timerLook(at: .milliseconds(10_000)) == nil)

        var overridden = RunOverrides()
        overridden.set(Settings.timerDuration, .seconds(7))
        #expect(overridden.applied(to: configuration).timer.duration == .seconds(7))
        let never = try Configuration(
            parsing: "[timer]\nduration = \"never\"\nresume_after = \"never\"\n", file: "t.toml", files: NoFiles())
        #expect(never.timer.duration == nil && never.timer.resumeAfter == nil)
    }

    static let mistakes: [(String, String)] = [
        (
            "[timer]\nduration = 8",
            "t.toml:2: timer.duration: expected a duration in quotes such as \"5s\", \"500ms\", \"2min\" or \"1h\", found the integer 8"
        ),
        ("[timer]\nduration = \"50ms\"", "t.toml:2: timer.duration: expected at least 100 ms, found \"50ms\""),
        (
            "[timer]\nresume_after = \"500ms\"",
            "t.toml:2: timer.resume_after: expected at least 1000 ms, found \"500ms\""
        ),
        ("[timer]\nloop = \"yes\"", "t.toml:2: timer.loop: expected true or false, found the string \"yes\""),
        (
            "[timer]\nloops = false",
            "t.toml:2: timer.loops: unknown key (did you mean 'loop'?); known keys here: duration, resume_after, loop, dims_while_advancing"
        ),
        (
            "[[page]]\nkind = \"text\"\ntext = \"x\"\nduration = \"soon\"",
            "t.toml:4: page[1].duration: expected a duration in quotes such as \"5s\", \"500ms\", \"2min\" or \"1h\", found the string \"soon\""
        ),
    ]

    @Test func aMistakeInTheTimerSaysWhereAndWhat() {
        for (text, expected) in Self.mistakes {
            do {
                _ = try Configuration(parsing: text, file: "t.toml", files: NoFiles())
                Issue.record("no error for:\n\(text)")
            } catch {
                #expect(error.description == expected, "for:\n\(text)")
            }
        }
    }
}
