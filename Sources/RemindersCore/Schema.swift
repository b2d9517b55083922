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
        return migrator
    }
}
