// Shared by every fuzz target (Scripts/dev/fuzz.sh compiles it into each one).
import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics

/// The fuzzer's input as bytes.
func fuzzBytes(_ start: UnsafeRawPointer?, _ count: Int) -> [UInt8] {
    guard let start, count > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: start, count: count))
}

/// The fuzzer's input as text, invalid UTF-8 repaired as a file read would be.
func fuzzText(_ start: UnsafeRawPointer?, _ count: Int) -> String {
    String(decoding: fuzzBytes(start, count), as: UTF8.self)
}

/// Feeds crown events to a pager of three text pages as the run loop would, rendering along the way.
func drivePager(with events: [CrownEvent], wraps: Bool) {
    let pages = (1...3).map { ConfiguredPage(title: "Page \($0)", body: .text("Text of page \($0)")) }
    var configuration = PagerConfiguration()
    configuration.wrapsAround = wraps
    var controller = PageNavigator(pages: pages, configuration: configuration, viewport: Size(width: 128, height: 64))
    let renderer = PagerRenderer(size: Size(width: 128, height: 64))
    var rendered = 0
    for event in events.prefix(256) {
        _ = controller.advance(to: event.timestamp)
        _ = controller.handle(event)
        if rendered < 8 {
            _ = renderer.render(controller, at: event.timestamp)
            rendered += 1
        }
    }
    if let last = events.last {
        let later = last.timestamp + .seconds(5)
        _ = controller.advance(to: later)
        _ = renderer.render(controller, at: later)
    }
}
