import Foundation

/// The change feeds of one database: zones since a token, and records of a
/// zone since a token.
///
/// A token is the change sequence up to which the reader has seen
/// everything. Each change has its own sequence, so a page that stops after
/// the change with sequence N resumes exactly after it. Feeds read one
/// snapshot of the store, so a page never mixes two states.
///
/// The private database reads the `zone` and `record` tables; the shared
/// database reads the participant's rows of `sharedView`, where records that
/// left the participant's view (deleted, unshared, moved out) are
/// participant tombstones.
struct ChangeFeed {
    let database: StoreDatabase
    let db: any StoreConnection

    private var userName: String { database.userName }

    /// Where a fetch resumes.
    struct Position {
        /// The latest change sequence in this snapshot.
        var head: Int64
        /// Changes after this sequence are delivered.
        var since: Int64
        /// Set for a fetch from scratch (or its later pages): the reader
        /// holds no record deleted at or before this, so those tombstones
        /// are skipped.
        var scratchHead: Int64?
    }

    /// Refuses tokens that cannot be resumed: older than the compaction point
    /// (deletions since were forgotten), or past the head (a token from
    /// another server, or from a store restored from an older backup).
    func position(after token: ChangeToken?) throws -> Position {
        let head = try StoreMeta.integer(db, StoreMeta.sequence)
        guard let token else { return Position(head: head, since: 0, scratchHead: head) }
        let compacted = try StoreMeta.integer(db, StoreMeta.compactedThrough)
        // A reader from scratch needs the deletions after its start only.
        let needsTombstonesAfter = token.scratchHead ?? token.sequence
        if needsTombstonesAfter < compacted || token.sequence > head || needsTombstonesAfter > head {
            throw CloudError.changeTokenExpired
        }
        return Position(head: head, since: token.sequence, scratchHead: token.scratchHead)
    }

    /// The token of a page: where it stopped if more is coming, else the head.
    private func token(after position: Position, lastDelivered: Int64, moreComing: Bool) -> ChangeToken {
        guard moreComing else { return ChangeToken(sequence: position.head) }
        return ChangeToken(sequence: lastDelivered, scratchHead: position.scratchHead)
    }

    // MARK: Zones

    func databaseChanges(since token: ChangeToken?) throws -> DatabaseChanges {
        let position = try position(after: token)
        let (head, since) = (position.head, position.since)
        var changed: [ZoneID] = []
        var deleted: [ZoneID] = []
        switch database.scope {
        case .private:
            let rows = try db.rows("""
                SELECT name, deletedSequence FROM zone
                WHERE ownerName = ? AND changeSequence > ?
                ORDER BY name
                """, [userName, since])
            for row in rows {
                let zone = ZoneID(name: try row.text(0), ownerName: userName)
                if try row.optionalInteger(1) == nil {
                    changed.append(zone)
                } else if token != nil {
                    deleted.append(zone)
                }
            }
        case .shared:
            // A zone the participant sees anything of is changed; one where
            // the last visible record just went away is deleted for them.
            let rows = try db.rows("""
                SELECT ownerName, zoneName, MAX(isVisible) FROM sharedView
                WHERE userName = ?
                GROUP BY ownerName, zoneName
                HAVING MAX(sequence) > ?
                ORDER BY ownerName, zoneName
                """, [userName, since])
            for row in rows {
                let zone = ZoneID(name: try row.text(1), ownerName: try row.text(0))
                if try row.bool(2) {
                    changed.append(zone)
                } else if token != nil {
                    deleted.append(zone)
                }
            }
        }
        return DatabaseChanges(changedZoneIDs: changed, deletedZoneIDs: deleted, token: ChangeToken(sequence: head), moreComing: false)
    }

    // MARK: Records

    func zoneChanges(_ zone: ZoneID, since token: ChangeToken?, limit: Int) throws -> ZoneChanges {
        let position = try position(after: token)
        let limit = max(1, limit)
        switch database.scope {
        case .private:
            return try privateZoneChanges(zone, position: position, limit: limit)
        case .shared:
            return try sharedZoneChanges(zone, position: position, limit: limit)
        }
    }

