import Foundation

/// One `modifyRecords` request: limits, per-record checks, and the
/// per-zone atomicity CloudKit gives atomic zones.
///
/// The whole request runs in one write transaction, and each zone's
/// changes in a savepoint inside it: if any record of a zone fails, the
/// savepoint is rolled back and the zone's other records report
/// `batchRequestFailed`, while other zones still commit. Every record is
/// checked even after one failed, so a client learns of all its conflicts
/// in one round trip.
struct RecordBatch {
    let database: StoreDatabase
    let saves: [ServerRecord]
    let deletes: [RecordID]
    let deletedThrough: [RecordID: Int64]

    private var store: any RecordStore { database.store }
    private var userName: String { database.userName }

    func run() throws -> ModifyRecordsResult {
        try checkLimits()
        let unavailableAssets = missingAssets()
        let zones = Set(saves.map(\.id.zoneID)).union(deletes.map(\.zoneID)).sorted()
        return try store.write(user: userName, device: database.deviceName) { context in
            var result = ModifyRecordsResult()
            let coverage = ShareCoverage(db: context.db)
            for zone in zones {
                let zoneSaves = saves.filter { $0.id.zoneID == zone }
                let zoneDeletes = deletes.filter { $0.zoneID == zone }
                if let error = try zoneError(zone, context) {
                    for save in zoneSaves { result.saveResults[save.id] = .failure(error) }
                    for id in zoneDeletes { result.deleteResults[id] = .failure(error) }
                    continue
                }
                let mark = context.lastSequence
                var failures: [RecordID: CloudError] = [:]
                var saved: [RecordID: ServerRecord] = [:]
                // Each record appears once in a request, so what the store
                // held before it is read once, for the whole zone.
                let stored = try StoredRecord.fetchAll(context.db, zoneSaves.map(\.id) + zoneDeletes, in: zone)
                try context.db.savepoint {
                    var changed: [RecordID: Int64] = [:]
                    var moved: Set<RecordID> = []
                    // A shared database's permission check of a save reads
                    // the records above it, which may be earlier saves of
                    // this request: there each is written at once. A private
                    // database checks nothing of the kind, and writes the
                    // zone's saves together, many per statement.
                    var unwritten: [StoredRecord] = []
                    for save in Self.parentsFirst(zoneSaves) {
                        coverage.reset()
                        do {
                            if let error = unavailableAssets[save.id] { throw error }
                            let outcome = try apply(save, existing: stored[save.id.recordName], context, coverage)
                            if database.scope == .shared {
                                try outcome.stored.write(context.db)
                            } else {
                                unwritten.append(outcome.stored)
                            }
                            saved[save.id] = outcome.stored.record
                            changed[save.id] = outcome.stored.sequence
                            if outcome.isStructural { moved.insert(save.id) }
                        } catch let error as CloudError {
                            failures[save.id] = error
                        }
                    }
                    if failures.isEmpty { try StoredRecord.write(unwritten, context.db) }
                    // The zone's change sequence moves once for all its saves.
                    if let latest = changed.values.max() {
                        try context.touchZone(zone, sequence: latest)
                    }
                    // Deletes are checked against the zone before any of them
                    // applies, so deleting a parent and its children in one
                    // request does not depend on their order.
                    coverage.reset()
                    var doomed: [StoredRecord] = []
                    var absent: [RecordID] = []
                    for id in zoneDeletes {
                        do {
                            if let live = try checkDelete(id, stored: stored[id.recordName], context, coverage) {
                                doomed.append(live)
                            } else {
                                absent.append(id)
                            }
                        } catch let error as CloudError {
                            failures[id] = error
                        }
                    }
                    guard failures.isEmpty else { return false }
                    for stored in doomed {
                        changed[stored.record.id] = try context.tombstone(stored, through: deletedThrough[stored.record.id])
                        try context.deleteShares(rootedAt: stored.record.id)
                        moved.insert(stored.record.id)
                    }
                    for id in absent {
                        let unknown = StoredRecord(record: ServerRecord(id: id, recordType: ""), sequence: 0, isDeleted: true)
                        changed[id] = try context.tombstone(unknown, through: deletedThrough[id])
                    }
                    try SharedVisibility(context: context).refresh(subtreesOf: moved, changed: changed)
                    return true
                }
                if failures.isEmpty {
                    for save in zoneSaves {
                        if let record = saved[save.id] { result.saveResults[save.id] = .success(record) }
                    }
                    for id in zoneDeletes { result.deleteResults[id] = .success(()) }
                } else {
                    context.rewind(to: mark)
                    for save in zoneSaves {
                        result.saveResults[save.id] = .failure(failures[save.id] ?? .batchRequestFailed(save.id))
                    }
                    for id in zoneDeletes {
                        result.deleteResults[id] = .failure(failures[id] ?? .batchRequestFailed(id))
                    }
                }
            }
            result.head = try context.headMark()
            return result
        }
    }

