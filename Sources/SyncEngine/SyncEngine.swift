import CloudServer
import Foundation
import GRDB
import Synchronization

/// Keeps a device's SQLite tables in sync with a server.
///
/// Any set of tables works: the engine reads their primary and foreign keys
/// from the schema, captures edits with triggers in the same transaction as
/// the edit, sends them as records built from the last-known server record
/// plus the local changes, and applies what it fetches, merging field by
/// field where both sides changed a row (see `MergeConflict`).
public final class SyncEngine: Sendable {
    public let writer: any DatabaseWriter
    public let userName: String
    public let deviceName: String
    /// The zone of the user's private database that new root records go to.
    public let defaultZoneID: ZoneID
    /// Synced tables, parents before children.
    public let tables: [TableSchema]
    let tablesByName: [String: TableSchema]
    /// By table, the named rows tied to its rows (`TableSchema.links`).
    let linksByTable: [String: [TableSchema.Link]]
    /// Each table's columns written as one edit (`SyncedTable.editedTogether`).
    let editedTogether: [String: [[String]]]
    /// Each table's columns a row that goes keeps whole (`SyncedTable.keptWhole`).
    let keptWhole: [String: Set<String>]
    let order: [String: Int]
    private let connection = Mutex<Connection?>(nil)
    let functions: SyncFunctions
    /// The SQL run for every record, by table and columns.
    let statements = TableStatements()
    /// One sync at a time per engine.
    private let syncLock = NSLock()
    /// When `noteSynced` last wrote (wall clock, milliseconds).
    private let lastNotedSync = Mutex<Int64>(0)
    /// The app's rules that merged rows may break (a subtask whose parent
    /// became a subtask elsewhere): run after a fetch that received
    /// anything, as a local edit, so its writes are sent like the user's.
    let repair: (@Sendable (Database) throws -> Void)?
    /// What the app keeps row by row that a big download builds faster
    /// once at its end (see `BulkLoad`).
    let bulkLoad: BulkLoad?

    /// Records per request; the server refuses more than 400.
    public let batchLimit = 400
    /// Bytes per request before assets; the server refuses more than 2 MB.
    public let batchByteLimit = 1_500_000
    /// Records per fetched page.
    public let fetchLimit = 2000

