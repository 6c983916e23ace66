import CrownVocabulary
import PagerControl
import PagerCore
import PagerSettings
import PagerTools
import Testing

@testable import PagerEngine

/// The controls Home Assistant gives (`PagerCommand.brightness`, `display`, `press`) as the
/// engine decides them, in virtual time: the bytes they send, the crown waking a display switched
/// off, and the remote press only for `remote = true`, never twice at once.
@Suite struct RemoteControlEngineTests {
    static let file = """
        [[page]]
        kind = "text"
        title = "Home"
        text = "home"

        [[page]]
        kind = "text"
        title = "Restart"
        text = "Restarts foo"
        action = ["systemctl", "restart", "foo"]
        remote = true

        [[page]]
        kind = "text"
        title = "Reboot"
        text = "Reboots"
        action = ["reboot"]
        """

    static func engine(dimAfter: TimeSpan? = nil) throws -> DeviceEngine {
        var configuration = try Configuration(parsing: file, file: "t.toml", files: NoFiles())
        configuration = IdleDeadlineTests.configuration(configuration.pages)
        configuration.display.dimAfter = dimAfter
        return IdleDeadlineTests.started(configuration)
    }

    /// Ticks at `instant` until nothing more is due then; the commands sent, one array a record.
    static func frames(_ engine: inout DeviceEngine, at instant: Timestamp) -> [[UInt8]] {
        var sent: [[UInt8]] = []
        for _ in 0..<8 {
            sent += engine.handle(.tick, at: instant).display.filter { $0.kind == .commands }.map { Array($0.bytes) }
            guard let next = engine.nextDeadline, next <= instant else { break }
        }
        return sent
    }

    static func control(_ engine: inout DeviceEngine, _ request: PagerCommand, at instant: Timestamp) -> Effects {
        let effects = engine.handle(.control(request, reply: 3), at: instant)
        #expect(effects.replies.map { $0.id } == [3])
        return effects
    }

    /// Set Contrast Control (81h) with the contrast `percent` gives.
    static func contrast(_ percent: Int) -> [UInt8] { [0x81, UInt8(percent * 255 / 100)] }

    @Test func brightnessTakesEffectAtOnce() throws {
        var engine = try Self.engine()
        let at = Timestamp.milliseconds(1000)
        #expect(Self.control(&engine, .brightness(percent: 40), at: at).replies.first?.refusal == nil)
        #expect(engine.nextDeadline.map { $0 <= at } == true, "the change is due at once, not at the next frame")
        let sent = Self.frames(&engine, at: at)
        #expect(sent.contains { $0.contains(Self.contrast(40)) })
        #expect(engine.snapshot.brightness == 40 && engine.screen == .bright)

        let refused = Self.control(&engine, .brightness(percent: 101), at: .milliseconds(2000))
        #expect(refused.replies.first?.refusal == .badValue)
        #expect(refused.replies.first?.message == "brightness 101 is out of range: give 0 to 100")
        #expect(Self.frames(&engine, at: .milliseconds(2000)).isEmpty && engine.snapshot.brightness == 40)
    }

    @Test func dimmedIsNeverBrighterThanTheBrightnessSet() throws {
        var engine = try Self.engine(dimAfter: .milliseconds(60_000))
        _ = Self.control(&engine, .brightness(percent: 2), at: .milliseconds(1000))
        #expect(Self.frames(&engine, at: .milliseconds(1000)).contains { $0.contains(Self.contrast(2)) })
        let dim = Self.frames(&engine, at: .milliseconds(61_000))
        #expect(engine.screen == .dimmed)
        #expect(!dim.contains { $0.contains(Self.contrast(5)) }, "dim_brightness 5 would be brighter than 2")
    }

    @Test func theBrightnessSetOutlivesAReload() throws {
        var engine = try Self.engine()
        _ = Self.control(&engine, .brightness(percent: 30), at: .milliseconds(1000))
        _ = Self.frames(&engine, at: .milliseconds(1000))
        let reload = engine.handle(.reload(engine.configuration, style: PageIndicatorStyle()), at: .milliseconds(2_000))
        // The panel initialised afresh at display.brightness (80), then the brightness set again.
        #expect(reload.display.contains { $0.kind == .commands && Array($0.bytes).contains(Self.contrast(80)) })
        #expect(Self.frames(&engine, at: .milliseconds(2_000)).contains { $0.contains(Self.contrast(30)) })
    }

