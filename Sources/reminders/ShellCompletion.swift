import ArgumentParser
import Foundation
import RemindersCore

/// Completions of LIST, REMINDER and tag arguments from the device's own
/// database: `reminders edit Pl<Tab>` offers "Plant tomatoes". The shell
/// runs `reminders` for these with the words typed so far; the device is
/// the one they name (`--user`, `--device`, `--db`, `--config`), else the
/// environment's and the config file's. Nothing is written, and any
/// failure completes nothing.
enum ShellCompletion {
    static let lists = CompletionKind.custom { words, _, prefix in titles(.lists, words: words, prefix: prefix) }
    static let tags = CompletionKind.custom { words, _, prefix in titles(.tags, words: words, prefix: prefix) }
    static let reminders = CompletionKind.custom { words, _, prefix in titles(.reminders, words: words, prefix: prefix) }

    static func titles(_ kind: CompletionWords.Kind, words: [String], prefix: String) -> [String] {
        guard let path = databasePath(words: words) else { return [] }
        return CompletionWords.titles(kind, prefix: prefix, databasePath: path)
    }

    /// The database the typed words point at, nil when they cannot say.
    static func databasePath(words: [String]) -> String? {
        let names = ["--user", "--device", "--db", "--config", "--server"]
        var options: [String] = []
        for (index, word) in words.enumerated() {
            if names.contains(word), index + 1 < words.count {
                options += [word, words[index + 1]]
            } else if let name = names.first(where: { word.hasPrefix($0 + "=") }) {
                options += [name, String(word.dropFirst(name.count + 1))]
            }
        }
        guard let common = try? CommonOptions.parse(options) else { return nil }
        return try? common.resolve().databasePath
    }
}
