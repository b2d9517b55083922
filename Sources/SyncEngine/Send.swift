import CloudServer
import Foundation
import GRDB
import Synchronization

/// A pending change read for sending, with what is needed to judge the
/// server's answer. A class: a send hands each change from the batch to
/// its request, its answer and the next read's exclusions, and copying
/// the record and metadata at every step cost more than the step.
final class OutgoingChange: Sendable {
    let table: TableSchema
    let key: String
    let metadata: Metadata
    let record: ServerRecord?
    let blobs: [String: Data]
    let deleteID: RecordID?
    /// A delete's: the newest field time of the version it was made
    /// against (`RecordDeletion.deletedThrough`).
    let deletedThrough: Int64?

    init(table: TableSchema, key: String, metadata: Metadata, record: ServerRecord?, blobs: [String: Data], deleteID: RecordID?,
         deletedThrough: Int64? = nil) {
        self.table = table
        self.key = key
        self.metadata = metadata
        self.record = record
        self.blobs = blobs
        self.deleteID = deleteID
        self.deletedThrough = deletedThrough
    }

    /// A save of a row made again here after its last-known version (an
    /// undo of its delete, a reminder put back): its key's time, which a
    /// create stamps and no edit does, is later than that version.
    var isMadeAgain: Bool {
        guard record != nil, let known = metadata.lastKnown else { return false }
        return metadata.isMadeAfter(known, table: table)
    }
}

extension SyncEngine {
    func sendLocked() throws -> SyncReport {
        var round = SendRound(engine: self)
        return try round.run()
    }
}

/// One send: pending changes in batches (parents first), each batch one
/// request per database, and the server's answer applied in one
/// transaction. Owns what lives for one send only: the batch size, halved
/// while the server finds a request too large.
struct SendRound {
    let engine: SyncEngine
    /// Records per request.
    private var limit: Int
    /// A save was refused for a delete this device has not fetched
    /// (`awaitFetchedDelete`): sending on would only send it again, and
    /// fail its zone's other changes with it, until a fetch brings the
    /// delete.
    private let awaitingFetch = Flag()

    private final class Flag: @unchecked Sendable {
        var isSet = false
    }

    init(engine: SyncEngine) {
        self.engine = engine
        limit = engine.batchLimit
    }

    /// Sends everything pending, fetching first what the server may hold
    /// unconfirmed.
    mutating func run() throws -> SyncReport {
        var report = SyncReport()
        guard !engine.isOffline, try engine.pendingWork() > 0 else { return report }
        // Before anything asks whether rows may be on the server unconfirmed.
        try engine.unnoteNeverSent()
        report.rejoined = try engine.checkServer()
        if try engine.hasUnconfirmedSends() {
            // Rows the server may hold without this device knowing (a send
            // whose answer was lost, a re-join): what the server has of them,
            // their own creation or a delete from elsewhere, is fetched and
            // merged first, so a save does not undo that delete.
            report.add(try engine.fetchLocked())
        }
        do {
            report.add(try sendBatches())
            if awaitingFetch.isSet {
                awaitingFetch.isSet = false
                report.add(try engine.fetchLocked())
                report.add(try sendBatches())
            }
        } catch let changed as ServerChanged {
            // The server changed under a batch: everything is pending again,
            // and what the new server holds (its deletes too) comes first.
            report.rejoined = report.rejoined ?? changed.reason
            try SyncEngine.once {
                report.add(try engine.fetchLocked())
                report.add(try sendBatches())
            }
        }
        // A save the server refused for a newer version merged that version
        // here, as a fetch would have: the app's rules are put right now
        // (the fetch that follows may receive nothing to set them off).
        if report.merged > 0 { try engine.runRepair() }
        return report
    }

    /// An answer that simply confirmed every change of its request: stored
    /// while the next request is on its way.
    private struct Answered {
        var changes: [OutgoingChange]
        var result: ModifyRecordsResult
        var overwritten: [LostToDelete]
        var database: any CloudDatabase
    }