    private func privateZoneChanges(_ zone: ZoneID, position: Position, limit: Int) throws -> ZoneChanges {
        guard zone.ownerName == userName else {
            throw CloudError.permissionFailure("zone \(zone) belongs to \(zone.ownerName); read it through the shared database")
        }
        guard try ZoneRows.state(db, zone) == .live else { throw CloudError.zoneNotFound(zone) }
        let rows = try db.rows("""
            SELECT \(StoredRecord.columns) FROM record
            WHERE ownerName = ? AND zoneName = ? AND sequence > ?
              AND (isDeleted = 0 OR sequence > ?)
            ORDER BY sequence
            LIMIT ?
            """, [zone.ownerName, zone.name, position.since, position.scratchHead ?? 0, limit + 1])
        let moreComing = rows.count > limit
        var changes = ZoneChanges(changed: [], deleted: [], token: ChangeToken(sequence: position.head), moreComing: moreComing)
        var last = position.since
        for row in rows.prefix(limit) {
            let stored = try StoredRecord(row: row)
            if stored.isDeleted {
                changes.deleted.append(stored.deletion)
            } else {
                changes.changed.append(stored.record)
            }
            last = stored.sequence
        }
        changes.token = token(after: position, lastDelivered: last, moreComing: moreComing)
        return changes
    }

    private func sharedZoneChanges(_ zone: ZoneID, position: Position, limit: Int) throws -> ZoneChanges {
        let known = try db.bool("""
            SELECT EXISTS (SELECT 1 FROM sharedView WHERE userName = ? AND ownerName = ? AND zoneName = ?)
            """, [userName, zone.ownerName, zone.name])
        guard known else { throw CloudError.zoneNotFound(zone) }
        let recordColumns = StoredRecord.columns
            .split(separator: ",")
            .map { "r." + $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: ", ")
        // The view's columns come first (0 to 4), who deleted the record
        // if it was deleted (5, 6), then the record's.
        let rows = try db.rows("""
            SELECT v.sequence, v.isVisible, v.recordType, v.recordName,
                   CASE WHEN r.recordName IS NOT NULL AND r.isDeleted = 0 THEN 1 ELSE 0 END,
                   CASE WHEN r.isDeleted = 1 THEN r.modifiedByUser END, CASE WHEN r.isDeleted = 1 THEN r.modifiedByDevice END,
                   \(recordColumns)
            FROM sharedView v
            LEFT JOIN record r ON r.ownerName = v.ownerName AND r.zoneName = v.zoneName AND r.recordName = v.recordName
            WHERE v.userName = ? AND v.ownerName = ? AND v.zoneName = ? AND v.sequence > ?
              AND (v.isVisible = 1 OR v.sequence > ?)
            ORDER BY v.sequence
            LIMIT ?
            """, [userName, zone.ownerName, zone.name, position.since, position.scratchHead ?? 0, limit + 1])
        let moreComing = rows.count > limit
        var changes = ZoneChanges(changed: [], deleted: [], token: ChangeToken(sequence: position.head), moreComing: moreComing)
        var last = position.since
        for row in rows.prefix(limit) {
            last = try row.integer(0)
            if try row.bool(1), try row.bool(4) {
                changes.changed.append(try StoredRecord(row: row, at: 7).record)
            } else if try row.optionalText(5) != nil {
                // Deleted: the tombstone says by whom, and against what.
                var deletion = try StoredRecord(row: row, at: 7).deletion
                deletion.id = RecordID(recordName: try row.text(3), zoneID: zone)
                deletion.recordType = try row.text(2)
                changes.deleted.append(deletion)
            } else {
                changes.deleted.append(RecordDeletion(id: RecordID(recordName: try row.text(3), zoneID: zone), recordType: try row.text(2)))
            }
        }
        changes.token = token(after: position, lastDelivered: last, moreComing: moreComing)
        return changes
    }
}

extension String {
    /// The text, or nil when it is empty (a tombstone written without a user).
    var nonEmpty: String? { isEmpty ? nil : self }
}
