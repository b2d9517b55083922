import CloudServer
import Foundation
import GRDB

/// Reading what is pending, for a send: the batch, the zone of each new
/// record, and the notes taken before the request.
extension SyncEngine {
    /// Pending changes, saves parents first then deletes children first,
    /// within the request limits.
    ///
    /// Read table by table, and no more rows than one request takes: the
    /// server then holds parents before children however many changes are
    /// pending (a device fetching them applies each at once instead of
    /// holding it for its parent), and no row is decoded for nothing.
    ///
    /// A row of a table that refers to itself waits while the row it refers
    /// to is new and unconfirmed: a subtask goes in a later request than its
    /// new parent, so no device ever fetches it first and, finding no parent
    /// on the server yet, takes it for an orphan. Should every pending row
    /// wait (a cycle of new rows), they go as they are.
    ///
    /// `excluding`: changes of a request still on its way (the send reads
    /// its next batch meanwhile), left out; such a read never falls back
    /// to rows as they are, as its rows may wait for that request only.
    func outgoingBatch(_ db: Database, limit: Int, orderingRows: Bool = true,
                       excluding inFlight: [OutgoingChange] = []) throws -> [OutgoingChange] {
        var batch: [OutgoingChange] = []
        var pendingRows = 0
        let passes = tables.map { ($0, false) } + tables.reversed().map { ($0, true) }
        // The batch in flight is left out by its rows' rowids first, which
        // the pending index holds, so its rows are not read only to be
        // dropped (a third of each read at 100,000); by name too, in case
        // a row was written anew meanwhile.
        let excluded = Dictionary(grouping: inFlight, by: \.table.name).mapValues { changes in
            (rowIDs: Self.jsonList(changes.map(\.metadata.rowID)), names: FieldJSON.encode(strings: changes.map(\.key)))
        }
        // The clock cannot move during this read.
        let hlc = try Int64.fetchOne(db, sql: "SELECT hlc FROM sync_clock") ?? 0
        var bytes = 0
        var zoneCache: [String: ZoneID] = [:]
        var fetchedThrough: [ZoneID: Int64?] = [:]
        let lostEdits = try lostEditsToSend(db)
        passes: for (table, deletes) in passes where pendingRows < limit {
            let arguments: StatementArguments = [table.name, excluded[table.name]?.rowIDs ?? "[]",
                                                 excluded[table.name]?.names ?? "[]", limit - pendingRows]
            if deletes {
                let rows = try Row.fetchCursor(db.cachedStatement(sql: statements.pendingDeletes(table)), arguments: arguments)
                var tableDeletes: [OutgoingChange] = []
                while let row = try rows.next() {
                    pendingRows += 1
                    let meta = try Metadata(row: row)
                    guard let zone = meta.zoneID ?? meta.lastKnown?.id.zoneID else { continue }
                    let name = RecordCoder.recordName(table: table.name, key: meta.recordName)
                    // Against the version it last knew, or for a delete a
                    // re-join sends again, the one it remembers.
                    let through = try meta.lastKnown?.fieldModificationTimes.values.max()
                        ?? rememberedDeleteSeenThrough(db, table: table.name, key: meta.recordName)
                    tableDeletes.append(OutgoingChange(table: table, key: meta.recordName, metadata: meta, record: nil, blobs: [:],
                                                       deleteID: RecordID(recordName: name, zoneID: zone), deletedThrough: through))
                }
                batch += Self.childrenFirst(tableDeletes, table: table)
                continue
            }
            // Each pending save with its row, in one read: the row is looked
            // up once, where reading the pending rows and then their rows by
            // key looked each up twice (three times for a table that refers
            // to itself, whose waiting check read the row's reference).
            let sql = statements.pendingSaves(table, waitingForNewParent: orderingRows)
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let row = try rows.next() {
                pendingRows += 1
                let meta = try Metadata(row: row)
                let name = RecordCoder.recordName(table: table.name, key: meta.recordName)
                let (values, blobs) = RecordCoder.values(of: row, table: table, from: Metadata.columnCount)
                // A cover's parent column is its primary key.
                let parentKey = table.parent.flatMap { parent -> String? in
                    if parent.column == table.primaryKey { return meta.recordName }
                    guard case .string(let key)? = values[parent.column] else { return nil }
                    return key
                }
                let zone = try meta.zoneID ?? meta.lastKnown?.id.zoneID
                    ?? zoneForNewRecord(db, table: table, parentKey: parentKey, cache: &zoneCache)
                var record: ServerRecord
                if let known = meta.lastKnown {
                    record = known
                    // A note of edits lost goes with one save only.
                    record.fields[Self.lostEditsField] = nil
                    record.fieldModificationTimes[Self.lostEditsField] = nil
                    if known.changeTag == nil {
                        // A re-join's save of a row the device held: refused
                        // if the row was deleted after this device's fetch,
                        // rather than bringing it back (`knownThrough`). A
                        // shared zone's fetch is the shared database's.
                        let scope: DatabaseScope = zone.ownerName == userName ? .private : .shared
                        record.knownThrough = try fetchedThrough[zone] ?? Self.fetchedThrough(db, zone, scope: scope)
                        fetchedThrough[zone] = record.knownThrough
                    }
                    for column in table.columns {
                        let value = values[column]
                        // A column empty here that the server's record never had
                        // (added by a newer version) is no edit: stamping it now
                        // would beat a value another device set there earlier.
                        if value == nil, known.fields[column] == nil, meta.editTimes[column] == nil { continue }
                        if known.fields[column] != value || known.fieldModificationTimes[column] == nil || meta.editTimes[column] != nil {
                            record.fields[column] = value
                            record.fieldModificationTimes[column] = meta.editTimes[column] ?? hlc
                        }
                    }
                } else {
                    // Never confirmed: every column goes, with its edit time,
                    // in maps made at their size.
                    var times = FieldMap<Int64>(minimumCapacity: table.columns.count)
                    for index in table.nameOrder {
                        let column = table.columns[index]
                        times[column] = meta.editTimes[column] ?? hlc
                    }
                    record = ServerRecord(id: RecordID(recordName: name, zoneID: zone), recordType: table.name,
                                          fields: values, fieldModificationTimes: times)
                }
                // When the row was made, if here since its last-known
                // version (`createdAt`).
                if let created = meta.createdHere(table) { record.fieldModificationTimes[table.primaryKey] = created }
                record.parent = parentID(parentKey, table: table, zone: zone)
                if let lost = lostEdits[name] { record.fields[Self.lostEditsField] = .string(lost) }
                bytes += record.encodedSize
                if bytes > batchByteLimit, !batch.isEmpty { break passes }
                batch.append(OutgoingChange(table: table, key: meta.recordName, metadata: meta, record: record, blobs: blobs, deleteID: nil))
            }
        }
        if pendingRows == 0, orderingRows, inFlight.isEmpty, tables.contains(where: { !$0.selfReferences.isEmpty }) {
            return try outgoingBatch(db, limit: limit, orderingRows: false)
        }
        return batch
    }

