import GRDB

/// The search index, the counts the home screen reads and the tables'
/// secondary indexes are derived from the rows: the first two kept by
/// triggers row by row (`Schema.tagTriggersSQL`, `Schema.countsSQL`), the
/// indexes by SQLite. For a load of many rows at once (a new device's first
/// download, a big import) that upkeep is most of the work: at 10,000
/// reminders the triggers cost about a second, where building the search
/// index and the counts once from the rows costs 0.05 s; at 100,000,
/// inserting into the tables with their fourteen secondary indexes took 5.8 s,
/// and without them 0.9 s, plus 0.7 s to build the indexes after.
///
/// `suspend` drops those triggers and indexes and keeps their SQL in
/// `local_suspendedSchema`, in the caller's transaction, so the mark
/// commits with the rows written without them. `resume` puts the indexes
/// back, builds the search index and the counts from the rows, and puts
/// the triggers back, in one transaction. A process stopped in between
/// leaves the mark committed, and the next open of the database resumes
/// (`AppDatabase.open`), so nothing is left stale or slow for good.
/// Another process that opens the database meanwhile resumes too: the
/// load goes on with the triggers and indexes, slower but as correct.
/// Nothing depends on a secondary index for correctness: there are no
/// unique ones (the sync engine's schema rules), and foreign keys are
/// checked through primary keys.
public enum DerivedData {
    /// Whether the triggers are suspended (a load is under way, or one
    /// was stopped before it resumed).
    public static func isSuspended(_ db: Database) throws -> Bool {
        // Not GRDB's `tableExists`, which reads the whole schema into a
        // cache first: this runs on every start, before the first frame.
        // (The engine's `hasTable` asks the same; the core cannot see it.)
        guard try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'local_suspendedSchema')
            """) == true else { return false }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM local_suspendedSchema)") ?? false
    }

    /// Drops the triggers that keep the search index and the counts, and
    /// the synced tables' secondary indexes, keeping their SQL. Does
    /// nothing if they are suspended already.
    public static func suspend(_ db: Database) throws {
        guard try !isSuspended(db) else { return }
        let tables = Schema.syncedTables.map { "'\($0)'" }.joined(separator: ", ")
        let items = try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE (type = 'trigger' AND \(derivedTriggers)) OR (type = 'index' AND sql IS NOT NULL AND tbl_name IN (\(tables)))
            """)
        for item in items {
            let type: String = item["type"], name: String = item["name"]
            try db.execute(sql: "INSERT INTO local_suspendedSchema (name, type, sql) VALUES (?, ?, ?)",
                           arguments: [name, type, item["sql"] as String])
            try db.execute(sql: "DROP \(type == "index" ? "INDEX" : "TRIGGER") \(name.quotedDatabaseIdentifier)")
        }
    }

    /// Puts the indexes back, builds the search index and the counts from
    /// the rows, and puts the triggers back. Does nothing if nothing is
    /// suspended.
    public static func resume(_ db: Database) throws {
        guard try isSuspended(db) else { return }
        for sql in try String.fetchAll(db, sql: "SELECT sql FROM local_suspendedSchema WHERE type = 'index' ORDER BY name") {
            try db.execute(sql: sql)
        }
        try db.execute(sql: rebuildSQL)
        for sql in try String.fetchAll(db, sql: "SELECT sql FROM local_suspendedSchema WHERE type = 'trigger' ORDER BY name") {
            try db.execute(sql: sql)
        }
        try db.execute(sql: "DELETE FROM local_suspendedSchema")
    }

    /// Whether a load of `incoming` rows into a database holding
    /// `existing` is worth suspending for: the rebuild reads every row, so
    /// it pays when the load is big and brings more rows than are there.
    public static func isWorthSuspending(incoming: Int, existing: Int) -> Bool {
        incoming >= 1000 && incoming > existing
    }

    /// The triggers of version 2 and 5 that keep derived data, by name.
    static let derivedTriggers = "(name GLOB 'counts_*' OR name GLOB '*_search_*')"

    /// The search index from the rows, folded as its triggers fold them.
    static let searchRebuildSQL = """
        DELETE FROM reminderSearch;
        INSERT INTO reminderSearch (rowid, title, notes, tags)
          SELECT rowid, reminders_fold(title), reminders_fold(notes), \(Schema.foldedSearchTags(ofReminder: "reminders.id"))
          FROM reminders;
        """

    /// The search index and both tables of counts, from the rows: the same
    /// values the triggers keep, by the statements of their first fill.
    static let rebuildSQL = """
        \(searchRebuildSQL)

        DELETE FROM listReminderCounts;
        \(Schema.listCountsFromRowsSQL)

        DELETE FROM tagReminderCounts;
        \(Schema.tagCountsFromRowsSQL)
        """
}
