import CrownPagerApp
import CrownVocabulary
import Foundation
import PagerSettings
import TestSupport
import Testing

/// `crownpager doctor display` reports the settings that protect the panel from burn-in: which
/// are on, which are never, and what to set.
@Suite struct PanelCareTests {
    @Test func theDefaultsDimAndSwitchOffButNeitherShiftNorInvert() {
        let lines = PanelCare.report(Configuration().display, source: "the built-in defaults")
        #expect(
            lines == [
                "\u{00B7} the settings that protect the panel from burn-in, in the built-in defaults:",
                "\u{2713} dim_after = \"1min\": dims the panel after that long without a turn or press",
                "\u{2713} off_after = \"10min\": switches the panel off after that long idle as well",
                "\u{00B7} pixel_shift is \"never\": set pixel_shift = \"3min\" in [display]; it moves the picture a "
                    + "pixel along its orbit that often",
                "\u{00B7} invert_every is \"never\": set invert_every = \"1h\" in [display]; it swaps lit and dark "
                    + "pixels that often",
            ])
    }

    @Test func settingsThatAreOnSayTheirValue() {
        var display = Configuration().display
        display.offAfter = nil
        display.pixelShift = .seconds(120)
        let lines = PanelCare.report(display, source: "x.toml")
        #expect(lines.contains { $0.hasPrefix("\u{00B7} off_after is \"never\": set off_after = \"10min\"") })
        #expect(lines.contains("\u{2713} pixel_shift = \"2min\": moves the picture a pixel along its orbit that often"))
    }

    @Test(.tags(.endToEnd)) func theDoctorReportsThemFromItsConfiguration() throws {
        let fake = try FakeBusRun()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("panel-care-\(getpid()).toml")
        try "[display]\npixel_shift = \"3m\"\ninvert_every = \"never\"\noff_after = \"never\"\n".write(
            to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output, error) = try fake.run(
            ["doctor", "display", "--i2c-bus", "1", "--config", file.path], devices: "1:0x3c:0x46")
        #expect(status == 0, "\(error)")
        for line in [
            "the settings that protect the panel from burn-in, in \(file.path):",
            "\u{2713} pixel_shift = \"3min\"", "\u{00B7} off_after is \"never\": set off_after = \"10min\"",
            "\u{00B7} invert_every is \"never\"",
        ] {
            #expect(output.contains(line), "\(line)")
        }
    }
}