    // MARK: Request checks

    /// Refuses requests over CloudKit's limits before touching the store.
    /// A record named twice is refused the same way: results are keyed by
    /// record, and a client splitting the batch resolves it.
    private func checkLimits() throws {
        let count = saves.count + deletes.count
        if count > StoreDatabase.maximumRecordsPerRequest {
            throw CloudError.limitExceeded(
                "\(count) records in one request; the limit is \(StoreDatabase.maximumRecordsPerRequest)")
        }
        let bytes = saves.reduce(0) { $0 + $1.encodedSize } + deletes.reduce(0) { $0 + $1.recordName.utf8.count }
        if bytes > StoreDatabase.maximumBytesPerRequest {
            throw CloudError.limitExceeded(
                "\(bytes) bytes in one request; the limit is \(StoreDatabase.maximumBytesPerRequest) bytes (2 MB), assets not counted")
        }
        var seen: Set<RecordID> = []
        for id in saves.map(\.id) + deletes where !seen.insert(id).inserted {
            throw CloudError.limitExceeded("record \(id) appears more than once in one request")
        }
    }

    /// Records whose asset fields reference files the server does not hold.
    /// Assets are never deleted, so checking before the transaction is safe.
    private func missingAssets() -> [RecordID: CloudError] {
        var missing: [RecordID: CloudError] = [:]
        for save in saves where save.fields.values.contains(where: { if case .asset = $0 { true } else { false } }) {
            for (field, value) in save.fields.sorted(by: { $0.key < $1.key }) {
                guard case .asset(let asset) = value, !store.assets.contains(asset) else { continue }
                missing[save.id] = .assetUnavailable(
                    "field \(field) of record \(save.id.recordName) references asset \(asset.sha256) (\(asset.size) bytes), which was never uploaded to \(store.assets.location)")
                break
            }
        }
        return missing
    }

    /// An error every record of the zone gets, or nil if the zone can take
    /// changes through this database.
    private func zoneError(_ zone: ZoneID, _ context: WriteContext) throws -> CloudError? {
        switch database.scope {
        case .private where zone.ownerName != userName:
            return .permissionFailure("zone \(zone) belongs to \(zone.ownerName); write to it through the shared database")
        case .shared where zone.ownerName == userName:
            return .permissionFailure("zone \(zone) is \(userName)'s own; write to it through the private database")
        default:
            break
        }
        return try context.zoneState(zone) == .live ? nil : .zoneNotFound(zone)
    }

    // MARK: Saves

    private struct SaveOutcome {
        /// The new version, with its sequence, to be written.
        var stored: StoredRecord
        /// Created, re-created, or moved to another parent: the shares
        /// covering it and its descendants may have changed.
        var isStructural: Bool
    }

    /// The new version of one record, if the server's version is the one
    /// the client last saw ("if server record unchanged"); the caller
    /// writes it.
    private func apply(_ save: ServerRecord, existing: StoredRecord?, _ context: WriteContext,
                       _ coverage: ShareCoverage) throws -> SaveOutcome {
        let live = existing.flatMap { $0.isDeleted ? nil : $0 }
        // Permission comes first: a conflict would hand the current record to
        // someone who may not read it.
        if database.scope == .shared {
            try checkWrite(save, isExisting: live != nil, coverage)
        }
        if let live {
            guard let tag = save.changeTag, tag == live.record.changeTag else {
                throw CloudError.serverRecordChanged(live.record)
            }
        } else if save.changeTag != nil {
            throw CloudError.unknownItem(save.id)
        } else if let existing, let known = save.knownThrough, existing.sequence > known,
                  existing.record.modifiedByUser != context.userName || existing.record.modifiedByDevice != context.deviceName {
            // Deleted after the client's fetch, elsewhere: a delete it has
            // not seen. Its own it has (a delete undone).
            throw CloudError.unknownItem(save.id)
        }
        let sequence = context.nextSequence()
        var record = save
        record.knownThrough = nil
        record.changeTag = context.changeTag(for: sequence)
        record.modificationDate = context.modificationDate(after: existing?.record.modificationDate)
        record.modifiedByUser = context.userName
        record.modifiedByDevice = context.deviceName
        return SaveOutcome(stored: StoredRecord(record: record, sequence: sequence, isDeleted: false),
                           isStructural: live == nil || live?.record.parent != save.parent)
    }

