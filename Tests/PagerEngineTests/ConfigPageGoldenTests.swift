import PagerCore
import PagerEngine
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// Configured pages as the glass shows them, one golden per kind that draws differently.
@Suite struct ConfigPageGoldenTests {
    static let pages: [(String, ConfiguredPage)] = [
        (
            "config-values",
            ConfiguredPage(
                title: "System",
                body: .values([
                    ValueLine(label: "host", value: "crownpi"), ValueLine(label: "ip", value: "192.168.1.23"),
                    ValueLine(label: "cpu", value: "48.3\u{B0}C"), ValueLine(label: "load", value: "0.42 0.30 0.25"),
                ]))
        ),
        (
            "config-output-timeout",
            ConfiguredPage(
                title: "sensors", body: .output(lines: ["partial line"], status: "timed out after 2s: killed"))
        ),
        (
            "config-gauge-bar",
            ConfiguredPage(title: "Memory", body: .gauge(fraction: 0.62, text: "62.0%", isDial: false))
        ),
        (
            "config-gauge-dial",
            ConfiguredPage(title: "CPU temperature", body: .gauge(fraction: 0.33, text: "48.3\u{B0}C", isDial: true))
        ),
        ("config-clock", ConfiguredPage(title: "Clock", body: .clock(time: "10:09", date: "Sat 21 Nov 2026"))),
    ]

    @Test(.tags(.golden), arguments: [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32])
    func pagesDrawAtBothHeights(panel: SSD1306Panel) {
        for (name, page) in Self.pages {
            let session = PanelPresenter(pages: [page, page], panel: panel)
            expectGolden(session.frame(at: .zero), named: "\(name)-\(panel.name)")
        }
    }
}
