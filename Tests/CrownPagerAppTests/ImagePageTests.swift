import CrownPagerApp
import Foundation
import PagerEngine
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// Image pages and indicator images from PNG files, as the configuration and the command line load them.
@Suite struct ImagePageTests {
    /// A gold crown with soft edges and dark jewels, 8-bit RGBA, Adam7 (made by `Fixtures/make-crown.py`).
    static let crown = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/crown.png")

    /// A scratch folder with crown.png and a configuration whose only page shows it.
    func scratchWithCrown() throws -> (ScratchDirectory, config: String) {
        let scratch = try ScratchDirectory()
        try FileManager.default.copyItem(atPath: Self.crown.path, toPath: scratch.path + "/crown.png")
        let config = scratch.path + "/crownpager.toml"
        try "[[page]]\nkind = \"image\"\npath = \"crown.png\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        return (scratch, config)
    }

    @Test(.tags(.golden), arguments: [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32])
    func aPNGImagePageDraws(panel: SSD1306Panel) throws {
        let (scratch, _) = try scratchWithCrown()
        let configuration = try parseConfiguration(
            "[[page]]\nkind = \"image\"\npath = \"crown.png\"", directory: scratch.path)
        guard case .image(let image) = try #require(configuration.pages.first).kind else {
            Issue.record("not an image page")
            return
        }
        #expect(image.bitmap.width == 56 && image.bitmap.height == 40)
        #expect(configuration.pages[0].title == "crown.png")
        let page = ConfiguredPage(title: configuration.pages[0].title, body: .image(image.bitmap))
        let session = PanelPresenter(pages: [page, page], panel: panel)
        expectGolden(session.frame(at: .zero), named: "config-image-png-\(panel.name)")
    }

    @Test(.tags(.endToEnd)) func checkAcceptsAPNGPageAndNamesADamagedOne() throws {
        let (scratch, config) = try scratchWithCrown()
        let good = try runCrownPager(["check", config])
        #expect(good.status == 0, "\(good.standardError)")
        #expect(good.standardOutput.contains("image: crown.png"), "\(good.standardOutput)")

        var damaged = Array(try Data(contentsOf: Self.crown))
        damaged[damaged.count - 20] ^= 0xFF  // inside IDAT, before its CRC
        try Data(damaged).write(to: URL(fileURLWithPath: scratch.path + "/crown.png"))
        let bad = try runCrownPager(["check", config])
        #expect(bad.status == 78)  // EX_CONFIG: the file names a damaged picture
        #expect(
            bad.standardError.contains(
                "crownpager.toml:3: page[1].path: \(scratch.path)/crown.png is unreadable (PNG): bad CRC in chunk IDAT at offset"
            ),
            "\(bad.standardError)")
        #expect(!bad.standardError.contains("netpbm"))
    }

    @Test(.tags(.endToEnd)) func aPNGIndicatorImageRenders() throws {
        let scratch = try ScratchDirectory()
        let heart = scratch.path + "/heart.png"
        let glyph = Bitmap(rows: [".#.#.", "#####", "#####", ".###.", "..#.."])
        try Data(PNG.encode(glyph, lit: .oledBlue)).write(to: URL(fileURLWithPath: heart))
        let run = try runCrownPager([
            "render", "--out", scratch.path + "/f", "--frozen", "--steps-only", "--no-png", "--indicator-image", heart,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let big = scratch.path + "/big.png"
        try Data(PNG.encode(glyph, scale: 2)).write(to: URL(fileURLWithPath: big))
        let tooBig = try runCrownPager(["render", "--out", scratch.path + "/g", "--indicator-image", big])
        #expect(
            tooBig.status == 65 && tooBig.standardError.contains("big.png is 10x10 pixels; it must be at most 7x7"),
            "\(tooBig.standardError)")
    }
}
