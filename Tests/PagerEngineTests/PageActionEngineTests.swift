import CrownVocabulary
import PagerCore
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine

/// Answers a page's action with a scripted result, or leaves it running (`result` nil), and
/// keeps every action asked for; everything else as `SamplePageSampler` answers it.
struct ScriptedActionSampler: PageSampler {
    /// The output and status each action ends with; nil: it runs until the test says.
    var result: (output: String, status: String?)?
    /// The action reads asked for, in order.
    var started: [PageRead] = []

    func clock(at instant: Timestamp) -> ClockReading { SampleReadings.clock }

    mutating func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput? {
        guard case .action = read.source else { return SamplePageSampler().answer(read, at: instant) }
        started.append(read)
        return result.map { .actionFinished(page: read.page, output: $0.output, status: $0.status) }
    }
}

/// Actions on press (`[[page]] action`, `confirm`): each way of asking, the question lapsing,
/// the page showing the run and its result, never two runs at once, pages without one unchanged.
@Suite struct PageActionEngineTests {
    static let restart = CommandSpec(argv: ["systemctl", "restart", "foo"], refresh: .zero, timeout: .seconds(30))

    /// A text page, then `Restart foo` with its action asked for by `confirmation`, then another text page.
    static func configuration(
        _ confirmation: PageAction.Confirmation, panel: SSD1306Panel = .ssd1306_128x64
    ) -> Configuration {
        var action = PageSpec(title: "Restart foo", kind: .text("Restarts foo.service"))
        action.action = PageAction(command: restart, confirmation: confirmation, label: "Restart foo")
        var configuration = ConfigPacingTests.configuration(pages: [
            PageSpec(title: "Home", kind: .text("home")), action, PageSpec(title: "Other", kind: .text("other")),
        ])
        configuration.display.panel = panel
        return configuration
    }

    /// A shell on the action page (turned to at 100 ms), every frame of the slide drawn.
    static func onActionPage(
        _ confirmation: PageAction.Confirmation, sampler: inout ScriptedActionSampler,
        panel: SSD1306Panel = .ssd1306_128x64
    ) -> VirtualShell {
        var shell = VirtualShell.started(configuration(confirmation, panel: panel), sampler: &sampler)
        shell.run(
            events: [.rotated(detents: 1, at: .milliseconds(100))], from: .zero, until: .milliseconds(1000),
            sampler: &sampler)
        return shell
    }

    /// A press and release at `ms`, then every deadline until `until` ms.
    static func press(
        _ shell: inout VirtualShell, at ms: Int64, holding: Int64 = 50, until: Int64? = nil,
        sampler: inout ScriptedActionSampler
    ) {
        shell.run(
            events: [.pressed(at: .milliseconds(ms)), .released(at: .milliseconds(ms + holding))],
            from: .milliseconds(ms), until: .milliseconds(until ?? ms + 900), sampler: &sampler)
    }

    static func body(_ shell: VirtualShell) -> ConfiguredPage.Body { shell.engine.presenter.pager.pages[1].body }

    @Test func confirmPressAsksThenTheSecondPressRuns() {
        var sampler = ScriptedActionSampler(result: ("foo restarted\nmore", nil))
        var shell = Self.onActionPage(.press, sampler: &sampler)
        #expect(shell.engine.presenter.pager.currentPage == 1)
        Self.press(&shell, at: 1000, sampler: &sampler)
        #expect(sampler.started.isEmpty)
        #expect(Self.body(shell) == .text("Press again to restart foo"))
        Self.press(&shell, at: 2000, sampler: &sampler)
        #expect(sampler.started == [PageRead(page: 1, source: .action(Self.restart))])
        #expect(Self.body(shell) == .output(lines: ["exit status 0", "foo restarted"], status: nil))
        #expect(shell.engine.presenter.pager.currentPage == 1, "a press on an action page stays on it")
    }

    @Test func theQuestionLapsesAfterFiveSecondsAndTheEngineWakesForIt() {
        var sampler = ScriptedActionSampler(result: ("", nil))
        var shell = Self.onActionPage(.press, sampler: &sampler)
        Self.press(&shell, at: 1000, until: 4000, sampler: &sampler)
        #expect(shell.engine.nextDeadline == .milliseconds(6050), "five seconds after the press, which is its release")
        shell.run(events: [], from: .milliseconds(6050), until: .milliseconds(6500), sampler: &sampler)
        #expect(Self.body(shell) == .text("Restarts foo.service"))
        #expect(shell.engine.nextDeadline == nil)
        // A press after the lapse asks again rather than running.
        Self.press(&shell, at: 7000, sampler: &sampler)
        #expect(sampler.started.isEmpty)
        #expect(Self.body(shell) == .text("Press again to restart foo"))
    }

