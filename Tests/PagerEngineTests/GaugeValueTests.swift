import CrownVocabulary
import PagerEngine
import PagerGraphics
import PagerSettings
import Testing

/// The values a gauge source can yield, absurd ones included (found by Scripts/dev/fuzz.sh).
@Suite struct GaugeValueTests {
    @Test func fixedWritesOrdinaryNumbers() {
        #expect(fixed(48.25, 1) == "48.3")
        #expect(fixed(-0.04, 1) == "0.0")
        #expect(fixed(-12.5, 0) == "-13")
        #expect(fixed(0.5, 3) == "0.500")
        #expect(fixed(.nan, 1) == "-" && fixed(.infinity, 1) == "-")
        #expect(gaugeText(48.31, unit: "°C") == "48.3°C" && gaugeText(612.4, unit: "%") == "612%")
    }

    @Test(arguments: [9.2e18, 9.3e18, -9.3e18, 1e300, -Double.greatestFiniteMagnitude])
    func fixedWritesNumbersBeyondInt64WithoutTrapping(value: Double) {
        #expect(fixed(value, 0) == "\(value)")
        #expect(fixed(value, 2) == "\(value)")
        #expect(gaugeText(value, unit: "C") == "\(value)C")
    }

    @Test func fixedKeepsItsDecimalsInRange() {
        #expect(fixed(1.5, -3) == "2")
        #expect(fixed(1.5, 40) == "1.500000000")
    }

    @Test func anInfiniteReadingOrAnEmptyRangeDrawsAsUnknown() {
        let clock = ClockReading(year: 2026, month: 11, day: 21, hour: 12, minute: 0, second: 0, weekday: 6)
        for (value, minimum, maximum) in [(Double.infinity, 0.0, 100.0), (5, 5, 5), (-Double.infinity, 0, 1)] {
            for isDial in [false, true] {
                let gauge = GaugeSpec(
                    source: .file(path: "/x"), minimum: minimum, maximum: maximum, unit: "", isDial: isDial,
                    refresh: .seconds(1))
                var book = PageBook(specs: [PageSpec(title: "G", kind: .gauge(gauge))])
                book.readings = [.number(value, text: "x")]
                let page = book.page(0, clock: clock)
                #expect(page.body == .gauge(fraction: nil, text: "x", isDial: isDial))
                // A page made elsewhere may still carry such a fraction: it draws as unknown too.
                var canvas = Bitmap(width: 128, height: 64)
                ConfiguredPage(title: "G", body: .gauge(fraction: .nan, text: "x", isDial: isDial))
                    .draw(into: &canvas, at: .zero)
                page.draw(into: &canvas, at: .zero)
            }
        }
    }

    @Test func firstNumberOfAnOverlongNumberIsInfinite() {
        #expect(firstNumber(in: "temp=48.3'C") == 48.3)
        #expect(firstNumber(in: "1" + String(repeating: "0", count: 400)) == .infinity)
    }
}
