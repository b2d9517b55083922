import ArgumentParser

/// The command a mistyped first word most likely meant: "serch" is
/// `search`, "lsit" is `list`, "comp" is `complete`.
enum CommandSuggestion {
    /// The names of `RemindersCommand`'s visible subcommands and their
    /// other names (`done`).
    static var commandNames: [String] {
        RemindersCommand.configuration.subcommands.flatMap { command -> [String] in
            let configuration = command.configuration
            guard configuration.shouldDisplay, let name = configuration.commandName else { return [] }
            return [name] + configuration.aliases
        }
    }

    /// The names closest to `word`: those one edit away (two for a word of
    /// five letters or more), an edit being a letter added, dropped,
    /// changed, or two neighbours swapped; else the one name that starts
    /// with it. Empty when nothing is that close.
    static func closest(to word: String, among names: [String] = commandNames) -> [String] {
        let typed = Array(word.lowercased())
        guard typed.count >= 2 else { return [] }
        let limit = typed.count >= 5 ? 2 : 1
        let distances = names.map { (name: $0, distance: distance(typed, Array($0))) }
        if let best = distances.map(\.distance).min(), best <= limit {
            return distances.filter { $0.distance == best }.map(\.name)
        }
        let starting = names.filter { $0.hasPrefix(String(typed)) }
        return starting.count == 1 ? starting : []
    }

    /// "did you mean 'list'?", "did you mean 'list' or 'lists'?"; nil for none.
    static func question(for word: String) -> String? {
        let names = closest(to: word)
        guard !names.isEmpty else { return nil }
        let quoted = names.map { "'\($0)'" }
        let choices = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
        return "did you mean \(choices)?"
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
