import PagerGraphics
import TestSupport
import Testing

/// The animated GIF encoder, read back by the tests' own decoder (TestSupport/GIFDecoder.swift).
@Suite struct GIFTests {
    /// `bitmap` scaled as the GIF draws it, as colour indices row by row.
    func scaledIndices(_ bitmap: Bitmap, scale: Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<(bitmap.height * scale) {
            for x in 0..<(bitmap.width * scale) { out.append(bitmap[x / scale, y / scale] ? 1 : 0) }
        }
        return out
    }

    func randomBitmap(width: Int, height: Int, density: Int, _ generator: inout SeededGenerator) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where Int.random(in: 0..<100, using: &generator) < density { bitmap.plot(x: x, y: y) }
        }
        return bitmap
    }

    @Test func theHeaderNamesTheScreenTheTwoColoursAndLoopsForever() throws {
        var gif = AnimatedGIF(
            width: 128, height: 32, scale: 3, lit: PNG.Color(red: 1, green: 2, blue: 3), dark: .black)
        let bytes = gif.header() + gif.frame(Bitmap(width: 128, height: 32), delay: 7) + AnimatedGIF.trailer
        let decoded = try DecodedGIF(decoding: bytes)
        #expect(decoded.width == 384)
        #expect(decoded.height == 96)
        #expect(decoded.colors == [[0, 0, 0], [1, 2, 3]])
        #expect(decoded.loopCount == 0)
        #expect(decoded.hasTrailer)
        #expect(decoded.frames.count == 1)
        #expect(decoded.frames.first?.delay == 7)
    }

    @Test(arguments: [1, 2, 4])
    func randomSequencesDecodeToTheFramesGiven(scale: Int) throws {
        var generator = SeededGenerator(seed: UInt64(scale) * 31)
        var gif = AnimatedGIF(width: 40, height: 24, scale: scale)
        var bytes = gif.header()
        var expected: [(delay: Int, indices: [UInt8])] = []
        var frame = randomBitmap(width: 40, height: 24, density: 50, &generator)
        for index in 0..<30 {
            // Changes of every size: none, a pixel, a strip, everything.
            switch index % 4 {
            case 0: break
            case 1:
                frame.plot(
                    x: Int.random(in: 0..<40, using: &generator), y: Int.random(in: 0..<24, using: &generator),
                    ink: .inverted)
            case 2:
                let y = Int.random(in: 0..<20, using: &generator)
                for x in 3..<37 { frame.plot(x: x, y: y, ink: .inverted) }
            default:
                frame = randomBitmap(
                    width: 40, height: 24, density: Int.random(in: 0...100, using: &generator), &generator)
            }
            let delay = Int.random(in: 0...500, using: &generator)
            bytes += gif.frame(frame, delay: delay)
            expected.append((delay, scaledIndices(frame, scale: scale)))
        }
        bytes += AnimatedGIF.trailer
        let decoded = try DecodedGIF(decoding: bytes)
        #expect(decoded.frames.count == expected.count)
        for (got, want) in zip(decoded.frames, expected) {
            #expect(got.delay == want.delay)
            #expect(got.canvas == want.indices)
        }
    }

    @Test func aFrameHoldsOnlyTheChangedRectangle() throws {
        var gif = AnimatedGIF(width: 128, height: 64, scale: 2)
        var frame = Bitmap(width: 128, height: 64)
        var bytes = gif.header() + gif.frame(frame, delay: 5)
        frame.plot(x: 10, y: 20)
        frame.plot(x: 30, y: 22)
        bytes += gif.frame(frame, delay: 5)
        bytes += gif.frame(frame, delay: 5)  // unchanged: one pixel carries the delay
        let decoded = try DecodedGIF(decoding: bytes + AnimatedGIF.trailer)
        #expect(decoded.frames.count == 3)
        #expect(decoded.frames[0].width == 256 && decoded.frames[0].height == 128)
        #expect(decoded.frames[1].x == 20 && decoded.frames[1].y == 40)
        #expect(decoded.frames[1].width == 42 && decoded.frames[1].height == 6)
        #expect(decoded.frames[2].width == 2 && decoded.frames[2].height == 2)
        #expect(decoded.frames[2].canvas == decoded.frames[1].canvas)
    }

    /// Noise fills the 4096-entry table several times: 12-bit codes and clear codes mid-image.
    @Test func noiseThatFillsTheCodeTableDecodes() throws {
        var generator = SeededGenerator(seed: 99)
        let noise = randomBitmap(width: 512, height: 256, density: 50, &generator)
        var gif = AnimatedGIF(width: 512, height: 256, scale: 1)
        let frameBytes = gif.frame(noise, delay: 3)
        let decoded = try DecodedGIF(decoding: gif.header() + frameBytes + AnimatedGIF.trailer)
        #expect(decoded.frames.first?.canvas == scaledIndices(noise, scale: 1))
        // 131,072 pixels of 1 bit of entropy each cannot fit in fewer than 16 KiB.
        #expect(frameBytes.count > 16_384)
    }

    /// Every length of a run of one colour, around each point where the codes widen.
    @Test func everyImageLengthUpTo600PixelsDecodes() throws {
        for length in 1...600 {
            var bitmap = Bitmap(width: length, height: 1)
            for x in stride(from: 0, to: length, by: 7) { bitmap.plot(x: x, y: 0) }
            var gif = AnimatedGIF(width: length, height: 1, scale: 1)
            let decoded = try DecodedGIF(decoding: gif.header() + gif.frame(bitmap, delay: 0) + AnimatedGIF.trailer)
            #expect(decoded.frames.first?.canvas == scaledIndices(bitmap, scale: 1), "length \(length)")
        }
    }

    @Test func delaysAreClampedToSixteenBits() throws {
        var gif = AnimatedGIF(width: 4, height: 4, scale: 1)
        let bytes =
            gif.header() + gif.frame(Bitmap(width: 4, height: 4), delay: 70_000)
            + gif.frame(Bitmap(width: 4, height: 4), delay: -3) + AnimatedGIF.trailer
        let decoded = try DecodedGIF(decoding: bytes)
        #expect(decoded.frames.map(\.delay) == [65_535, 0])
    }

    @Test func hexColoursParse() {
        #expect(PNG.Color(hex: "#7FD8FF") == PNG.Color.oledBlue)
        #expect(PNG.Color(hex: "7fd8ff") == PNG.Color.oledBlue)
        for bad in ["", "#", "12345", "1234567", "#GG0000", "-12345", "+12345", " 12345", "#12 345"] {
            #expect(PNG.Color(hex: bad) == nil, "\(bad)")
        }
    }
}
