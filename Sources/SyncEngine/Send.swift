import CloudServer
import Foundation
import GRDB

/// A pending change read for sending, with what is needed to judge the
/// server's answer.
struct OutgoingChange {
    var table: TableSchema
    var key: String
    var metadata: Metadata
    var record: ServerRecord?
    var blobs: [String: Data]
    var deleteID: RecordID?
}

extension SyncEngine {
    func sendLocked() throws -> SyncReport {
        var report = SyncReport()
        guard !isOffline, try pendingWork() > 0 else { return report }
        report.rejoined = try checkServer()
        if try hasUnconfirmedSends() {
            // Rows the server may hold without this device knowing (a send
            // whose answer was lost, a re-join): what the server has of them,
            // their own creation or a delete from elsewhere, is fetched and
            // merged first, so a save does not undo that delete.
            report.add(try fetchLocked())
        }
        do {
            report.add(try sendBatches())
        } catch let changed as ServerChanged {
            // The server changed under a batch: everything is pending again,
            // and what the new server holds (its deletes too) comes first.
            report.rejoined = report.rejoined ?? changed.reason
            try Self.once {
                report.add(try fetchLocked())
                report.add(try sendBatches())
            }
        }
        return report
    }

    private func sendBatches() throws -> SyncReport {
        var report = SyncReport()
        var limit = batchLimit
        var failedRounds = 0
        var rounds = 0
        // Offline means no sends, also for a round that began before the
        // device went offline (a live fetch that found edits to send).
        while failedRounds < 3, rounds < 50, !isOffline {
            rounds += 1
            let batch = try writer.read { db in try self.outgoingBatch(db, limit: limit) }
            if batch.isEmpty { break }
            let byDatabase = Dictionary(grouping: batch) { change -> DatabaseScope in
                let zone = change.record?.id.zoneID ?? change.deleteID?.zoneID ?? defaultZoneID
                return zone.ownerName == userName ? .private : .shared
            }
            var progress = false
            for scope in DatabaseScope.allCases {
                guard let changes = byDatabase[scope], !changes.isEmpty else { continue }
                let database = scope == .private ? privateDatabase : sharedDatabase
                do {
                    try ensureZones(for: changes, in: database)
                    let saves = try changes.compactMap { change -> ServerRecord? in
                        guard var record = change.record else { return nil }
                        try uploadAssets(of: &record, change: change, to: database)
                        return record
                    }
                    let deletes = changes.compactMap(\.deleteID)
                    let overwritten = try editsLostToDeletes(changes, database: database)
                    try noteSending(changes)
                    let result = try database.modifyRecords(saving: saves, deleting: deletes)
                    if result.saysGone { try confirmSameServer() }
                    var outcome = try handle(result, for: changes, database: database)
                    outcome.conflicts += try logEditsLostToDeletes(overwritten, result: result)
                    report.add(outcome)
                    if !outcome.isEmpty { progress = true }
                } catch CloudError.limitExceeded {
                    guard limit > 1 else { throw SyncError.server(.limitExceeded("one record is too large")) }
                    limit = max(1, limit / 2)
                    progress = true
                } catch let error as CloudError {
                    throw SyncError.server(error)
                }
            }
            failedRounds = progress ? 0 : failedRounds + 1
        }
        return report
    }

    /// Server records that changed since this device last saw them and that
    /// pending deletes are about to remove: edits made elsewhere that the
    /// delete beats, to be logged once the delete is confirmed.
    func editsLostToDeletes(_ changes: [OutgoingChange], database: any CloudDatabase) throws -> [(OutgoingChange, ServerRecord)] {
        let deletes = changes.filter { $0.deleteID != nil }
        guard !deletes.isEmpty else { return [] }
        let current = try database.fetchRecords(deletes.compactMap(\.deleteID))
        return deletes.compactMap { change in
            // A delete of a row never confirmed here (remembered, or sent
            // without an answer) cannot tell an edit from what it deletes.
            guard let id = change.deleteID, case .success(let record)? = current[id],
                  let known = change.metadata.lastKnown else { return nil }
            // After a re-join the kept record has no tag: only a field edited
            // past it is an edit the delete beats.
            let edited = known.changeTag == nil
                ? record.fieldModificationTimes.contains { $0.value > (known.fieldModificationTimes[$0.key] ?? 0) }
                : record.changeTag != known.changeTag
            return edited ? (change, record) : nil
        }
    }

