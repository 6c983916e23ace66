import CrownVocabulary
import PagerCore
import PagerGraphics
import PagerSettings
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine

/// The notification overlay on every panel, as the engine sends it to the glass once it has slid
/// in, and the mark that says passive ones wait.
@Suite struct NotificationGoldenTests {
    /// The glass after `notification` came at 11 s and everything settled.
    static func glass(_ notification: PagerNotification, on panel: SSD1306Panel, scrolled detents: Int = 0) -> Bitmap? {
        var engine = NotificationEngineTests.engine(panel: panel)
        NotificationEngineTests.feed(&engine, .notify(notification), at: 11_000)
        for detent in 0..<detents {
            let instant = 11_500 + Int64(detent) * 300
            NotificationEngineTests.feed(&engine, .crown(.rotated(detents: 1, at: .milliseconds(instant))), at: instant)
        }
        NotificationEngineTests.settle(&engine, until: 15_000)
        return engine.presenter.lastFrame
    }

    @Test(arguments: SSD1306Panel.all) func theOverlayFitsEveryPanel(panel: SSD1306Panel) {
        guard let glass = Self.glass(NotificationEngineTests.long, on: panel) else {
            Issue.record("nothing on the glass")
            return
        }
        expectGolden(glass, named: "notification-\(panel.name)")
    }

    @Test func scrolledToItsEndTheMoreMarkGoes() {
        guard let glass = Self.glass(NotificationEngineTests.long, on: .ssd1306_128x32, scrolled: 20) else {
            Issue.record("nothing on the glass")
            return
        }
        expectGolden(glass, named: "notification-scrolled-to-end-128x32")
    }

    @Test func withoutATitleTheMessageTakesTheWholePanel() {
        let untitled = PagerNotification(message: "Front door opened at 07:42", priority: .critical)
        guard let glass = Self.glass(untitled, on: .ssd1306_96x16) else {
            Issue.record("nothing on the glass")
            return
        }
        expectGolden(glass, named: "notification-untitled-96x16")
    }

    @Test(arguments: [SSD1306Panel.ssd1306_128x64, .ssd1306_96x16]) func theMarkForPassiveOnes(panel: SSD1306Panel) {
        guard let glass = Self.glass(PagerNotification(message: "Post", priority: .passive), on: panel) else {
            Issue.record("nothing on the glass")
            return
        }
        expectGolden(glass, named: "notification-waiting-mark-\(panel.name)")
    }
}
