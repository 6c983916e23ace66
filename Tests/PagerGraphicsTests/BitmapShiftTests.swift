import PagerGraphics
import TestSupport
import Testing

/// `Bitmap.shift(right:down:)` moves every pixel, what leaves is lost and what comes in is dark,
/// pixel for pixel as a move of each pixel on its own would.
@Suite struct BitmapShiftTests {
    /// `bitmap` moved pixel by pixel: the reference the packed shift must equal.
    static func moved(_ bitmap: Bitmap, right: Int, down: Int) -> Bitmap {
        var result = Bitmap(width: bitmap.width, height: bitmap.height)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x - right, y - down] { result[x, y] = true }
        }
        return result
    }

    @Test func everyShiftEqualsMovingEachPixel() {
        var generator = SeededGenerator(seed: 0x5_41F7)
        for (width, height) in [(128, 64), (128, 32), (96, 16), (64, 48), (7, 13), (3, 1)] {
            var bitmap = Bitmap(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width where Bool.random(using: &generator) { bitmap[x, y] = true }
            }
            for right in -9...9 {
                for down in -17...17 {
                    var shifted = bitmap
                    shifted.shift(right: right, down: down)
                    #expect(
                        shifted == Self.moved(bitmap, right: right, down: down),
                        "\(width)x\(height) by \(right), \(down)")
                }
            }
        }
    }

    @Test func aShiftPastTheEdgeLeavesItDark() {
        var bitmap = Bitmap(rows: ["##", "##"])
        bitmap.shift(right: 2, down: 0)
        #expect(bitmap.litPixelCount == 0)
    }
}
