import CloudServer
import Foundation
import GRDB

/// An entry of the conflict log: a field both sides changed, or a delete
/// that beat an edit, with all three values and who won.
public struct ConflictEntry: Codable, Hashable, Sendable, Identifiable {
    public var id: String
    public var recordType: String
    /// The row's primary key.
    public var recordID: String
    /// The column, or "*" for the whole row (a delete).
    public var field: String
    public var ancestor: String?
    public var local: String?
    public var remote: String?
    public var localTime: Int64?
    public var remoteTime: Int64?
    /// "local", "remote" or "delete".
    public var winner: String
    public var localDevice: String?
    public var remoteDevice: String?
    /// Milliseconds since 1970.
    public var resolvedAt: Int64
    public var isDismissed: Bool

    init(row: Row) {
        id = row["id"]
        recordType = row["recordType"]
        recordID = row["recordName"]
        field = row["field"]
        ancestor = row["ancestor"]
        local = row["local"]
        remote = row["remote"]
        localTime = row["localTime"]
        remoteTime = row["remoteTime"]
        winner = row["winner"]
        localDevice = row["localDevice"]
        remoteDevice = row["remoteDevice"]
        resolvedAt = row["resolvedAt"]
        isDismissed = row["isDismissed"]
    }

    /// Why the winner won, in words.
    public var reason: String {
        switch winner {
        case "delete": return "a delete wins over a concurrent edit"
        case "local":
            if let localTime, let remoteTime, localTime == remoteTime { return "both edits have the same time; this device's wins the tie" }
            return "this device's edit is the later one"
        default: return "the other device's edit is the later one"
        }
    }
}

extension SyncEngine {
    func logConflict(_ db: Database, table: String, key: String, field: String, ancestor: String?, local: String?,
                     remote: String?, localTime: Int64?, remoteTime: Int64?, winner: String, remoteDevice: String?) throws {
        try db.executeCached("""
            INSERT INTO sync_conflicts (id, recordType, recordName, field, ancestor, local, remote, localTime, remoteTime,
                                        winner, localDevice, remoteDevice, resolvedAt)
            VALUES (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [table, key, field, ancestor, local, remote, localTime, remoteTime, winner,
                             deviceName, remoteDevice, functions.wallClock()])
    }

    /// A pending local edit lost to a delete made elsewhere.
    func logDeleteWins(_ db: Database, table: String, key: String, meta: Metadata, remoteDevice: String?) throws {
        try logConflict(db, table: table, key: key, field: "*", ancestor: nil, local: "edited", remote: "deleted",
                        localTime: meta.editTimes.values.max(), remoteTime: nil, winner: "delete", remoteDevice: remoteDevice)
    }

    func logDeleteWins(_ db: Database, change: OutgoingChange, remoteDevice: String?) throws {
        try logDeleteWins(db, table: change.table.name, key: change.key, meta: change.metadata, remoteDevice: remoteDevice)
    }

    /// A local edit the server refused (read-only share, access ended).
    func logRefused(_ db: Database, table: String, key: String, meta: Metadata?, record: ServerRecord?) throws {
        try logConflict(db, table: table, key: key, field: "*", ancestor: nil, local: "edited",
                        remote: record == nil ? "no longer shared with you" : "refused: read-only",
                        localTime: meta?.editTimes.values.max(), remoteTime: nil,
                        winner: record == nil ? "delete" : "remote", remoteDevice: record?.modifiedByDevice)
    }

    /// The conflict log, newest first.
    public func conflicts(includingDismissed: Bool = true) throws -> [ConflictEntry] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM sync_conflicts \(includingDismissed ? "" : "WHERE NOT isDismissed")
                ORDER BY resolvedAt DESC, rowid DESC
                """).map(ConflictEntry.init(row:))
        }
    }

    public func dismissConflict(id: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE sync_conflicts SET isDismissed = 1 WHERE id = ?", arguments: [id])
        }
    }

    /// Puts the losing value of a field conflict back, as a new local edit
    /// that syncs like any other. Returns false if the row is gone.
    @discardableResult
    public func restoreLosingValue(conflictID: String) throws -> Bool {
        try writer.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sync_conflicts WHERE id = ?", arguments: [conflictID]) else {
                return false
            }
            let entry = ConflictEntry(row: row)
            guard let table = tablesByName[entry.recordType], table.columns.contains(entry.field),
                  entry.winner == "local" || entry.winner == "remote" else { return false }
            let losing = entry.winner == "local" ? entry.remote : entry.local
            let value: DatabaseValue
            switch table.types[entry.field] {
            case "INTEGER": value = losing.flatMap { Int64($0) }?.databaseValue ?? .null
            case "REAL": value = losing.flatMap { Double($0) }?.databaseValue ?? .null
            default: value = losing?.databaseValue ?? .null
            }
            try db.execute(sql: """
                UPDATE \(table.name.quotedDatabaseIdentifier) SET \(entry.field.quotedDatabaseIdentifier) = ?
                WHERE \(table.primaryKey.quotedDatabaseIdentifier) = ?
                """, arguments: [value, entry.recordID])
            let changed = db.changesCount > 0
            try db.execute(sql: "UPDATE sync_conflicts SET isDismissed = 1 WHERE id = ?", arguments: [conflictID])
            return changed
        }
    }
}
