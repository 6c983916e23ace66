import CrownPagerApp
import CrownVocabulary
import Foundation
import Glibc
import PagerEngine
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// `crownpager run` on the fake I2C bus and GPIO chip: a page's action asked for, confirmed and
/// run for real, its result on the glass; the pager going home by itself after idle.
@Suite(.tags(.endToEnd), .serialized) struct ActionEndToEndTests {
    static let home = ConfiguredPage(title: "Home", body: .text("home"))

    /// A file of `text`'s settings, the home page, then `text`'s pages, run with the knob on the fake chip.
    static func start(_ knob: FakeKnobRun, _ text: String) throws -> (Process, Pipe) {
        let path = knob.bus.scratch.path + "/crownpager.toml"
        let home = "[[page]]\nkind = \"text\"\ntitle = \"Home\"\ntext = \"home\"\n"
        let parts = text.components(separatedBy: "[[page]]")
        let file =
            "[display]\nbus = 1\n" + parts[0] + home + "[[page]]" + parts.dropFirst().joined(separator: "[[page]]")
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        let (process, _, error) = try knob.start(["run", "--config", path, "--no-acceleration", "--persist"])
        return (process, error)
    }

    /// A press of 100 ms that ended 300 ms ago: stamped, so no debouncer takes it for chatter.
    static func press(_ knob: FakeKnobRun) {
        let now = MonotonicClockForTests.now().nanoseconds
        knob.command("0 22 0 \(now - 400_000_000)\n0 22 1 \(now - 300_000_000)")
    }

    /// Every picture the glass showed, in order: the trace replayed a transfer at a time.
    static func glasses(_ transfers: [I2CTransfer]) -> [Bitmap] {
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        var shown: [Bitmap] = []
        for transfer in transfers {
            emulator.write(transfer.bytes, to: transfer.address)
            if shown.last != emulator.glass { shown.append(emulator.glass) }
        }
        return shown
    }

    @Test func aPressAsksASecondRunsTheCommandAndThePageShowsItsResult() throws {
        let knob = try FakeKnobRun()
        let (process, error) = try Self.start(
            knob,
            """
            [[page]]
            kind = "text"
            title = "Say done"
            text = "press twice"
            action = ["/bin/echo", "done"]
            """)
        #expect(try knob.bus.waitForFirstFrame())
        knob.write(FakeKnobRun.detents(1))
        let page = { (body: ConfiguredPage.Body) in
            settledFrame([Self.home, ConfiguredPage(title: "Say done", body: body)], .ssd1306_128x64, after: [1])
        }
        #expect(try knob.bus.waitForGlass(page(.text("press twice"))))
        Self.press(knob)
        #expect(try knob.bus.waitForGlass(page(.text("Press again to say done"))))
        Self.press(knob)
        let shown = try knob.bus.waitForGlass(page(.output(lines: ["exit status 0", "done"], status: nil)))
        let messages = FakeBusRun.stop(process, error: error)
        #expect(shown, "\(messages)")
        #expect(process.terminationStatus == 0, "\(messages)")
        #expect(messages.contains("2 presses"), "\(messages)")
    }

    @Test func leftAloneThePagerSlidesHome() throws {
        let knob = try FakeKnobRun()
        let (process, error) = try Self.start(
            knob,
            """
            [pager]
            return_home_after = "2s"
            [[page]]
            kind = "text"
            title = "Away"
            text = "away"
            """)
        #expect(try knob.bus.waitForFirstFrame())
        knob.write(FakeKnobRun.detents(1))
        let pages = [Self.home, ConfiguredPage(title: "Away", body: .text("away"))]
        let away = settledFrame(pages, .ssd1306_128x64, after: [1])
        let home = settledFrame(pages, .ssd1306_128x64, after: [1, -1])
        // The history, not the last picture: the first page is home too, before the turn.
        var shown: [Bitmap] = []
        var awayAt: Int?
        var homeAt: Int?
        _ = try waitUntil(every: 0.05) {
            shown = Self.glasses(try knob.bus.transfers())
            awayAt = shown.firstIndex(of: away)
            homeAt = awayAt.flatMap { at in shown.lastIndex(of: home).flatMap { $0 > at ? $0 : nil } }
            return homeAt != nil
        }
        let messages = FakeBusRun.stop(process, error: error)
        let from = try #require(awayAt, "the turned-to page showed, settled: \(messages)")
        let back = try #require(homeAt, "then home: \(messages)")
        // A slide: pictures between the two that are neither.
        #expect(back > from + 2, "\(back) after \(from)")
        #expect(messages.contains("1 detents (1 forward, 0 back), 1 applied"), "\(messages)")
        #expect(process.terminationStatus == 0, "\(messages)")
    }
}
