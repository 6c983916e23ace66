import CrownVocabulary
import PagerCore
import PagerSettings
import Testing

@testable import PagerEngine

/// A clock reading rebuilds only the clock pages, and a clock page keeps its date lines while the
/// day is the same: what the engine shows must still be the page made afresh from the reading.
@Suite struct ClockPageRefreshTests {
    /// The reading `seconds` after 23:57:00 on Thursday 31 December 2026: it crosses into 2027.
    static func reading(_ seconds: Int) -> ClockReading {
        let total = 23 * 3600 + 57 * 60 + seconds
        let nextDay = total >= 86_400
        let time = total % 86_400
        return ClockReading(
            year: nextDay ? 2027 : 2026, month: nextDay ? 1 : 12, day: nextDay ? 1 : 31, hour: time / 3600,
            minute: time / 60 % 60, second: time % 60, weekday: nextDay ? 5 : 4)
    }

    @Test(arguments: ["%a %e %b", "%A %e %B %Y", "%d/%m/%y %H:%M", ""])
    func everyShownClockPageIsTheOneMadeAfreshFromItsReading(date: String) throws {
        var configuration = Configuration.demo()
        configuration.display.bus = nil
        configuration.pages.append(
            PageSpec(
                title: "Clock",
                kind: .clock(time: try ClockFormat.parse("%I:%M:%S %p").get(), date: try ClockFormat.parse(date).get()))
        )
        var engine = DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: Self.reading(0), start: .zero)
        _ = engine.handle(.start, at: .zero)
        var checked = 0
        // Irregular steps, so readings come a second, a minute and a day apart.
        for seconds in [1, 2, 3, 61, 62, 179, 180, 181, 240, 241, 3_600, 3_601] {
            let instant = Timestamp.milliseconds(Int64(seconds) * 1000)
            _ = engine.handle(.clock(Self.reading(seconds)), at: instant)
            for index in engine.book.specs.indices where engine.book.specs[index].isClock {
                let afresh = engine.book.page(index, clock: Self.reading(seconds))
                #expect(engine.presenter.pager.pages[index] == afresh, "page \(index) at +\(seconds) s, date \(date)")
                checked += 1
            }
        }
        #expect(checked >= 24)
    }

    @Test func theDateLinesChangeAtMidnight() throws {
        var configuration = Configuration.demo()
        configuration.display.bus = nil
        var engine = DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: Self.reading(0), start: .zero)
        _ = engine.handle(.start, at: .zero)
        let clockPage = try #require(engine.book.specs.indices.first { engine.book.specs[$0].isClock })
        func date() -> String? {
            guard case .clock(_, let date, _, _) = engine.presenter.pager.pages[clockPage].body else { return nil }
            return date
        }
        _ = engine.handle(.clock(Self.reading(179)), at: .milliseconds(179_000))
        #expect(date() == "Thu 31 Dec 2026")
        _ = engine.handle(.clock(Self.reading(180)), at: .milliseconds(180_000))
        #expect(date() == "Fri  1 Jan 2027")
    }
}
