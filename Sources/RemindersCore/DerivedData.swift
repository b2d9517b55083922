import GRDB

/// The search index and the counts the home screen reads are derived from
/// the rows, kept by triggers row by row (`Schema.tagTriggersSQL`,
/// `Schema.countsSQL`). For a load of many rows at once (a new device's
/// first download, a big import) that upkeep is most of the work: at
/// 10,000 reminders the triggers cost about a second, where building the
/// index and the counts once from the rows costs 0.05 s.
///
/// `suspend` drops those triggers and keeps their SQL in
/// `local_suspendedTriggers`, in the caller's transaction, so the mark
/// commits with the rows written without them. `resume` builds the index
/// and the counts from the rows and puts the triggers back, in one
/// transaction. A process stopped in between leaves the mark committed,
/// and the next open of the database resumes (`AppDatabase.open`), so the
/// index and counts are never left stale for good. Another process that
/// opens the database meanwhile resumes too: the load goes on with the
/// triggers, slower but as correct.
public enum DerivedData {
    /// Whether the triggers are suspended (a load is under way, or one
    /// was stopped before it resumed).
    public static func isSuspended(_ db: Database) throws -> Bool {
        guard try db.tableExists("local_suspendedTriggers") else { return false }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM local_suspendedTriggers)") ?? false
    }

    /// Drops the triggers that keep the search index and the counts,
    /// keeping their SQL. Does nothing if they are suspended already.
    public static func suspend(_ db: Database) throws {
        guard try !isSuspended(db) else { return }
        let triggers = try Row.fetchAll(db, sql: """
            SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND \(derivedTriggers)
            """)
        for trigger in triggers {
            let name: String = trigger["name"]
            try db.execute(sql: "INSERT INTO local_suspendedTriggers (name, sql) VALUES (?, ?)",
                           arguments: [name, trigger["sql"] as String])
            try db.execute(sql: "DROP TRIGGER \(name.quotedDatabaseIdentifier)")
        }
    }

    /// Builds the search index and the counts from the rows and puts the
    /// suspended triggers back. Does nothing if none are suspended.
    public static func resume(_ db: Database) throws {
        guard try isSuspended(db) else { return }
        try db.execute(sql: rebuildSQL)
        for sql in try String.fetchAll(db, sql: "SELECT sql FROM local_suspendedTriggers ORDER BY name") {
            try db.execute(sql: sql)
        }
        try db.execute(sql: "DELETE FROM local_suspendedTriggers")
    }

    /// Whether a load of `incoming` rows into a database holding
    /// `existing` is worth suspending for: the rebuild reads every row, so
    /// it pays when the load is big and brings more rows than are there.
    public static func isWorthSuspending(incoming: Int, existing: Int) -> Bool {
        incoming >= 1000 && incoming > existing
    }

    /// The triggers of version 2 and 5 that keep derived data, by name.
    static let derivedTriggers = "(name GLOB 'counts_*' OR name GLOB '*_search_*')"

    /// The search index and both tables of counts, from the rows: the same
    /// values the triggers keep (their first fill is in `Schema.countsSQL`).
    static let rebuildSQL = """
        DELETE FROM reminderSearch;
        INSERT INTO reminderSearch (rowid, title, notes, tags)
          SELECT rowid, title, notes, \(Schema.searchTags(ofReminder: "reminders.id")) FROM reminders;

        DELETE FROM listReminderCounts;
        INSERT INTO listReminderCounts (remindersListID, openCount, completedCount, openFlaggedCount, openScheduledCount)
          SELECT remindersListID, sum(status != 'completed'), sum(status = 'completed'),
                 sum(status != 'completed' AND isFlagged), sum(status != 'completed' AND dueDate IS NOT NULL)
          FROM reminders GROUP BY remindersListID;

        DELETE FROM tagReminderCounts;
        INSERT INTO tagReminderCounts (tagID, linkCount, openCount)
          SELECT remindersTags.tagID, count(*), count(reminders.id)
          FROM remindersTags LEFT JOIN reminders ON reminders.id = remindersTags.reminderID AND reminders.status != 'completed'
          GROUP BY remindersTags.tagID;
        """
}
