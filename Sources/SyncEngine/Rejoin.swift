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
    /// Another store, at another place: the device was pointed at another
    /// server directory (or URL).
    case otherLocation
}

/// What a device tells its user once after re-joining a server.
public struct RejoinNotice: Equatable, Sendable {
    public var reason: RejoinReason
    /// The roots (a list's title) of shares this user owned on the server
    /// it synced with that the new one does not have: to share again.
    public var lostShares: [String]
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
    /// Set by a re-join until a fetch completes: sends wait for it, so a
    /// delete the server holds reaches this device before its copies go
    /// back up.
    static let fetchBeforeSendKey = "fetchBeforeSend"
    static let serverLocationKey = "serverLocation"
    /// The roots of the shares this user owned when the device re-joined,
    /// until the shares are read from the new server.
    static let sharesBeforeRejoinKey = "sharesBeforeRejoin"
    /// The shares this user owned, with their participants, when the
    /// device met its server put back from an older copy (`OwnedShare`).
    static let ownedSharesBeforeCopyKey = "ownedSharesBeforeCopy"
    /// The roots of the shares this device ended (the latest 200), until
    /// it sees them shared again: a copy put back that still has one is
    /// ended again (`ShareClient.retakeRevocations`).
    static let endedSharesKey = "endedShares"
    static let lostSharesKey = "lostShares"

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
        let location = serverLocation
        let storedLocation = try knownServerLocation()
        guard let stored else {
            // First contact (or a database from before marks were kept):
            // this is the server the device syncs with from now on.
            try syncWrite { db in
                try Self.saveMark(db, identity.head)
                try saveLocation(db, location)
            }
            return nil
        }
        if identity.continues(stored) {
            // The same server, perhaps moved: remember where it is now.
            if let location, location != storedLocation { try syncWrite { db in try saveLocation(db, location) } }
            return nil
        }
        let moved = location != nil && storedLocation != nil && location != storedLocation
        let reason: RejoinReason = identity.head.storeID == stored.storeID ? .olderCopy : (moved ? .otherLocation : .otherServer)
        let rejoined = try applyWrite { db -> Bool in
            // Another process on this database (the app beside a `reminders
            // sync`) may have re-joined since the mark was read: then there
            // is nothing left to do, and the records it kept are not to be
            // filed under the store this one read.
            let current = try Self.storedMark(db)
            guard current == stored else {
                if current?.storeID == identity.head.storeID { return false }
                throw SyncError.server(.serverUnavailable("this device's server changed during the sync; sync again"))
            }
            if reason == .olderCopy {
                try rememberOwnedShares(db)
            } else {
                try dropSharedCopies(db)
                // Another store's shares are not the copy's.
                try SyncState.remove(db, Self.ownedSharesBeforeCopyKey)
            }
            try rejoin(db, leaving: reason == .olderCopy ? nil : stored.storeID, joining: identity.head.storeID)
            try Self.saveMark(db, identity.head)
            try saveLocation(db, location)
            try SyncState.set(db, Self.rejoinNoticeKey, reason.rawValue)
            return true
        }
        return rejoined ? reason : nil
    }

    /// Where the server this device last synced with was, as the user
    /// named it; nil before its first sync.
    public func knownServerLocation() throws -> String? {
        try writer.read { db in try SyncState.value(db, Self.serverLocationKey, as: String.self) }
    }

    private func saveLocation(_ db: Database, _ location: String?) throws {
        guard let location else { return }
        try SyncState.set(db, Self.serverLocationKey, location)
    }

    /// Runs work that a server change may interrupt a second time: a
    /// second change within one round is reported as the server being
    /// unsettled, not as an internal error; the next round starts over.
    static func once(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch is ServerChanged {
            throw SyncError.server(.serverUnavailable("the server changed twice during one sync; sync again"))
        }
    }

    /// Checks the server before acting on an answer that means "gone":
    /// throws `ServerChanged` (after re-joining) if it is not the one this
    /// device synced with.
    func confirmSameServer() throws {
        if let reason = try checkServer() { throw ServerChanged(reason: reason) }
    }

    /// Forgets what this device knew of the server's history, keeping every
    /// row and the edit time of each field: every row becomes a pending
    /// save of all its fields, with its last-known record kept as the
    /// ancestor but without its change tag (a tag of another history must
    /// never match). A record the server has is then merged with it field
    /// by field: an older version (a copy put back) is behind the ancestor
    /// and changes nothing, a newer edit wins as usual. One the server
    /// lacks is created. Pending deletes stay pending, and the deletes this
    /// device remembers (`sync_tombstones`) are sent again, so a copy put
    /// back does not bring back what was deleted since. Runs in the write
    /// that stores the new server's mark.
    ///
    /// A device that leaves one store for another (`leaving`: it was
    /// pointed elsewhere, or its server was made anew) keeps the last-known
    /// records the store it leaves confirmed, and a device that comes back
    /// to a store it left merges against those: the versions both last
    /// agreed on. Otherwise an edit made on the store it left, and one made
    /// here meanwhile on the other store, would meet without their common
    /// ancestor, and one would replace the other unlogged. The records of
    /// the store last left are kept, and those of the store joined until
    /// it confirms its own, so going back and forth between two stores
    /// before a re-join has finished keeps both.
    func rejoin(_ db: Database, leaving: String? = nil, joining: String? = nil) throws {
        // Fetches start again from sequence 0, not from nil: a fetch from
        // nil leaves out deletes (a new device holds nothing to delete), and
        // this device holds records the server may have deleted.
        try db.execute(sql: "UPDATE sync_state SET value = 0 WHERE key LIKE 'databaseToken.%'")
        try db.execute(sql: "UPDATE sync_zones SET token = 0, isCreated = 0")
        // Records held for a parent came from the old history: the fetch
        // from 0 brings what the new server has.
        try db.execute(sql: "DELETE FROM sync_held_records")
        try db.execute(sql: "DELETE FROM sync_waiting_assets")
        try db.execute(sql: "DELETE FROM sync_lost_edits")
        for table in tables {
            // Versions of records kept without a row (one the schema
            // refused): nothing here to send.
            try db.execute(sql: """
                DELETE FROM sync_metadata
                WHERE recordType = ? AND NOT isPendingDelete AND recordName NOT IN (
                  SELECT \(table.primaryKey.quotedDatabaseIdentifier) FROM \(table.name.quotedDatabaseIdentifier))
                """, arguments: [table.name])
        }
        if let leaving { try Self.prepareLeftAncestors(db, keeping: joining, leaving: leaving) }
        let rows = try Row.fetchAll(db, sql: """
            SELECT \(Metadata.columns) FROM sync_metadata WHERE lastKnownServerRecord IS NOT NULL
            """)
        for row in rows {
            let meta = try Metadata(row: row)
            guard let lastKnown = meta.lastKnown else { continue }
            if let leaving, lastKnown.changeTag != nil {
                // Confirmed by the store being left (a record without a tag
                // is still waiting to be, from a re-join before).
                let archive: DatabaseValue = row["lastKnownServerRecord"]
                try db.executeCached("""
                    INSERT OR REPLACE INTO sync_left_ancestors (storeID, recordType, recordName, record) VALUES (?, ?, ?, ?)
                    """, arguments: [leaving, meta.recordType, meta.recordName, archive])
            }
            // The fields' times are this device's; the ancestor is the
            // version the store joined last confirmed, if it was left.
            var times = meta.isPendingDelete ? [:] : lastKnown.fieldModificationTimes
            if !meta.isPendingDelete { times.merge(meta.editTimes) { _, local in local } }
            var ancestor = try leaving == nil ? lastKnown
                : Self.leftAncestor(db, store: joining, type: meta.recordType, name: meta.recordName) ?? lastKnown
            ancestor.changeTag = nil
            try db.executeCached("""
                UPDATE sync_metadata SET
                  lastKnownServerRecord = ?, editTimes = ?, isPendingSave = NOT isPendingDelete, changeCount = changeCount + 1
                WHERE recordType = ? AND recordName = ?
                """, arguments: [try RecordCoder.encode(ancestor), Metadata.encodeTimes(times), meta.recordType, meta.recordName])
        }
        // Deletes this device made or applied, of rows it does not hold
        // again: sent again (a delete of a record the server lacks is
        // recorded there, for devices that still hold it).
        try db.execute(sql: """
            INSERT INTO sync_metadata (recordType, recordName, zoneName, ownerName, editTimes, isPendingSave, isPendingDelete, changeCount)
            SELECT t.recordType, t.recordName, t.zoneName, t.ownerName, '{}', 0, 1, 1 FROM sync_tombstones t
            WHERE NOT EXISTS (SELECT 1 FROM sync_metadata m WHERE m.recordType = t.recordType AND m.recordName = t.recordName)
            """)
        for table in tables {
            // A row made again since its delete stays.
            try db.execute(sql: """
                DELETE FROM sync_metadata
                WHERE recordType = ? AND isPendingDelete AND lastKnownServerRecord IS NULL AND recordName IN (
                  SELECT \(table.primaryKey.quotedDatabaseIdentifier) FROM \(table.name.quotedDatabaseIdentifier))
                """, arguments: [table.name])
        }
        if leaving != nil {
            // A delete of a row the store joined had, made while away: its
            // kept version is the delete's ancestor, so that an edit made
            // there meanwhile is logged as lost to the delete.
            let deletes = try Row.fetchAll(db, sql: """
                SELECT recordType, recordName FROM sync_metadata WHERE isPendingDelete AND lastKnownServerRecord IS NULL
                """)
            for row in deletes {
                let (type, name): (String, String) = (row[0], row[1])
                guard var ancestor = try Self.leftAncestor(db, store: joining, type: type, name: name) else { continue }
                ancestor.changeTag = nil
                try db.executeCached("UPDATE sync_metadata SET lastKnownServerRecord = ? WHERE recordType = ? AND recordName = ?",
                                     arguments: [try RecordCoder.encode(ancestor), type, name])
            }
        }
        try SyncState.set(db, Self.fetchBeforeSendKey, 1)
        // The shares this user owns, named, to tell which the new server
        // lacks once its shares are read (`noteLostShares`).
        var owned: [String] = []
        for share in try Self.localShares(db) where share.ownerName == userName {
            owned.append(try shareRootSubject(db, table: share.rootTable, key: share.rootKey) ?? share.rootKey)
        }
        try SyncState.setJSON(db, Self.sharesBeforeRejoinKey, owned)
    }

    /// Keeps only the records kept from `store` (the one being joined), to
    /// be read as the re-join's ancestors, and from `leaving`, which puts
    /// the records it confirmed since in over its older ones (a record it
    /// never confirmed keeps the version kept before). The joined store's
    /// stay until it confirms its own: a device that leaves it again before
    /// its re-join has (its records then have no change tag to keep) still
    /// has the versions it last agreed on there.
    private static func prepareLeftAncestors(_ db: Database, keeping store: String?, leaving: String) throws {
        try db.execute(sql: "DELETE FROM sync_left_ancestors WHERE storeID IS NOT ? AND storeID != ?", arguments: [store, leaving])
    }

    /// The last-known record `store` had confirmed when this device left it.
    private static func leftAncestor(_ db: Database, store: String?, type: String, name: String) throws -> ServerRecord? {
        guard let store, let archive = try Data.fetchOne(db.cachedStatement(sql: """
            SELECT record FROM sync_left_ancestors WHERE storeID = ? AND recordType = ? AND recordName = ?
            """), arguments: [store, type, name]) else { return nil }
        return try RecordCoder.decode(archive)
    }

    /// The shares this user owns as this device last read them, before
    /// the server was put back from an older copy: what was taken back
    /// since the copy is taken back again (`ShareClient.retakeRevocations`).
    private func rememberOwnedShares(_ db: Database) throws {
        let owned = try Self.localShares(db).filter { $0.ownerName == userName }.map {
            OwnedShare(rootRecordName: RecordCoder.recordName(table: $0.rootTable, key: $0.rootKey), participants: $0.participants)
        }
        let ended = try SyncState.json(db, Self.endedSharesKey, as: [String].self) ?? []
        try SyncState.setJSON(db, Self.ownedSharesBeforeCopyKey, SharesBeforeCopy(owned: owned, ended: ended))
    }

    /// After the first refresh of the shares since a re-join: the shares
    /// this user owned before that the server does not have, kept for the
    /// notice.
    func noteLostShares(_ db: Database) throws {
        guard try SyncState.contains(db, Self.sharesBeforeRejoinKey) else { return }
        let before = try SyncState.json(db, Self.sharesBeforeRejoinKey, as: [String].self) ?? []
        var now: Set<String> = []
        for share in try Self.localShares(db) where share.ownerName == userName {
            now.insert(try shareRootSubject(db, table: share.rootTable, key: share.rootKey) ?? share.rootKey)
        }
        let lost = before.filter { !now.contains($0) }
        try SyncState.remove(db, Self.sharesBeforeRejoinKey)
        guard !lost.isEmpty else { return }
        try SyncState.setJSON(db, Self.lostSharesKey, lost)
    }

    /// Remembers a delete of a row of the user's own zone, for a re-join
    /// (see `rejoin`), with the version it was made against (`known`, the
    /// last-known record): its latest field edit time tells a version
    /// fetched later whose edits this device never saw. Kept `tombstoneDays`.
    /// `through`: a fetched delete's own time (`RecordDeletion.deletedThrough`),
    /// for a row this device knew no version of.
    func rememberDelete(_ db: Database, table: String, key: String, zone: ZoneID?, known: ServerRecord?,
                        through: Int64? = nil) throws {
        guard let zone, zone.ownerName == userName else { return }
        // A delete remembered again without the version (its own delete
        // fetched back) keeps the time the first one knew.
        try db.executeCached("""
            INSERT INTO sync_tombstones (recordType, recordName, zoneName, ownerName, deletedAt, seenThrough)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (recordType, recordName) DO UPDATE SET
              zoneName = excluded.zoneName, ownerName = excluded.ownerName, deletedAt = excluded.deletedAt,
              seenThrough = coalesce(excluded.seenThrough, seenThrough)
            """, arguments: [table, key, zone.name, zone.ownerName, functions.wallClock(), known?.fieldModificationTimes.values.max() ?? through])
    }

    /// Forgets a remembered delete of a row made again since.
    func forgetDelete(_ db: Database, table: String, key: String) throws {
        try db.executeCached("DELETE FROM sync_tombstones WHERE recordType = ? AND recordName = ?", arguments: [table, key])
    }

    /// The latest field edit time of the version a remembered delete of a
    /// row was made against; nil when none is remembered (or it was
    /// remembered before the time was kept).
    func rememberedDeleteSeenThrough(_ db: Database, table: String, key: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seenThrough FROM sync_tombstones WHERE recordType = ? AND recordName = ?"),
                           arguments: [table, key])
    }

    /// How long a device remembers its deletes for a re-join: a copy put
    /// back from longer ago brings back what was deleted before then.
    static let tombstoneDays: Int64 = 90

    func forgetOldDeletes(_ db: Database) throws {
        try db.executeCached("DELETE FROM sync_tombstones WHERE deletedAt < ?",
                             arguments: [functions.wallClock() - Self.tombstoneDays * 86_400_000])
    }

    /// Before re-joining another store: the rows of lists other users
    /// shared with this user go, since that store has no share of them (the
    /// owners' devices send the rows back into their own zones, and the
    /// user gets them again when a list is shared again). This user's own
    /// unsent edits of them are logged once, with their text; copies
    /// without such edits go without a word.
    func dropSharedCopies(_ db: Database) throws {
        let anyShared = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM sync_metadata WHERE ownerName IS NOT NULL AND ownerName != ?)
            """, arguments: [userName]) ?? false
        guard anyShared else { return }
        var zones: [String: ZoneID] = [:]
        var doomed: [(TableSchema, String)] = []
        for table in tables.reversed() where table.name != Self.conflictTable {
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table.name.quotedDatabaseIdentifier)") {
                guard let key: String = row[table.primaryKey] else { continue }
                let meta = try Metadata.fetch(db, type: table.name, name: key)
                let zone = try meta?.zoneID ?? meta?.lastKnown?.id.zoneID ?? zoneForNewRecord(db, table: table, row: row, cache: &zones)
                guard zone.ownerName != userName else { continue }
                if meta == nil || meta?.isPendingDelete == true || meta?.hasLocalEdits == true {
                    try logConflict(db, table: table.name, key: key, field: "*", ancestor: nil,
                                    local: try editedValues(db, table: table.name, key: key, meta: meta) ?? "edited",
                                    remote: nil, localTime: meta?.editTimes.values.max(), remoteTime: nil, winner: "delete",
                                    remoteDevice: nil, cause: .shareLost, byUser: zone.ownerName,
                                    subject: try shareRootSubject(db, table: table.name, key: key))
                }
                doomed.append((table, key))
            }
        }
        // Metadata first, so the delete triggers take nothing for an edit.
        for (table, key) in doomed { try Metadata.delete(db, type: table.name, name: key) }
        for (table, key) in doomed {
            try db.execute(sql: "DELETE FROM \(table.name.quotedDatabaseIdentifier) WHERE \(table.primaryKey.quotedDatabaseIdentifier) = ?",
                           arguments: [key])
        }
        try db.execute(sql: "DELETE FROM sync_zones WHERE ownerName != ?", arguments: [userName])
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
        try SyncState.json(db, serverMarkKey, as: HistoryMark.self)
    }

    static func saveMark(_ db: Database, _ mark: HistoryMark) throws {
        try SyncState.setJSON(db, serverMarkKey, mark)
    }

    /// Why this device last re-joined its server, once: the notice is
    /// cleared as it is read, so the user is told once, by whichever
    /// command or screen reads it first.
    public func takeRejoinNotice() throws -> RejoinNotice? {
        // Read first: the app asks after every round, and a write
        // transaction each time would cost for nothing.
        let pending = try writer.read { db in try SyncState.contains(db, Self.rejoinNoticeKey) }
        guard pending else { return nil }
        return try writer.write { db in
            guard let value = try SyncState.value(db, Self.rejoinNoticeKey, as: String.self),
                  let reason = RejoinReason(rawValue: value) else { return nil }
            let lost = try SyncState.json(db, Self.lostSharesKey, as: [String].self) ?? []
            try SyncState.remove(db, Self.rejoinNoticeKey, Self.lostSharesKey)
            return RejoinNotice(reason: reason, lostShares: lost)
        }
    }
}

/// A share this user owns as a device last read it: its root and who it
/// was shared with, how.
struct OwnedShare: Codable, Equatable {
    var rootRecordName: String
    var participants: [ShareParticipant]
}

/// What a device knew of its owner's shares when it met its server put
/// back from an older copy: the shares as last read, and the roots of
/// those it ended.
struct SharesBeforeCopy: Codable, Equatable {
    var owned: [OwnedShare]
    var ended: [String]
}
