import PagerGraphics
import TestSupport
import Testing

@testable import SSD1306

/// `old` with `changes` random runs of bytes changed (lone bytes, runs, word edges).
private func changed(
    _ old: Bitmap, changes: Int, using generator: inout SeededGenerator
) -> Bitmap {
    var bytes = old.bytes
    for _ in 0..<changes {
        let start = Int.random(in: 0..<bytes.count, using: &generator)
        let run = Int.random(in: 1...12, using: &generator)
        for index in start..<min(bytes.count, start + run) where Bool.random(using: &generator) {
            bytes[index] ^= UInt8.random(in: 1...255, using: &generator)
        }
    }
    return Bitmap(width: old.width, height: old.height, pageBytes: bytes) ?? old
}

@Suite("Changed spans: a search that stops once it cannot win")
struct ChangedSpanTests {
    @Test func aLimitGivesTheSameWindowsOrTheWholeFrameWhenTheyCostMore() {
        var generator = SeededGenerator(seed: 42)
        let whole = [DisplayWindow(columns: 0..<128, pages: 0..<8)]
        var limited = 0
        for round in 0..<400 {
            let old = randomBitmap(width: 128, height: 64, using: &generator)
            let new = changed(old, changes: round % 30, using: &generator)
            let free = DisplayUpdatePlanner.windows(from: old, to: new, controller: .ssd1306, whole: whole)
            let cost = free.reduce(0) { $0 + DisplayUpdatePlanner.cost(of: $1, controller: .ssd1306) }
            let limit = Int.random(in: 0...1100, using: &generator)
            var windows: [DisplayWindow] = []
            DisplayUpdatePlanner.windows(
                from: old, to: new, controller: .ssd1306, whole: whole, into: &windows, costLimit: limit)
            if cost <= limit {
                // Within the limit the search never stops early.
                #expect(windows == free)
            } else if windows != free {
                #expect(windows == whole)
                limited += 1
            }
        }
        // The limit did cut searches short: the test exercised the early stop.
        #expect(limited > 20)
    }

    @Test func aStoppedSearchSaysSo() {
        let old = Bitmap(width: 128, height: 8)
        var new = old
        new.fillRect(Rect(x: 0, y: 0, width: 128, height: 8))
        new.fillRect(Rect(x: 40, y: 0, width: 10, height: 8), ink: .off)
        var calls = 0
        let finished = DisplayUpdatePlanner.forEachChangedSpan(old, new, page: 0, bridging: 7) { _ in
            calls += 1
            return false
        }
        #expect(!finished)
        #expect(calls == 1)
    }
}

@Suite("Whole-word comparisons of bitmaps")
struct BitmapWordTests {
    @Test func equalityAndLitPixelsAgreeWithAByteByByteCount() {
        var generator = SeededGenerator(seed: 7)
        for width in [1, 7, 8, 13, 128, 132] {
            for height in [1, 8, 20, 64] {
                let picture = randomBitmap(width: width, height: height, using: &generator)
                let expectedLit = picture.bytes.reduce(0) { $0 + $1.nonzeroBitCount }
                #expect(picture.litPixelCount == expectedLit)
                var other = picture
                #expect(other == picture)
                // One pixel off, anywhere, makes them differ.
                let x = Int.random(in: 0..<width, using: &generator)
                let y = Int.random(in: 0..<height, using: &generator)
                other[x, y].toggle()
                #expect(other != picture)
            }
        }
    }
}

@Suite("Rows of RAM as bits")
struct RowMaskTests {
    @Test func aRunOfRowsWrapsAtRow64() {
        typealias Driver = SSD1306Driver<DisplayQueue>
        #expect(Driver.rowMask(from: 0, count: 32) == 0x0000_0000_FFFF_FFFF)
        #expect(Driver.rowMask(from: 48, count: 32) == 0xFFFF_0000_0000_FFFF)
        #expect(Driver.rowMask(from: -16, count: 16) == 0xFFFF_0000_0000_0000)
        #expect(Driver.rowMask(from: 5, count: 64) == ~UInt64(0))
        #expect(Driver.rowMask(from: 7, count: 0) == 0)
    }
}