    @Test func switchedOffStaysDarkUntilSwitchedOnOrTheCrownWakesIt() throws {
        var engine = try Self.engine()
        _ = Self.control(&engine, .display(on: false), at: .milliseconds(1_000))
        #expect(Self.frames(&engine, at: .milliseconds(1_000)).contains { $0 == [0xAE] })  // Set Display OFF (AEh)
        #expect(engine.screen == .off && engine.snapshot.isSwitchedOff && engine.snapshot.screen == .off)
        _ = Self.control(&engine, .show(page: .named("Reboot")), at: .milliseconds(2_000))
        #expect(!Self.frames(&engine, at: .milliseconds(2_000)).contains { $0 == [0xAF] }, "a page shown stays dark")
        _ = Self.control(&engine, .display(on: true), at: .milliseconds(3_000))
        #expect(Self.frames(&engine, at: .milliseconds(3_000)).contains { $0 == [0xAF] })  // Set Display ON (AFh)
        #expect(engine.screen == .bright && !engine.snapshot.isSwitchedOff)

        // The detent that wakes it is swallowed, as the screen saver's: the page stays.
        _ = Self.control(&engine, .display(on: false), at: .milliseconds(4_000))
        _ = Self.frames(&engine, at: .milliseconds(4_000))
        let page = engine.presenter.pager.currentPage
        _ = engine.handle(.crown(.rotated(detents: 1, at: .milliseconds(5_000))), at: .milliseconds(5_000))
        #expect(Self.frames(&engine, at: .milliseconds(5_000)).contains { $0 == [0xAF] })
        #expect(engine.presenter.pager.currentPage == page && !engine.snapshot.isSwitchedOff)
    }

    @Test func anActiveNotificationWaitsWhileSwitchedOffAndACriticalOneSwitchesItOn() throws {
        var engine = try Self.engine()
        _ = Self.control(&engine, .display(on: false), at: .milliseconds(1_000))
        _ = Self.frames(&engine, at: .milliseconds(1_000))
        _ = engine.handle(.notify(PagerNotification(message: "Washer done")), at: .milliseconds(2_000))
        _ = Self.frames(&engine, at: .milliseconds(2_000))
        // Shown on a dark panel it would time out unseen: it waits for the display instead.
        #expect(!engine.isShowingNotification && engine.screen == .off)
        _ = Self.control(&engine, .display(on: true), at: .milliseconds(2_500))
        _ = Self.frames(&engine, at: .milliseconds(2_500))
        #expect(engine.isShowingNotification, "switched on, the waiting one shows")
        _ = engine.handle(.crown(.pressed(at: .milliseconds(2_600))), at: .milliseconds(2_600))
        _ = engine.handle(.crown(.released(at: .milliseconds(2_700))), at: .milliseconds(2_700))
        _ = Self.control(&engine, .display(on: false), at: .milliseconds(2_800))
        _ = Self.frames(&engine, at: .milliseconds(2_800))
        #expect(!engine.isShowingNotification && engine.screen == .off)

        _ = engine.handle(
            .notify(PagerNotification(message: "Smoke in the kitchen", priority: .critical)), at: .milliseconds(3_000))
        #expect(Self.frames(&engine, at: .milliseconds(3_000)).contains { $0 == [0xAF] })  // Set Display ON (AFh)
        #expect(engine.isShowingNotification && engine.screen == .bright && !engine.snapshot.isSwitchedOff)
    }

    @Test func aRemotePressRunsOnlyARemoteActionAndNeverTwiceAtOnce() throws {
        var engine = try Self.engine()
        let restart = CommandSpec(
            argv: ["systemctl", "restart", "foo"], refresh: .zero, timeout: .milliseconds(30_000))
        let pressed = Self.control(&engine, .press(page: .named("restart")), at: .milliseconds(1_000))
        #expect(pressed.replies.first?.refusal == nil)
        #expect(pressed.reads == [PageRead(page: 1, source: .action(restart))], "no question first")
        #expect(engine.actions[1] == .running)

        let again = Self.control(&engine, .press(page: .named("2")), at: .milliseconds(2_000))
        #expect(again.replies.first?.refusal == .busy && again.reads.isEmpty)
        _ = engine.handle(.actionFinished(page: 1, output: "done\n", status: nil), at: .milliseconds(3_000))
        #expect(Self.control(&engine, .press(page: .named("Restart")), at: .milliseconds(4_000)).reads.count == 1)

        let asks = Self.control(&engine, .press(page: .named("Reboot")), at: .milliseconds(5_000))
        #expect(asks.replies.first?.refusal == .notRemote && asks.reads.isEmpty)
        #expect(
            asks.replies.first?.message
                == "page 3 (Reboot) asks at the pager: give it remote = true to run it remotely")
        let none = Self.control(&engine, .press(page: .named("Home")), at: .milliseconds(6_000))
        #expect(none.replies.first?.refusal == .notRemote && none.reads.isEmpty)
        #expect(
            Self.control(&engine, .press(page: .named("Nope")), at: .milliseconds(7_000)).replies.first?.refusal
                == .unknownPage
        )
    }

    @Test func remoteIsReadOnlyOnActionPages() throws {
        let pages = try Configuration(parsing: Self.file, file: "t.toml", files: NoFiles()).pages
        #expect(pages.map { $0.action?.isRemote } == [nil, true, false])
        do {
            _ = try Configuration(
                parsing: "[[page]]\nkind = \"text\"\ntext = \"a\"\nremote = true\n", file: "t.toml", files: NoFiles())
            Issue.record("no error for remote without an action")
        } catch {
            #expect(
                error.description
                    == "t.toml:4: page[1].remote: remote runs the page's action from Home Assistant: add action = [\"program\", \"argument\"] or remove it"
            )
        }
    }
}
