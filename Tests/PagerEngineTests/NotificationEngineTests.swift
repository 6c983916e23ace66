import CrownVocabulary
import PagerCore
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import Testing

@testable import PagerEngine

/// Notifications in the engine, on virtual time: the queue and its mark, the overlay sliding in,
/// waking the panel, the crown's press and turns, timeouts, the bounded queue, a restart.
@Suite struct NotificationEngineTests {
    static func at(_ milliseconds: Int64) -> Timestamp { .milliseconds(milliseconds) }

    /// An engine on four pages, started and settled at 10 s, with the screen saver's times given.
    static func engine(
        dimAfter: TimeSpan? = nil, offAfter: TimeSpan? = nil, panel: SSD1306Panel = .ssd1306_128x64
    ) -> DeviceEngine {
        var configuration = DeviceEngineTests.configuration()
        configuration.display.dimAfter = dimAfter
        configuration.display.offAfter = offAfter
        configuration.display.panel = panel
        return DeviceEngineTests.engine(configuration)
    }

    /// Feeds `input` at `milliseconds` and ticks; returns both effects, the input's first.
    @discardableResult
    static func feed(_ engine: inout DeviceEngine, _ input: EngineInput, at milliseconds: Int64) -> [Effects] {
        [engine.handle(input, at: at(milliseconds)), engine.handle(.tick, at: at(milliseconds))]
    }

    /// Ticks at every deadline up to `milliseconds`, then at it.
    static func settle(_ engine: inout DeviceEngine, until milliseconds: Int64) {
        var ticks = 0
        while let deadline = engine.nextDeadline, deadline < at(milliseconds), ticks < 1000 {
            _ = engine.handle(.tick, at: deadline)
            ticks += 1
        }
        _ = engine.handle(.tick, at: at(milliseconds))
    }

    static let long = PagerNotification(
        message: "The washing machine has finished its cycle; the laundry waits in the drum, still damp, "
            + "and the dryer is free. Hang the shirts up before they crease.",
        title: "Laundry", priority: .active)

    @Test func aPassiveOneWaitsWithAMarkAndShowsWhenTheCrownMoves() {
        var engine = Self.engine()
        let before = engine.presenter.lastFrame
        Self.feed(
            &engine, .notify(PagerNotification(message: "Parcel left at the door", priority: .passive)), at: 11_000)
        #expect(!engine.isShowingNotification && engine.snapshot.notificationsQueued == 1)
        #expect(engine.presenter.marksWaitingNotifications)
        let marked = engine.presenter.lastFrame
        #expect(marked != nil && marked != before)
        // Small: the mark changes a few pixels of the indicator's strip, none of the page.
        if let before, let marked {
            let strip = engine.presenter.renderer.indicatorColumn
            let changed = (0..<marked.height).flatMap { y in (0..<marked.width).map { (x: $0, y: y) } }
                .filter { before[$0.x, $0.y] != marked[$0.x, $0.y] }
            #expect(!changed.isEmpty && changed.count <= 25)
            #expect(changed.allSatisfy { strip.contains(Point(x: $0.x, y: $0.y)) })
        }
        // A passive one never times out while it waits: nothing wakes the idle pager.
        #expect(engine.nextDeadline == nil)
        Self.feed(&engine, .crown(.rotated(detents: 1, at: Self.at(12_000))), at: 12_000)
        #expect(engine.isShowingNotification && engine.snapshot.notification?.message == "Parcel left at the door")
        #expect(engine.presenter.pager.currentPage == 0 && !engine.presenter.marksWaitingNotifications)
    }

