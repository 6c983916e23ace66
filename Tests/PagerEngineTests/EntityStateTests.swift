import PagerEngine
import TestSupport
import Testing

/// A pushed value as its Home Assistant entity's state: every state satisfies what was announced
/// (a `text` at most `max` code points, a `number` within `min` and `max`), and a text is cut only
/// between grapheme clusters.
@Suite struct EntityStateTests {
    /// Pieces random texts are made of: ASCII, combining marks, emoji ZWJ sequences and flags,
    /// Hangul jamo that join, default-ignorables, CJK.
    static let pieces: [String] = [
        "a", "Z", " ", "7", "e\u{301}", "o\u{308}\u{304}", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
        "\u{1F1E9}\u{1F1EA}", "\u{1F44D}\u{1F3FD}", "\u{1100}\u{1161}\u{11A8}", "\u{200B}", "\u{FE0F}", "\u{AD}",
        "\u{6F22}", "\u{2764}\u{FE0F}", "\r\n",
    ]

    static func randomText(_ generator: inout SeededGenerator) -> String {
        let count = Int.random(in: 0...400, using: &generator)
        return (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "a" }.joined()
    }

    @Test func aTextStateNeverPassesTheMaximumAndIsCutBetweenClusters() {
        var generator = SeededGenerator(seed: 0x7E47)
        for _ in 0..<2000 {
            let value = Self.randomText(&generator)
            let maximum =
                Bool.random(using: &generator) ? EntityState.textMaximum : Int.random(in: 2...40, using: &generator)
            let entity = EntityState.text(value, maximum: maximum)
            #expect(entity.state.unicodeScalars.count <= maximum, "\(value.debugDescription)")
            if value.unicodeScalars.count <= maximum {
                #expect(entity.state == value && entity.complete)
                continue
            }
            #expect(!entity.complete && entity.state.last == EntityState.ellipsis)
            // What is kept is the value's first clusters, whole: the same Characters, in order.
            let kept = Array(entity.state.dropLast())
            let clusters = Array(value)
            #expect(Array(clusters.prefix(kept.count)) == kept, "\(value.debugDescription)")
            // And as many as fit: the next cluster would not have.
            let used = kept.reduce(0) { $0 + $1.unicodeScalars.count }
            #expect(used + clusters[kept.count].unicodeScalars.count > maximum - 1)
            #expect(entity.attributes == "{\"characters\":\(value.count),\"cut\":true}")
        }
    }

    @Test func aNumberStateIsWithinTheRangeAndSaysWhenItWasClamped() {
        var generator = SeededGenerator(seed: 0x6A06E)
        let specials: [Double] = [1e3, -5, 150, 0, 100, 1e300, -1e300, 0.1, 99.999_999_9, -0.000_000_1, 1e-9, 12.5]
        for index in 0..<3000 {
            let number =
                index < specials.count
                ? specials[index]
                : Double.random(in: -1e4...1e4, using: &generator)
                    * (Bool.random(using: &generator) ? 1 : 1e-3)
            let minimum = [0.0, -40, 10][index % 3]
            let maximum = minimum + [100.0, 0.5, 1e6][(index / 3) % 3]
            let entity = EntityState.number(number, minimum: minimum, maximum: maximum)
            // What Home Assistant's number platform does with the state: float(), then the range.
            let parsed = Double(entity.state)
            #expect(parsed.map { (minimum...maximum).contains($0) } == true, "\(number) → \(entity.state)")
            #expect(!entity.state.contains("e"), "\(number) → \(entity.state)")
            #expect(entity.complete == (minimum...maximum).contains(number))
            #expect(entity.attributes.hasSuffix(",\"in_range\":\(entity.complete)}"))
        }
        #expect(EntityState.number(1e3, minimum: 0, maximum: 100).state == "100")
        #expect(EntityState.number(1e3, minimum: 0, maximum: 100).attributes == "{\"value\":1000,\"in_range\":false}")
        #expect(EntityState.number(-5, minimum: 0, maximum: 100).state == "0")
        #expect(EntityState.number(48.3, minimum: 0, maximum: 100).state == "48.3")
    }
}
