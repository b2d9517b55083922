import ArgumentParser
import RemindersCore

/// The command a mistyped first word most likely meant: "serch" is
/// `search`, "lsit" is `list`, "comp" is `complete`.
enum CommandSuggestion {
    /// The names of `RemindersCommand`'s visible subcommands and their
    /// other names (`done`).
    static var commandNames: [String] { names(includingHidden: false) }

    /// Every subcommand's name and other names, hidden ones too.
    static var allCommandNames: Set<String> { Set(names(includingHidden: true)) }

    private static func names(includingHidden: Bool) -> [String] {
        RemindersCommand.configuration.subcommands.flatMap { command -> [String] in
            let configuration = command.configuration
            guard includingHidden || configuration.shouldDisplay, let name = configuration.commandName else { return [] }
            return [name] + configuration.aliases
        }
    }

    /// The names closest to `word` (`NearestWords`).
    static func closest(to word: String, among names: [String] = commandNames) -> [String] {
        NearestWords.closest(to: word, among: names)
    }

    /// "did you mean 'list'?", "did you mean 'list' or 'lists'?"; nil for none.
    static func question(for word: String) -> String? {
        let names = closest(to: word)
        guard !names.isEmpty else { return nil }
        let quoted = names.map { "'\($0)'" }
        let choices = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
        return "did you mean \(choices)?"
    }
}
