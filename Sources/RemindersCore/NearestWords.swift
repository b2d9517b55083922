/// The words a mistyped one most likely meant: "serch" is `search`,
/// "Grocries" is the list "Groceries". Case does not count.
public enum NearestWords {
    /// The words of `words` closest to `typed`: those one edit away (two
    /// for a word of five letters or more), an edit being a letter added,
    /// dropped, changed, or two neighbours swapped; else the one word that
    /// starts with it. Empty when nothing is that close, or for fewer than
    /// two letters typed.
    public static func closest(to typed: String, among words: [String]) -> [String] {
        let letters = Array(typed.lowercased())
        guard letters.count >= 2 else { return [] }
        let limit = letters.count >= 5 ? 2 : 1
        let distances = words.map { (word: $0, distance: distance(letters, Array($0.lowercased()))) }
        if let best = distances.map(\.distance).min(), best <= limit {
            return distances.filter { $0.distance == best }.map(\.word)
        }
        let starting = words.filter { $0.lowercased().hasPrefix(String(letters)) }
        return starting.count == 1 ? starting : []
    }

    /// Edits from `a` to `b`: insertions, deletions, substitutions and
    /// swaps of neighbours (optimal string alignment).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
