import CloudServer
import Foundation
import GRDB

extension SyncEngine {
    func fetchLocked() throws -> SyncReport {
        try FetchRound(engine: self).run()
    }
}

/// One fetch: each database's changed zones, page by page, each page
/// applied in one transaction with its token; then orphans resolved and
/// shares refreshed. Owns what lives for one fetch only: the page cache
/// widened for big pages, put back at the end.
struct FetchRound {
    let engine: SyncEngine
    private let cache = FetchPageCache()

    /// Fetches every change since the tokens this device holds.
    func run() throws -> SyncReport {
        defer { cache.restore(on: engine.writer) }
        var report = SyncReport()
        report.rejoined = try engine.checkServer()
        do {
            report.add(try fetchAll())
        } catch let changed as ServerChanged {
            // The server changed under the fetch: start again from scratch.
            report.rejoined = report.rejoined ?? changed.reason
            try SyncEngine.once { report.add(try fetchAll()) }
        }
        report.add(try engine.retryWaitingAssets())
        try engine.syncWrite { db in
            try SyncState.remove(db, SyncEngine.fetchBeforeSendKey)
            try engine.forgetOldDeletes(db)
        }
        if report.receivedSaves + report.receivedDeletes > 0 || report.rejoined != nil {
            try engine.runRepair()
        }
        return report
    }

    private func fetchAll() throws -> SyncReport {
        var report = SyncReport()
        for scope in DatabaseScope.allCases {
            let database = scope == .private ? engine.privateDatabase : engine.sharedDatabase
            let key = "databaseToken.\(scope.rawValue)"
            var token = try engine.writer.read { db in
                try SyncState.value(db, key, as: Int64.self).map(ChangeToken.init)
            }
            while true {
                let changes: DatabaseChanges
                do {
                    changes = try database.fetchDatabaseChanges(since: token)
                } catch CloudError.changeTokenExpired {
                    try engine.confirmSameServer()
                    token = nil
                    continue
                } catch let error as CloudError {
                    throw SyncError.server(error)
                }
                if !changes.deletedZoneIDs.isEmpty { try engine.confirmSameServer() }
                for zone in changes.deletedZoneIDs {
                    report.add(try engine.purgeZone(zone, scope: scope))
                }
                for zone in changes.changedZoneIDs {
                    report.add(try fetchZone(zone, scope: scope, database: database))
                }
                try engine.syncWrite { db in
                    try engine.advanceMark(db, to: changes.head)
                    try SyncState.set(db, key, changes.token.sequence)
                }
                token = changes.token
                if !changes.moreComing { break }
            }
        }
        report.add(try engine.resolveOrphans())
        // Permission changes and ended shares take effect at the next sync.
        try engine.refreshShares()
        return report
    }

