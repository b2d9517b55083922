import CloudServer
import Foundation
import GRDB

/// A row of `sync_metadata`.
struct Metadata: Sendable {
    var recordType: String
    var recordName: String
    var zoneID: ZoneID?
    var lastKnown: ServerRecord?
    var editTimes: [String: Int64]
    var isPendingSave: Bool
    var isPendingDelete: Bool
    var changeCount: Int64

    init(row: Row) throws {
        recordType = row["recordType"]
        recordName = row["recordName"]
        if let zoneName: String = row["zoneName"], let ownerName: String = row["ownerName"] {
            zoneID = ZoneID(name: zoneName, ownerName: ownerName)
        }
        if let data: Data = row["lastKnownServerRecord"] {
            lastKnown = try RecordCoder.decode(data)
        }
        let times: String = row["editTimes"]
        editTimes = (try? JSONDecoder().decode([String: Int64].self, from: Data(times.utf8))) ?? [:]
        isPendingSave = row["isPendingSave"]
        isPendingDelete = row["isPendingDelete"]
        changeCount = row["changeCount"]
    }

    static func fetch(_ db: Database, type: String, name: String) throws -> Metadata? {
        try Row.fetchOne(db, sql: "SELECT * FROM sync_metadata WHERE recordType = ? AND recordName = ?",
                         arguments: [type, name]).map(Metadata.init(row:))
    }

    static func encodeTimes(_ times: [String: Int64]) -> String {
        let data = (try? RecordCoder.encoder.encode(times)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Stores what the server confirmed or sent, with the local state of
    /// the row (pending edits and their times).
    static func save(_ db: Database, type: String, name: String, lastKnown: ServerRecord?, editTimes: [String: Int64],
                     isPendingSave: Bool, isPendingDelete: Bool) throws {
        try db.execute(sql: """
            INSERT INTO sync_metadata (recordType, recordName, zoneName, ownerName, lastKnownServerRecord, editTimes,
                                       isPendingSave, isPendingDelete, changeCount)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
            ON CONFLICT (recordType, recordName) DO UPDATE SET
              zoneName = excluded.zoneName, ownerName = excluded.ownerName,
              lastKnownServerRecord = excluded.lastKnownServerRecord, editTimes = excluded.editTimes,
              isPendingSave = excluded.isPendingSave, isPendingDelete = excluded.isPendingDelete
            """, arguments: [
                type, name, lastKnown?.id.zoneID.name, lastKnown?.id.zoneID.ownerName,
                try lastKnown.map(RecordCoder.encode), encodeTimes(editTimes), isPendingSave, isPendingDelete,
            ])
    }

    static func delete(_ db: Database, type: String, name: String) throws {
        try db.execute(sql: "DELETE FROM sync_metadata WHERE recordType = ? AND recordName = ?", arguments: [type, name])
    }
}
