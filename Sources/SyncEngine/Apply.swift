import CloudServer
import Foundation
import GRDB

/// What applying one fetched record did.
struct ApplyOutcome {
    var applied = false
    var held = false
    var conflicts = 0
}

extension SyncEngine {
    /// Applies a fetched page. `guarded`: each record in a savepoint of its
    /// own, so a record the schema refuses is set aside (see `refuse`);
    /// unguarded, the refusal is thrown.
    ///
    /// `known`: rows earlier pages of the same fetch wrote or found, used
    /// (and added to) only unguarded: see `KnownRows`.
    ///
    /// `fresh`: the device held no synced rows when the fetch began. Then
    /// a page none of whose records an earlier page carried is taken to
    /// be new here, without reading metadata or rows (a twelfth of a new
    /// device's first download), and goes in with plain INSERTs: a row or
    /// metadata made since under the same key fails the page, which is
    /// applied again guarded, looking everything up.
    func applyPage(_ db: Database, _ page: ZoneChanges, assets: [String: Data], guarded: Bool,
                   known: KnownRows? = nil, fresh: Bool = false) throws -> SyncReport {
        var report = SyncReport()
        // The clock moves past every time of the page at once.
        try absorb(db, times: page.changed.lazy.flatMap { $0.fieldModificationTimes.values })
        // A version waiting for its asset is replaced by this page's.
        try forgetWaitingAssets(db, of: page.changed.map(\.id) + page.deleted.map(\.id))
        let hints = guarded ? nil : try known.flatMap { try checksForeignKeysAtOnce(db) ? $0 : nil }
        let assumesNew = fresh && !guarded && known.map { known in
            !page.changed.contains { known.mayHold($0.id.recordName) }
        } == true
        let holdsNone = try Bool.fetchOne(db.cachedStatement(sql: "SELECT NOT EXISTS (SELECT 1 FROM sync_held_records)")) ?? false
        let writes = PageWrites(batchingInserts: !guarded, assumesNew: assumesNew, known: hints, holdsNone: holdsNone)
        // Saves first: a row moved away from a parent deleted in the
        // same page must move before the parent's delete cascades.
        let records = page.changed.sorted { (order[$0.recordType] ?? 0) < (order[$1.recordType] ?? 0) }
        if assumesNew {
            writes.reserve(records.count)
        } else if !guarded {
            try prefetch(records, into: writes, db)
        }
        for record in records {
            // Parents are in the database before their children look.
            if writes.queuedTable != nil, writes.queuedTable != record.recordType {
                try flush(writes, db)
            }
            let outcome = try applyFetched(db, record: record, assets: assets, guarded: guarded, page: writes)
            if outcome.applied { writes.markPresent(record.id.recordName) }
            report.receivedSaves += outcome.applied ? 1 : 0
            report.conflicts += outcome.conflicts
        }
        try flush(writes, db)
        let deletions = page.deleted.sorted { (order[$0.recordType] ?? 0) > (order[$1.recordType] ?? 0) }
        // What goes by cascade and the page does not delete itself, the
        // deleting device never had: the triggers log what this device made,
        // counted with the page's conflicts.
        if !deletions.isEmpty {
            let lastEntry = try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(rowid) FROM sync_conflicts")) ?? 0
            let deleted = Set(deletions.map(\.id.recordName))
            let linked = try linkedNamesOfEdited(db, deletions: deletions, deleted: deleted)
            try functions.applyingDeletes(of: deleted) {
                for deletion in deletions {
                    try applyDeletion(db, id: deletion.id, by: remoteName(user: deletion.deletedByUser, device: deletion.deletedByDevice),
                                      through: deletion.deletedThrough, linked: linked[deletion.id.recordName], into: &report)
                }
            }
            report.conflicts += try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) FROM sync_conflicts WHERE rowid > ? AND remote = 'deleted with its parent'
                """), arguments: [lastEntry]) ?? 0
        }
        report.receivedSaves += try applyHeld(db, assets: assets, guarded: guarded)
        hints?.absorb(present: writes.presentNames, deleted: page.deleted.map(\.id))
        return report
    }

    /// Whether a child written through this connection whose parent is
    /// gone fails its own statement: foreign keys on, not deferred for the
    /// transaction, and declared deferred by none of the synced tables.
    /// `KnownRows` hints are used only then (else such a child would be
    /// written, or fail only at the commit).
    func checksForeignKeysAtOnce(_ db: Database) throws -> Bool {
        guard try Bool.fetchOne(db.cachedStatement(sql: "PRAGMA foreign_keys")) == true,
              try Bool.fetchOne(db.cachedStatement(sql: "PRAGMA defer_foreign_keys")) == false else { return false }
        let deferred = try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN (SELECT value FROM json_each(?))
                           AND sql LIKE '%INITIALLY DEFERRED%')
            """), arguments: [FieldJSON.encode(strings: tables.map(\.name))]) ?? true
        return !deferred
    }

    /// A write the local schema refused because of the record's values.
    static func isRefusal(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CONSTRAINT || error.resultCode == .SQLITE_MISMATCH
    }

    /// What an unguarded page meets when one of its records must be set
    /// aside (`applyFetched`: refused, or waiting for its asset): the
    /// page is applied again record by record.
    static func setsARecordAside(_ error: any Error) -> Bool {
        if let error = error as? DatabaseError { return isRefusal(error) }
        if case CloudError.assetUnavailable? = error as? CloudError { return true }
        return false
    }

    /// Applies a fetched (or conflicting) server record: inserts it, updates
    /// the changed columns, or merges it with pending local edits.
    ///
    /// A record the local schema refuses (a value of the wrong type, a CHECK
    /// or a foreign key it breaks: another device's bug, or someone writing
    /// to the server directly) is not applied, so one bad record cannot
    /// block every later sync: see `refuse`.
    ///
    /// Unguarded, the refusal is thrown instead, for a caller that applies
    /// many records in one savepoint and redoes them guarded if one fails.
    ///
    /// A record whose asset the server cannot give waits (`WaitingAsset`);
    /// unguarded, the server's error is thrown.
    ///
    /// `page`: set for the records of a page, whose times the clock has
    /// absorbed already (see `PageWrites`).
    @discardableResult
    func applyFetched(_ db: Database, record: ServerRecord, assets: [String: Data] = [:], guarded: Bool = true,
                      page: PageWrites? = nil) throws -> ApplyOutcome {
        guard guarded else { return try applyFetchedRecord(db, record: record, assets: assets, page: page) }
        // A page forgets its records' waiting versions at once.
        if page == nil { try forgetWaitingAssets(db, of: CollectionOfOne(record.id)) }
        var outcome = ApplyOutcome()
        do {
            try db.inSavepoint {
                outcome = try applyFetchedRecord(db, record: record, assets: assets, page: page)
                return .commit
            }
        } catch let error as DatabaseError where Self.isRefusal(error) {
            outcome = try refuse(db, record: record, reason: error.message ?? "\(error.resultCode)")
        } catch CloudError.assetUnavailable(let why) {
            outcome = try waitForAsset(db, record: record, problem: why)
        }
        return outcome
    }

    /// A fetched record the local schema refused: the local row (if any)
    /// stays as it was and becomes a local edit of every field where it
    /// differs, stamped now, so the next send puts valid values back on the
    /// server and every device converges on them. The refusal is logged as
    /// a conflict the local side won.
    func refuse(_ db: Database, record: ServerRecord, reason: String) throws -> ApplyOutcome {
        var outcome = ApplyOutcome()
        guard let (tableName, key) = RecordCoder.split(record.id.recordName), let table = tablesByName[tableName] else { return outcome }
        try absorb(db, times: record.fieldModificationTimes.values)
        try logConflict(db, table: tableName, key: key, field: "*", ancestor: nil, local: nil, remote: "refused: \(reason)",
                        localTime: nil, remoteTime: record.fieldModificationTimes.values.max(), winner: "local",
                        remoteDevice: remoteName(of: record))
        outcome.conflicts = 1
        let meta = try Metadata.fetch(db, type: tableName, name: key)
        if meta?.isPendingDelete == true {
            try Metadata.save(db, type: tableName, name: key, lastKnown: record, editTimes: [:],
                              isPendingSave: false, isPendingDelete: true)
        } else if let row = try fetchRow(db, table: table, key: key) {
            try db.execute(sql: ChangeCapture.tick)
            let now = try Int64.fetchOne(db, sql: "SELECT hlc FROM sync_clock") ?? 0
            let local = RecordCoder.values(of: row, table: table).values
            var editTimes = meta?.editTimes ?? [:]
            for column in table.columns where local[column] != record.fields[column] {
                editTimes[column] = now
            }
            try Metadata.save(db, type: tableName, name: key, lastKnown: record, editTimes: editTimes,
                              isPendingSave: !editTimes.isEmpty, isPendingDelete: false)
        } else {
            // Nothing here to keep: remember the version so it is not fetched
            // again; a valid later version replaces it.
            try Metadata.save(db, type: tableName, name: key, lastKnown: record, editTimes: [:],
                              isPendingSave: false, isPendingDelete: false)
        }
        return outcome
    }

    private func applyFetchedRecord(_ db: Database, record: ServerRecord, assets: [String: Data], page: PageWrites?) throws -> ApplyOutcome {
        var outcome = ApplyOutcome()
        guard let (tableName, key) = RecordCoder.split(record.id.recordName), let table = tablesByName[tableName],
              tableName == record.recordType else { return outcome }
        // A page's times were absorbed before its records.
        if page == nil { try absorb(db, times: record.fieldModificationTimes.values) }
        // A version of this record held for its parent is older than this
        // one: when the parent came it would be applied over it.
        if page?.holdsNone != true {
            try db.executeCached("DELETE FROM sync_held_records WHERE recordType = ? AND recordName = ?", arguments: [tableName, key])
        }
        var meta = try page?.prefetchedMetadata(record.id.recordName) ?? Metadata.fetch(db, type: tableName, name: key)
        if let known = meta?.lastKnown, known.changeTag == record.changeTag, !(meta?.isPendingSave ?? false) {
            return outcome
        }
        if let pending = meta, try isMadeAgainSinceRememberedDelete(db, record: record, meta: pending, table: tableName, key: key) {
            try forgetRememberedDelete(db, table: tableName, key: key)
            meta = nil
        }
        // Another person's merge beat an edit of this user's (`LostEdit`).
        if let known = meta?.lastKnown, record.fields[Self.lostEditsField] != nil {
            outcome.conflicts += try logEditsLostHere(db, record: record, table: table, key: key, known: known)
        }
        if let meta, meta.isPendingDelete {
            // Deleted here: the delete wins over the other side's edit,
            // logged with what the edit wrote. A delete a re-join sends
            // again has no last-known record: edits after the version it
            // was made against are the ones this device never saw.
            var unseen: [String] = []
            if let known = meta.lastKnown {
                unseen = table.columns.filter { known.fields[$0] != record.fields[$0] }
            } else if !isOwnVersion(record), let seen = try rememberedDeleteSeenThrough(db, table: tableName, key: key) {
                unseen = table.columns.filter { (record.fieldModificationTimes[$0] ?? .min) > seen }
            }
            if !unseen.isEmpty {
                // With the names it was tied to here, its links deleted too.
                var pairs = Self.editedPairs(record.fields, table: table, whole: true, keepingPlace: true,
                                             kept: keptWhole[tableName] ?? []) { unseen.contains($0) }
                if !pairs.isEmpty { pairs += try pendingDeletedLinkNames(db, table: tableName, key: key) }
                try logConflict(db, table: tableName, key: key, field: "*", ancestor: nil, local: "deleted",
                                remote: Self.encodeKept(pairs) ?? "edited", localTime: nil,
                                remoteTime: record.fieldModificationTimes.values.max(),
                                winner: "delete", remoteDevice: remoteName(of: record))
                outcome.conflicts += 1
            }
            try Metadata.save(db, type: tableName, name: key, lastKnown: record, editTimes: [:],
                              isPendingSave: false, isPendingDelete: true)
            return outcome
        }
        for reference in table.foreignKeys {
            guard case .string(let target)? = record.fields[reference.column] else { continue }
            // A local edit of the reference that is not older than the
            // record's wins the merge below, and the row keeps the parent it
            // has here: the record's parent (deleted here, or not arrived)
            // decides nothing. A reminder moved here after another device
            // moved it into a list deleted here stays where it was moved.
            if let meta, meta.isPendingSave, let localTime = meta.editTimes[reference.column],
               MergeConflict.clientWins(clientTime: localTime, serverTime: record.fieldModificationTimes[reference.column] ?? 0),
               try rowExists(db, table: tableName, key: key) {
                continue
            }
            let parentName = RecordCoder.recordName(table: reference.parentTable, key: target)
            if page?.isPresent(parentName) == true { continue }
            if try rowExists(db, table: reference.parentTable, key: target) {
                page?.markPresent(parentName)
                continue
            }
            // Neither branch below writes the row, so a page taken for new
            // would not find the record here by a failed INSERT.
            try confirmNew(db, table: table, key: key, page: page)
            let targetMeta = try Metadata.fetch(db, type: reference.parentTable, name: target)
            if targetMeta?.isPendingDelete == true, reference.onDelete == "CASCADE" {
                // Created elsewhere under a row deleted here: it goes too,
                // and the log says so (its maker may never see it go).
                try logWentWithParent(db, record: record, table: table, key: key)
                try Metadata.save(db, type: tableName, name: key, lastKnown: record, editTimes: [:],
                                  isPendingSave: false, isPendingDelete: true)
                return outcome
            }
            // Fetched before the row it refers to: held until that arrives.
            try db.execute(sql: """
                INSERT OR REPLACE INTO sync_held_records (recordType, recordName, parentType, parentName, record)
                VALUES (?, ?, ?, ?, ?)
                """, arguments: [tableName, key, reference.parentTable, target, try RecordCoder.encode(record)])
            outcome.held = true
            return outcome
        }
        let row = page?.isKnownAbsent(record.id.recordName) == true ? nil : try fetchRow(db, table: table, key: key)
        guard let row else {
            try writeRow(db, table: table, key: key, record: record, columns: table.columns, insert: true, assets: assets, page: page)
            let values = try Metadata.values(type: tableName, name: key, lastKnown: record, editTimes: [:],
                                         isPendingSave: false, isPendingDelete: false)
            if let page, page.batchingInserts {
                page.queueMetadata(values)
            } else {
                try db.executeCached(Metadata.saveSQL(rows: 1), arguments: StatementArguments(values))
            }
            outcome.applied = true
            return outcome
        }
        let local = RecordCoder.values(of: row, table: table).values
        guard let meta, meta.isPendingSave else {
            // No local edits: take the server's version, writing only the
            // columns that differ.
            let changed = table.columns.filter { local[$0] != record.fields[$0] }
            try writeRow(db, table: table, key: key, record: record, columns: changed, insert: false, assets: assets)
            try Metadata.save(db, type: tableName, name: key, lastKnown: record, editTimes: [:],
                              isPendingSave: false, isPendingDelete: false)
            outcome.applied = true
            return outcome
        }
        // With no last-known record (a send whose answer was lost, or a
        // re-join), a version this device wrote itself is still an
        // ancestor of the row: every local edit came after it.
        let ancestor = (meta.lastKnown ?? (isOwnVersion(record) ? record : nil)).map(RowVersion.init(record:))
        let conflict = MergeConflict(
            columns: table.columns, ancestor: ancestor,
            client: RowVersion(clientValues: local, editTimes: meta.editTimes, ancestor: ancestor, columns: table.columns),
            server: RowVersion(record: record))
        let resolved = conflict.resolved()
        let serverColumns = resolved.serverWins.filter { local[$0] != record.fields[$0] }
        try writeRow(db, table: table, key: key, record: record, columns: serverColumns, insert: false, assets: assets)
        // The log's own entries merge without an entry about an entry (two
        // devices that logged one row's loss under one id, a dismissal).
        // One time for the merge's entries: they are found together by it.
        let resolvedAt = functions.wallClock()
        for column in table.columns where resolved.outcomes[column]?.isConflict == true && tableName != Self.conflictTable {
            try logConflict(
                db, table: tableName, key: key, field: column,
                ancestor: RecordCoder.display(ancestor?.values[column]), local: RecordCoder.display(local[column]),
                remote: RecordCoder.display(record.fields[column]),
                localTime: conflict.client.time(column), remoteTime: conflict.server.time(column),
                winner: resolved.outcomes[column] == .clientWon ? "local" : "remote",
                remoteDevice: remoteName(of: record), resolvedAt: resolvedAt)
            outcome.conflicts += 1
        }
        // Another person's edits that lost here go with the next save, for
        // their devices to log (`LostEdit`).
        if tableName != Self.conflictTable {
            try noteLostEdits(db, table: tableName, key: key, record: record,
                              columns: table.columns.filter { resolved.outcomes[$0] == .clientWon },
                              serverTime: { conflict.server.time($0) },
                              ancestor: { RecordCoder.display(ancestor?.values[$0]) })
        }
        var clientWins = resolved.clientWins.filter { local[$0] != record.fields[$0] }
        // A row made again here after every edit of this version (an undo
        // of its delete, put back from the log) keeps its times and when it
        // was made, even where it has the same values: a delete of this
        // version, remembered by a device and sent again, must not take
        // what was made after it.
        let madeAgain = meta.isMadeAfter(record, table: table)
        if madeAgain { clientWins = table.columns }
        var editTimes: FieldMap<Int64> = [:]
        for column in clientWins { editTimes[column] = conflict.client.time(column) }
        if madeAgain { editTimes[table.primaryKey] = meta.createdHere(table) }
        try Metadata.save(db, type: tableName, name: key, lastKnown: record, editTimes: editTimes,
                          isPendingSave: !clientWins.isEmpty, isPendingDelete: false)
        outcome.applied = true
        return outcome
    }

    /// For a record of a page taken for new (`PageWrites.assumesNew`)
    /// that is held or goes with its parent, and so writes no row: looks
    /// it up after all, and if it is here fails as the INSERT would have,
    /// sending the page down the guarded path.
    private func confirmNew(_ db: Database, table: TableSchema, key: String, page: PageWrites?) throws {
        guard page?.assumesNew == true else { return }
        if try Metadata.fetch(db, type: table.name, name: key) != nil || rowExists(db, table: table.name, key: key) {
            throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "\(table.name) \(key), taken for new, is here")
        }
    }

    /// Whether a delete a re-join sends again (pending, without a
    /// last-known record) meets a version of the row made again after it:
    /// `record` was created (its key's time, `createdAt`) after the newest
    /// edit of the version the delete was made against (`seenThrough`).
    /// Whoever made it again (an undo of the delete, a reminder put back
    /// from the conflict log) had seen a later state of the row than the
    /// delete's, which must not take it.
    private func isMadeAgainSinceRememberedDelete(_ db: Database, record: ServerRecord, meta: Metadata,
                                                  table: String, key: String) throws -> Bool {
        guard meta.isPendingDelete, meta.lastKnown == nil, !isOwnVersion(record), let schema = tablesByName[table],
              let created = Self.createdAt(record, table: schema),
              let seen = try rememberedDeleteSeenThrough(db, table: table, key: key) else { return false }
        return created > seen
    }

    /// When a record's row was made: its key's time, which a create stamps
    /// and no edit does (a new key is a delete and a create), carried in
    /// the record as a field time without a field. Nil for a record saved
    /// before it was carried.
    static func createdAt(_ record: ServerRecord, table: TableSchema) -> Int64? {
        record.fieldModificationTimes[table.primaryKey]
    }

    /// Drops a remembered delete a later version of the row outdid.
    private func forgetRememberedDelete(_ db: Database, table: String, key: String) throws {
        try db.executeCached("DELETE FROM sync_metadata WHERE recordType = ? AND recordName = ?", arguments: [table, key])
        try forgetDelete(db, table: table, key: key)
    }

    /// A row made (or made again) here after `time`, the newest edit of
    /// the version a fetched delete took, came after what the delete's
    /// maker saw: it stays, as a pending save of every field that creates
    /// it on the server again (no change tag: the server's record is a
    /// tombstone), and no delete of it is remembered. A row made before
    /// is the version the delete took, or an edit of it, which the delete
    /// beats.
    private func keepsRowMadeAgain(_ db: Database, meta: Metadata, table: TableSchema, key: String, after time: Int64) throws -> Bool {
        guard !meta.isPendingDelete,
              let created = meta.createdHere(table) ?? meta.lastKnown.flatMap({ Self.createdAt($0, table: table) }),
              created > time, try rowExists(db, table: table.name, key: key) else { return false }
        // Never confirmed (the answer to its create lost): it goes as a
        // create as it is.
        if var ancestor = meta.lastKnown {
            var times = ancestor.fieldModificationTimes
            for (column, edited) in meta.editTimes { times[column] = edited }
            ancestor.changeTag = nil
            var editTimes: FieldMap<Int64> = [:]
            for column in table.allColumns { editTimes[column] = times[column] }
            try Metadata.save(db, type: table.name, name: key, lastKnown: ancestor, editTimes: editTimes,
                              isPendingSave: true, isPendingDelete: false)
        }
        try forgetDelete(db, table: table.name, key: key)
        return true
    }

    /// A save the server refused as deleted, left pending until the fetch
    /// that follows brings the delete (`SendRound`): its change tag goes,
    /// so that a row the delete does not take is created again, and the
    /// next send fetches first.
    func awaitFetchedDelete(_ db: Database, change: OutgoingChange) throws {
        if var known = change.metadata.lastKnown, known.changeTag != nil {
            known.changeTag = nil
            try db.executeCached("UPDATE sync_metadata SET lastKnownServerRecord = ? WHERE recordType = ? AND recordName = ?",
                                 arguments: [try RecordCoder.encode(known), change.table.name, change.key])
        }
        try SyncState.set(db, Self.fetchBeforeSendKey, 1)
    }

    /// Whether this device saved this version of the record.
    func isOwnVersion(_ record: ServerRecord) -> Bool {
        record.modifiedByDevice == deviceName && record.modifiedByUser == userName
    }

    /// What a row with links that a page deletes while it was edited here
    /// keeps (`KeptLinks`), read before the page's deletes of its links
    /// (children first) take them. By record name; none for a page that
    /// deletes no such row. `deleted`: the record names the page deletes.
    func linkedNamesOfEdited(_ db: Database, deletions: [RecordDeletion], deleted: Set<String>) throws -> [String: KeptLinks] {
        var kept: [String: KeptLinks] = [:]
        for deletion in deletions {
            guard let (table, key) = RecordCoder.split(deletion.id.recordName), linksByTable[table]?.isEmpty == false,
                  let meta = try Metadata.fetch(db, type: table, name: key),
                  meta.lastKnown != nil || (meta.isPendingSave && meta.hasLocalEdits) else { continue }
            // Only for a delete of this user's, in this user's own zone,
            // where the links live too: the deleting device's cascade sent
            // their deletes before the row's, on the same feed. Another
            // person never has this user's tags, and a shared zone's feed
            // is not the links' (their deletes may come later).
            let sameFeed = deletion.deletedByUser == userName && deletion.id.zoneID.ownerName == userName
            let linksEdited = try sameFeed && meta.lastKnown != nil && hasLinksUnknownToDeleter(db, table: table, key: key, deleted: deleted)
            guard (meta.isPendingSave && meta.hasLocalEdits) || linksEdited else { continue }
            kept[deletion.id.recordName] = KeptLinks(names: try linkedNames(db, table: table, key: key), edited: linksEdited)
        }
        return kept
    }

    /// The names tied to a row a page deletes (`linkedNames`), and whether
    /// some of its links are ones the deleting device never had.
    struct KeptLinks {
        var names: [[String]]
        var edited: Bool
    }

    /// Applies a fetched delete: counts the local row that went away, and
    /// the pending edit the delete beat as a conflict.
    ///
    /// `deleter`: the device that deleted it, as the log names the other
    /// side (`remoteName`), when the server says. `through`: the newest
    /// field time of the version the delete was made against, when sent;
    /// a row here made after it (`createdAt`) was made again since (an
    /// undo, a reminder put back) and stays, to be created again.
    func applyDeletion(_ db: Database, id: RecordID, by deleter: String? = nil, through: Int64? = nil,
                       linked: KeptLinks? = nil, into report: inout SyncReport) throws {
        guard let (tableName, key) = RecordCoder.split(id.recordName), let table = tablesByName[tableName] else { return }
        try db.executeCached("DELETE FROM sync_held_records WHERE recordType = ? AND recordName = ?", arguments: [tableName, key])
        let meta = try Metadata.fetch(db, type: tableName, name: key)
        if let through {
            try absorb(db, times: [through])
            if let meta, try keepsRowMadeAgain(db, meta: meta, table: table, key: key, after: through) { return }
        }
        // Created here with a key the other side deleted (never synced from
        // here): keep it; the next send creates it again.
        if let meta, meta.isPendingSave, meta.lastKnown == nil, meta.zoneID == nil { return }
        // An edit here, of the row or only of its links (a tag put on it
        // that the deleting device never had): lost to the delete, and kept
        // whole for a put-back.
        let editedHere = meta.map { $0.isPendingSave && $0.hasLocalEdits } ?? false
        let linksEdited = !editedHere && linked?.edited == true
        if let meta, editedHere || linksEdited {
            try logDeleteWins(db, table: tableName, key: key, meta: meta, remoteDevice: deleter, linked: linked?.names,
                              linksEdited: linksEdited)
            report.conflicts += 1
            // The entry of the row keeps its links' names: the entries the
            // delete trigger would log for the links it takes that are
            // pending here say less, and would count the one edit twice.
            // Not pending any more, they go with the row as any link does
            // (`captureDelete`).
            for link in linksByTable[tableName] ?? [] {
                try db.execute(sql: """
                    UPDATE sync_metadata SET isPendingSave = 0
                    WHERE recordType = ? AND isPendingSave AND recordName IN (
                      SELECT \(link.linksKey.quotedDatabaseIdentifier) FROM \(link.links.quotedDatabaseIdentifier)
                      WHERE \(link.ownColumn.quotedDatabaseIdentifier) = ?)
                    """, arguments: [link.links, key])
            }
        }
        try rememberDelete(db, table: tableName, key: key, zone: id.zoneID, known: meta?.lastKnown, through: through)
        let lastEntry = deleter == nil ? nil : try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(rowid) FROM sync_conflicts")) ?? 0
        try deleteFetched(db, table: table, key: key, zone: id.zoneID, into: &report)
        // What went with it that the triggers logged was deleted by the same
        // device; so was it, where a send found it deleted and logged the
        // edit it beat not knowing by whom.
        // Written as this device's edits of the entries, so that they reach
        // its other devices (an entry may have gone out already).
        if let lastEntry, let deleter {
            functions.isApplying = false
            defer { functions.isApplying = true }
            try db.executeCached("""
                UPDATE sync_conflicts SET remoteDevice = ? WHERE rowid > ? AND remote = 'deleted with its parent' AND remoteDevice IS NULL
                """, arguments: [deleter, lastEntry])
            try db.executeCached("""
                UPDATE sync_conflicts SET remoteDevice = ?
                WHERE recordType = ? AND recordName = ? AND winner = 'delete' AND remote = 'deleted' AND remoteDevice IS NULL
                  AND NOT isDismissed
                """, arguments: [deleter, tableName, key])
        }
    }

    /// Deletes a row on behalf of the server: forgets its metadata first, so
    /// the delete trigger does not take it for a local delete. Rows removed
    /// with it by cascade are marked for deletion on the server.
    @discardableResult
    func deleteLocally(_ db: Database, table: TableSchema, key: String) throws -> Bool {
        try Metadata.delete(db, type: table.name, name: key)
        try db.executeCached("DELETE FROM \(table.name.quotedDatabaseIdentifier) WHERE \(table.primaryKey.quotedDatabaseIdentifier) = ?", arguments: [key])
        return db.changesCount > 0
    }

    /// Applies held records whose parent has arrived. Returns how many.
    func applyHeld(_ db: Database, assets: [String: Data], guarded: Bool = true) throws -> Int {
        var applied = 0
        while true {
            let ready = try Row.fetchAll(db, sql: "SELECT recordType, recordName, parentType, parentName, record FROM sync_held_records")
                .filter { row in (try? rowExists(db, table: row["parentType"], key: row["parentName"])) == true }
            if ready.isEmpty { return applied }
            for row in ready {
                try db.execute(sql: "DELETE FROM sync_held_records WHERE recordType = ? AND recordName = ?",
                               arguments: [row["recordType"] as String, row["recordName"] as String])
                let record = try RecordCoder.decode(row["record"])
                if try applyFetched(db, record: record, assets: assets, guarded: guarded).applied { applied += 1 }
            }
        }
    }

    /// Held records whose parent the server no longer has: the parent was
    /// deleted while the child was created elsewhere, so the child goes too.
    func resolveOrphans() throws -> SyncReport {
        var report = SyncReport()
        let held = try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT recordType, recordName, parentType, parentName, record FROM sync_held_records")
        }
        guard !held.isEmpty else { return report }
        var parentsByDatabase: [DatabaseScope: [RecordID: [Row]]] = [:]
        for row in held {
            // Only a parent in the same zone can be looked up; a reference
            // into another user's zone (a private tag on a shared reminder)
            // waits for its target.
            let record = try RecordCoder.decode(row["record"])
            guard let table = tablesByName[row["recordType"]], let target = tablesByName[row["parentType"]] else { continue }
            // A row's reference to its own table (a subtask's parent) stays
            // in its zone too.
            let sameZone = (table.sharesWithParent && table.parent?.parentTable == target.name)
                || (target.parent == nil && record.id.zoneID == defaultZoneID)
                || table.name == target.name
            guard sameZone else { continue }
            let parentID = RecordID(recordName: RecordCoder.recordName(table: row["parentType"], key: row["parentName"]),
                                    zoneID: record.id.zoneID)
            let scope: DatabaseScope = record.id.zoneID.ownerName == userName ? .private : .shared
            parentsByDatabase[scope, default: [:]][parentID, default: []].append(row)
        }
        for (scope, parents) in parentsByDatabase {
            let database = scope == .private ? privateDatabase : sharedDatabase
            let found: [RecordID: Result<ServerRecord, CloudError>]
            do {
                found = try database.fetchRecords(Array(parents.keys))
            } catch let error as CloudError {
                throw SyncError.server(error)
            }
            if found.values.contains(where: { if case .failure(.unknownItem) = $0 { true } else { false } }) {
                try confirmSameServer()
            }
            try applyWrite { db in
                for (parentID, rows) in parents {
                    guard case .failure(.unknownItem)? = found[parentID] else { continue }
                    for row in rows {
                        let record = try RecordCoder.decode(row["record"])
                        try db.execute(sql: "DELETE FROM sync_held_records WHERE recordType = ? AND recordName = ?",
                                       arguments: [row["recordType"] as String, row["recordName"] as String])
                        if let table = tablesByName[row["recordType"]] {
                            try logWentWithParent(db, record: record, table: table, key: row["recordName"])
                        }
                        try Metadata.save(db, type: row["recordType"], name: row["recordName"], lastKnown: record, editTimes: [:],
                                          isPendingSave: false, isPendingDelete: true)
                        report.dropped += 1
                    }
                }
            }
        }
        return report
    }

    /// A zone this device can no longer see (a share ended, a zone deleted):
    /// its rows go, and edits pending on them are dropped with a note.
    func purgeZone(_ zone: ZoneID, scope: DatabaseScope) throws -> SyncReport {
        var report = SyncReport()
        try applyWrite { db in
            let rows = try Row.fetchAll(db, sql: "SELECT \(Metadata.columns) FROM sync_metadata WHERE zoneName = ? AND ownerName = ?",
                                        arguments: [zone.name, zone.ownerName])
            let metas = try rows.map(Metadata.init(row:)).sorted { (order[$0.recordType] ?? 0) > (order[$1.recordType] ?? 0) }
            for meta in metas {
                guard let table = tablesByName[meta.recordType] else { continue }
                if meta.isPendingDelete || (meta.isPendingSave && meta.hasLocalEdits) {
                    let shared = zone.ownerName != userName
                    try logConflict(db, table: meta.recordType, key: meta.recordName, field: "*", ancestor: nil,
                                    local: try editedValues(db, table: meta.recordType, key: meta.recordName, meta: meta)
                                        ?? (meta.isPendingDelete ? "deleted" : "edited"),
                                    remote: shared ? nil : "zone deleted",
                                    localTime: meta.editTimes.values.max(), remoteTime: nil, winner: "delete", remoteDevice: nil,
                                    cause: shared ? .noLongerShared : nil, byUser: shared ? zone.ownerName : nil,
                                    subject: try shareRootSubject(db, table: meta.recordType, key: meta.recordName))
                    report.conflicts += 1
                }
                try deleteFetched(db, table: table, key: meta.recordName, zone: zone, into: &report)
            }
            try forgetWaitingAssets(db, inZone: zone)
            for meta in metas { try forgetLostEdits(db, table: meta.recordType, key: meta.recordName) }
            for held in try Row.fetchAll(db, sql: "SELECT recordType, recordName, record FROM sync_held_records") {
                guard try RecordCoder.decode(held["record"]).id.zoneID == zone else { continue }
                try db.execute(sql: "DELETE FROM sync_held_records WHERE recordType = ? AND recordName = ?",
                               arguments: [held["recordType"] as String, held["recordName"] as String])
            }
            try db.execute(sql: "DELETE FROM sync_zones WHERE scope = ? AND zoneName = ? AND ownerName = ?",
                           arguments: [scope.rawValue, zone.name, zone.ownerName])
        }
        return report
    }

    // MARK: Rows

    /// Deletes a row the server no longer has for this device (deleted, or
    /// its zone gone), counting it; another user's root (a list shared
    /// with this user) is named while its row is still here, for the word
    /// that it went (`SyncReport.goneShares`).
    func deleteFetched(_ db: Database, table: TableSchema, key: String, zone: ZoneID, into report: inout SyncReport) throws {
        let isSharedRoot = zone.ownerName != userName && table.parent == nil
        let name = isSharedRoot ? try rowName(db, table: table, key: key) : nil
        guard try deleteLocally(db, table: table, key: key) else { return }
        report.receivedDeletes += 1
        if isSharedRoot { report.goneShares.append(GoneShare(owner: zone.ownerName, name: name)) }
    }

    /// A row's first text field (a list's title), if it is here.
    func rowName(_ db: Database, table: TableSchema, key: String) throws -> String? {
        guard let column = table.nameColumn, let row = try fetchRow(db, table: table, key: key),
              case .string(let text)? = RecordCoder.values(of: row, table: table).values[column] else { return nil }
        return text
    }

    /// The row with every column, primary key first (what
    /// `RecordCoder.values` reads).
    func fetchRow(_ db: Database, table: TableSchema, key: String) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: statements.row(table)), arguments: [key])
    }

    func rowExists(_ db: Database, table: String, key: String) throws -> Bool {
        guard let schema = tablesByName[table] else { return false }
        return try Bool.fetchOne(db.cachedStatement(sql: statements.exists(schema)), arguments: [key]) ?? false
    }

    /// Writes `columns` of a record into the row (inserting it if asked and
    /// absent). Runs inside `applyWrite`, so triggers do not capture it. An
    /// insert for a page that batches them waits in the page's queue.
    func writeRow(_ db: Database, table: TableSchema, key: String, record: ServerRecord, columns: [String], insert: Bool,
                  assets: [String: Data] = [:], page: PageWrites? = nil) throws {
        if insert {
            let present = table.columns.filter { record.fields[$0] != nil }
            let values = try rowValues(record, columns: present, key: key, assets: assets)
            if let page, page.batchingInserts {
                page.queueInsert(table, columns: present, values: values)
            } else {
                try db.executeCached(statements.upsert(table, columns: present), arguments: StatementArguments(values))
            }
            return
        }
        guard !columns.isEmpty else { return }
        var values = try rowValues(record, columns: columns, assets: assets)
        values.append(key.databaseValue)
        try db.executeCached(statements.update(table, columns: columns), arguments: StatementArguments(values))
    }

    /// The SQL values of `columns` of a record (the key first, if given);
    /// assets are read from `assets` or the server.
    func rowValues(_ record: ServerRecord, columns: [String], key: String? = nil, assets: [String: Data]) throws -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        values.reserveCapacity(columns.count + 1)
        if let key { values.append(key.databaseValue) }
        for column in columns {
            values.append(try RecordCoder.databaseValue(record.fields[column]) { asset in
                if let data = assets[asset.sha256] { return data }
                return try database(for: record.id.zoneID).assetData(asset)
            })
        }
        return values
    }

    /// Reads the metadata and notes the rows missing here of a page's
    /// records, a query per table rather than two per record. Valid while
    /// the page's saves apply: a record's own metadata and row change only
    /// as it applies, and a page holds a record once.
    func prefetch(_ records: [ServerRecord], into writes: PageWrites, _ db: Database) throws {
        let byTable = Dictionary(grouping: records, by: \.recordType)
        writes.reserve(records.count)
        for (tableName, records) in byTable {
            guard let table = tablesByName[tableName] else { continue }
            let keys = records.compactMap { RecordCoder.split($0.id.recordName)?.key }
            let keyList = FieldJSON.encode(strings: keys)
            var metadata: [String: Metadata] = [:]
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT \(Metadata.columns) FROM sync_metadata
                WHERE recordType = ? AND recordName IN (SELECT value FROM json_each(?))
                """), arguments: [tableName, keyList])
            while let row = try rows.next() {
                let meta = try Metadata(row: row)
                metadata[RecordCoder.recordName(table: tableName, key: meta.recordName)] = meta
            }
            let pk = table.primaryKey.quotedDatabaseIdentifier
            let existing = Set(try String.fetchAll(db.cachedStatement(sql: """
                SELECT \(pk) FROM \(table.name.quotedDatabaseIdentifier) WHERE \(pk) IN (SELECT value FROM json_each(?))
                """), arguments: [keyList]))
            for key in keys {
                let name = RecordCoder.recordName(table: tableName, key: key)
                writes.prefetched(name, metadata: metadata[name], exists: existing.contains(key))
            }
        }
    }

    /// Inserts the rows a page queued, and then their metadata, many per
    /// statement.
    func flush(_ writes: PageWrites, _ db: Database) throws {
        let plain = writes.assumesNew
        for (table, columns, rows) in writes.takeQueued() {
            try Self.writeInChunks(rows, db) {
                plain ? statements.insert(table, columns: columns, rows: $0) : statements.upsert(table, columns: columns, rows: $0)
            }
        }
        try Self.writeInChunks(writes.takeQueuedMetadata(), db) { plain ? Metadata.insertSQL(rows: $0) : Metadata.saveSQL(rows: $0) }
    }

    /// Runs the statement `sql(n)` for every `n` rows of `rows` (sizes from
    /// `PageWrites.chunkSizes`).
    private static func writeInChunks(_ rows: [[DatabaseValue]], _ db: Database, sql: (Int) -> String) throws {
        var rest = rows[...]
        while !rest.isEmpty {
            let count = PageWrites.chunkSizes.first { $0 <= rest.count } ?? 1
            try db.cachedStatement(sql: sql(count)).execute(bindingRows: rest.prefix(count))
            rest = rest.dropFirst(count)
        }
    }
}
