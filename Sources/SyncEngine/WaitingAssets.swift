import CloudServer
import Foundation
import GRDB

/// A fetched record whose asset the server could not give (its file lost
/// or altered there): set aside, named, and tried again at every fetch.
///
/// One damaged image used to fail every fetch, so a device that had never
/// seen it (a new one) received nothing at all. Now the rest of the sync
/// goes on: the record waits in `sync_waiting_assets` and is applied at
/// the first fetch that can read its asset, unless a later version of it
/// (a new cover, or its delete) arrives first and replaces it.
///
/// The row keeps what it held (a list without a cover shows none), and the
/// last-known record is not moved, so nothing is sent for it: an edit of
/// the row made meanwhile merges against the version this device last
/// had, as if the waiting one had not been fetched yet.
public struct WaitingAsset: Codable, Equatable, Sendable {
    /// The record's table and primary key.
    public var table: String
    public var key: String
    /// The first text of the record or of the row it belongs to (a list's
    /// title, for its cover), when it was set aside.
    public var subject: String?
    /// Why the server could not give the asset, as it said.
    public var problem: String
}

extension SyncEngine {
    /// Sets `record` aside until its asset can be read (see `WaitingAsset`).
    func waitForAsset(_ db: Database, record: ServerRecord, problem: String) throws -> ApplyOutcome {
        try db.executeCached("""
            INSERT OR REPLACE INTO sync_waiting_assets (recordName, zoneName, ownerName, record, subject, problem)
            VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [record.id.recordName, record.id.zoneID.name, record.id.zoneID.ownerName,
                             try RecordCoder.encode(record), try assetSubject(db, record: record), problem])
        var outcome = ApplyOutcome()
        outcome.held = true
        return outcome
    }

    /// Forgets the waiting versions of records a later version replaces (a
    /// page's saves and deletes, a conflict's server record), if any wait.
    func forgetWaitingAssets(_ db: Database, of ids: some Collection<RecordID>) throws {
        guard !ids.isEmpty, try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sync_waiting_assets)")) == true
        else { return }
        for id in ids {
            try db.executeCached("DELETE FROM sync_waiting_assets WHERE recordName = ? AND zoneName = ? AND ownerName = ?",
                                 arguments: [id.recordName, id.zoneID.name, id.zoneID.ownerName])
        }
    }

    /// Tries the waiting records again: each whose assets can now be read
    /// is applied as if just fetched; the others keep waiting, with the
    /// server's latest reason.
    func retryWaitingAssets() throws -> SyncReport {
        var report = SyncReport()
        let waiting = try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT record FROM sync_waiting_assets").map { try RecordCoder.decode($0["record"]) }
        }
        retrying: for record in waiting {
            // The row it belongs to is gone here (a list deleted): so is the
            // wait; the list's cover comes again with the list, if ever.
            if let parent = record.parent, let (parentTable, parentKey) = RecordCoder.split(parent.recordName),
               try writer.read({ db in try !rowExists(db, table: parentTable, key: parentKey) }) {
                try applyWrite { db in try forgetWaitingAssets(db, of: CollectionOfOne(record.id)) }
                continue
            }
            var assets: [String: Data] = [:]
            var problem: String?
            for case .asset(let asset) in record.fields.values where assets[asset.sha256] == nil {
                do {
                    assets[asset.sha256] = try database(for: record.id.zoneID).assetData(asset)
                } catch CloudError.assetUnavailable(let why) {
                    problem = why
                    break
                } catch {
                    // The fetch before went through: a failure here fails
                    // no sync, and the next one tries again.
                    break retrying
                }
            }
            try applyWrite { db in
                if let problem {
                    try db.execute(sql: """
                        UPDATE sync_waiting_assets SET problem = ? WHERE recordName = ? AND zoneName = ? AND ownerName = ?
                        """, arguments: [problem, record.id.recordName, record.id.zoneID.name, record.id.zoneID.ownerName])
                    return
                }
                // Applied guarded, which forgets the waiting version first.
                let outcome = try applyFetched(db, record: record, assets: assets)
                if outcome.applied { report.receivedSaves += 1 }
                report.conflicts += outcome.conflicts
            }
        }
        return report
    }

    /// The records waiting for an asset, for `reminders status` and the app.
    public func waitingAssets() throws -> [WaitingAsset] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT recordName, subject, problem FROM sync_waiting_assets ORDER BY subject, recordName")
                .compactMap { row in
                    guard let (table, key) = RecordCoder.split(row["recordName"]) else { return nil }
                    return WaitingAsset(table: table, key: key, subject: row["subject"], problem: row["problem"])
                }
        }
    }

    /// Forgets the waiting records of a zone (gone from this device).
    func forgetWaitingAssets(_ db: Database, inZone zone: ZoneID) throws {
        try db.execute(sql: "DELETE FROM sync_waiting_assets WHERE zoneName = ? AND ownerName = ?",
                       arguments: [zone.name, zone.ownerName])
    }

    /// The first text field of the record, or else of the row it belongs
    /// to here (a cover's list).
    private func assetSubject(_ db: Database, record: ServerRecord) throws -> String? {
        if let table = tablesByName[record.recordType], let column = table.nameColumn,
           case .string(let text)? = record.fields[column], !text.isEmpty {
            return text
        }
        guard let parent = record.parent, let (tableName, key) = RecordCoder.split(parent.recordName),
              let table = tablesByName[tableName], let text = try rowName(db, table: table, key: key), !text.isEmpty else { return nil }
        return text
    }
}
