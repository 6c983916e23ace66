import CrownVocabulary
import PagerConfig
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine
@testable import PagerWeb

/// The browser page's pager, as the WebAssembly module's C ABI drives it, run on the host: the
/// same logic Scripts/web/test-wasm.sh runs in Node and Chromium.
@Suite struct WebPagerTests {
    static func pages(clockTitle: String = "Clock") -> String {
        """
        [[page]]
        kind = "text"
        title = "One"
        text = "first"

        [[page]]
        kind = "clock"
        title = "\(clockTitle)"

        [[page]]
        kind = "command"
        title = "Uptime"
        argv = ["uptime"]
        """
    }

    static let pagesText = pages()

    static func loaded(_ text: String = pagesText) -> WebPager {
        var pager = WebPager()
        let answer = pager.load(text)
        #expect(answer == .good(pager.configuration.summary), "\(answer.lines)")
        return pager
    }

    @Test func aBrokenKeyAnswersWithChecksSentenceAtItsLineAndKeepsTheRunningPages() {
        var pager = Self.loaded()
        let before = pager.configuration.pages.count
        let answer = pager.load("[display]\nbrightness = 250\n")
        guard case .mistakes(let errors) = answer else {
            Issue.record("a brightness of 250 was taken: \(answer.lines)")
            return
        }
        #expect(errors.errors.map(\.line) == [2])
        #expect(answer.lines == errors.errors.map { "crownpager: " + $0.description })
        #expect(answer.lines.first?.hasPrefix("crownpager: crownpager.toml:2: display.brightness: ") == true)
        #expect(pager.configuration.pages.count == before)
    }

    @Test func anEditTakesEffectOnThePageShownAsAReloadDoes() {
        var pager = Self.loaded()
        pager.turn(1)
        for _ in 0..<60 { pager.advance(by: .milliseconds(16)) }
        #expect(pager.shell.engine.presenter.pager.currentPage == 1)
        #expect(pager.load(Self.pages(clockTitle: "Time")) == .good(pager.configuration.summary))
        pager.advance(by: .milliseconds(100))
        #expect(pager.shell.engine.presenter.pager.currentPage == 1)
        #expect(pager.configuration.pages[1].title == "Time")
        // Another panel is another pager: it starts afresh on the first page.
        pager.choose(panel: .sh1106_128x64)
        pager.advance(by: .milliseconds(100))
        #expect(pager.shell.engine.presenter.pager.currentPage == 0)
    }

    @Test func aSyntaxErrorSaysTheRestIsUnchecked() {
        var pager = Self.loaded()
        let answer = pager.load("[display\n")
        #expect(answer.lines.count == 2)
        #expect(
            answer.lines.last
                == "crownpager: crownpager.toml: the rest of the file is not checked until this syntax error is fixed")
    }

    @Test func aPictureThePageWasNotGivenIsAMistakeSayingToAddItAndABuiltInOneIsNot() {
        var pager = Self.loaded()
        let file = pager.load("[indicator]\nimage = \"/etc/crownpager/dot.png\"\n")
        #expect(
            file.lines.first
                == "crownpager: crownpager.toml:2: indicator.image: cannot read indicator image: could not open "
                + "/etc/crownpager/dot.png: the page has no file dot.png; add dot.png to the page (Add files…)",
            "\(file.lines)")
        let builtIn = pager.load("[indicator]\nimage = \"star\"\n" + Self.pagesText)
        #expect(builtIn == .good(pager.configuration.summary), "\(builtIn.lines)")
    }

    @Test func turningLiveEndsOnTheGlassRenderDrawsForTheSameSteps() throws {
        var pager = Self.loaded()
        pager.turn(1)
        pager.advance(by: .milliseconds(400))
        pager.turn(1)
        pager.advance(by: .milliseconds(400))
        pager.turn(-1)
        for _ in 0..<120 { pager.advance(by: .milliseconds(16)) }
        let frames = pager.render(try CrownScript(parsing: "+1,+1,-1,wait 1s"))
        let last = try #require(frames.last(where: { !$0.name.contains("-frame-") }))
        #expect(pager.glass == last.glass)
        #expect(pager.shell.engine.presenter.pager.currentPage == 1)
        // Nothing piles up in the shell however long the page runs.
        #expect(pager.shell.records.isEmpty)
    }

    @Test func aLongPressIsAPressHeldOverTheLongPressTime() throws {
        var live = Self.loaded()
        live.press(true)
        live.advance(by: .milliseconds(800))
        live.press(false)
        for _ in 0..<100 { live.advance(by: .milliseconds(16)) }
        let frames = live.render(try CrownScript(parsing: "long-press,wait 1s"))
        let last = try #require(frames.last)
        #expect(live.glass == last.glass)
    }

    @Test func everyPanelDrawsAtItsSizeAndRotationTurnsThePicture() {
        var pager = Self.loaded()
        for panel in SSD1306Panel.all {
            pager.choose(panel: panel)
            pager.advance(by: .milliseconds(100))
            #expect(pager.glass.width == panel.width && pager.glass.height == panel.height, "\(panel.name)")
            #expect(pager.glass.litPixelCount > 0, "\(panel.name) shows nothing")
        }
        pager.choose(panel: .ssd1306_128x64)
        pager.advance(by: .milliseconds(100))
        let upright = pager.glass
        pager.rotate(DisplayRotation(degrees: 180))
        pager.advance(by: .milliseconds(100))
        #expect(pager.glass != upright)
        #expect(pager.glass == upright.rotated180())
    }

    @Test func theWallClockIsTheComputersAndCommandsRunOnTheDevice() {
        var pager = Self.loaded()
        pager.sampler.wallClock = ClockReading(
            year: 2027, month: 1, day: 2, hour: 23, minute: 45, second: 0, weekday: 6)
        pager.sampler.deviceAnswer = WebPageSampler.onDevice
        #expect(pager.sampler.clock(at: .zero).hour == 23)
        let command = CommandSpec(argv: ["uptime"], refresh: .seconds(2), timeout: .seconds(5))
        let read = PageRead(page: 2, source: .command(command))
        guard case .commandFinished(page: 2, let output, status: nil) = pager.sampler.answer(read, at: .zero) else {
            Issue.record("a command page was not answered as finished")
            return
        }
        #expect(output == "on device")
    }
}
