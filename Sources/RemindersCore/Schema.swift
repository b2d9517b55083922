import GRDB

/// The reminders schema, as SQL migrations.
///
/// Rules every synced table follows (the sync engine checks them):
/// a single TEXT primary key that fills itself in when NULL is inserted, no
/// UNIQUE constraints besides the primary key, and foreign keys only to other
/// synced tables with ON DELETE CASCADE. Tags are keyed by their title
/// (case-insensitive) so that two devices creating "Work" at once end with
/// one tag.
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

    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: lists, reminders, tags, search") { db in
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
        return migrator
    }

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

        INSERT INTO listReminderCounts (remindersListID, openCount, completedCount, openFlaggedCount, openScheduledCount)
        SELECT remindersListID, sum(status != 'completed'), sum(status = 'completed'),
               sum(status != 'completed' AND isFlagged), sum(status != 'completed' AND dueDate IS NOT NULL)
        FROM reminders GROUP BY remindersListID;

        INSERT INTO tagReminderCounts (tagID, linkCount, openCount)
        SELECT remindersTags.tagID, count(*), count(reminders.id)
        FROM remindersTags LEFT JOIN reminders ON reminders.id = remindersTags.reminderID AND reminders.status != 'completed'
        GROUP BY remindersTags.tagID;

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
