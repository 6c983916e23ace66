// Fuzz target: the configuration text (TOML 1.0, then the checked tables and the pages they make).
import PagerConfig
import PagerEngine
import PagerGraphics
import PagerSettings

/// A reader that serves every picture from the input's own bytes, so image pages get decoded too.
private struct EchoFiles: FileReading {
    var bytes: [UInt8]
    func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8] {
        Array(bytes.prefix(maximumBytes))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = fuzzText(data, count)
    _ = try? TOMLParser.parse(text)
    if let configuration = try? Configuration(
        parsing: text, file: "fuzz.toml", files: EchoFiles(bytes: fuzzBytes(data, count)))
    {
        let book = PageBook(specs: configuration.pages)
        _ = book.intervals
        let clock = ClockReading(year: 2026, month: 11, day: 21, hour: 12, minute: 34, second: 56, weekday: 6)
        for page in book.pages(clock: clock).prefix(16) {
            var canvas = Bitmap(width: 128, height: 64)
            page.draw(into: &canvas, at: .zero)
        }
    }
    return 0
}