    private mutating func sendBatches() throws -> SyncReport {
        var report = SyncReport()
        var failedRounds = 0
        var rounds = 0
        // The next batch, read while the request of the current one is on
        // its way, and the last answer, stored meanwhile (see
        // `modifyRecords(_:saving:deleting:readingAhead:noting:storing:into:)`).
        var next: [OutgoingChange]?
        var answered: Answered?
        // Every batch is noted as sent as it is read (`takeBatch`); what was
        // noted and never went out in a request is put back at the end, so
        // the next send need not fetch first for it.
        let noted = NotedBatches()
        defer { try? engine.unnoteNeverSent() }
        // Offline means no sends, also for a round that began before the
        // device went offline (a live fetch that found edits to send).
        do {
            while failedRounds < 3, rounds < 50, !engine.isOffline, !awaitingFetch.isSet {
                rounds += 1
                let limit = self.limit
                // An answer not stored yet leaves its changes pending: left out.
                let batch = try next ?? noted.took(engine.takeBatch(limit: limit, excluding: answered?.changes ?? [],
                                                                     unsent: noted.unsent))
                next = nil
                if batch.isEmpty {
                    // What waited for the answer's rows (subtasks of its new
                    // parents) is read again once it is stored.
                    guard let last = answered else { break }
                    answered = nil
                    report.add(try store(last))
                    continue
                }
                let byDatabase = Dictionary(grouping: batch) { change -> DatabaseScope in
                    let zone = change.record?.id.zoneID ?? change.deleteID?.zoneID ?? engine.defaultZoneID
                    return zone.ownerName == engine.userName ? .private : .shared
                }
                // A batch for both databases goes request by request, the last
                // answer stored first.
                if byDatabase.count > 1, let last = answered {
                    answered = nil
                    report.add(try store(last))
                }
                var progress = false
                var plain = true
                for scope in DatabaseScope.allCases {
                    guard let changes = byDatabase[scope], !changes.isEmpty else { continue }
                    let database = scope == .private ? engine.privateDatabase : engine.sharedDatabase
                    do {
                        try engine.ensureZones(for: changes, in: database)
                        let saves = try changes.compactMap { change -> ServerRecord? in
                            guard var record = change.record else { return nil }
                            try uploadAssets(of: &record, change: change, to: database)
                            return record
                        }
                        let deletes = changes.compactMap(\.deleteID)
                        var deletedThrough: [RecordID: Int64] = [:]
                        for change in changes {
                            if let id = change.deleteID, let time = change.deletedThrough { deletedThrough[id] = time }
                        }
                        let overwritten = try editsLostToDeletes(changes, database: database)
                        let last = answered
                        answered = nil
                        if noted.sending(changes) { try engine.willSend(unsent: noted.unsent) }
                        // Only a full batch leaves more to read.
                        let (result, ahead) = try modifyRecords(
                            database, saving: saves, deleting: deletes, deletedThrough: deletedThrough,
                            readingAhead: next == nil && batch.count >= limit ? batch : nil, noting: noted,
                            storing: last, into: &report)
                        next = next ?? ahead
                        if byDatabase.count == 1, Self.confirmsAll(result, changes) {
                            answered = Answered(changes: changes, result: result, overwritten: overwritten, database: database)
                            progress = true
                            continue
                        }
                        if result.saysGone { try engine.confirmSameServer() }
                        var (outcome, confirmedAll) = try handle(result, for: changes, database: database)
                        outcome.conflicts += try logEditsLostToDeletes(overwritten, result: result)
                        report.add(outcome)
                        if !outcome.isEmpty { progress = true }
                        if !confirmedAll { plain = false }
                    } catch CloudError.limitExceeded {
                        guard limit > 1 else { throw SyncError.server(.limitExceeded("one record is too large")) }
                        self.limit = max(1, limit / 2)
                        progress = true
                        plain = false
                    } catch let error as CloudError {
                        throw SyncError.server(error)
                    }
                }
                // Read before the answers were stored: it stands only if every
                // change was simply confirmed (an answer that merged, dropped
                // or put back rows may have changed the rows it read).
                if !plain || next?.isEmpty == true { next = nil }
                failedRounds = progress ? 0 : failedRounds + 1
            }
        } catch {
            // A carried answer is the server's word on records it holds:
            // stored whatever stopped the send (else they stay sent and
            // unconfirmed, which the next send fetches first).
            if let last = answered { _ = try? store(last) }
            throw error
        }
        if let last = answered {
            report.add(try store(last))
        }
        return report
    }

