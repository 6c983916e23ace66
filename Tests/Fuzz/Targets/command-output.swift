// Fuzz target: a command page's output (and status line) to the page's text, wrapped and drawn.
import CrownVocabulary
import PagerEngine
import PagerGraphics
import PagerSettings

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandOutput(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = fuzzText(data, count)
    let command = CommandSpec(argv: ["fuzz"], refresh: .seconds(1), timeout: .seconds(1))
    var book = PageBook(specs: [PageSpec(title: "Command", kind: .command(command))])
    let status = text.split(separator: "\u{0}", maxSplits: 1).dropFirst().first.map(String.init)
    book.readings = [.output(text: text, status: status)]
    let clock = ClockReading(year: 2026, month: 11, day: 21, hour: 12, minute: 0, second: 0, weekday: 6)
    let page = book.page(0, clock: clock)
    for size in [Size(width: 128, height: 64), Size(width: 128, height: 32)] {
        let height = page.contentHeight(in: size)
        var canvas = Bitmap(width: size.width, height: min(height, 4096))
        page.draw(into: &canvas, at: .zero)
    }
    return 0
}
