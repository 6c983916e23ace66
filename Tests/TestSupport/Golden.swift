import Foundation
import PagerGraphics
import Testing

/// Compares a bitmap with a golden PBM frame stored beside the test file, in `Goldens/`.
///
/// Set `RECORD_GOLDENS=1` to rewrite goldens: the test still fails, so a recording run
/// is never mistaken for a passing one. A mismatch writes `<name>.actual.pbm` next to the
/// golden and records a `#`/`.` picture of both in the failure.
public func expectGolden(
    _ bitmap: Bitmap,
    named name: String,
    filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    let golden = directory.appendingPathComponent("\(name).pbm")
    let actualURL = directory.appendingPathComponent("\(name).actual.pbm")
    let text = PBM.plain(bitmap, comment: name)

    if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: golden)
        Issue.record("recorded golden \(golden.path); run again without RECORD_GOLDENS", sourceLocation: sourceLocation)
        return
    }
    guard let data = try? Data(contentsOf: golden) else {
        try? Data(text.utf8).write(to: actualURL)
        Issue.record(
            "no golden at \(golden.path); wrote \(actualURL.lastPathComponent). Look at it, then record with RECORD_GOLDENS=1",
            sourceLocation: sourceLocation)
        return
    }
    let expected: Bitmap
    do {
        expected = try PBM.decode(Array(data))
    } catch {
        Issue.record("golden \(golden.path) is unreadable: \(error)", sourceLocation: sourceLocation)
        return
    }
    if expected == bitmap {
        try? FileManager.default.removeItem(at: actualURL)
        return
    }
    try? Data(text.utf8).write(to: actualURL)
    Issue.record(
        """
        frame differs from golden \(name) (\(differenceCount(expected, bitmap)) pixels); wrote \(actualURL.lastPathComponent)
        expected \(expected.width)x\(expected.height):
        \(expected)
        actual \(bitmap.width)x\(bitmap.height):
        \(bitmap)
        """, sourceLocation: sourceLocation)
}

/// The number of pixels that differ between two bitmaps, counting size differences as whole rows or columns.
public func differenceCount(_ a: Bitmap, _ b: Bitmap) -> Int {
    let width = max(a.width, b.width)
    let height = max(a.height, b.height)
    var count = 0
    for y in 0..<height {
        for x in 0..<width where a[x, y] != b[x, y] || x >= min(a.width, b.width) || y >= min(a.height, b.height) {
            count += 1
        }
    }
    return count
}

/// A small deterministic random number generator (SplitMix64), so property tests replay from their seed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that always yields the same sequence for the same seed.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