    /// Whether the server saved and deleted every change of the request:
    /// storing such an answer changes no row but the changes' own
    /// metadata, so the next request need not wait for it.
    private static func confirmsAll(_ result: ModifyRecordsResult, _ changes: [OutgoingChange]) -> Bool {
        changes.allSatisfy { change in
            if let record = change.record {
                if case .success? = result.saveResults[record.id] { return true }
            } else if let id = change.deleteID {
                if case .success? = result.deleteResults[id] { return true }
            }
            return false
        }
    }

    /// Stores an answer that confirmed every change of its request.
    private func store(_ answer: Answered) throws -> SyncReport {
        var (outcome, _) = try handle(answer.result, for: answer.changes, database: answer.database)
        outcome.conflicts += try logEditsLostToDeletes(answer.overwritten, result: answer.result)
        return outcome
    }

    /// Sends one request and, while it is on its way, stores the answer
    /// before it (`storing`) and reads the batch after `readingAhead`
    /// (leaving its changes out, and noting it as sent in `noted`): the
    /// request is most of a send's time, storing and reading most of the
    /// rest, and they need not wait for each other. Requests stay one at a
    /// time and in order. The read is nil when not asked for or when it
    /// failed (the next round reads again); what storing the answer did is
    /// added to `report`, also when the request fails.
    private func modifyRecords(_ database: any CloudDatabase, saving saves: [ServerRecord], deleting deletes: [RecordID],
                               deletedThrough: [RecordID: Int64], readingAhead batch: [OutgoingChange]?, noting noted: NotedBatches, storing last: Answered?,
                               into report: inout SyncReport) throws -> (ModifyRecordsResult, [OutgoingChange]?) {
        guard batch != nil || last != nil else {
            return (try database.modifyRecords(saving: saves, deleting: deletes, deletedThrough: deletedThrough), nil)
        }
        let answer = Mutex<Result<ModifyRecordsResult, any Error>?>(nil)
        let arrived = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let result = Result { try database.modifyRecords(saving: saves, deleting: deletes, deletedThrough: deletedThrough) }
            answer.withLock { $0 = result }
            arrived.signal()
        }
        // Stored whatever this request's fate: it was answered already.
        let stored = Result { try last.map(store) ?? SyncReport() }
        let limit = self.limit
        // Tracked as soon as it is noted, whatever this request's fate.
        let ahead = try? batch.map { batch in
            noted.took(try engine.takeBatch(limit: limit, excluding: batch, unsent: noted.unsent))
        }
        arrived.wait()
        report.add(try stored.get())
        guard let result = answer.withLock({ $0 }) else { preconditionFailure("a request that ended without an answer") }
        return (try result.get(), ahead ?? nil)
    }

    /// An edit made elsewhere that a delete of this device's beats: the
    /// delete, the server's record, and the names the row was tied to
    /// here (`SyncEngine.pendingDeletedLinkNames`), read while its links'
    /// deletes are still pending.
    typealias LostToDelete = (change: OutgoingChange, record: ServerRecord, linked: [[String]])

    /// Server records that changed since this device last saw them and that
    /// pending deletes are about to remove: edits made elsewhere that the
    /// delete beats, to be logged once the delete is confirmed.
    func editsLostToDeletes(_ changes: [OutgoingChange], database: any CloudDatabase) throws -> [LostToDelete] {
        let deletes = changes.filter { $0.deleteID != nil }
        guard !deletes.isEmpty else { return [] }
        let current = try database.fetchRecords(deletes.compactMap(\.deleteID))
        let lost = deletes.compactMap { change -> (OutgoingChange, ServerRecord)? in
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
        guard !lost.isEmpty else { return [] }
        return try engine.writer.read { db in
            try lost.map { change, record in
                (change, record, try engine.pendingDeletedLinkNames(db, table: change.table.name, key: change.key))
            }
        }
    }

    func logEditsLostToDeletes(_ lost: [LostToDelete], result: ModifyRecordsResult) throws -> Int {
        let confirmed = lost.filter { change, _, _ in
            guard let id = change.deleteID, case .success? = result.deleteResults[id] else { return false }
            return true
        }
        guard !confirmed.isEmpty else { return 0 }
        try engine.syncWrite { db in
            for (change, record, linked) in confirmed {
                // What the edit wrote, and what else the row had: the entry
                // can put it back (`restoreLost`), with the names it was
                // tied to here.
                let known = change.metadata.lastKnown
                var pairs = SyncEngine.editedPairs(record.fields, table: change.table, whole: true, keepingPlace: true,
                                                   kept: engine.keptWhole[change.table.name] ?? []) { known?.fields[$0] != record.fields[$0] }
                if !pairs.isEmpty { pairs += linked }
                try engine.logConflict(db, table: change.table.name, key: change.key, field: "*", ancestor: nil, local: "deleted",
                                remote: SyncEngine.encodeKept(pairs) ?? "edited", localTime: nil,
                                remoteTime: record.fieldModificationTimes.values.max(),
                                winner: "delete", remoteDevice: engine.remoteName(of: record))
            }
        }
        return confirmed.count
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

    /// Applies the server's answer to a batch in one transaction. Also
    /// says whether every change was simply confirmed.
    private func handle(_ result: ModifyRecordsResult, for changes: [OutgoingChange],
                        database: any CloudDatabase) throws -> (SyncReport, confirmedAll: Bool) {
        var report = SyncReport()
        var reverts: [RecordID] = []
        var confirmed = 0
        try engine.applyWrite { db in
            try engine.advanceMark(db, to: result.head)
            for change in changes {
                if let record = change.record {
                    // A note of edits lost goes with one answered save (`LostEdit`).
                    if record.fields[SyncEngine.lostEditsField] != nil, let answer = result.saveResults[record.id] {
                        switch answer {
                        case .failure(.assetUnavailable), .failure(.batchRequestFailed): break
                        default: try engine.forgetLostEdits(db, table: change.table.name, key: change.key)
                        }
                    }
                    switch result.saveResults[record.id] {
                    case .success(let saved)?:
                        try confirmSave(db, change: change, saved: saved)
                        report.sentSaves += 1
                        confirmed += 1
                    case .failure(.serverRecordChanged(let current))?:
                        // A merge that must wait for a parent not fetched yet
                        // is no progress: the fetch that follows brings it.
                        let outcome = try engine.applyFetched(db, record: current)
                        if !outcome.held { report.merged += 1 }
                        report.conflicts += outcome.conflicts
                    case .failure(.unknownItem)? where change.isMadeAgain
                        || (record.changeTag == nil && record.id.zoneID.ownerName == engine.userName):
                        // Deleted on the server by a delete this device has
                        // not fetched, and the row here may be newer than
                        // what it took: a row made again here since its
                        // last-known version, or a re-join's save to the
                        // user's own zone (the server refuses it only for a
                        // delete after this device's fetch). The fetch brings
                        // the delete with the time of the version it took,
                        // and decides (`applyDeletion`); the row waits for
                        // it, to be created again if it stays. (A shared
                        // zone's fetch reports no delete of a record its
                        // share never showed, as a copy put back lacks.)
                        try engine.awaitFetchedDelete(db, change: change)
                        awaitingFetch.isSet = true
                    case .failure(.unknownItem)?:
                        // Deleted on the server meanwhile: the delete wins.
                        if change.metadata.hasLocalEdits {
                            try engine.logDeleteWins(db, change: change, remoteDevice: nil)
                            report.conflicts += 1
                        }
                        // Remembered as a fetched delete is, for a copy put back later.
                        try engine.rememberDelete(db, table: change.table.name, key: change.key, zone: record.id.zoneID,
                                                  known: change.metadata.lastKnown)
                        try engine.deleteLocally(db, table: change.table, key: change.key)
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
                        confirmed += 1
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
            if engine.repair != nil, report.merged > 0 {
                // As a fetch's merge: committed with the rows, run once the
                // send is over (`SendRound.run`).
                try SyncState.set(db, SyncEngine.repairPendingKey, 1)
            }
        }
        if !reverts.isEmpty {
            report.add(try revert(reverts, database: database))
        }
        return (report, confirmed == changes.count)
    }

    /// The server has `saved`: it becomes the last-known record, and the
    /// edits it carried stop being pending, unless the row changed again
    /// while the request was in flight (its change count moved), in which
    /// case they stay pending for the next send. One statement, as this
    /// runs for every record sent.
    private func confirmSave(_ db: Database, change: OutgoingChange, saved: ServerRecord) throws {
        // The row read for the request, found by its rowid (no descent of
        // the key's index): what it sent is confirmed, unless edited since.
        let archive = try RecordCoder.encode(saved)
        try db.executeCached("""
            UPDATE sync_metadata SET
              zoneName = ?, ownerName = ?, lastKnownServerRecord = ?,
              editTimes = CASE WHEN changeCount = ?4 THEN '{}' ELSE editTimes END,
              isPendingSave = CASE WHEN changeCount = ?4 THEN 0 ELSE isPendingSave END
            WHERE rowid = ? AND recordType = ? AND recordName = ?
            """, arguments: [
                saved.id.zoneID.name, saved.id.zoneID.ownerName, archive, change.metadata.changeCount,
                change.metadata.rowID, change.table.name, change.key,
            ])
        if db.changesCount == 0 {
            // Deleted and made again with the same key meanwhile (its
            // metadata a new row, whose count of edits starts again): the
            // server has the version sent, and the row's own edits go next.
            try db.executeCached("""
                UPDATE sync_metadata SET zoneName = ?, ownerName = ?, lastKnownServerRecord = ?
                WHERE recordType = ? AND recordName = ?
                """, arguments: [saved.id.zoneID.name, saved.id.zoneID.ownerName, archive, change.table.name, change.key])
        }
        if db.changesCount == 0 {
            // Deleted (and forgotten) while the request was in flight: the
            // server now has it, so it must be deleted there too.
            try Metadata.save(db, type: change.table.name, name: change.key, lastKnown: saved, editTimes: [:],
                              isPendingSave: false, isPendingDelete: true)
        }
    }

    private func confirmDelete(_ db: Database, change: OutgoingChange) throws {
        try engine.forgetLostEdits(db, table: change.table.name, key: change.key)
        guard let current = try Metadata.fetch(db, type: change.table.name, name: change.key) else { return }
        if current.isPendingDelete {
            try engine.rememberDelete(db, table: change.table.name, key: change.key, zone: change.deleteID?.zoneID,
                                      known: current.lastKnown)
            try Metadata.delete(db, type: change.table.name, name: change.key)
        } else {
            // Created again with the same key meanwhile: it is a new record now.
            try db.executeCached("UPDATE sync_metadata SET lastKnownServerRecord = NULL WHERE recordType = ? AND recordName = ?", arguments: [change.table.name, change.key])
        }
    }

    /// The server refused an edit (a read-only share, or access ended): put
    /// back the server's version, log what was lost, and stop retrying.
    private func revert(_ ids: [RecordID], database: any CloudDatabase) throws -> SyncReport {
        var report = SyncReport()
        let current: [RecordID: Result<ServerRecord, CloudError>]
        do {
            current = try database.fetchRecords(ids)
        } catch let error as CloudError {
            throw SyncError.server(error)
        }
        // The shares this user still reads, read-only, by their roots: a
        // new row refused under one was refused for the permission, not
        // for access. (Another list of the same owner's shared read-only
        // says nothing of this one, which may have been deleted.)
        let shares: [Share] = (try? engine.sharedDatabase.fetchShares()) ?? []
        var readOnlyRoots: Set<String> = []
        for share in shares {
            guard let me = share.participants.first(where: { $0.userName == engine.userName }),
                  me.status == .accepted, me.permission == .readOnly else { continue }
            readOnlyRoots.insert(share.rootRecordID.recordName)
        }
        try engine.applyWrite { db in
            // Deletes went children first, so their rows come back in that
            // order too: a subtask before its parent. The foreign keys are
            // checked once all are back (for this transaction only), or the
            // write back failed, and every send after it.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            for id in ids {
                guard let (table, key) = RecordCoder.split(id.recordName), let schema = engine.tablesByName[table] else { continue }
                let meta = try Metadata.fetch(db, type: table, name: key)
                switch current[id] {
                case .success(let record)?:
                    // A row a re-join made pending carries no edit of the
                    // user's. A delete is the user's too: the row comes
                    // back, and is logged once back, so that the entry
                    // names the list it is in.
                    let refusedDelete = meta?.isPendingDelete == true
                    if !refusedDelete, meta?.hasLocalEdits ?? true {
                        try engine.logRefused(db, table: table, key: key, meta: meta, record: record, owner: id.zoneID.ownerName)
                    }
                    try Metadata.save(db, type: table, name: key, lastKnown: record, editTimes: [:],
                                      isPendingSave: false, isPendingDelete: false)
                    try engine.writeRow(db, table: schema, key: key, record: record, columns: schema.columns, insert: true)
                    if refusedDelete {
                        try engine.logRefused(db, table: table, key: key, meta: meta, record: record, owner: id.zoneID.ownerName)
                    }
                default:
                    if meta?.hasLocalEdits ?? true {
                        let root = try engine.shareRoot(db, table: table, key: key)
                        let readOnly = root.map { readOnlyRoots.contains(RecordCoder.recordName(table: $0.schema.name, key: $0.key)) } ?? false
                        try engine.logRefused(db, table: table, key: key, meta: meta, record: nil, owner: id.zoneID.ownerName,
                                              readOnly: readOnly)
                    }
                    try engine.deleteLocally(db, table: schema, key: key)
                }
                report.dropped += 1
            }
        }
        return report
    }
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

/// The metadata rowids of the new records a send noted as sent when it
/// read their batches, less those that went out in a request since.
private final class NotedBatches {
    private var waiting: Set<Int64> = []

    /// `batch`, just read and noted.
    func took(_ batch: [OutgoingChange]) -> [OutgoingChange] {
        for change in batch where change.createsUnnotedRecord { waiting.insert(change.metadata.rowID) }
        return batch
    }

    /// `changes` go out in a request now: the server may have them.
    /// Whether any of them was waiting (so the note of their batch must
    /// stand from now on, also after a crash).
    func sending(_ changes: [OutgoingChange]) -> Bool {
        guard !waiting.isEmpty else { return false }
        var any = false
        for change in changes where waiting.remove(change.metadata.rowID) != nil { any = true }
        return any
    }

    var unsent: [Int64] { Array(waiting) }
}