    /// A participant may save a record only where a share they accepted with
    /// read-write permission covers it, both where it is and where the save
    /// puts it (a new record: under a parent in such a share).
    private func checkWrite(_ save: ServerRecord, isExisting: Bool, _ coverage: ShareCoverage) throws {
        let current = isExisting ? try coverage.access(of: userName, through: try coverage.shares(covering: save.id)) : nil
        let proposed = try coverage.access(of: userName, through: try coverage.shares(covering: save.id, underParent: save.parent))
        if proposed == .readWrite, !isExisting || current == .readWrite { return }
        if current == .readOnly || proposed == .readOnly {
            throw CloudError.permissionFailure("\(userName) has read-only access to record \(save.id.recordName) in \(save.id.zoneID)")
        }
        if current == .readWrite {
            throw CloudError.permissionFailure("\(userName) may not move record \(save.id.recordName) out of the records shared with them in \(save.id.zoneID)")
        }
        throw CloudError.permissionFailure("record \(save.id.recordName) in \(save.id.zoneID) is not shared with \(userName)")
    }

    // MARK: Deletes

    /// The live record to delete, if this user may delete it; nil for a
    /// record the private database never had, whose delete is recorded.
    ///
    /// A departure from CloudKit, which answers `unknownItem` there: a
    /// server made again, or put back from an older copy, lacks records
    /// devices still hold, and a delete of one must reach the devices that
    /// send it back when they re-join (they fetch before they send).
    /// Deleting a record deleted already stays `unknownItem`, and so does
    /// any missing record in the shared database, where a user names only
    /// records shared with them.
    private func checkDelete(_ id: RecordID, stored: StoredRecord?, _ context: WriteContext,
                             _ coverage: ShareCoverage) throws -> StoredRecord? {
        guard let stored, !stored.isDeleted else {
            if stored == nil, database.scope == .private { return nil }
            throw CloudError.unknownItem(id)
        }
        guard database.scope == .shared else { return stored }
        let shares = try coverage.shares(covering: id)
        switch try coverage.access(of: userName, through: shares) {
        case .readWrite?:
            if let share = try coverage.share(rootedAt: id) {
                throw CloudError.permissionFailure(
                    "only \(id.zoneID.ownerName) can delete record \(id.recordName), the root of share \(share); leave the share instead")
            }
            return stored
        case .readOnly?:
            throw CloudError.permissionFailure("\(userName) has read-only access to record \(id.recordName) in \(id.zoneID)")
        case nil:
            throw CloudError.permissionFailure("record \(id.recordName) in \(id.zoneID) is not shared with \(userName)")
        }
    }

    /// Orders saves so that a parent saved in the same request comes before
    /// its children: a participant's new child is checked against its
    /// parent's share, which the parent must already be in.
    static func parentsFirst(_ saves: [ServerRecord]) -> [ServerRecord] {
        // By position, each id hashed once and its parent's once: with sets
        // of ids per save, hashing record names was a tenth of the
        // server's side of a first upload.
        let positions = Dictionary(saves.indices.map { (saves[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        var placed = [Bool](repeating: false, count: saves.count)
        var ordered: [ServerRecord] = []
        ordered.reserveCapacity(saves.count)
        var chain: [Int] = []
        for start in saves.indices {
            chain.removeAll(keepingCapacity: true)
            var next: Int? = positions[saves[start].id]
            // A chain is short (a reminder, its parent reminder, its list):
            // looking back along it is the cycle check.
            while let position = next, !placed[position], !chain.contains(position) {
                chain.append(position)
                next = saves[position].parent.flatMap { positions[$0] }
            }
            for position in chain.reversed() where !placed[position] {
                placed[position] = true
                ordered.append(saves[position])
            }
        }
        return ordered
    }
}
