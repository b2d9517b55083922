import Foundation
import RemindersCore

/// `--json` output: pretty-printed, keys sorted, so that the bytes are stable
/// and diffable. Data is printed as stored, with every character a terminal
/// could act on escaped (JSON itself escapes only C0 controls).
enum JSONOutput {
    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        Swift.print(ExportDump.printable(try encoder.encode(value)))
    }
}

/// `lists --json`: one list with its count of open reminders.
struct ListJSON: Encodable {
    var id: String
    var title: String
    var color: String
    var position: Int
    var openCount: Int

    init(_ summary: ListSummary) {
        id = summary.list.id
        title = summary.list.title
        color = summary.list.color
        position = summary.list.position
        openCount = summary.openCount
    }
}

/// `show --json`: the export shape of a reminder plus its list's title,
/// whether it is past due, and for a repeating reminder its next three
/// occurrences (after the due date, or after the occurrence a moved one
/// stands for when that is later).
struct ReminderJSON: Encodable {
    var item: ExportDump.Item
    var listTitle: String
    var isPastDue: Bool
    var nextOccurrences: [String]?

    init(_ row: ReminderRow) {
        item = ExportDump.Item(reminder: row.reminder, tags: row.tags)
        listTitle = row.listTitle
        isPastDue = row.isPastDue
        if row.reminder.status != .completed {
            nextOccurrences = Repeats.nextOccurrences(row.reminder, count: 3).map(\.description)
        }
    }

    enum CodingKeys: String, CodingKey { case listTitle, isPastDue, nextOccurrences }

    func encode(to encoder: Encoder) throws {
        // Both containers write into the same JSON object.
        try item.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(listTitle, forKey: .listTitle)
        try c.encode(isPastDue, forKey: .isPastDue)
        if item.repeatRule != nil { try c.encode(nextOccurrences ?? [], forKey: .nextOccurrences) }
    }
}

/// `search --json`: the matches in the export shape with a plain-text snippet,
/// and how many completed reminders match.
struct SearchJSON: Encodable {
    struct Result: Encodable {
        var item: ExportDump.Item
        var snippet: String

        enum CodingKeys: String, CodingKey { case snippet }

        func encode(to encoder: Encoder) throws {
            try item.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(snippet, forKey: .snippet)
        }
    }

    var completedCount: Int
    var results: [Result]

    init(_ results: SearchResults) {
        completedCount = results.completedCount
        self.results = results.hits.map { hit in
            Result(item: ExportDump.Item(reminder: hit.row.reminder, tags: hit.row.tags),
                   snippet: hit.snippet.filter { $0 != Queries.matchStart && $0 != Queries.matchEnd })
        }
    }
}

/// `tags --json`: a tag with its count of open reminders.
struct TagJSON: Encodable {
    var title: String
    var openCount: Int
}
