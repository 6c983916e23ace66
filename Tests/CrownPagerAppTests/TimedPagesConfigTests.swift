import Foundation
import PagerGraphics
import TestSupport
import Testing

/// `[timer]` and `[[page]] duration` from a file, through `crownpager render --config`: the pages'
/// own times, the file's duration for the others, and the timer stopping on the last page.
@Suite struct TimedPagesConfigTests {
    static let file = """
        [timer]
        duration = "3s"
        loop = false

        [[page]]
        kind = "text"
        text = "one"
        duration = "1s"

        [[page]]
        kind = "text"
        text = "two"

        [[page]]
        kind = "text"
        text = "three"
        """

    @Test(.tags(.golden, .endToEnd)) func theFilesDurationsAndLoopReachTheGlass() throws {
        let scratch = try ScratchDirectory()
        let config = scratch.path + "/crownpager.toml"
        try Self.file.write(toFile: config, atomically: true, encoding: .utf8)
        // Display-only: the presses only mark when the glass is taken, they do not pause the timer.
        let run = try runCrownPager([
            "render", "--config", config, "--out", scratch.path + "/f", "--frozen", "--steps-only", "--no-png",
            "--display-only", "--crown", "@500ms press,@2500ms press,@3500ms press,@7500ms press",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        // The glass when each press comes: the first page a third gone (its own 1 s), the second page
        // a third and two thirds gone (the file's 3 s), the last page finished: its dot solid.
        let names = ["500ms", "2500ms", "3500ms", "7500ms"]
        for (step, name) in names.enumerated() {
            let glass = try PBM.decode(
                Array(Data(contentsOf: URL(fileURLWithPath: scratch.path + "/f/step-0\(step).pbm"))))
            let strip = glass.cropped(to: Rect(x: glass.width - 7, y: 0, width: 7, height: glass.height))
            expectGolden(strip, named: "timer-config-at-\(name)-128x64")
        }
    }
}
