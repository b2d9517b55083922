import GRDB

/// The engine's own tables, kept in the same SQLite file as the user's
/// tables so that an edit and its pending-change entry commit together.
///
/// Versioned apart from the app's migrations (a key in `sync_state`), so
/// the app's migrator never sees migrations it does not know.
enum SyncSchema {
    static let version = 9

    /// Whether the engine's tables are installed at this version (a read).
    static func isCurrent(_ db: Database) throws -> Bool {
        guard try db.hasTable("sync_state") else { return false }
        return try SyncState.value(db, "schemaVersion", as: Int.self) == version
    }

    static func install(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS sync_state (
              key TEXT PRIMARY KEY NOT NULL,
              value ANY
            ) STRICT;
            """)
        let installed = try SyncState.value(db, "schemaVersion", as: Int.self) ?? 0
        if installed > version {
            throw SyncError.database("the sync data in this database was written by a newer version of reminders; upgrade reminders")
        }
        guard installed < version else { return }
        if installed < 1 { try installVersion1(db) }
        if installed < 2 {
            // The string fields of a share's root record as the server shows
            // it to an invitee (JSON {field: text}), so an invitation can be
            // named before its rows arrive.
            try db.execute(sql: "ALTER TABLE sync_shares ADD COLUMN rootPreview TEXT")
        }
        if installed < 3 {
            // Why an edit was dropped (nil for a merge): `ConflictCause`;
            // who caused it (the owner who changed a share); and what the
            // shared list was called, to name it once it is gone here.
            let present = Set(try db.columns(in: "sync_conflicts").map(\.name))
            for column in ["cause", "byUser", "subject"] where !present.contains(column) {
                try db.execute(sql: "ALTER TABLE sync_conflicts ADD COLUMN \(column) TEXT")
            }
        }
        if installed < 4 {
            // Deletes of the user's own rows, confirmed or applied here, sent
            // again when the device re-joins a server put back from a copy.
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS sync_tombstones (
                  recordType TEXT NOT NULL,
                  recordName TEXT NOT NULL,
                  zoneName TEXT NOT NULL,
                  ownerName TEXT NOT NULL,
                  deletedAt INTEGER NOT NULL,
                  PRIMARY KEY (recordType, recordName)
                ) STRICT;
                """)
        }
        if installed < 5 {
            // The log's entries by record (a dropped edit is logged once:
            // `logConflict` looks it up), and old deletes by age.
            try db.execute(sql: """
                CREATE INDEX IF NOT EXISTS sync_conflicts_record ON sync_conflicts(recordType, recordName);
                CREATE INDEX IF NOT EXISTS sync_tombstones_deletedAt ON sync_tombstones(deletedAt);
                """)
        }
        // Version 6 writes last-known records in version 2 of
        // `RecordArchive`, which a version before it cannot read: the
        // number moves so that such a version refuses the file with one
        // clear line rather than failing on the first record it reads.
        // Nothing here changes; version 1 archives still read.
        if installed < 7 {
            // The last-known records of the one store this device left
            // (`Rejoin`): the ancestors if it comes back. A version before
            // this one would re-join without them, taking the other
            // store's records for ancestors, and refuses the file instead.
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS sync_left_ancestors (
                  storeID TEXT NOT NULL,
                  recordType TEXT NOT NULL,
                  recordName TEXT NOT NULL,
                  record BLOB NOT NULL,
                  PRIMARY KEY (storeID, recordType, recordName)
                ) STRICT;
                """)
        }
        if installed < 8 {
            // (The column is additive, but an older version, which would not
            // fill it, refuses the file, as for version 6.)
            // The latest field edit time of the version a remembered delete
            // was made against: a version a re-join fetches with edits after
            // it holds edits this device never saw, which the delete beats,
            // logged (`applyFetchedRecord`). Null for deletes remembered
            // before.
            if try !db.columns(in: "sync_tombstones").contains(where: { $0.name == "seenThrough" }) {
                try db.execute(sql: "ALTER TABLE sync_tombstones ADD COLUMN seenThrough INTEGER")
            }
        }
        if installed < 9 {
            // Fetched records whose asset (a list's cover image) the server
            // could not give: kept and tried again at every fetch, while the
            // rest of the sync goes on (`WaitingAssets`). A version before
            // this one would fail every fetch on such an asset instead.
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS sync_waiting_assets (
                  recordName TEXT NOT NULL,
                  zoneName TEXT NOT NULL,
                  ownerName TEXT NOT NULL,
                  record BLOB NOT NULL,
                  -- The first text of the record or of its parent, read when
                  -- it was set aside (a list's title), to name it.
                  subject TEXT,
                  problem TEXT NOT NULL,
                  PRIMARY KEY (recordName, zoneName, ownerName)
                ) STRICT;

                -- Another person's edits a merge here beat, as JSON
                -- [LostEdit], sent with the row's next save so that their
                -- devices log the loss (`LostEdit`).
                CREATE TABLE IF NOT EXISTS sync_lost_edits (
                  recordType TEXT NOT NULL,
                  recordName TEXT NOT NULL,
                  lost TEXT NOT NULL,
                  PRIMARY KEY (recordType, recordName)
                ) STRICT;
                """)
        }
        try SyncState.set(db, "schemaVersion", version)
    }

    private static func installVersion1(_ db: Database) throws {
        try db.execute(sql: """
            -- One row per synced row (and per deleted row not yet confirmed
            -- deleted on the server).
            CREATE TABLE sync_metadata (
              recordType TEXT NOT NULL,
              recordName TEXT NOT NULL,
              -- The zone the record lives in on the server, once known.
              zoneName TEXT,
              ownerName TEXT,
              -- The last server record the server confirmed or sent (a
              -- RecordArchive; JSON in databases written before it);
              -- never a record under construction or a merged one.
              lastKnownServerRecord BLOB,
              -- JSON {column: time} of local edits not yet confirmed.
              editTimes TEXT NOT NULL DEFAULT '{}',
              isPendingSave INTEGER NOT NULL DEFAULT 0,
              isPendingDelete INTEGER NOT NULL DEFAULT 0,
              -- Bumped by every captured edit, so a send can tell whether
              -- the row changed while the request was in flight.
              changeCount INTEGER NOT NULL DEFAULT 0,
              PRIMARY KEY (recordType, recordName)
            ) STRICT; -- a rowid table: SQLite reports changes of rowid tables only, and the app observes this one
            CREATE INDEX sync_metadata_pending ON sync_metadata(recordType) WHERE isPendingSave OR isPendingDelete;

            -- The hybrid logical clock: max(wall clock, last seen + 1).
            CREATE TABLE sync_clock (
              id INTEGER PRIMARY KEY CHECK (id = 1),
              hlc INTEGER NOT NULL
            ) STRICT;
            INSERT INTO sync_clock (id, hlc) VALUES (1, 0);

            CREATE TABLE sync_zones (
              scope TEXT NOT NULL,
              zoneName TEXT NOT NULL,
              ownerName TEXT NOT NULL,
              token INTEGER,
              isCreated INTEGER NOT NULL DEFAULT 0,
              PRIMARY KEY (scope, zoneName, ownerName)
            ) STRICT;

            -- Records fetched before their parent: applied when it arrives.
            CREATE TABLE sync_held_records (
              recordType TEXT NOT NULL,
              recordName TEXT NOT NULL,
              parentType TEXT NOT NULL,
              parentName TEXT NOT NULL,
              record BLOB NOT NULL,
              PRIMARY KEY (recordType, recordName)
            ) STRICT;
            CREATE INDEX sync_held_records_parent ON sync_held_records(parentType, parentName);

            -- Every true conflict, for the user to see and undo.
            CREATE TABLE sync_conflicts (
              id TEXT PRIMARY KEY NOT NULL,
              recordType TEXT NOT NULL,
              recordName TEXT NOT NULL,
              field TEXT NOT NULL,
              ancestor TEXT,
              local TEXT,
              remote TEXT,
              localTime INTEGER,
              remoteTime INTEGER,
              winner TEXT NOT NULL CHECK (winner IN ('local', 'remote', 'delete')),
              localDevice TEXT,
              remoteDevice TEXT,
              resolvedAt INTEGER NOT NULL,
              isDismissed INTEGER NOT NULL DEFAULT 0
            ) STRICT;
            CREATE INDEX sync_conflicts_resolvedAt ON sync_conflicts(resolvedAt);

            -- Shares this user owns or was invited to, as of the last sync.
            CREATE TABLE sync_shares (
              id TEXT PRIMARY KEY NOT NULL,
              rootRecordType TEXT NOT NULL,
              rootRecordName TEXT NOT NULL,
              zoneName TEXT NOT NULL,
              ownerName TEXT NOT NULL,
              -- JSON [{userName, permission, status}]
              participants TEXT NOT NULL
            ) STRICT;
            CREATE INDEX sync_shares_root ON sync_shares(rootRecordType, rootRecordName);
            """)
    }
}
