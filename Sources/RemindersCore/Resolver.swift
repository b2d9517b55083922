import GRDB

/// Turns what a user typed for a LIST or REMINDER argument into an id:
/// a full id, a unique id prefix of 4 or more characters, or a unique exact
/// title (case-insensitive).
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
        if needle.count < 4, needle.allSatisfy(\.isHexDigit) {
            throw CoreError.invalidInput("no \(kind) is titled '\(needle)', and an id prefix needs at least 4 characters")
        }
        // Where to look instead.
        let hint = table == Reminder.databaseTableName
            ? "'reminders search WORDS' finds one by the words in it" : "'reminders lists' shows them"
        throw CoreError.notFound("no \(kind) matches '\(needle)'; \(hint)")
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
