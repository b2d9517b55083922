import GRDB

/// The reminders schema, as SQL migrations.
///
/// Rules every synced table follows (the sync engine checks them):
/// a single TEXT primary key that fills itself in when NULL is inserted, no
/// UNIQUE constraints besides the primary key, and foreign keys only to other
/// synced tables with ON DELETE CASCADE. Tags are keyed by `TagKey.of`
/// their title, so that two devices creating "Work" and "work" at once end
/// with one tag.
public enum Schema {
    /// A version-4 UUID in lower case, computed by SQLite, so that rows
    /// inserted with a NULL id get one.
    static let uuidExpression = """
        (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || \
        substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || \
        substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
        """

    /// Names of the tables that hold user data, parents before children.
    public static let syncedTables = ["remindersLists", "remindersListCovers", "reminders", "tags", "remindersTags"]

    /// The longest text `reminders.icalendar` holds: what an iCalendar
    /// import keeps of one to-do.
    public static let maximumICalendarBytes = 256 * 1024

    /// The first migration's name: every database of ours records it.
    static let firstMigration = "v1: lists, reminders, tags, search"

    /// The device database's migrations, in order. Migrations are only
    /// ever added, never removed: their number is the version stamp a
    /// migrated database carries in its header (`AppDatabase.versionStamp`),
    /// which is how a start tells at once that no newer version wrote it.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(firstMigration) { db in
            try db.execute(sql: """
                CREATE TABLE remindersLists (
                  id TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT \(uuidExpression),
                  title TEXT NOT NULL DEFAULT '',
                  color TEXT NOT NULL DEFAULT '#4a99ef'
                    CHECK (length(color) = 7 AND color GLOB '#[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
                  position INTEGER NOT NULL DEFAULT 0
                ) STRICT;

                CREATE TABLE remindersListCovers (
                  remindersListID TEXT PRIMARY KEY NOT NULL REFERENCES remindersLists(id) ON DELETE CASCADE,
                  image BLOB NOT NULL
                ) STRICT;

                CREATE TABLE reminders (
                  id TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT \(uuidExpression),
                  remindersListID TEXT NOT NULL REFERENCES remindersLists(id) ON DELETE CASCADE,
                  title TEXT NOT NULL DEFAULT '',
                  notes TEXT NOT NULL DEFAULT '',
                  -- A floating wall-clock time: 'YYYY-MM-DD' or 'YYYY-MM-DDTHH:MM'.
                  dueDate TEXT CHECK (dueDate IS NULL OR length(dueDate) IN (10, 16)),
                  priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN 0 AND 3),
                  isFlagged INTEGER NOT NULL DEFAULT 0 CHECK (isFlagged IN (0, 1)),
                  status TEXT NOT NULL DEFAULT 'incomplete'
                    CHECK (status IN ('incomplete', 'completing', 'completed')),
                  -- When the reminder was completed, 'YYYY-MM-DDTHH:MM:SS', for clearing old ones.
                  completedAt TEXT,
                  position INTEGER NOT NULL DEFAULT 0
                ) STRICT;
                CREATE INDEX reminders_remindersListID ON reminders(remindersListID);
                CREATE INDEX reminders_dueDate ON reminders(dueDate) WHERE dueDate IS NOT NULL;

                CREATE TABLE tags (
                  title TEXT PRIMARY KEY NOT NULL COLLATE NOCASE
                ) STRICT;

                CREATE TABLE remindersTags (
                  id TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT \(uuidExpression),
                  reminderID TEXT NOT NULL REFERENCES reminders(id) ON DELETE CASCADE,
                  tagID TEXT NOT NULL COLLATE NOCASE REFERENCES tags(title) ON DELETE CASCADE ON UPDATE CASCADE
                ) STRICT;
                CREATE INDEX remindersTags_reminderID ON remindersTags(reminderID);
                CREATE INDEX remindersTags_tagID ON remindersTags(tagID);

                -- Full-text search over title, notes and tags. Its rowid is the
                -- reminder's rowid, so triggers find a reminder's entry directly.
                CREATE VIRTUAL TABLE reminderSearch USING fts5(title, notes, tags, tokenize = 'trigram');

                CREATE TRIGGER reminders_search_insert AFTER INSERT ON reminders BEGIN
                  INSERT INTO reminderSearch(rowid, title, notes, tags)
                  VALUES (new.rowid, new.title, new.notes,
                          (SELECT ifnull(group_concat(tagID, ' '), '') FROM remindersTags WHERE reminderID = new.id));
                END;
                CREATE TRIGGER reminders_search_update AFTER UPDATE OF title, notes ON reminders BEGIN
                  UPDATE reminderSearch SET title = new.title, notes = new.notes WHERE rowid = new.rowid;
                END;
                CREATE TRIGGER reminders_search_delete AFTER DELETE ON reminders BEGIN
                  DELETE FROM reminderSearch WHERE rowid = old.rowid;
                END;
                CREATE TRIGGER remindersTags_search_insert AFTER INSERT ON remindersTags BEGIN
                  UPDATE reminderSearch
                  SET tags = (SELECT ifnull(group_concat(tagID, ' '), '') FROM remindersTags WHERE reminderID = new.reminderID)
                  WHERE rowid = (SELECT rowid FROM reminders WHERE id = new.reminderID);
                END;
                CREATE TRIGGER remindersTags_search_update AFTER UPDATE ON remindersTags BEGIN
                  UPDATE reminderSearch
                  SET tags = (SELECT ifnull(group_concat(tagID, ' '), '') FROM remindersTags WHERE reminderID = old.reminderID)
                  WHERE rowid = (SELECT rowid FROM reminders WHERE id = old.reminderID);
                  UPDATE reminderSearch
                  SET tags = (SELECT ifnull(group_concat(tagID, ' '), '') FROM remindersTags WHERE reminderID = new.reminderID)
                  WHERE rowid = (SELECT rowid FROM reminders WHERE id = new.reminderID);
                END;
                CREATE TRIGGER remindersTags_search_delete AFTER DELETE ON remindersTags BEGIN
                  UPDATE reminderSearch
                  SET tags = (SELECT ifnull(group_concat(tagID, ' '), '') FROM remindersTags WHERE reminderID = old.reminderID)
                  WHERE rowid = (SELECT rowid FROM reminders WHERE id = old.reminderID);
                END;
                """)
        }
        migrator.registerMigration("v2: counts kept by triggers, indexes for screens") { db in
            try db.execute(sql: countsSQL)
        }
        migrator.registerMigration("v3: indexes for a list's open reminders and a reminder's tags") { db in
            // The first rows of a list of 30,000 sorted by due date, or in
            // the user's order, come from walking these (`Queries.orderBy`
            // without completed rows) instead of sorting the list.
            try db.execute(sql: """
                CREATE INDEX reminders_open_list_due
                  ON reminders(remindersListID, dueDate IS NULL, dueDate, position, id) WHERE status != 'completed';
                CREATE INDEX reminders_open_list_position
                  ON reminders(remindersListID, position, id) WHERE status != 'completed';

                -- A reminder's tags in the order rows show them, from the
                -- index alone (tagID sorts NOCASE, as declared); foreign-key
                -- lookups use its prefix.
                CREATE INDEX remindersTags_reminder_tag ON remindersTags(reminderID, tagID);
                DROP INDEX remindersTags_reminderID;
                """)
        }
        migrator.registerMigration("v4: lists in their order") { db in
            // All, in the user's order, walks the lists in this order and
            // each list's open reminders in theirs (`Queries.reminders`),
            // instead of sorting every reminder.
            try db.execute(sql: "CREATE INDEX remindersLists_order ON remindersLists(position, id)")
        }
        migrator.registerMigration("v5: tags keyed by a canonical key, their spelling a field") { db in
            try migrateToTagKeys(db)
        }
        migrator.registerMigration("v6: the due alerts this device showed") { db in
            // Made by the app itself before this migration: IF NOT EXISTS.
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS local_alertsShown (
                  reminderID TEXT NOT NULL,
                  -- The due date the alert was for, as stored: 'YYYY-MM-DD' or 'YYYY-MM-DDTHH:MM'.
                  dueDate TEXT NOT NULL,
                  -- When it was shown, 'YYYY-MM-DDTHH:MM:SS' of the app clock.
                  alertedAt TEXT NOT NULL,
                  -- Set when the user took it off the Home screen's Due now section.
                  dismissedAt TEXT,
                  PRIMARY KEY (reminderID, dueDate)
                ) STRICT
                """)
        }
        migrator.registerMigration("v7: this device's view settings and first-run answer") { db in
            // Device-local like local_alertsShown: never synced, so a list
            // sorted by priority here stays manual on the phone.
            try db.execute(sql: """
                CREATE TABLE local_viewSettings (
                  -- `ViewSettings.key(of:)`: 'list:<id>', 'today', 'tag:<key>', ...
                  filter TEXT PRIMARY KEY NOT NULL,
                  sort TEXT NOT NULL,
                  showCompleted INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE local_settings (
                  key TEXT PRIMARY KEY NOT NULL,
                  value TEXT NOT NULL
                ) STRICT;
                """)
        }
        migrator.registerMigration("v8: subtasks, repeat rules and early alerts") { db in
            // New synced columns, all NULL for rows written before: no
            // parent, no repeat, alerting at the due time. A device of an
            // earlier version keeps them on the server when it edits a row
            // (records are built on the server's last version).
            try db.execute(sql: """
                -- The reminder this one is a subtask of, in the same list. One
                -- level deep (`Subtasks`): a subtask has no subtasks.
                ALTER TABLE reminders ADD COLUMN parentID TEXT REFERENCES reminders(id) ON DELETE CASCADE;
                -- An RRULE (`RepeatRule.rrule`) anchored at the due date.
                ALTER TABLE reminders ADD COLUMN repeatRule TEXT CHECK (repeatRule IS NULL OR length(repeatRule) <= 500);
                -- On a completed occurrence's copy: the repeating reminder it came from.
                -- Not a foreign key: the copy stays when the series is deleted.
                ALTER TABLE reminders ADD COLUMN repeatOf TEXT;
                -- Seconds before the due time the alert comes; NULL alerts at the due time.
                ALTER TABLE reminders ADD COLUMN alertBefore INTEGER CHECK (alertBefore IS NULL OR alertBefore BETWEEN 0 AND \(AlertBefore.maximumSeconds));

                CREATE INDEX reminders_parentID ON reminders(parentID) WHERE parentID IS NOT NULL;
                CREATE INDEX reminders_repeating ON reminders(id) WHERE repeatRule IS NOT NULL AND status != 'completed';
                CREATE INDEX reminders_repeatOf ON reminders(repeatOf) WHERE repeatOf IS NOT NULL;
                """)
        }
        migrator.registerMigration("v9: early alerts planned from an index, snoozes before the due time") { db in
            try db.execute(sql: """
                -- Open reminders that alert before their due time: few, and
                -- read whole by the alert scheduler (`DueAlertPlan`), which
                -- reads the others only near now, from reminders_open_due.
                CREATE INDEX reminders_open_alertBefore ON reminders(dueDate)
                  WHERE alertBefore IS NOT NULL AND status != 'completed' AND dueDate IS NOT NULL;
                -- Set while an alert is snoozed on this device without moving
                -- the due date: when it comes again, ISO 8601 in UTC.
                ALTER TABLE local_alertsShown ADD COLUMN snoozedUntil TEXT;
                """)
        }
        migrator.registerMigration("v10: what iCalendar imports keep, and the vdir files this device saw") { db in
            try db.execute(sql: """
                -- The kept part of an imported VTODO (`TodoMapping`): synced,
                -- NULL for reminders that never came from iCalendar.
                ALTER TABLE reminders ADD COLUMN icalendar TEXT
                  CHECK (icalendar IS NULL OR length(CAST(icalendar AS BLOB)) <= \(maximumICalendarBytes));
                -- The vdir folders this device imported from or exported to,
                -- and their lists.
                CREATE TABLE local_icalendarFolders (
                  path TEXT PRIMARY KEY NOT NULL,
                  listID TEXT NOT NULL
                ) STRICT;
                -- Each vdir file as this device last read or wrote it: a file
                -- unchanged since is not imported again, and one changed
                -- there is not overwritten by an export.
                CREATE TABLE local_icalendarFiles (
                  path TEXT PRIMARY KEY NOT NULL,
                  folder TEXT NOT NULL,
                  sha256 TEXT NOT NULL,
                  reminderID TEXT NOT NULL
                ) STRICT;
                CREATE INDEX local_icalendarFiles_folder ON local_icalendarFiles(folder);
                """)
        }
        migrator.registerMigration("v11: triggers and indexes suspended for a bulk load") { db in
            try db.execute(sql: """
                -- The triggers that keep the search index and the counts,
                -- and the secondary indexes, while a big load runs without
                -- them (`DerivedData`): empty whenever they are in place.
                CREATE TABLE local_suspendedSchema (
                  name TEXT PRIMARY KEY NOT NULL,
                  type TEXT NOT NULL CHECK (type IN ('index', 'trigger')),
                  sql TEXT NOT NULL
                ) STRICT;
                """)
        }
        migrator.registerMigration("v12: search without diacritics") { db in
            // A bulk load stopped midway keeps the search triggers aside:
            // they come back first, to be replaced here.
            try DerivedData.resume(db)
            try db.execute(sql: foldedSearchTriggersSQL)
            try db.execute(sql: DerivedData.searchRebuildSQL)
        }
        migrator.registerMigration("v13: titles sort without diacritics") { db in
            // "Éclair" sorted after "zebra" (NOCASE folds ASCII only). The
            // open reminders' title index keeps the new order, so a window
            // of a long list sorted by title is still read from it. A bulk
            // load stopped midway keeps the indexes aside: they come back
            // first, to be replaced here.
            try DerivedData.resume(db)
            try db.execute(sql: """
                DROP INDEX IF EXISTS reminders_open_title;
                CREATE INDEX reminders_open_title ON reminders(title COLLATE reminders_title, id, status)
                  WHERE status != 'completed';
                """)
        }
        migrator.registerMigration("v14: the occurrence a moved due date stands for") { db in
            // A new synced column, NULL for rows written before (each due
            // date its occurrence's own). A device of an earlier version
            // keeps it on the server when it edits a row, as for v8.
            try db.execute(sql: """
                -- On a repeating reminder whose due date was moved off the
                -- rule's schedule: the scheduled due date of the occurrence it
                -- stands for (`Repeats`). Completing it completes that
                -- occurrence, and a move made on another device before that
                -- completion reached it is seen as stale. NULL when the due
                -- date is its occurrence's own.
                ALTER TABLE reminders ADD COLUMN occurrence TEXT;
                """)
        }
        migrator.registerMigration("v15: a search index without column sizes") { db in
            // FTS5 keeps each row's column sizes for ranking (bm25), which
            // search does not use: its hits sort by title. Without them a
            // new device's first download builds the index in about 80 %
            // of the time (41 against 52 ms at 10,000), and each edit
            // writes a row less. The triggers name the table and stay; a
            // bulk load stopped midway keeps the search triggers aside,
            // which come back first.
            try DerivedData.resume(db)
            try db.execute(sql: """
                DROP TABLE reminderSearch;
                \(searchTableSQL)
                """)
            try db.execute(sql: DerivedData.searchRebuildSQL)
        }
        return migrator
    }

    /// The search index from version 15: titles, notes and tags as the
    /// triggers fold them, by trigrams, without the column sizes only
    /// ranking reads.
    static let searchTableSQL = """
        CREATE VIRTUAL TABLE reminderSearch USING fts5(title, notes, tags, tokenize = 'trigram', columnsize = 0);
        """

    /// The triggers that keep the search index, from version 12: the text
    /// goes in through `reminders_fold` (see CSQLiteSetup), so "cafe" finds
    /// "Café" and "café" finds "Cafe"; the search folds what it looks for
    /// the same way. Tags go in with their "#". Replaces those of versions 1 and 5 (the delete's is
    /// unchanged and stays).
    static let foldedSearchTriggersSQL = """
        DROP TRIGGER IF EXISTS reminders_search_insert;
        DROP TRIGGER IF EXISTS reminders_search_update;
        DROP TRIGGER IF EXISTS remindersTags_search_insert;
        DROP TRIGGER IF EXISTS remindersTags_search_update;
        DROP TRIGGER IF EXISTS remindersTags_search_delete;
        DROP TRIGGER IF EXISTS tags_search_insert;
        DROP TRIGGER IF EXISTS tags_search_update;
        \(searchTriggersSQL(text: { "reminders_fold(\($0))" }, tags: foldedSearchTags(ofReminder:)))
        CREATE TRIGGER reminders_search_update AFTER UPDATE OF title, notes ON reminders BEGIN
          UPDATE reminderSearch SET title = reminders_fold(new.title), notes = reminders_fold(new.notes) WHERE rowid = new.rowid;
        END;
        """

    /// The search text of a reminder's tags as the index holds it from
    /// version 12: each with its "#", as rows and snippets show them (so
    /// "#travel" finds the tag, and "travel" the tag and titles alike),
    /// folded.
    static func foldedSearchTags(ofReminder reminderID: String) -> String {
        "reminders_fold(\(searchTags(ofReminder: reminderID, each: "'#' || tags.title")))"
    }

    /// Version 5 keys tags by `TagKey.of(title)` and keeps the spelling in
    /// `title`, an ordinary field; links point at the key and have the id
    /// `ReminderTag.linkID` derives from their reminder and key. Rows whose
    /// keys collide ("Café" and "CAFÉ") become one tag with the spelling
    /// most links carry, and their links one link per reminder.
    ///
    /// The tables are rebuilt, not updated in place: a synced database has
    /// the sync engine's triggers on them, which call functions only the
    /// engine registers, so a write to the old tables would fail here. The
    /// rows are copied aside, the old tables dropped (their triggers go
    /// with them, unfired), and the new ones created and filled; the engine
    /// finds its triggers gone when it attaches and compares the rows with
    /// what the server last sent. Migrations run with foreign keys off, so
    /// dropping the tags cascades to nothing.
    static func migrateToTagKeys(_ db: Database) throws {
        let keyFunction = DatabaseFunction("v5_tag_key", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(TagKey.of)
        }
        let linkFunction = DatabaseFunction("v5_link_id", argumentCount: 2, pure: true) { values in
            guard let reminderID = String.fromDatabaseValue(values[0]), let key = String.fromDatabaseValue(values[1]) else {
                return nil
            }
            return ReminderTag.linkID(reminderID: reminderID, tagKey: key)
        }
        db.add(function: keyFunction)
        db.add(function: linkFunction)
        defer {
            db.remove(function: keyFunction)
            db.remove(function: linkFunction)
        }
        try db.execute(sql: """
            CREATE TEMP TABLE v5_tags AS
              SELECT v5_tag_key(title) AS key, title,
                     (SELECT count(*) FROM remindersTags WHERE remindersTags.tagID = tags.title) AS uses
              FROM tags;
            CREATE TEMP TABLE v5_links AS
              SELECT DISTINCT reminderID, v5_tag_key(tagID) AS key FROM remindersTags
              WHERE reminderID IN (SELECT id FROM reminders);

            -- The links first: were foreign keys on, dropping the tags would
            -- delete their links one by one, through the links' triggers.
            DROP TABLE remindersTags;
            DROP TABLE tags;
            DROP TABLE tagReminderCounts;
            DROP TRIGGER reminders_search_insert;

            \(tagsSQL)

            INSERT INTO tags (id, title)
              SELECT key, title FROM (
                SELECT key, title, row_number() OVER (PARTITION BY key ORDER BY uses DESC, title COLLATE BINARY) AS rank
                FROM v5_tags)
              WHERE rank = 1;
            INSERT INTO remindersTags (id, reminderID, tagID)
              SELECT v5_link_id(reminderID, key), reminderID, key FROM v5_links
              WHERE key IN (SELECT id FROM tags);
            DROP TABLE v5_tags;
            DROP TABLE v5_links;

            \(tagCountsFromRowsSQL)
            -- The search text of tags becomes their titles; rewriting an
            -- entry of the index is the slow part, so only the entries
            -- whose text changes are.
            CREATE TEMP TABLE v5_search AS
              SELECT reminders.rowid AS reminderRowID, \(searchTags(ofReminder: "reminders.id")) AS tags FROM reminders;
            DELETE FROM v5_search WHERE tags IS (SELECT tags FROM reminderSearch WHERE rowid = reminderRowID);
            UPDATE reminderSearch SET tags = (SELECT tags FROM v5_search WHERE reminderRowID = reminderSearch.rowid)
              WHERE rowid IN (SELECT reminderRowID FROM v5_search);
            DROP TABLE v5_search;

            \(tagTriggersSQL)
            """)
    }

    /// The search text of a reminder's tags: their titles, as shown, each
    /// as `each` makes it from `tags.title` (version 12 puts a "#" before).
    static func searchTags(ofReminder reminderID: String, each: String = "tags.title") -> String {
        """
        (SELECT ifnull(group_concat(\(each), ' '), '') FROM remindersTags JOIN tags ON tags.id = remindersTags.tagID
         WHERE remindersTags.reminderID = \(reminderID))
        """
    }

    /// The tag tables of version 5, with their indexes and the table of
    /// counts that depends on them.
    static let tagsSQL = """
        CREATE TABLE tags (
          -- TagKey.of(title): "Work" and "work" are one tag.
          id TEXT PRIMARY KEY NOT NULL,
          -- The spelling shown.
          title TEXT NOT NULL
        ) STRICT;

        -- A link's id is ReminderTag.linkID(reminderID, tagID). Keys never
        -- change (a rename to another key is a new tag), so nothing cascades
        -- on update.
        CREATE TABLE remindersTags (
          id TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT \(uuidExpression),
          reminderID TEXT NOT NULL REFERENCES reminders(id) ON DELETE CASCADE,
          tagID TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE
        ) STRICT;
        -- A reminder's tags in key order, the order rows show them in, from
        -- the index; foreign-key lookups use its prefix.
        CREATE INDEX remindersTags_reminder_tag ON remindersTags(reminderID, tagID);
        CREATE INDEX remindersTags_tagID ON remindersTags(tagID);

        CREATE TABLE tagReminderCounts (
          tagID TEXT PRIMARY KEY NOT NULL,
          linkCount INTEGER NOT NULL DEFAULT 0,
          openCount INTEGER NOT NULL DEFAULT 0
        ) STRICT, WITHOUT ROWID;
        """

    /// Triggers that keep the search text and the tag counts of version 5.
    /// The search holds the tags' titles, so a tag respelled (here or by
    /// another device) is found under its new spelling. The counts'
    /// triggers on `reminders` (from version 2) read the links by key and
    /// stay as they are.
    static let tagTriggersSQL = """
        \(searchTriggersSQL(text: { $0 }, tags: { searchTags(ofReminder: $0) }))

        \(linkCountTriggersSQL)
        """

    /// The triggers that keep a new reminder's search text and its tags'
    /// text as links and tags change, with `text` around a title or notes
    /// and `tags` giving a reminder's tags' text: as typed in version 5,
    /// folded from version 12. (A title or notes edited are kept by
    /// `reminders_search_update`: version 1's, then version 12's.)
    static func searchTriggersSQL(text: (String) -> String, tags: (String) -> String) -> String {
        let byRowID = "(SELECT id FROM reminders WHERE rowid = reminderSearch.rowid)"
        // The tags text of the reminder `key` names, read again.
        func retag(_ key: String) -> String {
            """
              UPDATE reminderSearch SET tags = \(tags(key))
              WHERE rowid = (SELECT rowid FROM reminders WHERE id = \(key));
            """
        }
        return """
            CREATE TRIGGER reminders_search_insert AFTER INSERT ON reminders BEGIN
              INSERT INTO reminderSearch(rowid, title, notes, tags)
              VALUES (new.rowid, \(text("new.title")), \(text("new.notes")), \(tags("new.id")));
            END;
            CREATE TRIGGER remindersTags_search_insert AFTER INSERT ON remindersTags BEGIN
            \(retag("new.reminderID"))
            END;
            CREATE TRIGGER remindersTags_search_update AFTER UPDATE ON remindersTags BEGIN
            \(retag("old.reminderID"))
            \(retag("new.reminderID"))
            END;
            CREATE TRIGGER remindersTags_search_delete AFTER DELETE ON remindersTags BEGIN
            \(retag("old.reminderID"))
            END;
            -- A link may arrive before its tag (foreign keys are checked at the
            -- commit), and a tag's title may change: both re-read the text of
            -- the reminders that carry the tag.
            CREATE TRIGGER tags_search_insert AFTER INSERT ON tags BEGIN
              UPDATE reminderSearch SET tags = \(tags(byRowID))
              WHERE rowid IN (SELECT reminders.rowid FROM remindersTags JOIN reminders ON reminders.id = remindersTags.reminderID
                              WHERE remindersTags.tagID = new.id);
            END;
            CREATE TRIGGER tags_search_update AFTER UPDATE ON tags BEGIN
              UPDATE reminderSearch SET tags = \(tags(byRowID))
              WHERE rowid IN (SELECT reminders.rowid FROM remindersTags JOIN reminders ON reminders.id = remindersTags.reminderID
                              WHERE remindersTags.tagID IN (old.id, new.id));
            END;
            """
    }

    /// The triggers that keep `tagReminderCounts` as links come and go:
    /// created by v2, and again by v5 when it rebuilds the link table.
    static let linkCountTriggersSQL = """
        CREATE TRIGGER counts_remindersTags_insert AFTER INSERT ON remindersTags BEGIN
          INSERT INTO tagReminderCounts (tagID, linkCount, openCount)
          VALUES (new.tagID, 1, EXISTS (SELECT 1 FROM reminders WHERE id = new.reminderID AND status != 'completed'))
          ON CONFLICT (tagID) DO UPDATE SET linkCount = linkCount + 1, openCount = openCount + excluded.openCount;
        END;

        CREATE TRIGGER counts_remindersTags_update AFTER UPDATE OF tagID, reminderID ON remindersTags BEGIN
          UPDATE tagReminderCounts SET linkCount = linkCount - 1,
            openCount = openCount - EXISTS (SELECT 1 FROM reminders WHERE id = old.reminderID AND status != 'completed')
          WHERE tagID = old.tagID;
          INSERT INTO tagReminderCounts (tagID, linkCount, openCount)
          VALUES (new.tagID, 1, EXISTS (SELECT 1 FROM reminders WHERE id = new.reminderID AND status != 'completed'))
          ON CONFLICT (tagID) DO UPDATE SET linkCount = linkCount + 1, openCount = openCount + excluded.openCount;
          DELETE FROM tagReminderCounts WHERE tagID = old.tagID AND linkCount <= 0;
        END;

        CREATE TRIGGER counts_remindersTags_delete AFTER DELETE ON remindersTags BEGIN
          UPDATE tagReminderCounts SET linkCount = linkCount - 1,
            openCount = openCount - EXISTS (SELECT 1 FROM reminders WHERE id = old.reminderID AND status != 'completed')
          WHERE tagID = old.tagID;
          DELETE FROM tagReminderCounts WHERE tagID = old.tagID AND linkCount <= 0;
        END;
        """

    /// Every list's counts from the rows, into an empty table: the first
    /// fill of version 2, and what a bulk load builds (`DerivedData`).
    ///
    /// `+` keeps the planner off the list's index for the grouping: walking
    /// it reads the rows in its order, a jump into the table for each, where
    /// reading the table straight through and sorting the groups takes half
    /// the time (100,000 reminders: 130 → 68 ms).
    static let listCountsFromRowsSQL = """
        INSERT INTO listReminderCounts (remindersListID, openCount, completedCount, openFlaggedCount, openScheduledCount)
        SELECT remindersListID, sum(status != 'completed'), sum(status = 'completed'),
               sum(status != 'completed' AND isFlagged), sum(status != 'completed' AND dueDate IS NOT NULL)
        FROM reminders GROUP BY +remindersListID;
        """

    /// Every tag's counts from the rows, into an empty table.
    ///
    /// `+`, as for the lists: grouped by the tag's index, every link was a
    /// jump into the links' table and another into the reminders'; read
    /// from the index of links by reminder, the links come without their
    /// table and their reminders in key order (100,000 reminders: 310-450
    /// → 80-100 ms).
    static let tagCountsFromRowsSQL = """
        INSERT INTO tagReminderCounts (tagID, linkCount, openCount)
        SELECT remindersTags.tagID, count(*), count(reminders.id)
        FROM remindersTags LEFT JOIN reminders ON reminders.id = remindersTags.reminderID AND reminders.status != 'completed'
        GROUP BY +remindersTags.tagID;
        """

    /// The home screen shows how many open reminders each list, each tag
    /// and each smart list holds. Counted on every read, that is a scan of
    /// every reminder and every tag link (0.4 s at 100,000 reminders); kept
    /// here by triggers, it is a read of a few dozen rows. The tables are
    /// derived data, local to the device and never synced; the triggers
    /// fire for every write, the sync engine's included.
    ///
    /// "Open" means not completed: reminders still "completing" count.
    /// Links may be written before their reminder (foreign keys deferred to
    /// the commit), so the reminder's insert counts the links it finds.
    /// Deleting a reminder deletes its links by cascade after the reminder
    /// row is gone, when a link trigger can no longer see whether it was
    /// open: the reminder's BEFORE DELETE trigger takes its links' open
    /// counts back instead.
    static let countsSQL = """
        CREATE TABLE listReminderCounts (
          remindersListID TEXT PRIMARY KEY NOT NULL,
          openCount INTEGER NOT NULL DEFAULT 0,
          completedCount INTEGER NOT NULL DEFAULT 0,
          openFlaggedCount INTEGER NOT NULL DEFAULT 0,
          openScheduledCount INTEGER NOT NULL DEFAULT 0
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE tagReminderCounts (
          tagID TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
          linkCount INTEGER NOT NULL DEFAULT 0,
          openCount INTEGER NOT NULL DEFAULT 0
        ) STRICT, WITHOUT ROWID;

        \(listCountsFromRowsSQL)

        \(tagCountsFromRowsSQL)

        CREATE TRIGGER counts_reminders_insert AFTER INSERT ON reminders BEGIN
          INSERT INTO listReminderCounts (remindersListID, openCount, completedCount, openFlaggedCount, openScheduledCount)
          VALUES (new.remindersListID, new.status != 'completed', new.status = 'completed',
                  new.status != 'completed' AND new.isFlagged, new.status != 'completed' AND new.dueDate IS NOT NULL)
          ON CONFLICT (remindersListID) DO UPDATE SET
            openCount = openCount + excluded.openCount, completedCount = completedCount + excluded.completedCount,
            openFlaggedCount = openFlaggedCount + excluded.openFlaggedCount,
            openScheduledCount = openScheduledCount + excluded.openScheduledCount;
          UPDATE tagReminderCounts SET openCount = openCount + 1
          WHERE new.status != 'completed' AND tagID IN (SELECT tagID FROM remindersTags WHERE reminderID = new.id);
        END;

        CREATE TRIGGER counts_reminders_update AFTER UPDATE OF remindersListID, status, isFlagged, dueDate ON reminders BEGIN
          UPDATE listReminderCounts SET
            openCount = openCount - (old.status != 'completed'), completedCount = completedCount - (old.status = 'completed'),
            openFlaggedCount = openFlaggedCount - (old.status != 'completed' AND old.isFlagged),
            openScheduledCount = openScheduledCount - (old.status != 'completed' AND old.dueDate IS NOT NULL)
          WHERE remindersListID = old.remindersListID;
          INSERT INTO listReminderCounts (remindersListID, openCount, completedCount, openFlaggedCount, openScheduledCount)
          VALUES (new.remindersListID, new.status != 'completed', new.status = 'completed',
                  new.status != 'completed' AND new.isFlagged, new.status != 'completed' AND new.dueDate IS NOT NULL)
          ON CONFLICT (remindersListID) DO UPDATE SET
            openCount = openCount + excluded.openCount, completedCount = completedCount + excluded.completedCount,
            openFlaggedCount = openFlaggedCount + excluded.openFlaggedCount,
            openScheduledCount = openScheduledCount + excluded.openScheduledCount;
          UPDATE tagReminderCounts SET openCount = openCount + (new.status != 'completed') - (old.status != 'completed')
          WHERE (new.status != 'completed') != (old.status != 'completed')
            AND tagID IN (SELECT tagID FROM remindersTags WHERE reminderID = new.id);
        END;

        CREATE TRIGGER counts_reminders_delete AFTER DELETE ON reminders BEGIN
          UPDATE listReminderCounts SET
            openCount = openCount - (old.status != 'completed'), completedCount = completedCount - (old.status = 'completed'),
            openFlaggedCount = openFlaggedCount - (old.status != 'completed' AND old.isFlagged),
            openScheduledCount = openScheduledCount - (old.status != 'completed' AND old.dueDate IS NOT NULL)
          WHERE remindersListID = old.remindersListID;
        END;

        CREATE TRIGGER counts_reminders_delete_links BEFORE DELETE ON reminders WHEN old.status != 'completed' BEGIN
          UPDATE tagReminderCounts SET openCount = openCount - 1
          WHERE tagID IN (SELECT tagID FROM remindersTags WHERE reminderID = old.id);
        END;

        CREATE TRIGGER counts_remindersLists_delete AFTER DELETE ON remindersLists BEGIN
          DELETE FROM listReminderCounts WHERE remindersListID = old.id;
        END;

        \(linkCountTriggersSQL)

        -- A list's reminders in the orders its screen shows them, with
        -- everything the sort and the counts read: the first rows of a list
        -- of 30,000 come from the index alone. Replaces the plain index on
        -- remindersListID (foreign-key lookups use this one's prefix).
        CREATE INDEX reminders_list_order ON reminders(remindersListID, status, dueDate, position, id);
        DROP INDEX reminders_remindersListID;

        -- Open reminders with a due date, for Today and past due: a range
        -- of this index instead of a scan.
        CREATE INDEX reminders_open_due ON reminders(dueDate) WHERE status != 'completed' AND dueDate IS NOT NULL;

        -- Search: hits sorted by title come from walking this index (open
        -- reminders) rather than reading every hit's row; the completed
        -- count, from the second.
        CREATE INDEX reminders_open_title ON reminders(title COLLATE NOCASE, id, status) WHERE status != 'completed';
        CREATE INDEX reminders_completed ON reminders(status) WHERE status = 'completed';
        """
}
