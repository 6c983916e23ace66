import CrownVocabulary
import GlassViews
import PagerGraphics
import TestSupport
import Testing

/// Real frame times into GIF delays: no drift, nothing under 2 hundredths, the last picture held.
@Suite struct GlassRecordingTests {
    func glass(_ lit: Int) -> Bitmap {
        var bitmap = Bitmap(width: 16, height: 8)
        bitmap.plot(x: lit % 16, y: lit / 16 % 8)
        return bitmap
    }

    @Test func sixtyFramesASecondBecomeGIFDelaysOfAtLeastTwoHundredthsThatAddUpToTheRealTime() throws {
        var recording = GlassRecording(width: 16, height: 8, scale: 1)
        var bytes: [UInt8] = []
        // 120 pictures 1/60 s apart, then nothing for 3 s.
        for index in 0..<120 {
            bytes += recording.add(glass(index), at: Timestamp(nanoseconds: Int64(index) * 16_666_667))
        }
        bytes += recording.finish(at: Timestamp(nanoseconds: 119 * 16_666_667 + 3_000_000_000))
        let decoded = try DecodedGIF(decoding: bytes)
        let delays = decoded.frames.map(\.delay)
        #expect(delays.allSatisfy { $0 >= GlassRecording.shortestDelay })
        // 1.983 s of pictures and 3 s of the last one: 498 hundredths, to the hundredth.
        #expect(delays.reduce(0, +) == 498)
        // A picture that stood 17 ms gives its place to the next, so each written one covers 2 or
        // 3 hundredths (at most 50 a second) and none lingers.
        #expect(decoded.frames.count == recording.framesWritten)
        #expect(recording.framesWritten + recording.framesMerged == 120)
        #expect(delays.dropLast().allSatisfy { (2...3).contains($0) })
        #expect((66...99).contains(recording.framesWritten))
        // The file ends on the last picture: pixel 7 of row 7 lit.
        let lastLit = 7 * 16 + 7
        var last = [UInt8](repeating: 0, count: 128)
        last[lastLit] = 1
        #expect(decoded.frames.last?.canvas == last)
    }

    @Test func anUnchangedGlassWritesNothing() {
        var recording = GlassRecording(width: 16, height: 8, scale: 1)
        let header = recording.add(glass(1), at: .zero)
        #expect(!header.isEmpty)
        #expect(recording.add(glass(1), at: .milliseconds(500)).isEmpty)
        #expect(recording.add(glass(1), at: .milliseconds(900)).isEmpty)
        #expect(recording.framesWritten == 0)
        // The change writes the first picture, which stood 1.2 s.
        let bytes = recording.add(glass(2), at: .milliseconds(1200))
        #expect(!bytes.isEmpty)
        #expect(recording.framesWritten == 1)
    }

    @Test func theLastPictureStaysAtLeastASecond() throws {
        var recording = GlassRecording(width: 16, height: 8, scale: 1)
        var bytes = recording.add(glass(1), at: .zero)
        bytes += recording.add(glass(2), at: .milliseconds(100))
        bytes += recording.finish(at: .milliseconds(150))
        let decoded = try DecodedGIF(decoding: bytes)
        #expect(decoded.frames.map(\.delay) == [10, 100])
    }

    @Test func aPictureLongerThanSixteenBitsOfDelayIsSplit() throws {
        var recording = GlassRecording(width: 16, height: 8, scale: 1)
        var bytes = recording.add(glass(1), at: .zero)
        bytes += recording.add(glass(2), at: .milliseconds(1_000_000))  // 1000 s: 100,000 hundredths
        bytes += recording.finish(at: .milliseconds(1_002_000))
        let decoded = try DecodedGIF(decoding: bytes)
        #expect(decoded.frames.map(\.delay) == [65_535, 34_465, 200])
        #expect(decoded.frames[0].canvas == decoded.frames[1].canvas)
    }

    @Test func finishingAnEmptyRecordingWritesNothing() {
        var recording = GlassRecording(width: 16, height: 8)
        #expect(recording.finish(at: .zero).isEmpty)
    }

    @Test func palettesTakeHexColours() {
        #expect(OLEDPalette(name: "#FF0000")?.lit == PNG.Color(red: 255, green: 0, blue: 0))
        #expect(OLEDPalette(name: "Blue") == .blue)
        #expect(OLEDPalette(name: "red") == nil)
        #expect(OLEDPalette.unlitColor(named: "BLACK") == .black)
        #expect(OLEDPalette.unlitColor(named: "#101010") == PNG.Color(red: 16, green: 16, blue: 16))
        #expect(OLEDPalette.unlitColor(named: "white") == nil)
    }
}
