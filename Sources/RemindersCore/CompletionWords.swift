import GRDB

/// Titles for shell completion (`reminders edit <Tab>`): read from the
/// device's database opened read-only, so a completion never creates,
/// migrates or locks anything, and never waits long for a writer.
public enum CompletionWords {
    public enum Kind: Sendable {
        case lists, tags, reminders
    }

    /// The titles of `kind` that start with `prefix` (ignoring case),
    /// sorted; empty when the database is missing, damaged, busy or of
    /// another version: a completion has no way to report an error.
    public static func titles(_ kind: Kind, prefix: String, databasePath: String) -> [String] {
        AppDatabase.setUpSQLite()
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(0.2)
        guard let queue = try? DatabaseQueue(path: databasePath, configuration: configuration) else { return [] }
        let sql = switch kind {
        case .lists: "SELECT title FROM \(RemindersList.databaseTableName)"
        case .tags: "SELECT title FROM \(Tag.databaseTableName)"
        // Open ones: what a command is most likely about, and not thousands.
        case .reminders: "SELECT title FROM \(Reminder.databaseTableName) WHERE status != 'completed' LIMIT 2000"
        }
        guard let titles = try? queue.read({ db in try String.fetchAll(db, sql: sql) }) else { return [] }
        let folded = prefix.lowercased()
        return Set(titles.filter { !$0.isEmpty && $0.lowercased().hasPrefix(folded) }).sorted()
    }
}
