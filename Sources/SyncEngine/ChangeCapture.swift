import CloudServer
import Foundation
import GRDB

/// Triggers that record every user edit of a synced table in
/// `sync_metadata`, in the same transaction as the edit.
///
/// Two SQL functions feed them, registered on the writer connection by the
/// engine: `sync_now()` (the wall clock in milliseconds, which tests can
/// move) and `sync_is_applying()` (true while the engine writes what it
/// fetched, so those writes are not taken for user edits).
enum ChangeCapture {
    static func install(_ db: Database, tables: [TableSchema]) throws {
        for table in tables {
            for suffix in suffixes {
                try db.execute(sql: "DROP TRIGGER IF EXISTS \(triggerName(table, suffix))")
            }
            for sql in triggers([table], conflictLog: conflictLog(in: tables))[0] {
                try db.execute(sql: sql)
            }
        }
    }

    /// Whether the triggers for `tables` are installed as this version
    /// writes them, and every row written before they were has been marked
    /// (`backfill`): then attaching again has nothing to do. The SQL of the
    /// triggers is the signature, stored when they were installed, so a
    /// new column, a new synced table or a change here installs and
    /// backfills again; and each trigger's SQL as `sqlite_master` keeps it
    /// is compared with what this version writes, so one gone missing or
    /// rewritten under its name is installed again too.
    /// `built` and `signature`: `triggers(tables)` and its signature, when
    /// the caller has them already.
    static func isCurrent(_ db: Database, tables: [TableSchema], built: [[String]]? = nil,
                          signature: String? = nil) throws -> Bool {
        let built = built ?? triggers(tables)
        let installed = try SyncState.value(db, signatureKey, as: String.self)
        guard installed == signature ?? Self.signature(built) else { return false }
        let names = tables.flatMap { table in suffixes.map { unquoted(triggerName(table, $0)) } }
        let stored = try Dictionary(Row.fetchAll(db, sql: """
            SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (SELECT value FROM json_each(?))
            """, arguments: [FieldJSON.encode(strings: names)]).map { row in (row["name"] as String, row["sql"] as String? ?? "") },
            uniquingKeysWith: { first, _ in first })
        // SQLite keeps a trigger's text from `CREATE` on, as written.
        return zip(names, built.flatMap { $0 }).allSatisfy { name, sql in
            stored[name] == sql.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Whether this build already found the triggers current (`isCurrent`)
    /// on this schema, as `markCurrent` noted: then they still are, and the
    /// start need not build the signature (every trigger's SQL, hashed:
    /// 0.5-1 ms of each start). The note holds the build's identity, a
    /// digest of the capture triggers as installed (their SQL, as
    /// `sqlite_master` keeps it: a trigger dropped, added or written
    /// differently changes it), the synced tables as inspected, and the
    /// signature it vouches for (a release without notes that installs its
    /// own triggers leaves a note whose signature no longer matches).
    /// Not the schema's version: GRDB moves it at every open that finds no
    /// write-ahead log (it creates and drops a table to start one), which
    /// is most starts.
    /// Without a build ID to note under (not an ELF program), the long
    /// check, which writes nothing.
    static func isNoted(_ db: Database, tables: [TableSchema], build: String? = BuildIdentity.current) throws -> Bool {
        guard let build else { return try isCurrent(db, tables: tables) }
        guard let noted = try SyncState.value(db, noteKey, as: String.self),
              let installed = try SyncState.value(db, signatureKey, as: String.self) else { return false }
        return try noted == note(db, tables: tables, build: build, signature: installed)
    }

    /// Records the triggers as current, and notes that this build found
    /// them so (see `isNoted`). Call after any change to the schema.
    static func markCurrent(_ db: Database, tables: [TableSchema], signature: String? = nil,
                            build: String? = BuildIdentity.current) throws {
        let signature = signature ?? Self.signature(tables)
        try SyncState.set(db, signatureKey, signature)
        if let build {
            try SyncState.set(db, noteKey, note(db, tables: tables, build: build, signature: signature))
        } else {
            try SyncState.remove(db, noteKey)
        }
    }

    private static let signatureKey = "captureSignature"
    private static let noteKey = "captureNote"

    /// The tables go in whole, as inspected (columns, types, keys): a note
    /// written from tables inspected before another process changed the
    /// schema then differs from the next start's inspection, which checks
    /// the long way and puts the triggers right.
    static func note(_ db: Database, tables: [TableSchema], build: String, signature: String) throws -> String {
        let installed = try String.fetchAll(db, sql: """
            SELECT name || ' ' || ifnull(sql, '') FROM sqlite_master
            WHERE type = 'trigger' AND name GLOB 'sync_*' ORDER BY name
            """).joined(separator: "\n")
        // A String, named: left to inference, the closure's text became
        // GRDB's `SQL` (its `joined(separator:)` fits too), whose
        // description holds an address that differs in every process, and
        // no start ever matched its note.
        let synced: String = tables.map { (table: TableSchema) -> String in
            let columns = table.columns.map { "\($0) \(table.types[$0] ?? "")" }.joined(separator: ",")
            let keys = table.foreignKeys.map { "\($0.column)>\($0.parentTable).\($0.parentColumn) \($0.onDelete)" }
                .joined(separator: ",")
            return "\(table.name)(\(table.primaryKey);\(columns);\(keys);\(table.parent?.column ?? "");\(table.sharesWithParent))"
        }.joined(separator: " ")
        return "\(build) \(Asset.digest(of: Data(installed.utf8))) \(synced) \(signature)"
    }

    static func signature(_ tables: [TableSchema]) -> String {
        signature(triggers(tables))
    }

    /// The hash of the triggers' SQL (`triggers(_:)`).
    static func signature(_ triggers: [[String]]) -> String {
        Asset.digest(of: Data(triggers.map { $0.joined(separator: "\n") }.joined(separator: "\n").utf8))
    }

    /// Each table's four triggers' SQL, in the order of `suffixes`.
    static func triggers(_ tables: [TableSchema], conflictLog log: TableSchema? = nil) -> [[String]] {
        let log = log ?? conflictLog(in: tables)
        return tables.map { [insertTrigger($0), updateTrigger($0), rekeyTrigger($0), deleteTrigger($0, conflictLog: log)] }
    }

    static let suffixes = ["insert", "update", "rekey", "delete"]

    /// A trigger's name as `sqlite_master` stores it.
    private static func unquoted(_ name: String) -> String {
        String(name.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }

    static func triggerName(_ table: TableSchema, _ suffix: String) -> String {
        "sync_\(table.name)_\(suffix)".quotedDatabaseIdentifier
    }

    static let tick = "UPDATE sync_clock SET hlc = max(sync_now(), hlc + 1);"

    /// The conflict log's schema among the synced tables.
    static func conflictLog(in tables: [TableSchema]) -> TableSchema? {
        tables.first { $0.name == SyncEngine.conflictTable }
    }

    /// Marks `key` (an expression) as created: every column stamped now,
    /// or at `time` (an expression).
    static func captureCreate(_ table: TableSchema, key: String, at time: String = "hlc") -> String {
        let stamps = table.allColumns.map { "\($0.databaseLiteral), \(time)" }.joined(separator: ", ")
        return """
            INSERT INTO sync_metadata (recordType, recordName, editTimes, isPendingSave, isPendingDelete, changeCount)
            SELECT \(table.name.databaseLiteral), \(key), json_object(\(stamps)), 1, 0, 1 FROM sync_clock WHERE true
            ON CONFLICT (recordType, recordName) DO UPDATE SET
              editTimes = json_patch(editTimes, excluded.editTimes), isPendingSave = 1, isPendingDelete = 0,
              changeCount = changeCount + 1;
            """
    }

    /// Marks `key` as deleted: forgotten only if it was never sent. A row
    /// sent without an answer stored (the process died between the
    /// server's commit and the device's) may be on the server: its zone was
    /// noted before the request (`takeBatch`), and its delete is sent.
    static func captureDelete(_ table: TableSchema, key: String) -> String {
        """
        DELETE FROM sync_metadata
        WHERE recordType = \(table.name.databaseLiteral) AND recordName = \(key)
          AND lastKnownServerRecord IS NULL AND zoneName IS NULL;
        UPDATE sync_metadata SET isPendingDelete = 1, isPendingSave = 0, editTimes = '{}', changeCount = changeCount + 1
        WHERE recordType = \(table.name.databaseLiteral) AND recordName = \(key);
        """
    }

    static func insertTrigger(_ table: TableSchema) -> String {
        """
        CREATE TRIGGER \(triggerName(table, "insert")) AFTER INSERT ON \(table.name.quotedDatabaseIdentifier)
        FOR EACH ROW WHEN NOT sync_is_applying() BEGIN
          \(tick)
          \(captureCreate(table, key: "NEW.\(table.primaryKey.quotedDatabaseIdentifier)"))
        END
        """
    }

    static func updateTrigger(_ table: TableSchema) -> String {
        let pk = table.primaryKey.quotedDatabaseIdentifier
        let changed = table.columns.map { "OLD.\($0.quotedDatabaseIdentifier) IS NOT NEW.\($0.quotedDatabaseIdentifier) COLLATE BINARY" }
        let anyChanged = changed.isEmpty ? "0" : changed.joined(separator: " OR ")
        let stamps = zip(table.columns, changed).map { column, test in
            "SELECT \(column.databaseLiteral) AS k WHERE \(test)"
        }.joined(separator: " UNION ALL ")
        return """
            CREATE TRIGGER \(triggerName(table, "update")) AFTER UPDATE ON \(table.name.quotedDatabaseIdentifier)
            FOR EACH ROW WHEN NOT sync_is_applying() AND OLD.\(pk) = NEW.\(pk) COLLATE BINARY AND (\(anyChanged)) BEGIN
              \(tick)
              INSERT INTO sync_metadata (recordType, recordName, editTimes, isPendingSave, isPendingDelete, changeCount)
              SELECT \(table.name.databaseLiteral), NEW.\(pk),
                (SELECT json_group_object(k, sync_clock.hlc) FROM (\(stamps.isEmpty ? "SELECT NULL AS k WHERE 0" : stamps))),
                1, 0, 1
              FROM sync_clock WHERE true
              ON CONFLICT (recordType, recordName) DO UPDATE SET
                editTimes = json_patch(editTimes, excluded.editTimes), isPendingSave = 1, changeCount = changeCount + 1;
            END
            """
    }

    /// A primary-key change is a delete of the old record and a create of
    /// the new one (a tag rename, for example).
    static func rekeyTrigger(_ table: TableSchema) -> String {
        let pk = table.primaryKey.quotedDatabaseIdentifier
        return """
            CREATE TRIGGER \(triggerName(table, "rekey")) AFTER UPDATE OF \(pk) ON \(table.name.quotedDatabaseIdentifier)
            FOR EACH ROW WHEN NOT sync_is_applying() AND OLD.\(pk) != NEW.\(pk) COLLATE BINARY BEGIN
              \(tick)
              \(captureDelete(table, key: "OLD.\(pk)"))
              \(captureCreate(table, key: "NEW.\(pk)"))
            END
            """
    }

    /// What a row deleted with its parent had that the server never saw,
    /// as the log keeps a lost edit (`SyncEngine.editedValues`, JSON
    /// `[[column, value], …]`): a row never on the server, or one made
    /// here that the deleting device never had, its text (a subtask made
    /// here under a list or parent deleted elsewhere: its title is all that
    /// is left of it); an edited one, its edited text and numbers.
    /// "edited" when there is none of those.
    static func lostValues(_ table: TableSchema) -> String {
        let arguments = table.columns.compactMap { column -> String? in
            guard column != table.parent?.column, let type = table.types[column], type == "TEXT" || type == "INTEGER" else {
                return nil
            }
            return "\(column.databaseLiteral), OLD.\(column.quotedDatabaseIdentifier), \(type == "TEXT" ? 0 : 1)"
        }
        guard !arguments.isEmpty else { return "'edited'" }
        // Worked out by a function (`SyncFunctions.lostValues`) rather than
        // an expression per column: every connection parses every trigger
        // as it opens, and a UNION of a SELECT per column made the delete
        // triggers half the schema's text. A call takes at most 127
        // arguments (SQLite's default limit): a wide table's columns go in
        // calls of 40, each handed what the one before kept.
        var kept = "NULL"
        for start in stride(from: 0, to: arguments.count, by: lostValuesPerCall) {
            let chunk = arguments[start..<min(start + lostValuesPerCall, arguments.count)]
            kept = "sync_lost_values(sync_metadata.isPendingSave AND sync_metadata.lastKnownServerRecord IS NOT NULL, "
                + "sync_metadata.editTimes, \(kept), "
                + chunk.joined(separator: ", ") + ")"
        }
        return "coalesce(\(kept), 'edited')"
    }

    /// Columns per `sync_lost_values` call: three arguments each, after three.
    static let lostValuesPerCall = 40

    /// Fires for the engine's own deletes too: rows that a fetched delete
    /// removes by cascade must be deleted on the server as well (a child
    /// created elsewhere under a parent deleted here goes with the parent).
    /// A pending local edit they lose is logged as a conflict, and so is a
    /// confirmed row made here that the deleting device never had
    /// (`SyncFunctions.lostWithParent`).
    static func deleteTrigger(_ table: TableSchema, conflictLog: TableSchema?) -> String {
        let pk = "OLD.\(table.primaryKey.quotedDatabaseIdentifier)"
        // The entry just logged is synced like the log's other entries. One
        // under the id every device derives for the row (see
        // `SyncEngine.wentWithParentEntryID`) is stamped at the start of
        // time, so that two devices' entries merge as one and a later
        // dismissal beats either.
        let captureEntry = conflictLog.map { log in
            let stamps = log.allColumns.map { "\($0.databaseLiteral), e.t" }.joined(separator: ", ")
            return """
              INSERT INTO sync_metadata (recordType, recordName, editTimes, isPendingSave, isPendingDelete, changeCount)
              SELECT \(log.name.databaseLiteral), e.id, json_object(\(stamps)), 1, 0, 1
              FROM (SELECT c.id, iif(c.id = sync_went_with_parent_id(c.recordType, c.recordName), 1, hlc) AS t
                    FROM sync_conflicts AS c, sync_clock
                    WHERE sync_is_applying() AND c.rowid = last_insert_rowid() AND c.recordType = \(table.name.databaseLiteral)
                      AND c.recordName = \(pk) AND c.remote = 'deleted with its parent') AS e
              WHERE true
              ON CONFLICT (recordType, recordName) DO NOTHING;
            """
        } ?? ""
        return """
            CREATE TRIGGER \(triggerName(table, "delete")) AFTER DELETE ON \(table.name.quotedDatabaseIdentifier)
            FOR EACH ROW BEGIN
              INSERT OR IGNORE INTO sync_conflicts (id, recordType, recordName, field, ancestor, local, remote, localTime,
                                                    remoteTime, winner, localDevice, remoteDevice, resolvedAt)
              SELECT iif(lastKnownServerRecord IS NULL, lower(hex(randomblob(16))), sync_went_with_parent_id(recordType, recordName)),
                     recordType, recordName, '*', NULL, \(lostValues(table)), 'deleted with its parent',
                     NULL, NULL, 'delete', (SELECT value FROM sync_state WHERE key = 'deviceName'), NULL, sync_now()
              FROM sync_metadata
              WHERE sync_is_applying() AND recordType = \(table.name.databaseLiteral) AND recordName = \(pk)
                AND (isPendingSave OR sync_lost_with_parent(recordType, recordName, lastKnownServerRecord));
              \(captureEntry)
              \(captureDelete(table, key: pk))
            END
            """
    }
}
