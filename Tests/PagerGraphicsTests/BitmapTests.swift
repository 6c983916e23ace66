import PagerGraphics
import TestSupport
import Testing

@Suite("Bitmap")
struct BitmapTests {
    @Test("pixels are packed like GDDRAM: a byte per column per page, LSB on top")
    func pagePacking() {
        var bitmap = Bitmap(width: 3, height: 12)
        bitmap[0, 0] = true
        bitmap[1, 7] = true
        bitmap[2, 8] = true
        bitmap[2, 11] = true
        #expect(bitmap.pageCount == 2)
        #expect(Array(bitmap.pageBytes(0)) == [0x01, 0x80, 0x00])
        #expect(Array(bitmap.pageBytes(1)) == [0x00, 0x00, 0x09])
        #expect(bitmap.pageByte(page: 1, column: 2) == 0x09)
        #expect(bitmap.pageByte(page: 2, column: 0) == 0 && bitmap.pageByte(page: 0, column: -1) == 0)
        #expect(bitmap.pageBytes(5).isEmpty)
    }

    @Test("page bytes round-trip, with the rows past the height cleared")
    func pageBytesInit() throws {
        let bitmap = try #require(Bitmap(width: 2, height: 3, pageBytes: [0xFF, 0x05]))
        #expect(bitmap == Bitmap(rows: ["##", "#.", "##"]))
        #expect(Bitmap(width: 2, height: 3, pageBytes: [0xFF]) == nil)
        #expect(Bitmap(width: -1, height: 3, pageBytes: []) == nil)
    }

    @Test("reads outside are dark and writes outside are ignored")
    func outside() {
        var bitmap = Bitmap(width: 4, height: 4)
        for (x, y) in [(-1, 0), (0, -1), (4, 0), (0, 4), (Int.min, Int.max)] {
            bitmap[x, y] = true
            bitmap.plot(x: x, y: y, ink: .inverted)
            #expect(!bitmap[x, y])
        }
        #expect(bitmap.litPixelCount == 0)
        #expect(Bitmap(width: -5, height: 3).size == Size(width: 0, height: 3))
    }

    @Test("the clip is kept inside the bitmap and is not part of equality")
    func clip() {
        var clipped = Bitmap(width: 8, height: 8)
        clipped.clip = Rect(x: -4, y: 2, width: 20, height: 3)
        #expect(clipped.clip == Rect(x: 0, y: 2, width: 8, height: 3))
        clipped.fill(true)
        #expect(clipped.litPixelCount == 24)
        var drawn = Bitmap(width: 8, height: 8)
        drawn.fillRect(Rect(x: 0, y: 2, width: 8, height: 3))
        #expect(clipped == drawn, "same picture, different clip")
        #expect(Set([clipped, drawn]).count == 1)
    }

    @Test("description draws the picture in # and .")
    func description() {
        let rows = ["#..#", ".##.", "...."]
        #expect(Bitmap(rows: rows).description == rows.joined(separator: "\n"))
        #expect(Bitmap(rows: ["#", "", "..#"]).size == Size(width: 3, height: 3))
    }

    @Test("cropping reads dark outside and blit puts it back")
    func cropAndBlit() {
        var generator = SeededGenerator(seed: 8)
        for _ in 0..<100 {
            let bitmap = randomBitmap(width: 30, height: 20, using: &generator)
            let rect = Rect(
                x: Int.random(in: -5...25, using: &generator), y: Int.random(in: -5...15, using: &generator),
                width: Int.random(in: 1...20, using: &generator), height: Int.random(in: 1...20, using: &generator))
            let piece = bitmap.cropped(to: rect)
            var restored = bitmap
            restored.fillRect(rect, ink: .off)
            restored.blit(piece, at: rect.origin)
            #expect(restored == bitmap)
            var opaque = bitmap
            opaque.blit(piece, at: rect.origin, ink: .on, opaque: true)
            #expect(opaque == bitmap)
            for y in 0..<piece.height {
                for x in 0..<piece.width where !bitmap.bounds.contains(Point(x: rect.x + x, y: rect.y + y)) {
                    #expect(!piece[x, y])
                }
            }
        }
    }
}

@Suite("Bitmap reuse")
struct BitmapReuseTests {
    @Test("reset darkens a bitmap of the same size in place and restores the clip")
    func resetSameSize() {
        var bitmap = Bitmap(rows: ["##.", "#.#"])
        bitmap.clip = Rect(x: 1, y: 0, width: 1, height: 1)
        bitmap.reset(to: Size(width: 3, height: 2))
        #expect(bitmap == Bitmap(width: 3, height: 2))
        #expect(bitmap.clip == bitmap.bounds)
        bitmap[0, 1] = true
        #expect(bitmap[0, 1])
    }

    @Test("reset to another size makes a dark bitmap of that size")
    func resetOtherSize() {
        var bitmap = Bitmap(rows: ["##", "##"])
        bitmap.reset(to: Size(width: 5, height: 9))
        #expect(bitmap == Bitmap(width: 5, height: 9))
        #expect(bitmap.clip == Rect(x: 0, y: 0, width: 5, height: 9))
    }

    @Test("page bytes keep the picture and clip the whole bitmap")
    func pageBytesClip() throws {
        let bitmap = try #require(Bitmap(width: 2, height: 12, pageBytes: [0xFF, 0x01, 0xFF, 0xFF]))
        #expect(bitmap.clip == bitmap.bounds)
        #expect(Array(bitmap.pageBytes(1)) == [0x0F, 0x0F])
    }
}
