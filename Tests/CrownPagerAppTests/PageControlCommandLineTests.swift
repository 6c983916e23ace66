import CrownPagerApp
import Foundation
import PagerCore
import PagerGraphics
import TestSupport
import Testing

/// The page-control flags of the built `crownpager`: each state visible with `render`.
@Suite(.tags(.endToEnd)) struct PageControlCommandLineTests {
    func glass(_ path: String) throws -> Bitmap {
        try PBM.decode(Array(Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(.tags(.golden)) func longListsWarnAndALongPressOpensTheTitleList() throws {
        let scratch = try ScratchDirectory()
        let run = try runCrownPager([
            "render", "--out", scratch.path, "--frozen", "--steps-only", "--no-png", "--pages", "40",
            "--crown", "long-press,+1,+1,press",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("warning: 40 pages"))
        let list = try glass(scratch.path + "/step-03.pbm")
        expectGolden(list, named: "cli-overview-40-pages-128x64")
        let jumped = try glass(scratch.path + "/step-04.pbm")
        expectGolden(jumped, named: "cli-jumped-to-page-3-128x64")
    }

    @Test(.tags(.golden)) func stylesPlacementImagesAndLimits() throws {
        let scratch = try ScratchDirectory()
        let xbm = scratch.path + "/heart.xbm"
        try XBM.encode(Bitmap(rows: [".#.#.", "#####", "#####", ".###.", "..#.."]), name: "heart")
            .write(toFile: xbm, atomically: true, encoding: .utf8)
        let run = try runCrownPager([
            "render", "--out", scratch.path + "/f", "--frozen", "--steps-only", "--no-png", "--panel", "128x32",
            "--background-style", "prominent", "--crown-side", "bottom", "--max-dots", "3", "--pages", "7",
            "--page-image", "1=location", "--indicator-image", xbm, "--crown", "+1",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.isEmpty, "a dot-less default and one special image are two kinds")
        expectGolden(try glass(scratch.path + "/f/step-01.pbm"), named: "cli-bottom-prominent-images-128x32")

        let messy = try runCrownPager([
            "render", "--out", scratch.path + "/g", "--frozen", "--steps-only", "--no-png",
            "--page-image", "1=location", "--page-image", "3=star",
        ])
        #expect(messy.status == 0)
        #expect(messy.standardError.contains("3 different indicator images"), "\(messy.standardError)")
        #expect(messy.standardError.contains("1 (CrownPager), 3 (System)"), "\(messy.standardError)")
    }

    @Test(.tags(.golden)) func displayOnlyAndTimedPages() throws {
        let scratch = try ScratchDirectory()
        let still = try runCrownPager([
            "render", "--out", scratch.path + "/a", "--frozen", "--steps-only", "--no-png", "--display-only", "--crown",
            "+1,+1",
        ])
        #expect(still.status == 0)
        #expect(try glass(scratch.path + "/a/step-02.pbm") == glass(scratch.path + "/a/step-00.pbm"))
        let timed = try runCrownPager([
            "render", "--out", scratch.path + "/b", "--frozen", "--steps-only", "--no-png", "--display-only",
            "--page-duration", "2s", "--crown", "@1400ms press",
        ])
        #expect(timed.status == 0, "\(timed.standardError)")
        expectGolden(try glass(scratch.path + "/b/step-01.pbm"), named: "cli-timed-page-filling-128x64")
    }

    @Test(arguments: [
        (["render", "--out", "/tmp/x", "--background-style", "glass"], "--background-style must be"),
        (["render", "--out", "/tmp/x", "--max-dots", "0"], "--max-dots must be between 1 and 20"),
        (["render", "--out", "/tmp/x", "--pages", "0"], "--pages must be between 1 and 999"),
        (["render", "--out", "/tmp/x", "--page-duration", "soon"], "--page-duration must be a time"),
        (["render", "--out", "/tmp/x", "--page-image", "location"], "--page-image must be <page>=<image>"),
        (["render", "--out", "/tmp/x", "--indicator-image", "moon"], "no built-in indicator image 'moon'"),
        (["render", "--out", "/tmp/x", "--indicator-image", "/nonexistent/a.xbm"], "/nonexistent/a.xbm"),
    ])
    func badPageControlInputSaysWhy(arguments: [String], message: String) throws {
        let run = try runCrownPager(arguments)
        #expect(run.status != 0)
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }

    @Test func anImageTooLargeOrUnreadableNamesTheFile() throws {
        let scratch = try ScratchDirectory()
        let big = scratch.path + "/big.pbm"
        try PBM.plain(Bitmap(rows: Array(repeating: "#########", count: 9))).write(
            toFile: big, atomically: true, encoding: .utf8)
        let large = try runCrownPager(["render", "--out", scratch.path + "/o", "--indicator-image", big])
        #expect(large.status == 65)
        #expect(large.standardError.contains("big.pbm is 9x9 pixels; it must be at most 7x7"), "\(large.standardError)")
        let junk = scratch.path + "/junk.xbm"
        try "hello".write(toFile: junk, atomically: true, encoding: .utf8)
        let unreadable = try runCrownPager(["render", "--out", scratch.path + "/o", "--indicator-image", junk])
        #expect(unreadable.status == 65)
        #expect(unreadable.standardError.contains("junk.xbm is unreadable"), "\(unreadable.standardError)")
    }
}