    /// The sequence this device's fetch of a zone reached (the zone's
    /// change token); nil before its first.
    static func fetchedThrough(_ db: Database, _ zone: ZoneID, scope: DatabaseScope = .private) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT token FROM sync_zones WHERE scope = ? AND zoneName = ? AND ownerName = ?",
                           arguments: [scope.rawValue, zone.name, zone.ownerName])
    }

    /// The deletes of a table that refers to itself, children before their
    /// parents (deepest first, else in the order read). The server records
    /// a request's deletes in its order, so a device that fetches them a
    /// page at a time meets a subtask's delete before its parent's, and
    /// does not take a subtask the deleting device named for one that went
    /// with its parent unnamed (`SyncFunctions.lostWithParent`).
    static func childrenFirst(_ deletes: [OutgoingChange], table: TableSchema) -> [OutgoingChange] {
        let references = table.selfReferences
        guard !references.isEmpty, deletes.count > 1 else { return deletes }
        var parentOf: [String: String] = [:]
        for change in deletes {
            guard let fields = change.metadata.lastKnown?.fields else { continue }
            for reference in references {
                if case .string(let parent)? = fields[reference.column] {
                    parentOf[change.key] = parent
                    break
                }
            }
        }
        guard !parentOf.isEmpty else { return deletes }
        let keys = Set(deletes.map(\.key))
        func depth(_ key: String) -> Int {
            var depth = 0, current = key
            // Bounded: a cycle of references, which the app never makes.
            while depth < keys.count, let parent = parentOf[current], keys.contains(parent) {
                depth += 1
                current = parent
            }
            return depth
        }
        return deletes.enumerated()
            .map { (depth: depth($0.element.key), index: $0.offset, change: $0.element) }
            .sorted { $0.depth != $1.depth ? $0.depth > $1.depth : $0.index < $1.index }
            .map(\.change)
    }

    /// The condition, on a pending save of `table` read with its row (as
    /// `row`), that the row refers to another row of the table that is new
    /// and unconfirmed.
    static func waitingForNewParent(_ table: TableSchema) -> String {
        table.selfReferences.map { key in
            """
            AND NOT EXISTS (
              SELECT 1 FROM sync_metadata AS target
              WHERE target.recordType = \(table.name.databaseLiteral) AND target.recordName = row.\(key.column.quotedDatabaseIdentifier)
                AND target.recordName != sync_metadata.recordName
                AND target.isPendingSave AND target.lastKnownServerRecord IS NULL)
            """
        }.joined(separator: " ")
    }

    func parentID(_ parentKey: String?, table: TableSchema, zone: ZoneID) -> RecordID? {
        guard table.sharesWithParent, let parent = table.parent, let key = parentKey else { return nil }
        return RecordID(recordName: RecordCoder.recordName(table: parent.parentTable, key: key), zoneID: zone)
    }

    /// A new record goes to its parent's zone (a reminder added to a shared
    /// list lands in the owner's zone), else to the default zone.
    func zoneForNewRecord(_ db: Database, table: TableSchema, row: Row, cache: inout [String: ZoneID]) throws -> ZoneID {
        try zoneForNewRecord(db, table: table, parentKey: table.parent.flatMap { row[$0.column] }, cache: &cache)
    }

    /// `zoneForNewRecord(_:table:row:cache:)` for a row whose parent's key
    /// (its `parent` column) is `parentKey`.
    func zoneForNewRecord(_ db: Database, table: TableSchema, parentKey: String?, cache: inout [String: ZoneID]) throws -> ZoneID {
        guard table.sharesWithParent, let parent = table.parent, let key = parentKey,
              let parentTable = tablesByName[parent.parentTable] else { return defaultZoneID }
        let cacheKey = "\(parentTable.name)/\(key)"
        if let zone = cache[cacheKey] { return zone }
        let zone: ZoneID
        if let meta = try Metadata.fetch(db, type: parentTable.name, name: key), let known = meta.zoneID ?? meta.lastKnown?.id.zoneID {
            zone = known
        } else if let parentRow = try fetchRow(db, table: parentTable, key: key) {
            zone = try zoneForNewRecord(db, table: parentTable, row: parentRow, cache: &cache)
        } else {
            zone = defaultZoneID
        }
        cache[cacheKey] = zone
        return zone
    }

    /// Creates the private zones the batch needs, once.
    func ensureZones(for changes: [OutgoingChange], in database: any CloudDatabase) throws {
        guard database.scope == .private else { return }
        // Deletes too: a delete the device remembers may go to a zone a
        // new server never had.
        let zones = Set(changes.compactMap { $0.record?.id.zoneID ?? $0.deleteID?.zoneID }.filter { $0.ownerName == userName })
        let created = try writer.read { db in
            Set(try Row.fetchAll(db, sql: "SELECT zoneName, ownerName FROM sync_zones WHERE scope = 'private' AND isCreated")
                .map { ZoneID(name: $0["zoneName"], ownerName: $0["ownerName"]) })
        }
        let missing = zones.subtracting(created)
        guard !missing.isEmpty else { return }
        let results = try database.modifyZones(saving: Array(missing), deleting: [])
        try syncWrite { db in
            for (zone, result) in results {
                if case .failure(let error) = result { throw SyncError.server(error) }
                try db.execute(sql: """
                    INSERT INTO sync_zones (scope, zoneName, ownerName, isCreated) VALUES ('private', ?, ?, 1)
                    ON CONFLICT DO UPDATE SET isCreated = 1
                    """, arguments: [zone.name, zone.ownerName])
            }
        }
    }

    /// Whether a pending save may already be on the server unconfirmed:
    /// sent (its zone noted) with no answer stored; or a re-join has not
    /// fetched yet.
    func hasUnconfirmedSends() throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM sync_metadata
                               WHERE (isPendingSave OR isPendingDelete) AND isPendingSave
                                 AND lastKnownServerRecord IS NULL AND zoneName IS NOT NULL)
                    OR EXISTS (SELECT 1 FROM sync_state WHERE key = ?)
                """, arguments: [Self.fetchBeforeSendKey]) ?? false
        }
    }

    /// A send's next batch, noted as sent in the write transaction that
    /// reads it, before its request: the zone of each record about to be
    /// created is written to its metadata, as from its request on the
    /// server may have it, whatever happens to this process before the
    /// answer is stored, so a delete of the row must be sent
    /// (`ChangeCapture.captureDelete` forgets only deletes of rows never
    /// sent). The note finds the rows by the rowids just read, and costs
    /// no commit of its own.
    ///
    /// Until a request carries them (`willSend`), the rows noted here,
    /// with `unsent` (metadata rowids of rows noted before and not sent
    /// yet), are also named in `sync_state` (`notedAheadKey`): a send
    /// stopped in between (its rounds ran out, a request failed, or the
    /// process died) leaves them noted though no request carried them, and
    /// they are put back (`unnoteNeverSent`) when the send ends or, after a
    /// crash, when the next one begins, so a record deleted elsewhere and
    /// made again here is not taken for one the server may hold.
    func takeBatch(limit: Int, excluding inFlight: [OutgoingChange], unsent: [Int64] = []) throws -> [OutgoingChange] {
        try syncWrite { db in
            let batch = try outgoingBatch(db, limit: limit, excluding: inFlight)
            var noted = unsent
            let new = Dictionary(grouping: batch.filter(\.createsUnnotedRecord)) { change in
                ZoneTable(table: change.table.name, zone: change.record?.id.zoneID ?? defaultZoneID)
            }
            // One statement per table and zone: a first upload notes thousands.
            for (group, changes) in new {
                let rowIDs = changes.map(\.metadata.rowID)
                noted += rowIDs
                try db.executeCached("""
                    UPDATE sync_metadata SET zoneName = ?, ownerName = ?
                    WHERE rowid IN (SELECT value FROM json_each(?)) AND zoneName IS NULL
                    """, arguments: [group.zone.name, group.zone.ownerName, Self.jsonList(rowIDs)])
            }
            try Self.nameNotedAhead(db, noted)
            return batch
        }
    }

    /// Rows `takeBatch` noted go out in a request now: from here on the
    /// server may hold them, whatever stops this process. `unsent`: the
    /// rowids of those noted and still not sent.
    func willSend(unsent: [Int64]) throws {
        try syncWrite { db in try Self.nameNotedAhead(db, unsent) }
    }

    private static func nameNotedAhead(_ db: Database, _ rowIDs: [Int64]) throws {
        if rowIDs.isEmpty {
            try SyncState.remove(db, notedAheadKey)
        } else {
            try SyncState.set(db, notedAheadKey, jsonList(rowIDs))
        }
    }

    /// Puts back the notes of rows `takeBatch` noted and no request
    /// carried (see `takeBatch`). Rows deleted since stay noted (their
    /// delete goes out, as after a lost request).
    func unnoteNeverSent() throws {
        try syncWrite { db in
            guard let rowIDs = try SyncState.value(db, Self.notedAheadKey, as: String.self) else { return }
            try db.executeCached("""
                UPDATE sync_metadata SET zoneName = NULL, ownerName = NULL
                WHERE rowid IN (SELECT value FROM json_each(?)) AND zoneName IS NOT NULL
                  AND lastKnownServerRecord IS NULL AND isPendingSave AND NOT isPendingDelete
                """, arguments: [rowIDs])
            try SyncState.remove(db, Self.notedAheadKey)
        }
    }

    static let notedAheadKey = "sendNotedAhead"

    private static func jsonList(_ numbers: [Int64]) -> String {
        "[" + numbers.map(String.init).joined(separator: ",") + "]"
    }
}

private struct ZoneTable: Hashable {
    var table: String
    var zone: ZoneID
}

extension OutgoingChange {
    /// Whether the change creates a record whose zone is not noted yet
    /// (`SyncEngine.takeBatch` notes it).
    var createsUnnotedRecord: Bool { metadata.zoneID == nil && record != nil }
}