    @Test func anActiveOneSlidesInAndWakesADimmedPanel() {
        var engine = Self.engine(dimAfter: .seconds(5), offAfter: .seconds(60))
        Self.settle(&engine, until: 20_000)
        #expect(engine.screen == .dimmed)
        Self.feed(&engine, .notify(Self.long), at: 21_000)
        #expect(engine.isShowingNotification && engine.snapshot.isShowingNotification)
        #expect(engine.screen == .bright)
        // It slides: part of the way down after 50 ms, in place after the slide.
        #expect(engine.presenter.isAnimating(at: Self.at(21_050)))
        let midway = engine.presenter.frame(at: Self.at(21_050))
        Self.settle(&engine, until: 21_500)
        #expect(!engine.presenter.isAnimating(at: Self.at(21_500)))
        let landed = engine.presenter.lastFrame
        #expect(landed != nil && landed != midway && engine.presenter.frame(at: Self.at(21_500)) == landed)
        // Shown, it is not idle time: no dimming while it shows.
        Self.settle(&engine, until: 30_000)
        #expect(engine.screen == .bright && engine.isShowingNotification)
    }

    @Test func anActiveOneWaitsForASwitchedOffPanelToWake() {
        var engine = Self.engine(dimAfter: .seconds(5), offAfter: .seconds(20))
        Self.settle(&engine, until: 40_000)
        #expect(engine.screen == .off)
        Self.feed(&engine, .notify(PagerNotification(message: "Rain soon")), at: 41_000)
        #expect(!engine.isShowingNotification && engine.screen == .off)
        // The turn that wakes the panel is swallowed, and the notification comes with it.
        Self.feed(&engine, .crown(.rotated(detents: 1, at: Self.at(42_000))), at: 42_000)
        #expect(engine.screen == .bright && engine.isShowingNotification)
        #expect(engine.presenter.pager.currentPage == 0)
    }

    @Test func aCriticalOneWakesASwitchedOffPanelAndStaysUntilPressed() {
        var engine = Self.engine(dimAfter: .seconds(5), offAfter: .seconds(20))
        Self.settle(&engine, until: 40_000)
        let critical = PagerNotification(message: "Smoke in the kitchen", title: "Alarm", priority: .critical)
        Self.feed(&engine, .notify(critical), at: 41_000)
        #expect(engine.isShowingNotification && engine.screen == .bright)
        Self.settle(&engine, until: 41_500)
        // No timeout, no dimming: after the slide nothing is due at all.
        #expect(engine.nextDeadline == nil)
        Self.settle(&engine, until: 3_600_000)
        #expect(engine.isShowingNotification && engine.screen == .bright)
        // A turn does not end it, nor does it page.
        Self.feed(&engine, .crown(.rotated(detents: 3, at: Self.at(3_601_000))), at: 3_601_000)
        #expect(engine.isShowingNotification && engine.presenter.pager.currentPage == 0)
        Self.feed(&engine, .crown(.pressed(at: Self.at(3_602_000))), at: 3_602_000)
        #expect(!engine.isShowingNotification)
    }

    @Test func aPressDismissesAndItsReleaseGoesWithIt() {
        var engine = Self.engine()
        Self.feed(&engine, .notify(PagerNotification(message: "Tea is ready")), at: 11_000)
        #expect(engine.isShowingNotification)
        Self.feed(&engine, .crown(.pressed(at: Self.at(12_000))), at: 12_000)
        #expect(!engine.isShowingNotification)
        // Held long enough for a long press: the pager never saw the press, so no title list opens.
        Self.settle(&engine, until: 14_000)
        Self.feed(&engine, .crown(.released(at: Self.at(14_000))), at: 14_000)
        #expect(engine.presenter.navigator.overview == nil && engine.presenter.pager.currentPage == 0)
        #expect(!engine.notifications.swallowsRelease)
    }