    /// Fetches a zone's changes page by page; each page is applied in one
    /// transaction together with its token.
    private func fetchZone(_ zone: ZoneID, scope: DatabaseScope, database: any CloudDatabase) throws -> SyncReport {
        var report = SyncReport()
        var token = try engine.writer.read { db in try SyncEngine.fetchedThrough(db, zone, scope: scope).map(ChangeToken.init) }
        // A first fetch of a zone this device already sent records to (it
        // sent before it ever fetched) gets what the zone holds now, not
        // the deletes made meanwhile: it is a full fetch, after which a
        // record this device saw confirmed and no longer finds is deleted,
        // as after an expired token.
        var refetchingAll = try token == nil && engine.writer.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM sync_metadata
                               WHERE zoneName = ? AND ownerName = ? AND lastKnownServerRecord IS NOT NULL)
                """, arguments: [zone.name, zone.ownerName]) ?? false
        }
        var seen: Set<String> = []
        // A bulk load begun by a page ends with the zone's last page, or
        // here should the fetch stop before (else the app's next open
        // ends it: see `BulkLoad`).
        var bulkLoading = false
        defer { if bulkLoading { engine.endBulkLoad() } }
        let known = KnownRows()
        // Whether the device held no synced rows when the fetch began, as
        // a new device's first download: see `applyPage`.
        var fresh = false
        while true {
            let page: ZoneChanges
            do {
                page = try database.fetchZoneChanges(zoneID: zone, since: token, limit: engine.fetchLimit)
            } catch CloudError.changeTokenExpired {
                try engine.confirmSameServer()
                token = nil
                refetchingAll = true
                continue
            } catch CloudError.zoneNotFound {
                try engine.confirmSameServer()
                return try engine.purgeZone(zone, scope: scope)
            } catch let error as CloudError {
                throw SyncError.server(error)
            }
            if refetchingAll { seen.formUnion(page.changed.map(\.id.recordName)) }
            let assets = try loadAssets(of: page.changed, database: database)
            let (pageReport, bulkAfter, freshAfter) = try engine.applyWrite { db -> (SyncReport, Bool, Bool) in
                try cache.widen(db, forPageOf: page.changed.count + page.deleted.count)
                let fresh = try fresh || token == nil && Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM sync_metadata)") == true
                let bulk = try bulkLoading || engine.beginBulkLoad(db, firstPage: token == nil, records: page.changed.count)
                // The whole page at once, and only if a record is set aside
                // (refused, or waiting for its asset) again record by
                // record: a savepoint per record costs more than the record
                // (the search index flushes at each).
                var pageReport = SyncReport()
                do {
                    try db.inSavepoint {
                        pageReport = try engine.applyPage(db, page, assets: assets, guarded: false, known: known, fresh: fresh)
                        return .commit
                    }
                } catch let error where SyncEngine.setsARecordAside(error) {
                    pageReport = try engine.applyPage(db, page, assets: assets, guarded: true)
                }
                if engine.repair != nil, pageReport.receivedSaves + pageReport.receivedDeletes > 0 {
                    // Committed with the rows: a process stopped before the
                    // repair runs it when it attaches again.
                    try SyncState.set(db, SyncEngine.repairPendingKey, 1)
                }
                try engine.advanceMark(db, to: page.head)
                try db.execute(sql: """
                    INSERT INTO sync_zones (scope, zoneName, ownerName, token, isCreated) VALUES (?, ?, ?, ?, 1)
                    ON CONFLICT DO UPDATE SET token = excluded.token, isCreated = 1
                    """, arguments: [scope.rawValue, zone.name, zone.ownerName, page.token.sequence])
                if bulk, !page.moreComing { try engine.bulkLoad?.end(db) }
                return (pageReport, bulk && page.moreComing, fresh)
            }
            bulkLoading = bulkAfter
            fresh = freshAfter
            known.noteCarried(page)
            report.add(pageReport)
            token = page.token
            if !page.moreComing { break }
        }
        if refetchingAll {
            // Missing after a full fetch means deleted, from this server only.
            try engine.confirmSameServer()
            report.add(try dropMissing(from: zone, keeping: seen))
        }
        return report
    }

    /// The bytes of every asset a page refers to, read before the page's
    /// write. One the server cannot give is left out: the record that
    /// needs it asks again as it applies and, refused again, waits
    /// (`WaitingAsset`) while the rest of the page applies.
    private func loadAssets(of records: [ServerRecord], database: any CloudDatabase) throws -> [String: Data] {
        var assets: [String: Data] = [:]
        var unavailable: Set<String> = []
        for record in records {
            for case .asset(let asset) in record.fields.values where assets[asset.sha256] == nil && !unavailable.contains(asset.sha256) {
                do {
                    assets[asset.sha256] = try database.assetData(asset)
                } catch CloudError.assetUnavailable {
                    unavailable.insert(asset.sha256)
                } catch let error as CloudError {
                    throw SyncError.server(error)
                }
            }
        }
        return assets
    }

    /// After a full refetch (an expired token): rows the server no longer
    /// has were deleted there.
    private func dropMissing(from zone: ZoneID, keeping seen: Set<String>) throws -> SyncReport {
        var report = SyncReport()
        try engine.applyWrite { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(Metadata.columns) FROM sync_metadata WHERE zoneName = ? AND ownerName = ? AND lastKnownServerRecord IS NOT NULL
                """, arguments: [zone.name, zone.ownerName])
            // A version waiting for its asset, of a record gone since.
            for name in try String.fetchAll(db, sql: "SELECT recordName FROM sync_waiting_assets WHERE zoneName = ? AND ownerName = ?",
                                            arguments: [zone.name, zone.ownerName]) where !seen.contains(name) {
                try engine.forgetWaitingAssets(db, of: CollectionOfOne(RecordID(recordName: name, zoneID: zone)))
            }
            for meta in try rows.map(Metadata.init(row:)) {
                // A record kept by a re-join (no change tag) was never
                // confirmed by this history: missing here is no delete.
                guard let table = engine.tablesByName[meta.recordType], meta.lastKnown?.changeTag != nil,
                      !seen.contains(RecordCoder.recordName(table: meta.recordType, key: meta.recordName)) else { continue }
                if meta.isPendingSave, meta.hasLocalEdits {
                    try engine.logDeleteWins(db, table: meta.recordType, key: meta.recordName, meta: meta, remoteDevice: nil)
                    report.conflicts += 1
                }
                if try engine.deleteLocally(db, table: table, key: meta.recordName) { report.receivedDeletes += 1 }
            }
        }
        return report
    }
}

extension SyncEngine {
    /// Begins the app's bulk load for the first page of a zone's download
    /// when it is worth it; returns whether it began.
    func beginBulkLoad(_ db: Database, firstPage: Bool, records: Int) throws -> Bool {
        guard firstPage, let bulkLoad, bulkLoad.isWorthIt(records, 0) else { return false }
        let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_metadata") ?? 0
        guard bulkLoad.isWorthIt(records, existing) else { return false }
        try bulkLoad.begin(db)
        return true
    }

    /// Ends a bulk load a fetch stopped in the middle of, in a transaction
    /// of its own. Should that fail too, the app ends it when it next
    /// opens the database.
    func endBulkLoad() {
        guard let bulkLoad else { return }
        try? syncWrite { db in try bulkLoad.end(db) }
    }
}
