import CloudServer
import Foundation
import GRDB

/// Why a device re-joined its server.
public enum RejoinReason: String, Codable, Sendable {
    /// Another store answers: the server directory was deleted and made
    /// again, or the device now points at another one.
    case otherServer
    /// The same store, put back from an older copy: its history went back
    /// past what this device saw.
    case olderCopy
}

/// The answer that brought a device to check its server turned out to come
/// from another history; the device re-joined, and the work in progress
/// starts over.
struct ServerChanged: Error {
    var reason: RejoinReason
}

/// A device trusts an answer that means "gone" (`unknownItem`,
/// `zoneNotFound`, an expired token, a parent the server lacks) only from
/// the server whose history it follows. It keeps the latest `HistoryMark`
/// the server gave it, checks it at the start of every send and fetch and
/// again before acting on any such answer, and re-joins a server that does
/// not continue it: tokens and last-known records are dropped, every row it
/// holds becomes a pending save carrying the edit times of its fields, and
/// the ordinary send and fetch then merge both sides field by field, the
/// later edit winning. See docs/SYNC.md.
extension SyncEngine {
    static let serverMarkKey = "serverMark"
    static let rejoinNoticeKey = "rejoinNotice"

    /// Checks that the server continues the history this device last saw,
    /// and re-joins it if not. Returns why it re-joined, or nil.
    @discardableResult
    func checkServer() throws -> RejoinReason? {
        let stored = try writer.read { db in try Self.storedMark(db) }
        let identity: ServerIdentity
        do {
            identity = try privateDatabase.serverIdentity(checking: stored?.sequence)
        } catch let error as CloudError {
            throw SyncError.server(error)
        }
        guard let stored else {
            // First contact (or a database from before marks were kept):
            // this is the server the device syncs with from now on.
            try syncWrite { db in try Self.saveMark(db, identity.head) }
            return nil
        }
        if identity.continues(stored) { return nil }
        let reason: RejoinReason = identity.head.storeID == stored.storeID ? .olderCopy : .otherServer
        try applyWrite { db in
            try rejoin(db)
            try Self.saveMark(db, identity.head)
            try db.execute(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)",
                           arguments: [Self.rejoinNoticeKey, reason.rawValue])
        }
        return reason
    }

    /// Checks the server before acting on an answer that means "gone":
    /// throws `ServerChanged` (after re-joining) if it is not the one this
    /// device synced with.
    func confirmSameServer() throws {
        if let reason = try checkServer() { throw ServerChanged(reason: reason) }
    }

    /// Forgets everything this device knew of the server but that deletes
    /// must reach it, keeping every row and the edit time of each field: every row becomes a pending save
    /// with no ancestor, so a record the server has is merged with it field
    /// by field (the later edit wins) and one it lacks is created. Pending
    /// deletes stay pending (a delete of a record the server lacks
    /// succeeds). Runs in the write that stores the new server's mark.
    func rejoin(_ db: Database) throws {
        // Fetches start again from sequence 0, not from nil: a fetch from
        // nil leaves out deletes (a new device holds nothing to delete), and
        // this device holds records the server may have deleted.
        try db.execute(sql: "UPDATE sync_state SET value = 0 WHERE key LIKE 'databaseToken.%'")
        try db.execute(sql: "UPDATE sync_zones SET token = 0, isCreated = 0")
        for table in tables {
            // Versions of records kept without a row (one the schema
            // refused): nothing here to send.
            try db.execute(sql: """
                DELETE FROM sync_metadata
                WHERE recordType = ? AND NOT isPendingDelete AND recordName NOT IN (
                  SELECT \(table.primaryKey.quotedDatabaseIdentifier) FROM \(table.name.quotedDatabaseIdentifier))
                """, arguments: [table.name])
        }
        let rows = try Row.fetchAll(db, sql: """
            SELECT \(Metadata.columns) FROM sync_metadata WHERE lastKnownServerRecord IS NOT NULL
            """)
        for row in rows {
            let meta = try Metadata(row: row)
            var times = meta.isPendingDelete ? [:] : meta.lastKnown?.fieldModificationTimes ?? [:]
            if !meta.isPendingDelete { times.merge(meta.editTimes) { _, local in local } }
            try db.executeCached("""
                UPDATE sync_metadata SET
                  lastKnownServerRecord = NULL, editTimes = ?, isPendingSave = NOT isPendingDelete, changeCount = changeCount + 1
                WHERE recordType = ? AND recordName = ?
                """, arguments: [Metadata.encodeTimes(times), meta.recordType, meta.recordName])
        }
    }

    /// Moves the kept mark to one a server answer carried, if it is of the
    /// same store and further along. Runs in the write that applies the
    /// answer, so the mark always covers what the device relies on.
    func advanceMark(_ db: Database, to mark: HistoryMark?) throws {
        guard let mark, let stored = try Self.storedMark(db), stored.storeID == mark.storeID,
              mark.sequence > stored.sequence else { return }
        try Self.saveMark(db, mark)
    }

    static func storedMark(_ db: Database) throws -> HistoryMark? {
        guard let json = try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = ?", arguments: [serverMarkKey])
        else { return nil }
        return try? JSONDecoder().decode(HistoryMark.self, from: Data(json.utf8))
    }

    static func saveMark(_ db: Database, _ mark: HistoryMark) throws {
        let json = String(decoding: try JSONEncoder().encode(mark), as: UTF8.self)
        try db.execute(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)", arguments: [serverMarkKey, json])
    }

    /// Why this device last re-joined its server, once: the notice is
    /// cleared as it is read, so the user is told once, by whichever
    /// command or screen reads it first.
    public func takeRejoinNotice() throws -> RejoinReason? {
        // Read first: the app asks after every round, and a write
        // transaction each time would cost for nothing.
        let pending = try writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_state WHERE key = ?)", arguments: [Self.rejoinNoticeKey])
        }
        guard pending == true else { return nil }
        return try writer.write { db in
            guard let value = try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = ?",
                                                  arguments: [Self.rejoinNoticeKey]) else { return nil }
            try db.execute(sql: "DELETE FROM sync_state WHERE key = ?", arguments: [Self.rejoinNoticeKey])
            return RejoinReason(rawValue: value)
        }
    }
}
