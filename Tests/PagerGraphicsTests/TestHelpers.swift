import PagerGraphics
import TestSupport

/// A bitmap with each pixel lit by a coin toss.
func randomBitmap(width: Int, height: Int, using generator: inout SeededGenerator) -> Bitmap {
    var bitmap = Bitmap(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width where Bool.random(using: &generator) {
            bitmap[x, y] = true
        }
    }
    return bitmap
}

/// The pixels lit in exactly one of two bitmaps of the same size.
func exclusiveOr(_ a: Bitmap, _ b: Bitmap) -> Bitmap {
    var result = a
    for y in 0..<b.height {
        for x in 0..<b.width where b[x, y] {
            result.plot(x: x, y: y, ink: .inverted)
        }
    }
    return result
}

/// Each pixel of `bitmap` as a `scale` x `scale` square, as `PNG.encode(_:scale:)` draws it.
func scaledUp(_ bitmap: Bitmap, by scale: Int) -> Bitmap {
    var result = Bitmap(width: bitmap.width * scale, height: bitmap.height * scale)
    for y in 0..<result.height {
        for x in 0..<result.width where bitmap[x / scale, y / scale] { result[x, y] = true }
    }
    return result
}