    @Test func aTurnScrollsALongMessageThenDismissesAndPagesOn() {
        var engine = Self.engine()
        Self.feed(&engine, .notify(Self.long), at: 11_000)
        guard let overlay = engine.presenter.overlay else {
            Issue.record("no overlay")
            return
        }
        #expect(overlay.lastScroll >= 2 && overlay.hasMore)
        for step in 1...overlay.lastScroll {
            let instant = 11_000 + Int64(step) * 300
            Self.feed(&engine, .crown(.rotated(detents: 1, at: Self.at(instant))), at: instant)
            #expect(engine.notifications.shown?.scroll == step && engine.presenter.overlay?.scroll == step)
            #expect(engine.presenter.pager.currentPage == 0)
        }
        #expect(engine.presenter.overlay?.hasMore == false)
        // Back up a line, down again, then past the end: dismissed, and the turn pages on.
        Self.feed(&engine, .crown(.rotated(detents: -1, at: Self.at(15_000))), at: 15_000)
        #expect(engine.notifications.shown?.scroll == overlay.lastScroll - 1)
        Self.feed(&engine, .crown(.rotated(detents: 1, at: Self.at(15_300))), at: 15_300)
        Self.feed(&engine, .crown(.rotated(detents: 1, at: Self.at(15_600))), at: 15_600)
        #expect(!engine.isShowingNotification && engine.presenter.pager.currentPage == 1)
    }

    @Test func aReloadKeepsTheOverlayAndTheMark() {
        var engine = Self.engine()
        Self.feed(&engine, .notify(Self.long), at: 11_000)
        Self.feed(&engine, .notify(PagerNotification(message: "Post", priority: .passive)), at: 11_100)
        Self.feed(&engine, .crown(.rotated(detents: 1, at: Self.at(11_500))), at: 11_500)
        Self.settle(&engine, until: 12_000)
        let before = engine.presenter.lastFrame
        #expect(engine.presenter.overlay?.scroll == 1)
        Self.feed(&engine, .reload(DeviceEngineTests.configuration(), style: PageIndicatorStyle()), at: 12_500)
        Self.settle(&engine, until: 13_000)
        #expect(engine.isShowingNotification && engine.presenter.overlay?.scroll == 1)
        #expect(engine.presenter.lastFrame == before)
        Self.feed(&engine, .crown(.pressed(at: Self.at(13_500))), at: 13_500)
        #expect(!engine.isShowingNotification && engine.presenter.marksWaitingNotifications)
    }

    @Test func aTimeoutDismissesPassiveAndActiveOnes() {
        var engine = Self.engine()
        let quick = PagerNotification(message: "Back in five", priority: .active, timeout: .seconds(3))
        Self.feed(&engine, .notify(quick), at: 11_000)
        Self.settle(&engine, until: 11_500)
        #expect(engine.nextDeadline == Self.at(14_000))
        Self.settle(&engine, until: 13_999)
        #expect(engine.isShowingNotification)
        Self.settle(&engine, until: 14_000)
        #expect(!engine.isShowingNotification)
        // Then the idle pager sleeps again: nothing is due.
        Self.settle(&engine, until: 15_000)
        #expect(engine.nextDeadline == nil)

        Self.feed(&engine, .notify(PagerNotification(message: "Post", priority: .passive)), at: 20_000)
        Self.feed(&engine, .crown(.pressed(at: Self.at(21_000))), at: 21_000)
        #expect(engine.isShowingNotification)
        Self.settle(&engine, until: 21_000 + NotificationQueue.defaultTimeout.milliseconds)
        #expect(!engine.isShowingNotification)
    }

