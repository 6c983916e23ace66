/// The known name closest to `name` (at most two edits away), for "did you mean".
///
/// On a tie the earlier name wins, so callers list the likelier names first.
package func closestName(to name: String, among names: [String]) -> String? {
    let typed = Array(name)
    var best: (name: String, distance: Int)?
    for candidate in names {
        let letters = Array(candidate)
        // The distance is at least the difference in length: a long string is never a near miss
        // of a short name, and measuring it would cost its length times the name's.
        guard abs(letters.count - typed.count) <= 2 else { continue }
        let distance = editDistance(typed, letters)
        if distance <= 2, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    return best?.name
}

/// The Damerau–Levenshtein distance between two strings, counted in characters.
package func editDistance(_ a: String, _ b: String) -> Int {
    editDistance(Array(a), Array(b))
}

/// The Damerau–Levenshtein distance: the fewest insertions, deletions, substitutions and swaps
/// of two neighbours that turn `a` into `b`.
///
/// A swap of neighbours ("guage" for "gauge") is the commonest slip of the fingers, and plain
/// Levenshtein counts it as two edits, as far as a different word ("image"). This is the
/// unrestricted distance (Lowrance and Wagner, 1975): letters may be edited again after a swap,
/// which makes it a metric (the triangle inequality holds), unlike the simpler "optimal string
/// alignment" variant. Time and memory grow with `a.count * b.count`.
package func editDistance<Element: Hashable>(_ a: [Element], _ b: [Element]) -> Int {
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    // `distances` is the table d[-1...a.count][-1...b.count], flattened: row -1 and column -1
    // hold a value above any distance, so a swap that reaches before the start is never chosen.
    let columns = b.count + 2
    let infinity = a.count + b.count
    var distances = [Int](repeating: 0, count: (a.count + 2) * columns)
    func index(_ row: Int, _ column: Int) -> Int { (row + 1) * columns + column + 1 }
    distances[index(-1, -1)] = infinity
    for row in 0...a.count {
        distances[index(row, -1)] = infinity
        distances[index(row, 0)] = row
    }
    for column in 0...b.count {
        distances[index(-1, column)] = infinity
        distances[index(0, column)] = column
    }
    // The last row of `a` where each element was seen, for the swaps.
    var lastRow: [Element: Int] = [:]
    for row in 1...a.count {
        var lastMatchingColumn = 0
        for column in 1...b.count {
            let swapRow = lastRow[b[column - 1]] ?? 0
            let swapColumn = lastMatchingColumn
            let cost: Int
            if a[row - 1] == b[column - 1] {
                cost = 0
                lastMatchingColumn = column
            } else {
                cost = 1
            }
            distances[index(row, column)] = min(
                distances[index(row - 1, column - 1)] + cost,
                distances[index(row, column - 1)] + 1,
                distances[index(row - 1, column)] + 1,
                // A swap: a's letter at swapRow is b's at this column, and b's at swapColumn is
                // a's at this row; the letters between are deleted from `a` and inserted from `b`.
                distances[index(swapRow - 1, swapColumn - 1)] + (row - swapRow - 1) + 1 + (column - swapColumn - 1))
        }
        lastRow[a[row - 1]] = row
    }
    return distances[index(a.count, b.count)]
}
