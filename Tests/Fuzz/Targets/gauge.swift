// Fuzz target: the values a gauge source yields: the first number in a command's output or a
// file, and any Double at all, to the text and the fraction a gauge page draws.
import CrownVocabulary
import PagerEngine
import PagerGraphics
import PagerSettings

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGauge(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    var values: [Double] = []
    if let number = firstNumber(in: fuzzText(data, count)) { values.append(number) }
    if bytes.count >= 8 {
        values.append(Double(bitPattern: bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
    }
    for value in values {
        for decimals in 0...3 { _ = fixed(value, decimals) }
        let text = gaugeText(value, unit: "°C")
        let gauge = GaugeSpec(
            source: .file(path: "/fuzz"), minimum: 0, maximum: 100, unit: "°C", isDial: bytes.count % 2 == 0,
            refresh: .seconds(1))
        var book = PageBook(specs: [PageSpec(title: "Gauge", kind: .gauge(gauge))])
        book.readings = [.number(value, text: text)]
        let clock = ClockReading(year: 2026, month: 11, day: 21, hour: 12, minute: 0, second: 0, weekday: 6)
        var canvas = Bitmap(width: 128, height: 64)
        book.page(0, clock: clock).draw(into: &canvas, at: .zero)
    }
    return 0
}