    @Test func turningAwayWithdrawsTheQuestion() {
        var sampler = ScriptedActionSampler(result: ("", nil))
        var shell = Self.onActionPage(.press, sampler: &sampler)
        Self.press(&shell, at: 1000, sampler: &sampler)
        shell.run(
            events: [.rotated(detents: 1, at: .milliseconds(1500)), .rotated(detents: -1, at: .milliseconds(2500))],
            from: .milliseconds(1500), until: .milliseconds(3400), sampler: &sampler)
        #expect(Self.body(shell) == .text("Restarts foo.service"))
        Self.press(&shell, at: 3500, sampler: &sampler)
        #expect(sampler.started.isEmpty, "the press after coming back asks again")
    }

    @Test func confirmNoneRunsOnTheFirstPress() {
        var sampler = ScriptedActionSampler(result: ("", "exit status 3"))
        var shell = Self.onActionPage(.none, sampler: &sampler)
        Self.press(&shell, at: 1000, sampler: &sampler)
        #expect(sampler.started.count == 1)
        #expect(Self.body(shell) == .output(lines: ["exit status 3"], status: nil))
    }

    @Test func confirmHoldRunsOnALongPressAndOpensNoTitleList() {
        var sampler = ScriptedActionSampler(result: ("done", "timed out after 30s: killed"))
        var shell = Self.onActionPage(.hold, sampler: &sampler)
        Self.press(&shell, at: 1000, holding: 800, until: 2500, sampler: &sampler)
        #expect(sampler.started.count == 1)
        #expect(shell.engine.presenter.navigator.overview == nil)
        #expect(Self.body(shell) == .output(lines: ["timed out after 30s: killed", "done"], status: nil))
        // A short press does what it does on any page: back to the first.
        Self.press(&shell, at: 3000, sampler: &sampler)
        #expect(sampler.started.count == 1)
        #expect(shell.engine.presenter.pager.currentPage == 0)
    }

    @Test func whileItRunsAPressDoesNothingAndItNeverRunsTwice() {
        var sampler = ScriptedActionSampler(result: nil)
        var shell = Self.onActionPage(.none, sampler: &sampler)
        Self.press(&shell, at: 1000, sampler: &sampler)
        #expect(Self.body(shell) == .text("Running\u{2026}"))
        Self.press(&shell, at: 2000, sampler: &sampler)
        Self.press(&shell, at: 3000, sampler: &sampler)
        #expect(sampler.started.count == 1)
        #expect(shell.engine.presenter.pager.currentPage == 1)
        shell.feed(.actionFinished(page: 1, output: "ok", status: nil), at: .milliseconds(4000), sampler: &sampler)
        #expect(Self.body(shell) == .output(lines: ["exit status 0", "ok"], status: nil))
        Self.press(&shell, at: 5000, sampler: &sampler)
        #expect(sampler.started.count == 2, "ended, it runs again")
    }

    @Test func aResultAfterAReloadIsNotShown() {
        var sampler = ScriptedActionSampler(result: nil)
        var shell = Self.onActionPage(.none, sampler: &sampler)
        Self.press(&shell, at: 1000, sampler: &sampler)
        let configuration = shell.engine.configuration
        let effects = shell.engine.handle(.reload(configuration, style: PageIndicatorStyle()), at: .milliseconds(2000))
        #expect(effects.stopsCommands)
        shell.feed(.actionFinished(page: 1, output: "late", status: nil), at: .milliseconds(2100), sampler: &sampler)
        #expect(Self.body(shell) == .text("Restarts foo.service"))
    }

    @Test func aPageWithoutAnActionStillGoesToTheFirstPage() {
        var sampler = ScriptedActionSampler(result: ("", nil))
        var shell = Self.onActionPage(.none, sampler: &sampler)
        shell.run(
            events: [.rotated(detents: 1, at: .milliseconds(1000))], from: .milliseconds(1000),
            until: .milliseconds(1900), sampler: &sampler)
        #expect(shell.engine.presenter.pager.currentPage == 2)
        Self.press(&shell, at: 2000, sampler: &sampler)
        #expect(shell.engine.presenter.pager.currentPage == 0)
        #expect(sampler.started.isEmpty)
    }

    @Test func renderRunsNoAction() {
        var sampler = SamplePageSampler()
        var shell = VirtualShell.started(Self.configuration(.none), sampler: &sampler)
        shell.run(
            events: [
                .rotated(detents: 1, at: .milliseconds(100)), .pressed(at: .milliseconds(1000)),
                .released(at: .milliseconds(1050)),
            ], from: .zero, until: .milliseconds(2000), sampler: &sampler)
        #expect(Self.body(shell) == .output(lines: ["not run by render"], status: nil))
    }

    @Test(.tags(.golden), arguments: [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32])
    func theQuestionAndTheResultOnTheGlass(panel: SSD1306Panel) {
        var sampler = ScriptedActionSampler(result: ("foo.service restarted", "exit status 3"))
        var shell = Self.onActionPage(.press, sampler: &sampler, panel: panel)
        Self.press(&shell, at: 1000, sampler: &sampler)
        expectGolden(shell.glass, named: "action-question-\(panel.name)")
        Self.press(&shell, at: 2000, sampler: &sampler)
        expectGolden(shell.glass, named: "action-result-\(panel.name)")
    }
}