    func logEditsLostToDeletes(_ lost: [(OutgoingChange, ServerRecord)], result: ModifyRecordsResult) throws -> Int {
        let confirmed = lost.filter { change, _ in
            guard let id = change.deleteID, case .success? = result.deleteResults[id] else { return false }
            return true
        }
        guard !confirmed.isEmpty else { return 0 }
        try syncWrite { db in
            for (change, record) in confirmed {
                try logConflict(db, table: change.table.name, key: change.key, field: "*", ancestor: nil, local: "deleted",
                                remote: "edited", localTime: nil, remoteTime: record.fieldModificationTimes.values.max(),
                                winner: "delete", remoteDevice: record.modifiedByDevice)
            }
        }
        return confirmed.count
    }

    /// Pending changes, saves parents first then deletes children first,
    /// within the request limits.
    ///
    /// Read table by table, and no more rows than one request takes: the
    /// server then holds parents before children however many changes are
    /// pending (a device fetching them applies each at once instead of
    /// holding it for its parent), and no row is decoded for nothing.
    func outgoingBatch(_ db: Database, limit: Int) throws -> [OutgoingChange] {
        var metadata: [Metadata] = []
        let passes = tables.map { ($0, false) } + tables.reversed().map { ($0, true) }
        for (table, deletes) in passes where metadata.count < limit {
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Metadata.columns) FROM sync_metadata
                WHERE recordType = ? AND (isPendingSave OR isPendingDelete) AND isPendingDelete = ?
                LIMIT ?
                """), arguments: [table.name, deletes, limit - metadata.count])
            metadata += try rows.map(Metadata.init(row:))
        }
        var batch: [OutgoingChange] = []
        // The clock cannot move during this read.
        let hlc = try Int64.fetchOne(db, sql: "SELECT hlc FROM sync_clock") ?? 0
        var bytes = 0
        var zoneCache: [String: ZoneID] = [:]
        for meta in metadata {
            guard batch.count < limit, let table = tablesByName[meta.recordType] else { break }
            let name = RecordCoder.recordName(table: table.name, key: meta.recordName)
            if meta.isPendingDelete {
                guard let zone = meta.zoneID ?? meta.lastKnown?.id.zoneID else { continue }
                batch.append(OutgoingChange(table: table, key: meta.recordName, metadata: meta, record: nil, blobs: [:],
                                            deleteID: RecordID(recordName: name, zoneID: zone)))
                continue
            }
            guard let row = try fetchRow(db, table: table, key: meta.recordName) else { continue }
            let zone = try meta.zoneID ?? meta.lastKnown?.id.zoneID ?? zoneForNewRecord(db, table: table, row: row, cache: &zoneCache)
            let (values, blobs) = RecordCoder.values(of: row, table: table)
            var record = meta.lastKnown ?? ServerRecord(id: RecordID(recordName: name, zoneID: zone), recordType: table.name)
            for column in table.columns {
                let value = values[column]
                let known = meta.lastKnown
                if known == nil || known?.fields[column] != value || known?.fieldModificationTimes[column] == nil
                    || meta.editTimes[column] != nil {
                    record.fields[column] = value
                    record.fieldModificationTimes[column] = meta.editTimes[column] ?? hlc
                }
            }
            record.parent = parentID(of: row, table: table, zone: zone)
            bytes += record.encodedSize
            if bytes > batchByteLimit, !batch.isEmpty { break }
            batch.append(OutgoingChange(table: table, key: meta.recordName, metadata: meta, record: record, blobs: blobs, deleteID: nil))
        }
        return batch
    }

    func parentID(of row: Row, table: TableSchema, zone: ZoneID) -> RecordID? {
        guard table.sharesWithParent, let parent = table.parent, let key: String = row[parent.column] else { return nil }
        return RecordID(recordName: RecordCoder.recordName(table: parent.parentTable, key: key), zoneID: zone)
    }

    /// A new record goes to its parent's zone (a reminder added to a shared
    /// list lands in the owner's zone), else to the default zone.
    func zoneForNewRecord(_ db: Database, table: TableSchema, row: Row, cache: inout [String: ZoneID]) throws -> ZoneID {
        guard table.sharesWithParent, let parent = table.parent, let key: String = row[parent.column],
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

    /// Uploads the blobs that changed since the last-known server record.
    func uploadAssets(of record: inout ServerRecord, change: OutgoingChange, to database: any CloudDatabase) throws {
        for (column, data) in change.blobs {
            guard case .asset(let local)? = record.fields[column] else { continue }
            // A last-known record without a change tag is of another
            // history (a re-join): this server may lack the asset.
            if let lastKnown = change.metadata.lastKnown, lastKnown.changeTag != nil,
               case .asset(let known)? = lastKnown.fields[column], known.sha256 == local.sha256 { continue }
            let uploaded = try database.uploadAsset(data)
            record.fields[column] = .asset(uploaded)
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

    /// Notes, before the request, the zone of each record about to be
    /// created: from then on the server may have it, whatever happens to
    /// this process before the answer is stored, so a delete of the row
    /// must be sent (`ChangeCapture.captureDelete` forgets only deletes of
    /// rows never sent).
    func noteSending(_ changes: [OutgoingChange]) throws {
        let new = changes.filter { $0.metadata.zoneID == nil && $0.record != nil }
        guard !new.isEmpty else { return }
        // One statement per table and zone: a first upload notes thousands.
        let groups = Dictionary(grouping: new) { change in
            ZoneTable(table: change.table.name, zone: change.record?.id.zoneID ?? defaultZoneID)
        }
        try syncWrite { db in
            for (group, changes) in groups {
                let keys = String(decoding: try JSONEncoder().encode(changes.map(\.key)), as: UTF8.self)
                try db.executeCached("""
                    UPDATE sync_metadata SET zoneName = ?, ownerName = ?
                    WHERE recordType = ? AND recordName IN (SELECT value FROM json_each(?)) AND zoneName IS NULL
                    """, arguments: [group.zone.name, group.zone.ownerName, group.table, keys])
            }
        }
    }

    /// Applies the server's answer to a batch in one transaction.
    func handle(_ result: ModifyRecordsResult, for changes: [OutgoingChange], database: any CloudDatabase) throws -> SyncReport {
        var report = SyncReport()
        var reverts: [RecordID] = []
        try applyWrite { db in
            try advanceMark(db, to: result.head)
            for change in changes {
                if let record = change.record {
                    switch result.saveResults[record.id] {
                    case .success(let saved)?:
                        try confirmSave(db, change: change, saved: saved)
                        report.sentSaves += 1
                    case .failure(.serverRecordChanged(let current))?:
                        // A merge that must wait for a parent not fetched yet
                        // is no progress: the fetch that follows brings it.
                        let outcome = try applyFetched(db, record: current)
                        if !outcome.held { report.merged += 1 }
                        report.conflicts += outcome.conflicts
                    case .failure(.unknownItem)?:
                        // Deleted on the server meanwhile: the delete wins.
                        if change.metadata.hasLocalEdits { try logDeleteWins(db, change: change, remoteDevice: nil) }
                        try deleteLocally(db, table: change.table, key: change.key)
                        report.dropped += 1
                    case .failure(.zoneNotFound(let zone))?:
                        try db.execute(sql: "UPDATE sync_zones SET isCreated = 0 WHERE zoneName = ? AND ownerName = ?",
                                       arguments: [zone.name, zone.ownerName])
                    case .failure(.permissionFailure)?:
                        reverts.append(record.id)
                    case .failure(.assetUnavailable)?, .failure(.batchRequestFailed)?, .failure?, nil:
                        break
                    }
                } else if let id = change.deleteID {
                    switch result.deleteResults[id] {
                    case .success?, .failure(.unknownItem)?:
                        try confirmDelete(db, change: change)
                        report.sentDeletes += 1
                    case .failure(.zoneNotFound(let zone))?:
                        try db.execute(sql: "UPDATE sync_zones SET isCreated = 0 WHERE zoneName = ? AND ownerName = ?",
                                       arguments: [zone.name, zone.ownerName])
                    case .failure(.permissionFailure)?:
                        reverts.append(id)
                    default:
                        break
                    }
                }
            }
        }
        if !reverts.isEmpty {
            report.add(try revert(reverts, database: database))
        }
        return report
    }

    /// The server has `saved`: it becomes the last-known record, and the
    /// edits it carried stop being pending, unless the row changed again
    /// while the request was in flight (its change count moved), in which
    /// case they stay pending for the next send. One statement, as this
    /// runs for every record sent.
    func confirmSave(_ db: Database, change: OutgoingChange, saved: ServerRecord) throws {
        try db.executeCached("""
            UPDATE sync_metadata SET
              zoneName = ?, ownerName = ?, lastKnownServerRecord = ?,
              editTimes = CASE WHEN changeCount = ? THEN '{}' ELSE editTimes END,
              isPendingSave = CASE WHEN changeCount = ? THEN 0 ELSE isPendingSave END
            WHERE recordType = ? AND recordName = ?
            """, arguments: [
                saved.id.zoneID.name, saved.id.zoneID.ownerName, try RecordCoder.encode(saved),
                change.metadata.changeCount, change.metadata.changeCount, change.table.name, change.key,
            ])
        if db.changesCount == 0 {
            // Deleted (and forgotten) while the request was in flight: the
            // server now has it, so it must be deleted there too.
            try Metadata.save(db, type: change.table.name, name: change.key, lastKnown: saved, editTimes: [:],
                              isPendingSave: false, isPendingDelete: true)
        }
    }

    func confirmDelete(_ db: Database, change: OutgoingChange) throws {
        guard let current = try Metadata.fetch(db, type: change.table.name, name: change.key) else { return }
        if current.isPendingDelete {
            try rememberDelete(db, table: change.table.name, key: change.key, zone: change.deleteID?.zoneID)
            try Metadata.delete(db, type: change.table.name, name: change.key)
        } else {
            // Created again with the same key meanwhile: it is a new record now.
            try db.executeCached("UPDATE sync_metadata SET lastKnownServerRecord = NULL WHERE recordType = ? AND recordName = ?", arguments: [change.table.name, change.key])
        }
    }

    /// The server refused an edit (a read-only share, or access ended): put
    /// back the server's version, log what was lost, and stop retrying.
    func revert(_ ids: [RecordID], database: any CloudDatabase) throws -> SyncReport {
        var report = SyncReport()
        let current: [RecordID: Result<ServerRecord, CloudError>]
        do {
            current = try database.fetchRecords(ids)
        } catch let error as CloudError {
            throw SyncError.server(error)
        }
        // Owners whose shares this user still reads, read-only: a new row
        // refused there was refused for the permission, not for access.
        let shares: [Share] = (try? sharedDatabase.fetchShares()) ?? []
        var readOnlyOwners: Set<String> = []
        for share in shares {
            guard let me = share.participants.first(where: { $0.userName == userName }),
                  me.status == .accepted, me.permission == .readOnly else { continue }
            readOnlyOwners.insert(share.ownerName)
        }
        try applyWrite { db in
            for id in ids {
                guard let (table, key) = RecordCoder.split(id.recordName), let schema = tablesByName[table] else { continue }
                let meta = try Metadata.fetch(db, type: table, name: key)
                switch current[id] {
                case .success(let record)?:
                    // A row a re-join made pending carries no edit of the user's.
                    if meta?.hasLocalEdits ?? true {
                        try logRefused(db, table: table, key: key, meta: meta, record: record, owner: id.zoneID.ownerName)
                    }
                    try Metadata.save(db, type: table, name: key, lastKnown: record, editTimes: [:],
                                      isPendingSave: false, isPendingDelete: false)
                    try writeRow(db, table: schema, key: key, record: record, columns: schema.columns, insert: true)
                default:
                    if meta?.hasLocalEdits ?? true {
                        try logRefused(db, table: table, key: key, meta: meta, record: nil, owner: id.zoneID.ownerName,
                                       readOnly: readOnlyOwners.contains(id.zoneID.ownerName))
                    }
                    try deleteLocally(db, table: schema, key: key)
                }
                report.dropped += 1
            }
        }
        return report
    }
}

private struct ZoneTable: Hashable {
    var table: String
    var zone: ZoneID
}

extension ModifyRecordsResult {
    /// Whether a save came back as "gone" (its record or zone missing),
    /// which the engine believes only from the server it synced with.
    var saysGone: Bool {
        saveResults.values.contains { result in
            switch result {
            case .failure(.unknownItem), .failure(.zoneNotFound): true
            default: false
            }
        }
    }
}
