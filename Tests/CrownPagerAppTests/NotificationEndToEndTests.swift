import CrownVocabulary
import Foundation
import Glibc
import PagerEngine
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// `crownpager notify` through the socket of the built `crownpager run` on the fake kernel's
/// panel, checked on the bus and on the glass: a dimmed panel woken, a switched-off one woken
/// only by a critical notification, a critical one back after a restart, a passive one's mark.
@Suite(.tags(.endToEnd), .serialized) struct NotificationEndToEndTests {
    static let pages = [
        ConfiguredPage(title: "Hello", body: .text("fixed")), ConfiguredPage(title: "Second", body: .text("two")),
    ]

    /// The file of `pages` with `display` settings added.
    static func configuration(_ display: String = "") -> String {
        "[display]\nbus = 1\n\(display)\n[[page]]\nkind = \"text\"\ntitle = \"Hello\"\ntext = \"fixed\"\n"
            + "[[page]]\nkind = \"text\"\ntitle = \"Second\"\ntext = \"two\"\n"
    }

    /// The first page settled, `notification` over it once slid in, or the mark of those waiting.
    static func glass(showing notification: PagerNotification?, marksWaiting: Bool = false) -> Bitmap {
        var presenter = PanelPresenter(pages: pages, panel: .ssd1306_128x64)
        presenter.overlay = notification.map {
            NotificationOverlay($0, size: presenter.renderer.size, font: presenter.renderer.overviewFont, since: .zero)
        }
        presenter.marksWaitingNotifications = marksWaiting
        presenter.advance(to: .milliseconds(10_000))
        return presenter.frame(at: .milliseconds(10_000))
    }

    /// The pager's trace replayed into a fresh emulator: its registers and glass now.
    static func replayed(_ pager: ControlSocketEndToEndTests.Pager) throws -> SSD1306Emulator {
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        emulator.replay(try pager.fake.transfers())
        return emulator
    }

    static let bright = DisplayBrightness(percent: 80).contrast
    static let dimmed = DisplayBrightness(percent: 5).contrast

    @Test func anActiveNotificationWakesADimmedPanel() throws {
        let configuration = Self.configuration("dim_after = \"1s\"\noff_after = \"never\"")
        let pager = try ControlSocketEndToEndTests.Pager(configuration)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try pager.waitUntilListening())
        // Dimmed for real: the contrast of dim_brightness went to the panel.
        #expect(try waitUntil(every: 0.05) { try Self.replayed(pager).registers.contrast == Self.dimmed })
        #expect(try pager.status()["screen"] as? String == "dimmed")

        let door = PagerNotification(message: "Someone at the door", title: "Door", priority: .active)
        #expect(try pager.ask(["notify", door.message, "--title", "Door", "--priority", "active"]).status == 0)
        let woken = try waitUntil(every: 0.05) {
            let emulator = try Self.replayed(pager)
            return emulator.registers.contrast == Self.bright && emulator.glass == Self.glass(showing: door)
        }
        let contrast = try Self.replayed(pager).registers.contrast
        #expect(woken, "contrast \(contrast)")
        let status = try pager.status()
        #expect(status["screen"] as? String == "bright" && status["notification"] as? String == "Door")
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    @Test func onAnOffPanelAnActiveNotificationWaitsAndACriticalOneWakesIt() throws {
        let configuration = Self.configuration("dim_after = \"never\"\noff_after = \"1s\"")
        let pager = try ControlSocketEndToEndTests.Pager(configuration)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try pager.waitUntilListening())
        #expect(try pager.fake.waitForFirstFrame())
        // Switched off for real: Set Display OFF (AEh) after the pages showed.
        #expect(try waitUntil(every: 0.05) { try pager.status()["screen"] as? String == "off" })
        #expect(try !Self.replayed(pager).registers.isDisplayOn)
        let offAt = try pager.fake.transfers().count

        // An active one waits: the request is done when `notify` returns, and the panel stays off.
        #expect(try pager.ask(["notify", "Washer done", "--priority", "active"]).status == 0)
        var status = try pager.status()
        #expect(status["screen"] as? String == "off" && status["notification"] as? String == "")
        #expect(status["queuedNotifications"] as? Int == 1)
        #expect(try !Self.replayed(pager).registers.isDisplayOn)
        #expect(try pager.fake.transfers().count == offAt, "nothing went to the panel for the active one")

        // A critical one wakes it: Set Display ON (AFh), the overlay on the glass; the active one still waits.
        let smoke = PagerNotification(message: "Smoke in the kitchen", title: "Smoke", priority: .critical)
        #expect(try pager.ask(["notify", smoke.message, "--title", "Smoke", "--priority", "critical"]).status == 0)
        let woken = try waitUntil(every: 0.05) {
            let emulator = try Self.replayed(pager)
            return emulator.registers.isDisplayOn && emulator.glass == Self.glass(showing: smoke)
        }
        #expect(woken)
        #expect(try pager.fake.transfers().dropFirst(offAt).contains { $0.bytes == [0x00, 0xAF] })
        status = try pager.status()
        #expect(status["notification"] as? String == "Smoke" && status["queuedNotifications"] as? Int == 1)
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }

    @Test func aCriticalNotificationSurvivesARestart() throws {
        let state = try ScratchDirectory()
        let file = state.path + "/notifications"
        let environment = ["STATE_DIRECTORY": state.path]
        let smoke = PagerNotification(message: "Smoke in the kitchen", title: "Smoke", priority: .critical)

        let first = try ControlSocketEndToEndTests.Pager(Self.configuration(), environment: environment)
        defer { if first.process.isRunning { first.process.terminate() } }
        #expect(try first.waitUntilListening())
        #expect(try first.ask(["notify", smoke.message, "--title", "Smoke", "--priority", "critical"]).status == 0)
        #expect(try first.fake.waitForGlass(Self.glass(showing: smoke)))
        // Kept as it came: the file alone (written beside it and renamed over it), for the service's user only.
        // Waited for outside #expect: Swift 6.0.3's macro refuses a rethrowing call with a closure in it.
        let kept = waitUntil(every: 0.05) { FileManager.default.fileExists(atPath: file) }
        #expect(kept)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path) == ["notifications"])
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("Smoke in the kitchen"))
        let messages = first.stop()
        #expect(first.process.terminationStatus == 0, "\(messages)")

        // A new run (a fresh bus) shows it again at once, not pressed away yet.
        let second = try ControlSocketEndToEndTests.Pager(Self.configuration(), environment: environment)
        defer { if second.process.isRunning { second.process.terminate() } }
        #expect(try second.waitUntilListening())
        #expect(try second.fake.waitForGlass(Self.glass(showing: smoke)))
        #expect(try second.status()["notification"] as? String == "Smoke")
        let again = second.stop()
        #expect(second.process.terminationStatus == 0, "\(again)")
    }

    @Test func aPassiveNotificationWaitsWithAMark() throws {
        let pager = try ControlSocketEndToEndTests.Pager(Self.configuration())
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try pager.waitUntilListening())
        #expect(try pager.fake.waitForGlass(Self.glass(showing: nil)))
        #expect(try pager.ask(["notify", "Post came", "--priority", "passive"]).status == 0)
        // Not over the page: the mark beside the indicator says one waits.
        #expect(Self.glass(showing: nil, marksWaiting: true) != Self.glass(showing: nil))
        #expect(try pager.fake.waitForGlass(Self.glass(showing: nil, marksWaiting: true)))
        let status = try pager.status()
        #expect(status["notification"] as? String == "" && status["queuedNotifications"] as? Int == 1)
        let messages = pager.stop()
        #expect(pager.process.terminationStatus == 0, "\(messages)")
    }
}
