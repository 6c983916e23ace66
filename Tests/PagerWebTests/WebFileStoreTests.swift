import Foundation
import PagerConfig
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import Testing

@testable import PagerWeb

/// The files the user gives the browser page: kept by name, matched by a path's last component,
/// capped, and drawn as `crownpager render` draws the same files read from the disk.
@Suite struct WebFileStoreTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// Files read from the disk, as `render` reads them.
    struct DiskFiles: FileReading {
        func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw FileReadError("could not open \(path)")
            }
            return Array(data.prefix(maximumBytes))
        }
    }

    @Test func aPathIsMatchedByItsLastComponentAndALaterFileReplacesOneOfItsName() throws {
        var store = WebFileStore()
        try store.add(name: "logo.png", bytes: [1, 2, 3])
        try store.add(name: "fonts/small.bdf", bytes: [4])
        #expect(store.names == ["logo.png", "small.bdf"])
        #expect(try store.bytes(atPath: "/etc/crownpager/logo.png", maximumBytes: 10) == [1, 2, 3])
        #expect(try store.bytes(atPath: "logo.png", maximumBytes: 10) == [1, 2, 3])
        #expect(try store.bytes(atPath: "small.bdf", maximumBytes: 10) == [4])
        try store.add(name: "logo.png", bytes: [9])
        #expect(store.names == ["small.bdf", "logo.png"])
        #expect(try store.bytes(atPath: "pictures/logo.png", maximumBytes: 10) == [9])
        #expect(store.totalBytes == 2)
        #expect(
            throws: FileReadError(
                "could not open logo.pbm: the page has no file logo.pbm; add logo.pbm to the page (Add files…)")
        ) {
            try store.bytes(atPath: "logo.pbm", maximumBytes: 10)
        }
        #expect(throws: FileReadError("logo.png is 1 bytes, more than the 0 read here")) {
            try store.bytes(atPath: "logo.png", maximumBytes: 0)
        }
        store.removeAll()
        #expect(store.names.isEmpty)
        #expect(throws: FileReadError.self) { try store.bytes(atPath: "logo.png", maximumBytes: 10) }
    }

    @Test func aFileOverTheCapsOrWithoutANameIsRefusedAndNothingIsKept() throws {
        var store = WebFileStore()
        #expect(throws: WebFileError("a file needs a name")) { try store.add(name: "", bytes: [1]) }
        #expect(throws: WebFileError("a file needs a name")) { try store.add(name: "/", bytes: [1]) }
        let big = [UInt8](repeating: 0, count: WebFileStore.maximumFileBytes)
        #expect(throws: WebFileError.self) { try store.add(name: "huge.bdf", bytes: big + [0]) }
        try store.add(name: "a.bdf", bytes: big)
        try store.add(name: "b.bdf", bytes: big)
        #expect(store.totalBytes == WebFileStore.maximumTotalBytes)
        #expect(
            throws: WebFileError(
                "c.pbm would make the page's files \(WebFileStore.maximumTotalBytes + 1) bytes: they may hold at most "
                    + "\(WebFileStore.maximumTotalBytes) bytes together; remove some (Clear files)")
        ) { try store.add(name: "c.pbm", bytes: [1]) }
        #expect(store.names == ["a.bdf", "b.bdf"])
        // Replacing a file counts the new bytes instead of the old.
        try store.add(name: "b.bdf", bytes: [1])
        try store.add(name: "c.pbm", bytes: [1])
        #expect(store.names == ["a.bdf", "b.bdf", "c.pbm"])
    }

    @Test func anImagePageDrawsAsRenderDrawsTheSameFilesFromTheDisk() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("images.toml"), encoding: .utf8)
        var pager = WebPager()
        let missing = pager.load(text)
        #expect(
            missing.lines.first
                == "crownpager: crownpager.toml:7: page[1].path: cannot read the image: could not open logo.pbm: "
                + "the page has no file logo.pbm; add logo.pbm to the page (Add files…)", "\(missing.lines)")
        try pager.addFile(name: "logo.pbm", bytes: Self.fixture("logo.pbm"))
        try pager.addFile(name: "heart.png", bytes: Self.fixture("heart.png"))
        let answer = pager.load(text)
        #expect(answer == .good(pager.configuration.summary), "\(answer.lines)")
        pager.advance(by: .milliseconds(100))

        let configuration = try Configuration(
            parsing: text, file: "images.toml", directory: Self.fixtures.path, files: DiskFiles())
        var overrides = RunOverrides()
        overrides.mock = true
        let running = overrides.applied(to: configuration)
        let style = try running.indicatorStyle(files: DiskFiles())
        var sampler = SamplePageSampler()
        let script = try CrownScript(parsing: "wait 1s,+1,wait 1s")
        let rendered = HeadlessRender(configuration: running, style: style).run(script, sampler: &sampler).frames
        let first = try #require(rendered.first)
        #expect(pager.glass == first.glass)
        #expect(first.glass.litPixelCount > 0)
        // The module's own render of the same steps draws the same frames.
        #expect(pager.render(script).map(\.glass) == rendered.map(\.glass))
        // A path elsewhere reads the file of its last component: the same picture.
        let elsewhere = text.replacingOccurrences(
            of: "path = \"logo.pbm\"", with: "path = \"/etc/crownpager/pictures/logo.pbm\"")
        #expect(elsewhere != text)
        var moved = WebPager()
        try moved.addFile(name: "logo.pbm", bytes: Self.fixture("logo.pbm"))
        try moved.addFile(name: "heart.png", bytes: Self.fixture("heart.png"))
        #expect(moved.load(elsewhere) == .good(moved.configuration.summary))
        moved.advance(by: .milliseconds(100))
        #expect(moved.glass == first.glass)
    }

    @Test func clearingTheFilesKeepsTheRunningPagesPicturesOnAnotherPanel() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("images.toml"), encoding: .utf8)
        var kept = WebPager()
        try kept.addFile(name: "logo.pbm", bytes: Self.fixture("logo.pbm"))
        try kept.addFile(name: "heart.png", bytes: Self.fixture("heart.png"))
        #expect(kept.load(text) == .good(kept.configuration.summary))
        var cleared = kept
        cleared.removeAllFiles()
        #expect(cleared.files.names.isEmpty)
        // check now says the files are missing; the pages run on, and another panel shows them too.
        #expect(cleared.load(text).lines.first?.hasSuffix("add logo.pbm to the page (Add files…)") == true)
        kept.choose(panel: .sh1107_128x128)
        kept.advance(by: .milliseconds(100))
        cleared.choose(panel: .sh1107_128x128)
        cleared.advance(by: .milliseconds(100))
        #expect(cleared.configuration.pages.count == 3)
        #expect(cleared.glass.height == 128)
        #expect(cleared.glass == kept.glass)
    }

    @Test func badBytesUnderAPicturesNameGiveChecksMessageAtItsLine() throws {
        var pager = WebPager()
        try pager.addFile(name: "logo.pbm", bytes: Array("P1\n40 24\n0101".utf8))
        try pager.addFile(name: "heart.png", bytes: PNG.signature + [0, 0, 0])
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("images.toml"), encoding: .utf8)
        let answer = pager.load(text)
        guard case .mistakes = answer else {
            Issue.record("bad picture bytes were taken: \(answer.lines)")
            return
        }
        #expect(
            answer.lines == [
                "crownpager: crownpager.toml:7: page[1].path: logo.pbm is unreadable (PBM): "
                    + "PBM pixel data ends early: 4 of 960 pixels"
            ])
        // The picture replaced by a good one, the indicator image's bad bytes are the mistake, at its page.
        try pager.addFile(name: "logo.pbm", bytes: Self.fixture("logo.pbm"))
        let indicator = pager.load(text)
        #expect(indicator.lines.count == 1, "\(indicator.lines)")
        #expect(
            indicator.lines.first?.hasPrefix(
                "crownpager: crownpager.toml:4: page[1].indicator_image: heart.png is unreadable (PNG): ") == true,
            "\(indicator.lines)")
    }
}