    /// Attaches the engine to a database: checks the schema of `tables`,
    /// installs the engine's tables and triggers, and marks rows that exist
    /// but were never synced as pending. Every process that writes to the
    /// database must attach an engine first: the triggers call functions it
    /// registers. No server is needed for that; `connect` adds one.
    public init(
        writer: any DatabaseWriter,
        userName: String,
        deviceName: String,
        tables: [SyncedTable],
        zoneName: String = "reminders",
        wallClock: @escaping @Sendable () -> Int64 = systemWallClock,
        repair: (@Sendable (Database) throws -> Void)? = nil,
        bulkLoad: BulkLoad? = nil
    ) throws {
        self.writer = writer
        self.editedTogether = Dictionary(tables.map { ($0.name, $0.editedTogether) }, uniquingKeysWith: { $1 })
        self.keptWhole = Dictionary(tables.map { ($0.name, Set($0.keptWhole)) }, uniquingKeysWith: { $1 })
        self.repair = repair
        self.bulkLoad = bulkLoad
        self.userName = userName
        self.deviceName = deviceName
        self.defaultZoneID = ZoneID(name: zoneName, ownerName: userName)
        let functions = SyncFunctions(wallClock: wallClock, userName: userName, deviceName: deviceName)
        self.functions = functions
        // The conflict log is synced with the user's tables, so every
        // device of the user sees every conflict.
        let synced = tables + [SyncedTable(Self.conflictTable)]
        // What a start usually finds: everything in place for this device,
        // read in one go on the writer's connection (which registers the
        // functions anyway), and nothing written. A check that sees an
        // older state than a concurrent install only takes the long way.
        let ready = try writer.writeWithoutTransaction { db -> (schemas: [TableSchema], repairPending: Bool)? in
            functions.register(db)
            return try db.readOnly {
                guard try SyncSchema.isCurrent(db) else { return nil }
                let schemas = try SchemaInspector.inspect(db, tables: synced)
                guard try SyncState.value(db, "deviceName", as: String.self) == deviceName,
                      try ChangeCapture.isNoted(db, tables: schemas) else { return nil }
                return (schemas, try SyncState.contains(db, Self.repairPendingKey))
            }
        }
        // Else the engine's tables first (the conflict log is one of them).
        let schemas = try ready?.schemas ?? writer.writeWithoutTransaction { db -> [TableSchema] in
            try db.inTransaction(.immediate) {
                try SyncSchema.install(db)
                return .commit
            }
            return try SchemaInspector.inspect(db, tables: synced)
        }
        self.tables = schemas
        self.tablesByName = Dictionary(uniqueKeysWithValues: schemas.map { ($0.name, $0) })
        self.linksByTable = Dictionary(uniqueKeysWithValues: schemas.map { ($0.name, $0.links(among: schemas)) })
        functions.writtenTextTables = Set(schemas.filter(\.holdsWrittenText).map(\.name))
        self.order = Dictionary(uniqueKeysWithValues: schemas.enumerated().map { ($1.name, $0) })
        if ready == nil {
            try writer.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try SyncState.set(db, "deviceName", deviceName)
                    // Rows are only ever written with the triggers in place
                    // (they call this engine's functions), so once installed
                    // and backfilled there is nothing to redo: at 100,000
                    // reminders the backfill's scan alone cost every start
                    // 0.25 s.
                    let built = ChangeCapture.triggers(schemas)
                    let signature = ChangeCapture.signature(built)
                    if try !ChangeCapture.isCurrent(db, tables: schemas, built: built, signature: signature) {
                        try ChangeCapture.install(db, tables: schemas)
                        try Self.backfill(db, tables: schemas)
                        try Self.reconcile(db, tables: schemas, statements: statements)
                    }
                    // Noted even when nothing was installed: the first start
                    // of a new build checks the long way, the next ones not.
                    try ChangeCapture.markCurrent(db, tables: schemas, signature: signature)
                    return .commit
                }
            }
        }
        if try ready?.repairPending ?? writer.read({ db in try SyncState.contains(db, Self.repairPendingKey) }) {
            try runRepair()
        }
    }

    /// Set in the transaction that applies fetched rows, cleared in the one
    /// that repairs them (`repair`).
    static let repairPendingKey = "repairPending"

    /// Runs the app's repair as a local edit (the triggers capture its
    /// writes, and the sync's next round sends them), and clears the mark
    /// that fetched rows left for it.
    func runRepair() throws {
        guard let repair else { return }
        try writer.write { db in
            try repair(db)
            try SyncState.remove(db, Self.repairPendingKey)
        }
    }

    /// Attaches the engine and connects it to a server at once.
    public convenience init(
        writer: any DatabaseWriter,
        privateDatabase: any CloudDatabase,
        sharedDatabase: any CloudDatabase,
        tables: [SyncedTable],
        zoneName: String = "reminders",
        wallClock: @escaping @Sendable () -> Int64 = systemWallClock,
        repair: (@Sendable (Database) throws -> Void)? = nil,
        bulkLoad: BulkLoad? = nil
    ) throws {
        try self.init(writer: writer, userName: privateDatabase.userName, deviceName: privateDatabase.deviceName,
                      tables: tables, zoneName: zoneName, wallClock: wallClock, repair: repair, bulkLoad: bulkLoad)
        connect(privateDatabase: privateDatabase, sharedDatabase: sharedDatabase)
    }

    /// Connects to the user's two databases on a server. Until then (or
    /// after `disconnect`) edits are captured and wait as pending.
    /// `location` names the server as the user gave it (a directory or a
    /// URL), so a re-join can tell "pointed elsewhere" from "reset".
    public func connect(privateDatabase: any CloudDatabase, sharedDatabase: any CloudDatabase, location: String? = nil) {
        connection.withLock { $0 = Connection(private: privateDatabase, shared: sharedDatabase, location: location) }
    }

    /// The user's two databases on the server, and where it is as the user
    /// named it.
    private struct Connection: Sendable {
        var `private`: any CloudDatabase
        var shared: any CloudDatabase
        var location: String?
    }

    /// Where the connected server is, as the user named it.
    var serverLocation: String? { connection.withLock { $0?.location } }

    public func disconnect() {
        connection.withLock { $0 = nil }
    }

    public var isConnected: Bool { connection.withLock { $0 != nil } }

    var privateDatabase: any CloudDatabase {
        connection.withLock { $0?.private } ?? DisconnectedDatabase(userName: userName, scope: .private, deviceName: deviceName)
    }

    var sharedDatabase: any CloudDatabase {
        connection.withLock { $0?.shared } ?? DisconnectedDatabase(userName: userName, scope: .shared, deviceName: deviceName)
    }

    /// Rows written before the engine was attached become pending saves.
    static func backfill(_ db: Database, tables: [TableSchema]) throws {
        for table in tables {
            let stamps = table.allColumns.map { "\($0.databaseLiteral), hlc" }.joined(separator: ", ")
            try db.execute(sql: ChangeCapture.tick)
            try db.execute(sql: """
                INSERT INTO sync_metadata (recordType, recordName, editTimes, isPendingSave, changeCount)
                SELECT \(table.name.databaseLiteral), t.\(table.primaryKey.quotedDatabaseIdentifier),
                       (SELECT json_object(\(stamps)) FROM sync_clock), 1, 1
                FROM \(table.name.quotedDatabaseIdentifier) AS t
                WHERE NOT EXISTS (SELECT 1 FROM sync_metadata m WHERE m.recordType = \(table.name.databaseLiteral)
                                  AND m.recordName = t.\(table.primaryKey.quotedDatabaseIdentifier))
                """)
        }
    }

    func database(for zoneID: ZoneID) -> any CloudDatabase {
        zoneID.ownerName == userName ? privateDatabase : sharedDatabase
    }

    // MARK: Sync

    /// One full round: send everything pending, fetch everything new, and
    /// repeat (a merge can leave new edits to send) until nothing is pending
    /// or the server keeps refusing.
    @discardableResult
    public func sync() throws -> SyncReport {
        try syncLock.withLock {
            var report = SyncReport()
            for _ in 0..<10 {
                let sent = try sendLocked()
                let fetched = try fetchLocked()
                report.add(sent)
                report.add(fetched)
                let pending = try pendingWork()
                if pending == 0 || (sent.isEmpty && fetched.isEmpty) { break }
            }
            try noteSynced()
            return report
        }
    }

    /// Notes that this device has just exchanged its changes with the
    /// server, for `status`'s "Last sync". `sync()` notes every round; the
    /// app's live sync, whose rounds come with every edit, at most once in
    /// `interval` milliseconds (a write of its own each time would be one
    /// more commit per edit).
    public func noteSynced(atMostEvery interval: Int64 = 0) throws {
        let now = functions.wallClock()
        guard lastNotedSync.withLock({ now - $0 >= interval }) else { return }
        try syncWrite { db in try SyncState.set(db, "lastSyncAt", now) }
        lastNotedSync.withLock { $0 = max($0, now) }
    }

    /// Sends every pending change.
    @discardableResult
    public func sendChanges() throws -> SyncReport {
        try syncLock.withLock { try sendLocked() }
    }

    /// Fetches and applies everything new on the server.
    @discardableResult
    public func fetchChanges() throws -> SyncReport {
        try syncLock.withLock { try fetchLocked() }
    }

    /// Changes of the user's rows not yet on the server (the conflict
    /// log's entries, which also wait to be sent, are not the user's edits).
    public func pendingCount() throws -> Int {
        try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_metadata WHERE (isPendingSave OR isPendingDelete) AND recordType != ?",
                             arguments: [Self.conflictTable]) ?? 0
        }
    }

    /// Everything waiting to be sent, conflict log entries included.
    func pendingWork() throws -> Int {
        try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_metadata WHERE isPendingSave OR isPendingDelete") ?? 0
        }
    }

    /// Runs a write transaction in which the triggers know the writes are
    /// the engine's own.
    func applyWrite<T>(_ body: (Database) throws -> T) throws -> T {
        try syncWrite { db in try functions.applying { try body(db) } }
    }

    /// Runs one of the engine's own write transactions (sync state, zones,
    /// applied records). Every engine write goes through here, so crash
    /// tests (`FaultInjection`, test-only) can stop the process right
    /// before any of them commits.
    func syncWrite<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.write { db in
            let value = try body(db)
            FaultInjection.beforeCommit(.device)
            return value
        }
    }

    /// Moves the hybrid logical clock past every time seen from elsewhere,
    /// so an edit made after seeing another edit always wins over it.
    func absorb(_ db: Database, times: some Sequence<Int64>) throws {
        guard let latest = times.max() else { return }
        try db.executeCached("UPDATE sync_clock SET hlc = max(hlc, ?)", arguments: [latest])
    }

    /// Current value of the hybrid logical clock.
    public func clockValue() throws -> Int64 {
        try writer.read { db in try Int64.fetchOne(db, sql: "SELECT hlc FROM sync_clock") ?? 0 }
    }
}

