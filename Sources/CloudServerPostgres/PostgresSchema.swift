import CloudServer
import Foundation

/// The tables of a PostgreSQL store: those of the directory store
/// (`server.sqlite`, see the CloudServer module's `Schema`) in PostgreSQL's
/// types, plus the accounts and the asset bytes, which a directory keeps
/// in files of their own.
enum PostgresSchema {
    static let tables = ["meta", "zone", "record", "share", "participant", "sharedview", "commitlog", "asset", "accounts"]

    /// Creates the tables in a database that has none of them, or checks
    /// that the store there is one this program can use. Runs under a
    /// transaction-wide advisory lock, so servers started at once create
    /// it once.
    static func prepare(_ session: StoreSession, address: PostgresAddress) throws {
        try session.inTransaction("BEGIN") {
            try session.execute("SELECT pg_advisory_xact_lock(hashtext('reminders-store'))")
            let present = Set(try session.texts("""
                SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
                """))
            if present.contains("meta") {
                let version = try session.integer("SELECT value FROM meta WHERE key = 'formatVersion'") ?? 0
                if version > PostgresStore.formatVersion {
                    throw CloudError.incompatibleVersion(
                        "the PostgreSQL store \(address) was written by a newer version of reminders (format \(version)); upgrade reminders")
                }
                if version == 0 {
                    throw CloudError.serverUnavailable(
                        "the database of \(address) holds a table meta that is not a reminders store's; use another database")
                }
                return
            }
            let ours = present.intersection(tables)
            guard ours.isEmpty else {
                throw CloudError.serverUnavailable(
                    "the database of \(address) holds tables \(ours.sorted().joined(separator: ", ")) but no reminders store; use another database")
            }
            for statement in create {
                try session.execute(statement)
            }
            try session.execute("""
                INSERT INTO meta (key, value) VALUES ('formatVersion', ?), (?, '0'), (?, '0'), (?, ?)
                """, [String(PostgresStore.formatVersion), StoreMeta.sequence, StoreMeta.compactedThrough,
                      StoreMeta.serverID, StoreMeta.randomHex(bytes: 4)])
        }
    }

    /// One statement each: the extended protocol runs one at a time.
    private static let create = [
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """
        CREATE TABLE zone (
            ownerName TEXT NOT NULL,
            name TEXT NOT NULL,
            createdSequence BIGINT NOT NULL,
            changeSequence BIGINT NOT NULL,
            deletedSequence BIGINT,
            PRIMARY KEY (ownerName, name))
        """,
        "CREATE INDEX zone_changes ON zone(ownerName, changeSequence)",
        """
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
            modificationDate DOUBLE PRECISION NOT NULL,
            modifiedByUser TEXT NOT NULL,
            modifiedByDevice TEXT NOT NULL,
            sequence BIGINT NOT NULL,
            isDeleted INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (ownerName, zoneName, recordName),
            FOREIGN KEY (ownerName, zoneName) REFERENCES zone(ownerName, name) ON DELETE CASCADE)
        """,
        "CREATE INDEX record_changes ON record(ownerName, zoneName, sequence)",
        "CREATE INDEX record_children ON record(parentOwnerName, parentZoneName, parentRecordName)",
        "CREATE INDEX record_tombstones ON record(sequence) WHERE isDeleted = 1",
        """
        CREATE TABLE share (
            id TEXT PRIMARY KEY,
            ownerName TEXT NOT NULL,
            zoneName TEXT NOT NULL,
            rootRecordName TEXT NOT NULL,
            createdSequence BIGINT NOT NULL,
            UNIQUE (ownerName, zoneName, rootRecordName))
        """,
        """
        CREATE TABLE participant (
            shareID TEXT NOT NULL REFERENCES share(id) ON DELETE CASCADE,
            userName TEXT NOT NULL,
            permission TEXT NOT NULL CHECK (permission IN ('read-only', 'read-write')),
            status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'removed')),
            sequence BIGINT NOT NULL,
            PRIMARY KEY (shareID, userName))
        """,
        "CREATE INDEX participant_user ON participant(userName)",
        """
        CREATE TABLE sharedView (
            userName TEXT NOT NULL,
            ownerName TEXT NOT NULL,
            zoneName TEXT NOT NULL,
            recordName TEXT NOT NULL,
            recordType TEXT NOT NULL,
            isVisible INTEGER NOT NULL,
            sequence BIGINT NOT NULL,
            PRIMARY KEY (userName, ownerName, zoneName, recordName))
        """,
        "CREATE INDEX sharedView_changes ON sharedView(userName, ownerName, zoneName, sequence)",
        "CREATE INDEX sharedView_record ON sharedView(ownerName, zoneName, recordName)",
        "CREATE INDEX sharedView_tombstones ON sharedView(sequence) WHERE isVisible = 0",
        "CREATE TABLE commitLog (sequence BIGINT PRIMARY KEY, id TEXT NOT NULL)",
        "CREATE TABLE asset (sha256 TEXT PRIMARY KEY, size BIGINT NOT NULL, data BYTEA NOT NULL)",
        """
        CREATE TABLE accounts (
            name TEXT PRIMARY KEY,
            salt BYTEA NOT NULL,
            secretHash BYTEA NOT NULL,
            createdAt TEXT NOT NULL)
        """,
    ]
}

/// Asset bytes in the `asset` table, checked against their hash on every
/// read as the directory store's files are.
struct DatabaseAssets: AssetStoring {
    let store: PostgresStore

    var location: String { "\(store.address)" }

    func upload(_ data: Data) throws -> Asset {
        let asset = Asset(sha256: Asset.digest(of: data), size: data.count)
        try store.transaction { db in
            try db.execute("INSERT INTO asset (sha256, size, data) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING",
                           [asset.sha256, asset.size, data])
        }
        return asset
    }

    func contains(_ asset: Asset) -> Bool {
        let size = try? store.read { db in try db.integer("SELECT size FROM asset WHERE sha256 = ?", [asset.sha256]) }
        return size == Int64(asset.size)
    }

    func read(_ asset: Asset) throws -> Data {
        let stored = try store.read { db in try db.row("SELECT data FROM asset WHERE sha256 = ?", [asset.sha256]) }
        guard let stored, case .blob(let data) = stored.values.first else {
            throw CloudError.assetUnavailable(
                "the PostgreSQL store \(store.address) has no asset \(asset.sha256); upload it again from a device that has it")
        }
        let actual = Asset.digest(of: data)
        guard actual == asset.sha256 else {
            throw CloudError.assetUnavailable(
                "asset \(asset.sha256) in the PostgreSQL store \(store.address) was altered (its content hashes to \(actual)); upload it again from a device that has it")
        }
        return data
    }
}