    @Test func aFullQueueDropsTheOldestPassiveOneWithALogLine() {
        var engine = Self.engine()
        Self.feed(&engine, .notify(PagerNotification(message: "shown")), at: 11_000)
        var logs: [EngineLog] = []
        let capacity = NotificationQueue.defaultCapacity
        for index in 0..<capacity + 2 {
            let priority: PagerNotification.Priority = index.isMultiple(of: 3) ? .passive : .active
            let instant = 11_100 + Int64(index)
            logs +=
                engine.handle(
                    .notify(PagerNotification(message: "n\(index)", priority: priority)), at: Self.at(instant)
                )
                .log
        }
        // n0, n3, n6, n9 are passive: n0 went when n8 came, n3 when n9 did.
        #expect(
            logs == [
                .notificationDropped(PagerNotification(message: "n0", priority: .passive)),
                .notificationDropped(PagerNotification(message: "n3", priority: .passive)),
            ])
        #expect(engine.snapshot.notificationsQueued == capacity)
        #expect(engine.notifications.waiting.first?.message == "n1")
    }

    @Test func activeAndCriticalOnesSurviveARestart() {
        var engine = Self.engine()
        let kept = engine.handle(
            .notify(PagerNotification(message: "Door open", priority: .critical)), at: Self.at(11_000))
        #expect(kept.keepsNotifications == [PagerNotification(message: "Door open", priority: .critical)])
        // A passive one is not kept: the set did not change, nothing to write.
        #expect(
            engine.handle(.notify(PagerNotification(message: "Post", priority: .passive)), at: Self.at(11_100))
                .keepsNotifications == nil)
        let second = PagerNotification(
            message: "Oven\tat 220\u{B0}C\nstill on", title: "Kitchen", timeout: .seconds(30))
        let more = engine.handle(.notify(second), at: Self.at(11_200))
        #expect(more.keepsNotifications?.count == 2)
        let file = NotificationFile.encode(more.keepsNotifications ?? [])

        // The next run reads the file back and shows the first at once.
        var restarted = DeviceEngine(
            configuration: DeviceEngineTests.configuration(), style: PageIndicatorStyle(), clock: SampleReadings.clock,
            start: .zero)
        restarted.restoreNotifications(NotificationFile.decode(file))
        #expect(restarted.handle(.start, at: .zero).keepsNotifications == nil)
        _ = restarted.handle(.tick, at: .zero)
        #expect(restarted.snapshot.notification?.message == "Door open" && restarted.snapshot.notificationsQueued == 1)
        #expect(restarted.notifications.waiting == [second])
        // Pressed away, the file is rewritten without it.
        let pressed = restarted.handle(.crown(.pressed(at: Self.at(1_000))), at: Self.at(1_000))
        #expect(pressed.keepsNotifications == [second] && restarted.snapshot.notification == second)
    }

    /// A file from a run with more kept than the queue holds: the newest come back, within it.
    @Test func aRestoredListStaysWithinTheQueue() {
        var engine = Self.engine()
        let kept = (1...12).map { PagerNotification(message: "n\($0)", priority: .active) }
        engine.restoreNotifications(kept)
        _ = engine.handle(.tick, at: Self.at(11_000))
        let shown = engine.snapshot.notification.map { [$0] } ?? []
        #expect(shown + engine.notifications.waiting == Array(kept.suffix(NotificationQueue.defaultCapacity)))
    }
}

/// The persistence file: written and read back, and a damaged one read as far as it goes.
@Suite struct NotificationFileTests {
    @Test func notificationsComeBackAsTheyWere() {
        let notifications = [
            PagerNotification(message: "plain", priority: .active),
            PagerNotification(
                message: "tab\there, line\nbreak, back\\slash, cr\r, unicode \u{2603}", title: "T\\itle",
                priority: .critical, timeout: .milliseconds(1500)),
            PagerNotification(message: "", title: nil, priority: .passive, timeout: .zero),
        ]
        let text = NotificationFile.encode(notifications)
        #expect(text.hasPrefix(NotificationFile.header + "\n"))
        #expect(text.split(separator: "\n").count == 4)
        #expect(NotificationFile.decode(text) == notifications)
    }

    @Test func badLinesAreSkippedAndTheRestRead() {
        let good = "active\t\t\tfine\n"
        let text =
            "# comment\n" + good + "urgent\t\t\tno such priority\n" + "active\t12x\t\tbad timeout\n"
            + "active\t\tthree fields\n" + "active\t\t\tbad escape \\q\n" + "active\t\t\tdangling \\\n"
            + "active\t99999999999\t\ttoo long a timeout\n" + "critical\t5000\tTitle\ttrunc"
        #expect(
            NotificationFile.decode(text) == [
                PagerNotification(message: "fine", priority: .active),
                PagerNotification(message: "trunc", title: "Title", priority: .critical, timeout: .seconds(5)),
            ])
        #expect(NotificationFile.decode("") == [] && NotificationFile.decode("\u{0}\u{FFFF}\t\t\t") == [])
        let many = String(repeating: good, count: NotificationFile.maximumCount + 10)
        #expect(NotificationFile.decode(many).count == NotificationFile.maximumCount)
    }
}
