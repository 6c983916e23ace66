import CrownVocabulary
import PagerSettings

/// What `crownpager doctor display` says about the settings that protect an OLED from burning
/// in: which are on, which are off, and a value to set for each that is off.
package enum PanelCare {
    /// One line a setting (dim_after, off_after, pixel_shift, invert_every) of `display`, read
    /// from `source` (a file's path, or the built-in defaults).
    package static func report(_ display: DisplaySection, source: String) -> [String] {
        // Each setting, its value, the value to suggest when it is never, and what it does.
        let settings: [(Setting<TimeSpan?>, TimeSpan?, Int64, String)] = [
            (
                Settings.displayDimAfter, display.dimAfter, 60_000,
                "dims the panel after that long without a turn or press"
            ),
            (
                Settings.displayOffAfter, display.offAfter, 600_000,
                "switches the panel off after that long idle as well"
            ),
            (
                Settings.displayPixelShift, display.pixelShift, 180_000,
                "moves the picture a pixel along its orbit that often"
            ),
            (Settings.displayInvertEvery, display.invertEvery, 3_600_000, "swaps lit and dark pixels that often"),
        ]
        return ["\u{00B7} the settings that protect the panel from burn-in, in \(source):"]
            + settings.map { line($0.0, $0.1, suggested: .milliseconds($0.2), $0.3) }
    }

    /// `✓ off_after = "10m": switches the panel off ...`, or, when never, the value to set.
    private static func line(
        _ setting: Setting<TimeSpan?>, _ value: TimeSpan?, suggested: TimeSpan, _ does: String
    ) -> String {
        let name = setting.description.name
        guard let value else {
            let example = setting.toml(suggested) ?? ""
            return "\u{00B7} \(name) is \"never\": set \(name) = \(example) in [display]; it \(does)"
        }
        return "\u{2713} \(name) = \(setting.toml(value) ?? ""): \(does)"
    }
}