/// What one sync did, for `reminders sync` to print.
public struct SyncReport: Equatable, Sendable, Codable {
    public var sentSaves = 0
    public var sentDeletes = 0
    public var receivedSaves = 0
    public var receivedDeletes = 0
    public var merged = 0
    public var conflicts = 0
    public var dropped = 0
    /// Set when the server turned out not to be the one this device last
    /// synced with, and the device re-joined it (see `RejoinReason`).
    public var rejoined: RejoinReason?
    /// Shared lists (another user's roots) that went from this device: the
    /// owner deleted them or stopped sharing them with this user. Each is
    /// its owner and its name (its first text: a list's title).
    public var goneShares: [GoneShare] = []

    public init() {}

    public var isEmpty: Bool {
        sentSaves == 0 && sentDeletes == 0 && receivedSaves == 0 && receivedDeletes == 0 && merged == 0 && dropped == 0
            && rejoined == nil
    }

    mutating func add(_ other: SyncReport) {
        sentSaves += other.sentSaves
        sentDeletes += other.sentDeletes
        receivedSaves += other.receivedSaves
        receivedDeletes += other.receivedDeletes
        merged += other.merged
        conflicts += other.conflicts
        dropped += other.dropped
        rejoined = rejoined ?? other.rejoined
        goneShares += other.goneShares
    }
}

/// A root another user shared with this one (a list) that a fetch took
/// from this device: deleted by its owner, or no longer shared.
public struct GoneShare: Equatable, Sendable, Codable {
    public var owner: String
    public var name: String?

    public init(owner: String, name: String?) {
        self.owner = owner
        self.name = name
    }
}
