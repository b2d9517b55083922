import CSQLiteSetup
import Foundation
import GRDB

/// The layout of `server.sqlite`, and the one place that creates it.
///
/// The format version lives in `PRAGMA user_version` so that an older program
/// refuses a store written by a newer one instead of misreading it.
enum Schema {
    /// Bumped whenever the layout changes in a way older code cannot read
    /// or would write wrongly. 2: `commitLog` (older code would write
    /// without it, and devices would take the store for another one).
    static let formatVersion = 2

    /// Refuses a store that a newer program wrote, through a read-only
    /// connection, before anything opens it for writing: opening a
    /// `DatabasePool` writes to the file, and a store this program refuses
    /// must stay exactly as it was. A missing or empty file passes.
    static func refuseNewerStore(file: String, directory: String) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0
        guard size > 0 else { return }
        _ = reminders_sqlite_setup()
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(DirectoryServer.busyTimeout)
        let queue = try DatabaseQueue(path: file, configuration: configuration)
        defer { try? queue.close() }
        let version = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
        if version > formatVersion {
            throw newerVersion(directory, version)
        }
    }

    static func newerVersion(_ path: String, _ version: Int) -> CloudError {
        .incompatibleVersion("server at \(path) was written by a newer version of reminders (format \(version)); upgrade reminders")
    }

    /// Creates the tables in an empty database, or checks that an existing one
    /// is a store this program can read. Runs inside an IMMEDIATE transaction,
    /// so two processes opening a new directory at once create it once.
    static func prepare(_ db: Database, path: String) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if version > formatVersion {
            throw newerVersion(path, version)
        }
        if version == formatVersion { return }
        if version == 1 {
            try createCommitLog(db)
            try db.execute(sql: "PRAGMA user_version = \(formatVersion)")
            return
        }
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        if !tables.isEmpty {
            throw CloudError.serverUnavailable(
                "\(path)/server.sqlite is not a reminders server (it holds tables \(tables.sorted().joined(separator: ", "))); point --server at a new directory")
        }
        try create(db)
        try createCommitLog(db)
        try db.execute(sql: "PRAGMA user_version = \(formatVersion)")
    }

    /// One row per write request that changed anything: its last change
    /// sequence and a random id. A device remembers the pair of the last
    /// head it saw; a store restored from an older copy and written to
    /// since hands out the same sequences again, but under other ids, so
    /// the device can tell it is not the history it synced with (see
    /// `ServerIdentity`). Rows are kept when tombstones are compacted:
    /// about 40 bytes per request.
    private static func createCommitLog(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS commitLog (
                sequence INTEGER PRIMARY KEY NOT NULL,
                id TEXT NOT NULL
            );
            """)
    }

    private static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE meta (
                key TEXT PRIMARY KEY NOT NULL,
                value NOT NULL
            );

            -- A zone row outlives its deletion as a tombstone (deletedSequence
            -- set) so that database change feeds can report it.
            CREATE TABLE zone (
                ownerName TEXT NOT NULL,
                name TEXT NOT NULL,
                createdSequence INTEGER NOT NULL,
                changeSequence INTEGER NOT NULL,
                deletedSequence INTEGER,
                PRIMARY KEY (ownerName, name)
            );
            CREATE INDEX zone_changes ON zone(ownerName, changeSequence);

            -- One row per record identity: its latest version, or its
            -- tombstone (isDeleted = 1, fields emptied) once deleted.
            CREATE TABLE record (
                ownerName TEXT NOT NULL,
                zoneName TEXT NOT NULL,
                recordName TEXT NOT NULL,
                recordType TEXT NOT NULL,
                fields TEXT NOT NULL,
                fieldModificationTimes TEXT NOT NULL,
                parentOwnerName TEXT,
                parentZoneName TEXT,
                parentRecordName TEXT,
                changeTag TEXT,
                modificationDate REAL NOT NULL,
                modifiedByUser TEXT NOT NULL,
                modifiedByDevice TEXT NOT NULL,
                sequence INTEGER NOT NULL,
                isDeleted INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (ownerName, zoneName, recordName),
                FOREIGN KEY (ownerName, zoneName) REFERENCES zone(ownerName, name) ON DELETE CASCADE
            );
            CREATE INDEX record_changes ON record(ownerName, zoneName, sequence);
            CREATE INDEX record_children ON record(parentOwnerName, parentZoneName, parentRecordName);
            CREATE INDEX record_tombstones ON record(sequence) WHERE isDeleted;

            CREATE TABLE share (
                id TEXT PRIMARY KEY NOT NULL,
                ownerName TEXT NOT NULL,
                zoneName TEXT NOT NULL,
                rootRecordName TEXT NOT NULL,
                createdSequence INTEGER NOT NULL,
                UNIQUE (ownerName, zoneName, rootRecordName)
            );

            CREATE TABLE participant (
                shareID TEXT NOT NULL REFERENCES share(id) ON DELETE CASCADE,
                userName TEXT NOT NULL,
                permission TEXT NOT NULL CHECK (permission IN ('read-only', 'read-write')),
                status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'removed')),
                sequence INTEGER NOT NULL,
                PRIMARY KEY (shareID, userName)
            );
            CREATE INDEX participant_user ON participant(userName);

            -- What each participant's shared database holds: a row per record
            -- the participant can see or once saw. `sequence` moves whenever
            -- the record changes while visible or its visibility flips, so a
            -- participant's change feed is this table ordered by sequence, and
            -- an invisible row is that participant's tombstone.
            CREATE TABLE sharedView (
                userName TEXT NOT NULL,
                ownerName TEXT NOT NULL,
                zoneName TEXT NOT NULL,
                recordName TEXT NOT NULL,
                recordType TEXT NOT NULL,
                isVisible INTEGER NOT NULL,
                sequence INTEGER NOT NULL,
                PRIMARY KEY (userName, ownerName, zoneName, recordName)
            );
            CREATE INDEX sharedView_changes ON sharedView(userName, ownerName, zoneName, sequence);
            CREATE INDEX sharedView_record ON sharedView(ownerName, zoneName, recordName);
            CREATE INDEX sharedView_tombstones ON sharedView(sequence) WHERE NOT isVisible;
            """)
        try db.execute(
            sql: "INSERT INTO meta (key, value) VALUES (?, 0), (?, 0), (?, ?)",
            arguments: [StoreMeta.sequence, StoreMeta.compactedThrough, StoreMeta.serverID, StoreMeta.randomHex(bytes: 4)])
    }
}
