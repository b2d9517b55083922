import Foundation

/// Keeps the `sharedView` table, every participant's view of records shared
/// with them, in step with records and shares, inside the write transaction
/// that changed them.
///
/// A row's sequence moves when its record changes while visible and when it
/// becomes visible or invisible. That is what lets a participant's next fetch
/// report records that moved into a share, records of a share they just
/// accepted (even from an old token), and deletions for records they can no
/// longer see: removed, left, unshared, moved out or deleted.
struct SharedVisibility {
    private let context: WriteContext
    private let coverage: ShareCoverage

    init(context: WriteContext) {
        self.context = context
        coverage = ShareCoverage(db: context.db)
    }

    /// Brings the view up to date after a write.
    ///
    /// - parameters:
    ///   - subtreesOf: records whose coverage may have changed (created,
    ///     deleted, re-parented, or roots of a share whose participants
    ///     changed); their descendants are recomputed too.
    ///   - changed: records saved or deleted by this write, with the
    ///     sequence of that change, which visible rows take.
    func refresh(subtreesOf roots: Set<RecordID>, changed: [RecordID: Int64]) throws {
        // A zone without shares and without rows in the view has nothing
        // to bring up to date: nobody sees its records, nor saw them.
        var shared: [ZoneID: Bool] = [:]
        for zone in Set(roots.map(\.zoneID)).union(changed.keys.map(\.zoneID)) {
            shared[zone] = try isShared(zone)
        }
        let roots = roots.filter { shared[$0.zoneID] == true }
        let changed = changed.filter { shared[$0.key.zoneID] == true }
        guard !roots.isEmpty || !changed.isEmpty else { return }
        coverage.reset()
        var affected: Set<RecordID> = []
        for root in roots {
            affected.formUnion(try descendants(of: root))
        }
        for id in affected.sorted() {
            try recompute(id, changeSequence: changed[id])
        }
        for (id, sequence) in changed.sorted(by: { $0.key < $1.key }) where !affected.contains(id) {
            try context.db.execute("""
                UPDATE sharedView SET sequence = ?, recordType = ?
                WHERE ownerName = ? AND zoneName = ? AND recordName = ? AND isVisible = 1
                """, [sequence, try recordType(of: id) ?? "", id.zoneID.ownerName, id.zoneID.name, id.recordName])
        }
    }

    private func isShared(_ zone: ZoneID) throws -> Bool {
        try context.db.bool("""
            SELECT EXISTS (SELECT 1 FROM share WHERE ownerName = ?1 AND zoneName = ?2)
                OR EXISTS (SELECT 1 FROM sharedView WHERE ownerName = ?1 AND zoneName = ?2)
            """, [zone.ownerName, zone.name])
    }

    /// A record and every record whose parent chain passes through it.
    private func descendants(of root: RecordID) throws -> Set<RecordID> {
        let rows = try context.db.rows("""
            WITH RECURSIVE subtree(ownerName, zoneName, recordName) AS (
                VALUES (?, ?, ?)
                UNION
                SELECT r.ownerName, r.zoneName, r.recordName
                FROM record r JOIN subtree s
                  ON r.parentOwnerName = s.ownerName AND r.parentZoneName = s.zoneName AND r.parentRecordName = s.recordName
            )
            SELECT ownerName, zoneName, recordName FROM subtree
            """, [root.zoneID.ownerName, root.zoneID.name, root.recordName])
        return Set(try rows.map { row in
            RecordID(recordName: try row.text(2), zoneID: ZoneID(name: try row.text(1), ownerName: try row.text(0)))
        })
    }

    private func recompute(_ id: RecordID, changeSequence: Int64?) throws {
        let desired = try coverage.viewers(of: id)
        let current = try context.db.rows("""
            SELECT userName, isVisible FROM sharedView WHERE ownerName = ? AND zoneName = ? AND recordName = ?
            """, [id.zoneID.ownerName, id.zoneID.name, id.recordName])
        var visibleNow: Set<String> = []
        for row in current where try row.bool(1) {
            visibleNow.insert(try row.text(0))
        }
        var appearing = desired.subtracting(visibleNow)
        let disappearing = visibleNow.subtracting(desired)
        if changeSequence != nil {
            // The record changed: every participant who keeps seeing it
            // must fetch it again.
            appearing.formUnion(desired)
        }
        guard !appearing.isEmpty || !disappearing.isEmpty else { return }
        let sequence = changeSequence ?? context.nextSequence()
        let type = try recordType(of: id) ?? ""
        let upsert = """
            INSERT INTO sharedView (userName, ownerName, zoneName, recordName, recordType, isVisible, sequence)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (userName, ownerName, zoneName, recordName) DO UPDATE SET
                recordType = excluded.recordType, isVisible = excluded.isVisible, sequence = excluded.sequence
            """
        for user in appearing.sorted() {
            try context.db.execute(upsert, [user, id.zoneID.ownerName, id.zoneID.name, id.recordName, type, true, sequence])
        }
        for user in disappearing.sorted() {
            try context.db.execute(upsert, [user, id.zoneID.ownerName, id.zoneID.name, id.recordName, type, false, sequence])
        }
    }

    private func recordType(of id: RecordID) throws -> String? {
        try context.db.text("SELECT recordType FROM record WHERE ownerName = ? AND zoneName = ? AND recordName = ?",
                            [id.zoneID.ownerName, id.zoneID.name, id.recordName])
    }
}
