import Foundation

/// One user's private or shared database on a store: a `DirectoryServer`,
/// or the PostgreSQL store of `reminders serve`.
///
/// A cheap handle: it holds the store, the user, the scope and the device,
/// and every call is one request to the store, safe from any thread or
/// process.
public struct StoreDatabase: CloudDatabase {
    /// The most records (saves plus deletes) one `modifyRecords` accepts.
    public static let maximumRecordsPerRequest = 400
    /// The most bytes (`ServerRecord.encodedSize`, assets not counted) one
    /// `modifyRecords` accepts.
    public static let maximumBytesPerRequest = 2 * 1024 * 1024

    let store: any RecordStore
    public let userName: String
    public let scope: DatabaseScope
    public let deviceName: String
    /// Set for a device's own handle: the next page of a fetch is read
    /// while the device applies one.
    let prefetch: PagePrefetch?

    package init(store: any RecordStore, userName: String, scope: DatabaseScope, deviceName: String,
                 prefetch: PagePrefetch? = nil) {
        self.store = store
        self.userName = userName
        self.scope = scope
        self.deviceName = deviceName
        self.prefetch = prefetch
    }

    // MARK: Zones

    /// Creates and deletes zones of this user's private database. Saving a
    /// zone that exists succeeds without a change; saving a deleted zone
    /// creates it again (its old records stay deleted). Deleting a zone
    /// deletes its records, leaving tombstones, and the shares rooted in it.
    /// In the shared database every zone gets `permissionFailure`.
    public func modifyZones(saving: [ZoneID], deleting: [ZoneID]) throws -> [ZoneID: Result<Void, CloudError>] {
        var results: [ZoneID: Result<Void, CloudError>] = [:]
        for zone in saving + deleting {
            if let error = zoneRequestError(zone) {
                results[zone] = .failure(error)
            }
        }
        let creating = Set(saving.filter { results[$0] == nil }).sorted()
        let removing = Set(deleting.filter { results[$0] == nil }).sorted()
        guard !creating.isEmpty || !removing.isEmpty else { return results }
        return try store.write(user: userName, device: deviceName) { context in
            for zone in creating {
                try createZone(zone, context)
                results[zone] = .success(())
            }
            for zone in removing {
                guard try context.zoneState(zone) == .live else {
                    results[zone] = .failure(.zoneNotFound(zone))
                    continue
                }
                try deleteZone(zone, context)
                results[zone] = .success(())
            }
            return results
        }
    }

    private func zoneRequestError(_ zone: ZoneID) -> CloudError? {
        if scope == .shared {
            return .permissionFailure("zones of the shared database come and go with shares; create zones in the private database")
        }
        if zone.ownerName != userName {
            return .permissionFailure("zone \(zone) belongs to \(zone.ownerName); \(userName) can only change their own zones")
        }
        if zone.name.isEmpty {
            return .zoneNotFound(zone)
        }
        return nil
    }

    private func createZone(_ zone: ZoneID, _ context: WriteContext) throws {
        switch try context.zoneState(zone) {
        case .live:
            return
        case .deleted:
            let sequence = context.nextSequence()
            try context.db.execute(
                "UPDATE zone SET createdSequence = ?, changeSequence = ?, deletedSequence = NULL WHERE ownerName = ? AND name = ?",
                [sequence, sequence, zone.ownerName, zone.name])
        case .missing:
            let sequence = context.nextSequence()
            try context.db.execute(
                "INSERT INTO zone (ownerName, name, createdSequence, changeSequence) VALUES (?, ?, ?, ?)",
                [zone.ownerName, zone.name, sequence, sequence])
        }
    }

    private func deleteZone(_ zone: ZoneID, _ context: WriteContext) throws {
        let rows = try context.db.rows(
            "SELECT \(StoredRecord.columns) FROM record WHERE ownerName = ? AND zoneName = ? AND isDeleted = 0 ORDER BY recordName",
            [zone.ownerName, zone.name])
        var changed: [RecordID: Int64] = [:]
        for row in rows {
            let stored = try StoredRecord(row: row)
            changed[stored.record.id] = try context.tombstone(stored)
        }
        try context.db.execute("DELETE FROM share WHERE ownerName = ? AND zoneName = ?", [zone.ownerName, zone.name])
        let sequence = context.nextSequence()
        try context.db.execute(
            "UPDATE zone SET changeSequence = ?, deletedSequence = ? WHERE ownerName = ? AND name = ?",
            [sequence, sequence, zone.ownerName, zone.name])
        try SharedVisibility(context: context).refresh(subtreesOf: Set(changed.keys), changed: changed)
    }

    // MARK: Records

    public func modifyRecords(saving: [ServerRecord], deleting: [RecordID], deletedThrough: [RecordID: Int64]) throws -> ModifyRecordsResult {
        try RecordBatch(database: self, saves: saving, deletes: deleting, deletedThrough: deletedThrough).run()
    }

