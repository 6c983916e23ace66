import CrownVocabulary
import PagerConfig
import SSD1306

/// What `crownpager check` prints for a good file, and the browser page beside its editor.
extension Configuration {
    /// A summary for `crownpager check`: one line per page.
    package var summary: [String] {
        let reset = display.resetLine.map { "RES GPIO\($0)" } ?? "RES not wired"
        let placement =
            display.bus == nil
            ? "on the terminal mock"
            : display.spi.map { "on \($0.path) (DC GPIO\(display.dataCommandLine), \(reset))" }
                ?? "at \(display.address) on /dev/i2c-\(display.bus ?? 1)"
        var lines = [
            "\(file): ok",
            "display: \(display.panel.name) \(placement)"
                + ", brightness \(display.brightness)",
            "crown: \(crown.source) \(crown.source == "gpio" ? "\(crown.chip) lines \(crown.lineA)/\(crown.lineB)/\(crown.lineButton)" : crown.source == "evdev" ? crown.evdevPath : "")",
        ]
        for (index, page) in pages.enumerated() {
            let action = page.action.map {
                ", a \($0.confirmation == .hold ? "long press" : "press") runs "
                    + $0.command.argv.joined(separator: " ") + ($0.confirmation == .press ? " (asked twice)" : "")
            }
            lines.append("page \(index + 1): \(page.title) (\(page.kindName))" + (action ?? ""))
        }
        if let after = pager.returnHomeAfter {
            let home = homeIndex
            lines.append(
                "home: page \(home + 1) (\(pages.indices.contains(home) ? pages[home].title : "?")) after "
                    + SettingType.durationText(after.milliseconds) + " untouched")
        }
        return lines
    }
}

extension PageSpec {
    /// `text`, `clock`, `system`...
    package var kindName: String {
        switch kind {
        case .text: return "text"
        case .clock: return "clock"
        case .system: return "system"
        case .command(let command): return "command: " + command.argv.joined(separator: " ")
        case .file(let path, _, _): return "file: " + path
        case .image(let image): return "image: " + image.path
        case .gauge: return "gauge"
        }
    }
}
