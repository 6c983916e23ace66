import ArgumentParser
import CrownPagerApp
import PagerCore
import SSD1306

/// Which panel to drive or emulate.
struct DisplayOptions: ParsableArguments {
    @Option(help: "The panel: \(SSD1306Panel.all.map(\.name).joined(separator: ", ")).")
    var panel: String = SSD1306Panel.ssd1306_128x64.name

    @Option(help: ArgumentHelp("Record every I2C write to this file, one i2ctransfer line per transaction.", valueName: "file"))
    var trace: String?

    func validate() throws {
        guard resolvedPanel != nil else {
            throw ValidationError(
                "unknown panel '\(panel)': choose one of \(SSD1306Panel.all.map(\.name).joined(separator: ", "))")
        }
    }

    var resolvedPanel: SSD1306Panel? {
        SSD1306Panel.all.first { $0.name == panel.lowercased() }
    }
}

/// How the pager and the crown behave.
struct PagerOptions: ParsableArguments {
    @Flag(help: "Wrap around from the last page to the first and back.")
    var wrap = false

    @Option(help: "The side the crown, and so the page indicator, is on: right or left.")
    var crownSide: String = CrownSide.right.rawValue

    @Option(help: "Detents of the crown needed to move one page (1 to 20).")
    var detentsPerPage: Int = 1

    func validate() throws {
        guard CrownSide(rawValue: crownSide.lowercased()) != nil else {
            throw ValidationError("--crown-side must be 'right' or 'left', not '\(crownSide)'")
        }
        guard (1...20).contains(detentsPerPage) else {
            throw ValidationError("--detents-per-page must be between 1 and 20, not \(detentsPerPage)")
        }
    }

    var pagerConfiguration: PagerConfiguration { PagerConfiguration(wrapsAround: wrap) }
    var crownConfiguration: CrownConfiguration { CrownConfiguration(detentsPerPage: detentsPerPage) }
    var indicatorStyle: PageIndicatorStyle {
        PageIndicatorStyle(crownSide: CrownSide(rawValue: crownSide.lowercased()) ?? .right)
    }
}