    public func serverIdentity(checking sequence: Int64?) throws -> ServerIdentity {
        try store.read { db in try ServerIdentity.read(db, checking: sequence) }
    }

    public func fetchDatabaseChanges(since token: ChangeToken?) throws -> DatabaseChanges {
        try store.read { db in
            var changes = try ChangeFeed(database: self, db: db).databaseChanges(since: token)
            changes.head = try HistoryMark.head(db)
            return changes
        }
    }

    public func fetchZoneChanges(zoneID: ZoneID, since token: ChangeToken?, limit: Int) throws -> ZoneChanges {
        guard let prefetch else { return try fetchZonePage(zoneID, since: token, limit: limit) }
        return try prefetch.page(since: token, key: { token in
            PagePrefetch.Key(scope: scope, device: deviceName, zone: zoneID, token: token, limit: limit)
        }, fetch: { [self] token in try fetchZonePage(zoneID, since: token, limit: limit) })
    }

    private func fetchZonePage(_ zoneID: ZoneID, since token: ChangeToken?, limit: Int) throws -> ZoneChanges {
        try store.read { db in
            var changes = try ChangeFeed(database: self, db: db).zoneChanges(zoneID, since: token, limit: limit)
            changes.head = try HistoryMark.head(db)
            return changes
        }
    }

    /// In the shared database, a record is returned if the user sees it, and
    /// the root of a share the user is invited to is returned even before
    /// accepting, so that an invitation can show what it shares (like
    /// `CKShare.Metadata.rootRecord`).
    public func fetchRecords(_ ids: [RecordID]) throws -> [RecordID: Result<ServerRecord, CloudError>] {
        try store.read { db in
            var results: [RecordID: Result<ServerRecord, CloudError>] = [:]
            for id in ids {
                results[id] = try fetchRecord(id, db)
            }
            return results
        }
    }

    private func fetchRecord(_ id: RecordID, _ db: any StoreConnection) throws -> Result<ServerRecord, CloudError> {
        switch scope {
        case .private:
            guard id.zoneID.ownerName == userName else {
                return .failure(.permissionFailure("zone \(id.zoneID) belongs to \(id.zoneID.ownerName); read it through the shared database"))
            }
            guard try ZoneRows.state(db, id.zoneID) == .live else { return .failure(.zoneNotFound(id.zoneID)) }
        case .shared:
            let visible = try db.bool("""
                SELECT EXISTS (
                    SELECT 1 FROM sharedView WHERE userName = ? AND ownerName = ? AND zoneName = ? AND recordName = ? AND isVisible = 1
                    UNION ALL
                    SELECT 1 FROM share s JOIN participant p ON p.shareID = s.id
                    WHERE p.userName = ? AND p.status IN ('pending', 'accepted')
                      AND s.ownerName = ? AND s.zoneName = ? AND s.rootRecordName = ?
                )
                """, [userName, id.zoneID.ownerName, id.zoneID.name, id.recordName,
                      userName, id.zoneID.ownerName, id.zoneID.name, id.recordName])
            guard visible else { return .failure(.unknownItem(id)) }
        }
        guard let stored = try StoredRecord.fetch(db, id), !stored.isDeleted else { return .failure(.unknownItem(id)) }
        return .success(stored.record)
    }

    // MARK: Assets

    public func uploadAsset(_ data: Data) throws -> Asset {
        try store.assets.upload(data)
    }

    public func assetData(_ asset: Asset) throws -> Data {
        try store.assets.read(asset)
    }

    // MARK: Sharing

    public func saveShare(rootRecordID: RecordID, participants: [(userName: String, permission: SharePermission)]) throws -> Share {
        try ShareRequests(database: self).save(rootRecordID: rootRecordID, participants: participants)
    }

    public func removeParticipant(shareID: String, userName: String) throws -> Share {
        try ShareRequests(database: self).removeParticipant(shareID: shareID, userName: userName)
    }

    public func deleteShare(shareID: String) throws {
        try ShareRequests(database: self).delete(shareID: shareID)
    }

    public func fetchShares() throws -> [Share] {
        try ShareRequests(database: self).fetchAll()
    }

    public func knownUsers(among names: [String]) throws -> Set<String> {
        let wanted = Array(Set(names)).sorted()
        guard !wanted.isEmpty else { return [] }
        return try store.read { db in
            let marks = Array(repeating: "?", count: wanted.count).joined(separator: ", ")
            return Set(try db.texts("SELECT DISTINCT ownerName FROM zone WHERE ownerName IN (\(marks))",
                                    wanted.map { $0 as any SQLBindable }))
        }
    }

    /// Accepts an invitation; works from either scope, since it is the
    /// user, not the database, who accepts.
    public func acceptShare(shareID: String) throws -> Share {
        try ShareRequests(database: self).accept(shareID: shareID)
    }

    /// Leaves or declines a share; works from either scope.
    public func leaveShare(shareID: String) throws {
        try ShareRequests(database: self).leave(shareID: shareID)
    }
}
