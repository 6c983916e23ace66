import PagerConfig
import TestSupport
import Testing

/// The edit distance behind "did you mean": swaps of neighbours are one edit, and it is a metric.
@Suite struct EditDistanceTests {
    @Test(arguments: [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("gauge", "gauge", 0),
        ("guage", "gauge", 1), ("guage", "image", 2), ("kitten", "sitting", 3), ("prominant", "prominent", 1),
        ("ab", "ba", 1), ("abc", "ca", 2), ("ca", "abc", 2), ("rigth", "right", 1), ("dail", "dial", 1),
        ("128x46", "128x64", 1), ("héllo", "hlélo", 1),
    ])
    func knownDistances(a: String, b: String, distance: Int) {
        #expect(editDistance(a, b) == distance)
    }

    @Test func aSwappedPairSuggestsTheWordWithThePairInOrder() {
        let kinds = ["text", "clock", "system", "command", "file", "image", "gauge"]
        #expect(closestName(to: "guage", among: kinds) == "gauge")
        #expect(closestName(to: "txet", among: kinds) == "text")
        #expect(closestName(to: "colck", among: kinds) == "clock")
        #expect(closestName(to: "dail", among: ["bar", "dial"]) == "dial")
        #expect(closestName(to: "rigth", among: ["right", "left", "bottom"]) == "right")
        // More than two edits away, or far longer, is no suggestion.
        #expect(closestName(to: "banana", among: kinds) == nil)
        #expect(closestName(to: String(repeating: "gauge", count: 1000), among: kinds) == nil)
        // On a tie the earlier name wins.
        #expect(closestName(to: "bat", among: ["bar", "bag"]) == "bar")
    }

    /// Symmetric, zero only for equal strings, at most the longer length, at least the difference
    /// in lengths, and the triangle inequality, on random short strings of a small alphabet (so
    /// that letters repeat and swaps happen).
    @Test func itIsAMetricOnRandomShortStrings() {
        var generator = SeededGenerator(seed: 0xD1A7)
        let alphabet: [Character] = ["a", "b", "c", "d"]
        func word() -> [Character] {
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" }
        }
        for _ in 0..<3000 {
            let (a, b, c) = (word(), word(), word())
            let ab = editDistance(a, b)
            #expect(ab == editDistance(b, a), "\(a) \(b)")
            #expect((ab == 0) == (a == b), "\(a) \(b)")
            #expect(ab <= max(a.count, b.count) && ab >= abs(a.count - b.count), "\(a) \(b)")
            #expect(ab <= levenshtein(a, b), "\(a) \(b)")
            #expect(editDistance(a, c) <= ab + editDistance(b, c), "\(a) \(b) \(c)")
        }
    }

    @Test func oneEditOfAnyKindIsDistanceOne() {
        var generator = SeededGenerator(seed: 0x5EED)
        let alphabet: [Character] = ["a", "b", "c", "d", "e"]
        for _ in 0..<1000 {
            let word = (0..<Int.random(in: 2...8, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator) ?? "a"
            }
            let at = Int.random(in: 0..<(word.count - 1), using: &generator)
            var edited = word
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: edited.insert(alphabet.randomElement(using: &generator) ?? "a", at: at)
            case 1: edited.remove(at: at)
            case 2: edited[at] = edited[at] == "a" ? "b" : "a"
            default: edited.swapAt(at, at + 1)
            }
            #expect(editDistance(word, edited) == (edited == word ? 0 : 1), "\(word) \(edited)")
        }
    }

    /// Plain Levenshtein, the upper bound: a swap costs it two.
    private func levenshtein(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, letter) in a.enumerated() {
            var row = [i + 1]
            for (j, other) in b.enumerated() {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (letter == other ? 0 : 1)))
            }
            previous = row
        }
        return previous[b.count]
    }
}
