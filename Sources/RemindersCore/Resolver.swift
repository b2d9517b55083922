import Foundation
import GRDB

/// Turns what a user typed for a LIST or REMINDER argument into an id:
/// a full id, a unique id prefix of 4 or more characters, or a unique exact
/// title (case-insensitive; accents too when nothing else matched).
public enum Resolver {
    public static func list(_ db: Database, _ text: String) throws -> String {
        try resolve(db, text, table: "remindersLists", kind: "list")
    }

    public static func reminder(_ db: Database, _ text: String) throws -> String {
        try resolve(db, text, table: "reminders", kind: "reminder")
    }

    static func resolve(_ db: Database, _ text: String, table: String, kind: String) throws -> String {
        let needle = text.trimmingWhitespace()
        guard !needle.isEmpty else { throw CoreError.invalidInput("\(kind) must not be empty") }
        if try String.fetchOne(db, sql: "SELECT id FROM \(table) WHERE id = ?", arguments: [needle.lowercased()]) != nil {
            return needle.lowercased()
        }
        let byTitle = try Row.fetchAll(db, sql: """
            SELECT id, title, \(completedColumn(table)) FROM \(table) WHERE title = ? COLLATE NOCASE ORDER BY id LIMIT 5
            """, arguments: [needle])
        if byTitle.count == 1 { return byTitle[0]["id"] }
        if byTitle.count > 1, table == Reminder.databaseTableName {
            // A repeating reminder shares its title with the copies of its
            // completed occurrences: the title names the series.
            let series = try String.fetchAll(db, sql: """
                SELECT id FROM reminders WHERE title = ? COLLATE NOCASE AND repeatOf IS NULL ORDER BY id LIMIT 2
                """, arguments: [needle])
            if series.count == 1 { return series[0] }
        }
        if byTitle.count > 1 {
            throw CoreError.ambiguous("\(kind) '\(needle)' is ambiguous: \(describe(byTitle)); use an id")
        }
        if needle.count >= 4 {
            let prefix = needle.lowercased()
            let byPrefix = try Row.fetchAll(db, sql: """
                SELECT id, title, \(completedColumn(table)) FROM \(table) WHERE id >= ? AND id < ? ORDER BY id LIMIT 5
                """, arguments: [prefix, prefix + "\u{FFFF}"])
            if byPrefix.count == 1 { return byPrefix[0]["id"] }
            if byPrefix.count > 1 {
                throw CoreError.ambiguous("\(kind) id prefix '\(needle)' is ambiguous: \(describe(byPrefix)); type more of it")
            }
        }
        // Last, a title that differs only in accents ("brotchen" for
        // "Brötchen"), as search finds it: looked for only when nothing
        // else matched, among titles of about its length.
        let folded = Self.folded(needle)
        let sameLength = try Row.fetchAll(db, sql: """
            SELECT id, title, \(completedColumn(table)) FROM \(table) WHERE length(title) BETWEEN ? AND ? ORDER BY id
            """, arguments: [needle.count - 4, needle.count + 4])
        let alike = sameLength.filter { Self.folded($0["title"]) == folded }
        if alike.count == 1 { return alike[0]["id"] }
        if alike.count > 1 {
            throw CoreError.ambiguous("\(kind) '\(needle)' is ambiguous: \(describe(Array(alike.prefix(5)))); use an id")
        }
        if needle.count < 4, needle.allSatisfy(\.isHexDigit) {
            throw CoreError.invalidInput("no \(kind) is titled '\(needle)', and an id prefix needs at least 4 characters")
        }
        // Where to look instead: for a list, first the one it may have
        // meant (there are few lists; reminders are searched instead).
        var hint = table == Reminder.databaseTableName
            ? "'reminders search WORDS' finds one by the words in it" : "'reminders lists' shows them"
        // Then the title it may have meant: any list's, or a reminder's of
        // about its length (a typo adds or drops a letter or two).
        let titles = table == RemindersList.databaseTableName
            ? try String.fetchAll(db, sql: "SELECT title FROM remindersLists")
            : Array(Set(sameLength.map { $0["title"] as String }))
        let near = NearestWords.closest(to: needle, among: titles)
        if near.count == 1 { hint = "did you mean '\(near[0])'? " + hint }
        throw CoreError.notFound("no \(kind) matches '\(needle)'; \(hint)")
    }

    /// A title without case or accents.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Whether a row is completed, for the candidates an ambiguity lists
    /// (a repeating reminder's completed copies share its title).
    private static func completedColumn(_ table: String) -> String {
        table == Reminder.databaseTableName ? "status = 'completed' AS completed" : "0 AS completed"
    }

    static func describe(_ rows: [Row]) -> String {
        rows.map { row -> String in
            let id: String = row["id"]
            let title: String = row["title"]
            let completed: Bool = row["completed"] ?? false
            return "\(id.prefix(8)) (\(title.prefix(40))\(completed ? ", completed" : ""))"
        }.joined(separator: ", ")
    }
}
