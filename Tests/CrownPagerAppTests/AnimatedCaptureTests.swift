import CrownPagerApp
import Foundation
import PagerCore
import PagerEngine
import PagerGraphics
import PagerTools
import SSD1306
import TestSupport
import Testing

/// `render --gif` and `run --record`: the glass as an animated GIF, read back by the tests' decoder.
@Suite(.tags(.endToEnd), .serialized) struct AnimatedCaptureTests {
    /// `bitmap` as the GIF's colour indices at scale 1.
    func indices(_ bitmap: Bitmap) -> [UInt8] {
        (0..<(bitmap.width * bitmap.height)).map { bitmap[$0 % bitmap.width, $0 / bitmap.width] ? 1 : 0 }
    }

    @Test func renderWritesTheSlideAsAGIFAtItsRealTimes() throws {
        let scratch = try ScratchDirectory()
        let gif = scratch.path + "/slide.gif"
        let run = try runCrownPager([
            "render", "--gif", gif, "--crown", "+1,wait 2s", "--frozen", "--scale", "1", "--palette", "#FFD73A",
            "--unlit", "#101010",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("pictures of the glass to " + gif))
        let decoded = try DecodedGIF(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: gif))))
        #expect(decoded.width == 128 && decoded.height == 64)
        #expect(decoded.colors == [[0x10, 0x10, 0x10], [0xFF, 0xD7, 0x3A]])
        #expect(decoded.loopCount == 0 && decoded.hasTrailer)
        // The first page, the slide's frames, the second page settled.
        var sampler = SamplePageSampler()
        let frames = HeadlessRender(configuration: .demo(), style: PageIndicatorStyle())
            .run(try CrownScript(parsing: "+1,wait 2s"), sampler: &sampler).frames
        #expect(decoded.frames.first?.canvas == frames.first.map { indices($0.glass) })
        #expect(decoded.frames.last?.canvas == frames.last.map { indices($0.glass) })
        #expect(decoded.frames.count >= 6, "a slide of several pictures: \(decoded.frames.count)")
        // Every picture of the GIF is one the panel showed.
        let shown = Set(frames.map { indices($0.glass) })
        #expect(decoded.frames.allSatisfy { shown.contains($0.canvas) })
        // 2 s of script and the slide before it; no picture under 2 hundredths.
        let total = decoded.frames.map(\.delay).reduce(0, +)
        #expect((200...260).contains(total), "\(total) hundredths")
        #expect(decoded.frames.allSatisfy { $0.delay >= 2 })
    }

    @Test func runRecordsAPanelsGlassAndEndsOnTheLastPictureNotTheBlankPanel() throws {
        let fake = try FakeBusRun()
        let gif = fake.scratch.path + "/run.gif"
        let (process, _, error) = try fake.start(
            ["run", "--demo", "--i2c-bus", "1", "--record", gif, "--scale", "1"], devices: "1:0x3c")
        #expect(try fake.waitForFirstFrame())
        let messages = FakeBusRun.stop(process, error: error)
        #expect(process.terminationStatus == 0, "\(messages)")
        let decoded = try DecodedGIF(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: gif))))
        #expect(decoded.hasTrailer)
        #expect(decoded.colors == [[0, 0, 0], [255, 255, 255]])
        #expect(decoded.frames.first?.canvas == indices(demoFrame(.ssd1306_128x64)))
        // The stop blanked the panel; the recording ended before it, on the page.
        #expect(decoded.frames.last?.canvas == indices(demoFrame(.ssd1306_128x64)))
        #expect(decoded.frames.map(\.delay).reduce(0, +) >= 100)
    }

    @Test(arguments: [
        (["render", "--crown", "+1"], "say where the frames go: --out, --gif or both"),
        (["render", "--gif", "/nonexistent/folder/a.gif"], "could not open /nonexistent/folder/a.gif"),
        (["render", "--gif", "/tmp/a.gif", "--unlit", "grey"], "unknown colour 'grey' for --unlit"),
        (["render", "--gif", "/tmp/a.gif", "--palette", "#12345"], "unknown palette '#12345'"),
        (
            ["run", "--mock", "--record", "/tmp/a.gif", "--scale", "0"],
            "--scale must be between 1 and 16"
        ),
        (["run", "--mock", "--record", "/nonexistent/folder/b.gif"], "could not open /nonexistent/folder/b.gif"),
    ])
    func badCaptureInputExitsNonZeroWithAMessage(arguments: [String], message: String) throws {
        let run = try runCrownPager(arguments)
        #expect(run.status != 0)
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }
}
