import ArgumentParser
import Foundation
import RemindersCore

/// `reminders search QUERY [--show-completed] [--json]`: titles, notes and
/// tags, with a snippet of where each matched.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search titles, notes and tags.")

    @Argument(help: ArgumentHelp(
        "The text to look for; several words are one phrase, quoted or not (case and accents are ignored: \"cafe\" finds \"Café\").",
        valueName: "query"))
    var words: [String] = []

    /// The words as one phrase: `search ha noi` is `search 'ha noi'`.
    var query: String { words.joined(separator: " ") }

    @Flag(name: .customLong("show-completed"), help: "Include completed reminders.")
    var showCompleted = false

    @Flag(help: "Print {completedCount, results: [reminder + snippet]}.")
    var json = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ValidationError("search text must not be empty")
        }
    }

    func run() throws {
        let context = try ReadingContext(common)
        let results = try context.read { db in
            try Queries.search(db, text: query, showCompleted: showCompleted, clock: context.clock)
        }
        if json {
            try JSONOutput.print(SearchJSON(results))
            return
        }
        if results.hits.isEmpty {
            print("No matches.")
        } else {
            // The snippet is shown where the match is in the notes: one in
            // the title or the tags is on the row already.
            let snippets = results.hits.map { $0.field == .notes ? $0.snippet : "" }
            print(ReminderTable.render(results.hits.map(\.row), showList: true, snippets: snippets))
        }
        // Only worth a line when completed reminders match.
        let count = results.completedCount
        if count > 0 {
            let what = count == 1 ? "1 completed reminder matches" : "\(count) completed reminders match"
            print(showCompleted ? "(\(what), shown above)" : "\(what) too (--show-completed to see \(count == 1 ? "it" : "them"))")
        }
    }
}
