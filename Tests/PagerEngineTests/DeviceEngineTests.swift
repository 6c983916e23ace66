import CrownVocabulary
import PagerCore
import PagerSettings
import PagerTools
import SSD1306
import Testing

@testable import PagerEngine

/// `DeviceEngine` fed by hand: its answers to reloads, redraws, the end, and an idle page.
@Suite struct DeviceEngineTests {
    static func configuration(pages: Int = 4) -> Configuration {
        var configuration = Configuration()
        configuration.pages = (1...pages).map { PageSpec(title: "P\($0)", kind: .text("page \($0)")) }
        configuration.display.bus = nil
        configuration.display.dimAfter = nil
        configuration.display.offAfter = nil
        configuration.crown.acceleration = false
        return configuration
    }

    /// An engine started, its first frame drawn, and `detents` turned and settled.
    static func engine(_ configuration: Configuration = configuration(), detents: Int = 0) -> DeviceEngine {
        var engine = DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero)
        _ = engine.handle(.start, at: .zero)
        _ = engine.handle(.tick, at: .zero)
        for index in 0..<detents {
            let instant = Timestamp.milliseconds(Int64(100 + index * 500))
            _ = engine.handle(.crown(.rotated(detents: 1, at: instant)), at: instant)
        }
        _ = engine.handle(.tick, at: .milliseconds(10_000))
        return engine
    }

    @Test func aReloadKeepsTheCurrentPageWhenItStillExists() {
        var engine = Self.engine(detents: 2)
        #expect(engine.presenter.pager.currentPage == 2)
        let effects = engine.handle(
            .reload(Self.configuration(pages: 3), style: PageIndicatorStyle()), at: .milliseconds(11_000))
        #expect(effects.log.contains(.reloaded(pages: 3)) && effects.stopsCommands)
        // Initialised afresh: Display Off (AEh) first.
        #expect(effects.display.first.map { $0.kind == .commands && $0.bytes.starts(with: [0xAE]) } == true)
        #expect(engine.presenter.pager.currentPage == 2 && engine.book.specs.count == 3)

        let fewer = engine.handle(
            .reload(Self.configuration(pages: 2), style: PageIndicatorStyle()), at: .milliseconds(12_000))
        #expect(fewer.log.contains(.reloaded(pages: 2)))
        #expect(engine.presenter.pager.currentPage == 0)
    }

    @Test func aReloadThatChangesThePanelNeedsARestartAndChangesNothing() {
        var engine = Self.engine(detents: 1)
        var other = Self.configuration(pages: 6)
        other.display.panel = .ssd1306_128x32
        let effects = engine.handle(.reload(other, style: PageIndicatorStyle()), at: .milliseconds(11_000))
        #expect(effects.log == [.reloadNeedsRestart] && effects.display.isEmpty)
        #expect(engine.book.specs.count == 4 && engine.presenter.pager.currentPage == 1)
    }

    @Test func staticPagesLeaveNoDeadline() {
        // Nothing moves and nothing is read: the shell sleeps until input, never spins.
        var engine = Self.engine(detents: 1)
        _ = engine.handle(.tick, at: .milliseconds(20_000))
        #expect(engine.nextDeadline == nil)
        #expect(engine.handle(.tick, at: .milliseconds(30_000)).isEmpty)
    }

    @Test func aRedrawSendsTheWholeFrameAgain() {
        var engine = Self.engine()
        _ = engine.handle(.redraw, at: .milliseconds(11_000))
        let transfers = engine.handle(.tick, at: .milliseconds(11_000)).display.transfers(at: .ssd1306Primary)
        #expect(transfers.contains { $0.bytes.count == 1025 })  // the data control byte and 1024 bytes
    }

    @Test func theEndBlanksThePanelUnlessItPersists() {
        var engine = Self.engine()
        let off = engine.handle(.stop(persist: false), at: .milliseconds(11_000))
        #expect(off.display.contains { $0.bytes.contains(0xAE) } && off.stopsCommands)  // Set Display OFF (AEh)
        #expect(engine.isStopped && engine.nextDeadline == nil)
        #expect(engine.handle(.tick, at: .milliseconds(12_000)).isEmpty)

        var kept = Self.engine()
        #expect(kept.handle(.stop(persist: true), at: .milliseconds(11_000)).display.isEmpty)
    }

    @Test func aValueAskedForComesBackBeforeTheFrameThatShowsIt() {
        var configuration = Self.configuration()
        configuration.pages[0] = PageSpec(title: "Load", kind: .system([.load], refresh: .milliseconds(1000)))
        var engine = DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero)
        _ = engine.handle(.start, at: .zero)
        let ask = engine.handle(.tick, at: .zero)
        #expect(ask.reads == [PageRead(page: 0, source: .system([.load]))] && ask.display.isEmpty)
        #expect(engine.nextDeadline == .zero)
        // The frame comes as the value does: no shell has to tick again for it.
        let answered = engine.handle(.sampled(page: 0, [.load(one: 0.5, five: 0.25, fifteen: 0.125)]), at: .zero)
        #expect(engine.book.readings[0] == .values([ValueLine(label: "load", value: "0.50 0.25 0.13")]))
        #expect(!answered.display.isEmpty)
        #expect(engine.handle(.tick, at: .zero).display.isEmpty)
        #expect(engine.nextDeadline == .milliseconds(1000))
    }
}
