import CrownVocabulary
import PagerCore

extension DemoPage {
    /// The page as a configured page, for the run loop (`crownpager run --demo`): the same
    /// titles and texts, drawn the way configured pages are.
    public var spec: PageSpec {
        switch self {
        case .welcome:
            return PageSpec(title: "CrownPager", kind: .text(Self.welcomeLines.joined(separator: " ")))
        case .clock:
            return PageSpec(title: title, kind: .clock(time: .builtIn("%H:%M:%S"), date: .builtIn("%a %e %b %Y")))
        case .system:
            return PageSpec(
                title: "System", kind: .system([.hostname, .load, .memory, .uptime], refresh: .milliseconds(1000)))
        case .text(let title, let body), .tall(let title, let body):
            return PageSpec(title: title, kind: .text(body))
        case .numbered(let number):
            return PageSpec(title: title, kind: .text("Page \(number) of a long list: turn fast to scrub."))
        }
    }
}

extension Configuration {
    /// The demo (`--demo`): the built-in configuration's display and knob with the demo pages
    /// (a welcome, a live clock, this machine, some text, Unicode and a page taller than the
    /// screen), or `pageCount` of them, numbered pages after the demo's own.
    public static func demo(pageCount: Int? = nil) -> Configuration {
        var configuration = builtIn
        configuration.file = "the demo"
        configuration.pages = demoPages(clock: SampleReadings.clock, system: SampleReadings.system, count: pageCount)
            .map { $0.spec }
        return configuration
    }
}
