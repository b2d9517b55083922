import Foundation

/// One write request in progress: the connection inside the store's write
/// transaction, the server clock reading, and the change sequence counter.
///
/// Every change a reader can observe (a record saved or deleted, a record
/// appearing in or leaving a participant's view, a zone or share changing)
/// takes its own sequence, so that a change token, which is one sequence,
/// can resume a feed exactly between any two changes.
package final class WriteContext {
    let db: any StoreConnection
    /// The server clock when the request started.
    let now: Date
    let userName: String
    let deviceName: String
    private let serverID: String
    /// The id this request's commit gets in `commitLog`, if it changes
    /// anything.
    private let commitID = StoreMeta.randomHex(bytes: 8)
    private let initialSequence: Int64
    private(set) var lastSequence: Int64

    private init(db: any StoreConnection, now: Date, userName: String, deviceName: String) throws {
        self.db = db
        self.now = now
        self.userName = userName
        self.deviceName = deviceName
        serverID = try StoreMeta.text(db, StoreMeta.serverID)
        initialSequence = try StoreMeta.integer(db, StoreMeta.sequence)
        lastSequence = initialSequence
    }

    /// Runs one write request on `db`, inside the transaction a store
    /// opened for it, and stores the counter. Returns `body`'s value and
    /// whether anything changed (a store publishes its head only then).
    /// The store commits after this returns and rolls back if it throws.
    package static func perform<T>(
        on db: any StoreConnection, now: Date, user: String, device: String, _ body: (WriteContext) throws -> T
    ) throws -> (value: T, changed: Bool) {
        let context = try WriteContext(db: db, now: now, userName: user, deviceName: device)
        let value = try body(context)
        let changed = try context.finish()
        // Test-only: crash tests may kill the process here.
        FaultInjection.beforeCommit(.server)
        return (value, changed)
    }

    /// Takes the next change sequence.
    func nextSequence() -> Int64 {
        lastSequence += 1
        return lastSequence
    }

    /// Gives back sequences taken by changes that a savepoint rolled back, so
    /// the sequence has no gaps.
    func rewind(to sequence: Int64) {
        lastSequence = sequence
    }

    /// A change tag unique to one save: its sequence, plus this store's
    /// identity so that a re-created server never reissues an old tag.
    func changeTag(for sequence: Int64) -> String {
        String(sequence, radix: 36) + "-" + serverID
    }

    /// The modification date of a new version: the server clock, moved just
    /// past the previous version's date if the clock did not advance (a
    /// pinned or coarse clock), so that every save has a newer date.
    func modificationDate(after previous: Date?) -> Date {
        guard let previous, previous >= now else { return now }
        return previous.addingTimeInterval(0.001)
    }

    /// Stores the counter. Returns whether anything changed, so that the
    /// server publishes its head only after writes that did.
    private func finish() throws -> Bool {
        guard lastSequence != initialSequence else { return false }
        try StoreMeta.set(db, StoreMeta.sequence, lastSequence)
        try db.execute("INSERT INTO commitLog (sequence, id) VALUES (?, ?)", [lastSequence, commitID])
        return true
    }

    /// The store's mark once this request commits, for its answer.
    func headMark() throws -> HistoryMark {
        guard lastSequence != initialSequence else { return try HistoryMark.read(db, sequence: lastSequence) }
        return HistoryMark(storeID: serverID, sequence: lastSequence, commit: commitID)
    }
}

/// Where a zone stands, for requests that need it to exist.
enum ZoneState {
    case live
    case deleted
    case missing
}

extension WriteContext {
    func zoneState(_ zone: ZoneID) throws -> ZoneState {
        try ZoneRows.state(db, zone)
    }

    /// Marks a zone as changed by the change at `sequence`, so that database
    /// change feeds report it.
    func touchZone(_ zone: ZoneID, sequence: Int64) throws {
        try db.execute("UPDATE zone SET changeSequence = ? WHERE ownerName = ? AND name = ?",
                       [sequence, zone.ownerName, zone.name])
    }

    /// Replaces a live record by its tombstone, which keeps the record's name
    /// and type for every reader's next fetch. Returns the change sequence.
    func tombstone(_ stored: StoredRecord, through: Int64? = nil) throws -> Int64 {
        let sequence = nextSequence()
        var times: FieldMap<Int64> = [:]
        times[StoredRecord.deletedThroughKey] = through
        let record = ServerRecord(
            id: stored.record.id,
            recordType: stored.record.recordType,
            fieldModificationTimes: times,
            modificationDate: modificationDate(after: stored.record.modificationDate),
            modifiedByUser: userName,
            modifiedByDevice: deviceName)
        try StoredRecord(record: record, sequence: sequence, isDeleted: true).write(db)
        try touchZone(record.id.zoneID, sequence: sequence)
        return sequence
    }

    /// Deletes the shares rooted at a record that is being deleted, as
    /// CloudKit does: their participants lose access in the same request.
    func deleteShares(rootedAt id: RecordID) throws {
        try db.execute("DELETE FROM share WHERE ownerName = ? AND zoneName = ? AND rootRecordName = ?",
                       [id.zoneID.ownerName, id.zoneID.name, id.recordName])
    }
}

/// Queries on the `zone` table shared by reads and writes.
enum ZoneRows {
    static func state(_ db: any StoreConnection, _ zone: ZoneID) throws -> ZoneState {
        guard let row = try db.row("SELECT deletedSequence FROM zone WHERE ownerName = ? AND name = ?",
                                   [zone.ownerName, zone.name]) else { return .missing }
        return try row.optionalInteger(0) == nil ? .live : .deleted
    }
}
