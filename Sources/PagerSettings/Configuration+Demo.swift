import CrownVocabulary
import PagerCore

extension Configuration {
    /// The demo (`--demo`): the built-in configuration's display and knob with the demo pages (a
    /// welcome, a live clock, this machine, some text, Unicode and a page taller than the screen),
    /// or `pageCount` of them, numbered pages after the demo's own. It is a configuration like any
    /// other: `run` and `render` draw it through the same engine and the same configured pages.
    package static func demo(pageCount: Int? = nil) -> Configuration {
        var configuration = builtIn
        configuration.file = "the demo"
        let pages = demoPages
        guard let pageCount else {
            configuration.pages = pages
            return configuration
        }
        let wanted = max(0, min(pageCount, 999))
        configuration.pages =
            Array(pages.prefix(wanted))
            + (pages.count..<max(pages.count, wanted)).map {
                PageSpec(title: "Page \($0 + 1)", kind: .text("Page \($0 + 1) of a long list: turn fast to scrub."))
            }
        return configuration
    }

    /// The demo's own pages.
    static let demoPages: [PageSpec] = [
        PageSpec(
            title: "CrownPager", kind: .text("Turn the crown to page \u{2193} and back \u{2191}. Press: first page.")),
        PageSpec(title: "Clock", kind: .clock(time: .builtIn("%H:%M:%S"), date: .builtIn("%a %e %b %Y"))),
        PageSpec(title: "System", kind: .system([.hostname, .load, .memory, .uptime], refresh: .milliseconds(1000))),
        PageSpec(title: "About", kind: .text("Vertical pages beside a crown, as on watchOS, on a 1-bit OLED.")),
        PageSpec(
            title: "Unicode",
            kind: .text("Grüße, ¡olá!, Привет, Γειά σου, 1½°C ± 0.5 → ↑ ↓ ← ♥ missing: \u{1F642}")),
        PageSpec(
            title: "Guide",
            kind: .text(
                "This page is taller than the screen. The crown scrolls it first, and the current dot "
                    + "stretches into a capsule that shows where you are. At the end of the page the next turn "
                    + "pages on. Turn fast to scrub: pages change at once, without the slide. Hold the crown "
                    + "for the list of page titles; press to go back to the first page.")),
    ]
}
