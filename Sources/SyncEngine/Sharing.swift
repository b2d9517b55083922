import CloudServer
import Foundation
import GRDB

/// A share as this device knows it: of a root row (a list) and the rows
/// whose parent chain reaches it.
public struct LocalShare: Codable, Hashable, Sendable, Identifiable {
    public var id: String
    public var rootTable: String
    public var rootKey: String
    public var ownerName: String
    public var participants: [ShareParticipant]
    /// The root record's text fields as the server showed them, for shares
    /// someone else owns whose root this device does not hold yet: an
    /// invitation can be named (a list's title) before it is accepted and
    /// its rows arrive.
    public var rootPreview: [String: String] = [:]

    /// The participant entry of `user`, if any.
    public func participant(_ user: String) -> ShareParticipant? {
        participants.first { $0.userName == user }
    }
}

extension SyncEngine {
    /// Shares (or changes the permissions of) a root row with other users.
    /// The row is synced first, so the server has it.
    @discardableResult
    public func share(table: String, key: String, with participants: [(userName: String, permission: SharePermission)]) throws -> LocalShare {
        try ShareClient(engine: self).share(table: table, key: key, with: participants)
    }

    /// Removes one participant, or (with nil) stops sharing altogether.
    public func unshare(table: String, key: String, user: String?) throws {
        try ShareClient(engine: self).unshare(table: table, key: key, user: user)
    }

    /// Accepts an invitation; its rows arrive with the sync that follows.
    public func acceptShare(id: String) throws {
        try ShareClient(engine: self).accept(id: id)
    }

    /// Leaves (or declines) a share someone else owns; the local copy goes
    /// with the sync that follows.
    public func leaveShare(id: String) throws {
        try ShareClient(engine: self).leave(id: id)
    }

    /// Leaves the share through which another user shares the row `key`
    /// of `table` with this user (a list), as the server has it now;
    /// returns that share, or nil when the row is shared with this user
    /// by nobody else.
    public func leaveShare(ofRoot table: String, key: String) throws -> LocalShare? {
        try refreshShares()
        guard let share = try localShares().first(where: { $0.rootTable == table && $0.rootKey == key && $0.ownerName != userName })
        else { return nil }
        try leaveShare(id: share.id)
        return share
    }

    /// Which of `names` the server knows as users who have synced, so an
    /// invitation to a name nobody uses ("Bob" for "bob") can be pointed out.
    public func knownUsers(among names: [String]) throws -> Set<String> {
        try privateDatabase.knownUsers(among: names)
    }

    /// A word for the inviter when no user by that name has lists on this
    /// server yet: the invitation stands (they may start later), but "Bob"
    /// is not "bob", and a spelling the server does know is suggested. Nil
    /// when the name is known.
    public func unknownUserNote(_ user: String) throws -> String? {
        let spellings = [user, user.lowercased(), user.prefix(1).uppercased() + user.dropFirst().lowercased()]
        let known = try knownUsers(among: spellings)
        guard !known.contains(user) else { return nil }
        // The likelier mistake first, where a short line still shows it.
        if let other = known.sorted().first {
            return "did you mean '\(other)'? User names are case-sensitive, and nobody named '\(user)' has lists "
                + "on this server yet (the invitation stands)"
        }
        return "nobody named '\(user)' has lists on this server yet; they will see the invitation when they sync"
    }

    /// Reads the shares this user owns and was invited to from the server
    /// into `sync_shares`.
    public func refreshShares() throws {
        try ShareClient(engine: self).refresh()
    }

    /// The shares as of the last refresh.
    public func localShares() throws -> [LocalShare] {
        try writer.read { db in try Self.localShares(db) }
    }

    public static func localShares(_ db: Database) throws -> [LocalShare] {
        guard try db.hasTable("sync_shares") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT * FROM sync_shares ORDER BY id").map { row in
            let json: String = row["participants"]
            let participants = (try? JSONDecoder().decode([ShareParticipant].self, from: Data(json.utf8))) ?? []
            let previewJSON: String? = row["rootPreview"]
            let preview = previewJSON.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
            return LocalShare(id: row["id"], rootTable: row["rootRecordType"], rootKey: row["rootRecordName"],
                              ownerName: row["ownerName"], participants: participants, rootPreview: preview)
        }
    }

    /// Who owns a row: the owner of the zone it lives in (this user for a
    /// row never synced).
    public static func owner(_ db: Database, table: String, key: String, defaultOwner: String) throws -> String {
        try String.fetchOne(db, sql: "SELECT ownerName FROM sync_metadata WHERE recordType = ? AND recordName = ?",
                            arguments: [table, key]) ?? defaultOwner
    }
}

/// The sharing requests: each asks the server, then brings the device's
/// copy of the shares (`sync_shares`) up to date.
struct ShareClient {
    let engine: SyncEngine

    /// Shares (or changes the permissions of) a root row with other users.
    /// The row is synced first, so the server has it.
    @discardableResult
    func share(table: String, key: String, with participants: [(userName: String, permission: SharePermission)]) throws -> LocalShare {
        guard engine.tablesByName[table] != nil else { throw SyncError.database("table \(table) is not synced") }
        for participant in participants where participant.userName == engine.userName {
            throw SyncError.permissionDenied("you cannot share with yourself")
        }
        try engine.sync()
        let meta = try engine.writer.read { db in try Metadata.fetch(db, type: table, name: key) }
        guard let zone = meta?.lastKnown?.id.zoneID else {
            throw SyncError.database("\(table) \(key) is not on the server yet")
        }
        guard zone.ownerName == engine.userName else {
            throw SyncError.permissionDenied("only the owner, \(zone.ownerName), can share it")
        }
        let root = RecordID(recordName: RecordCoder.recordName(table: table, key: key), zoneID: zone)
        do {
            _ = try engine.privateDatabase.saveShare(rootRecordID: root, participants: participants)
        } catch let error as CloudError {
            throw SyncError.server(error)
        }
        try refresh()
        guard let share = try engine.localShares().first(where: { $0.rootTable == table && $0.rootKey == key }) else {
            throw SyncError.database("the server did not keep the share")
        }
        return share
    }

    /// Removes one participant, or (with nil) stops sharing altogether.
    func unshare(table: String, key: String, user: String?) throws {
        try refresh()
        guard let share = try engine.localShares().first(where: { $0.rootTable == table && $0.rootKey == key && $0.ownerName == engine.userName }) else {
            throw SyncError.permissionDenied("it is not shared by you")
        }
        do {
            if let user {
                guard share.participant(user) != nil else {
                    throw SyncError.permissionDenied("it is not shared with \(user)")
                }
                _ = try engine.privateDatabase.removeParticipant(shareID: share.id, userName: user)
            } else {
                try engine.privateDatabase.deleteShare(shareID: share.id)
                let root = RecordCoder.recordName(table: table, key: key)
                try engine.syncWrite { db in
                    let ended = try SyncState.json(db, SyncEngine.endedSharesKey, as: [String].self) ?? []
                    try SyncState.setJSON(db, SyncEngine.endedSharesKey, Array((ended.filter { $0 != root } + [root]).suffix(200)))
                }
            }
        } catch let error as CloudError {
            throw SyncError.server(error)
        }
        try refresh()
    }

    /// Accepts an invitation; its rows arrive with the sync that follows.
    func accept(id: String) throws {
        do {
            _ = try engine.sharedDatabase.acceptShare(shareID: id)
        } catch let error as CloudError {
            throw SyncError.server(error)
        }
        try engine.sync()
        try refresh()
    }

    /// Leaves (or declines) a share someone else owns; the local copy goes
    /// with the sync that follows.
    func leave(id: String) throws {
        do {
            try engine.sharedDatabase.leaveShare(shareID: id)
        } catch let error as CloudError {
            throw SyncError.server(error)
        }
        try engine.sync()
        try refresh()
    }

    /// Reads the shares this user owns and was invited to from the server
    /// into `sync_shares`.
    func refresh() throws {
        var owned: [Share]
        let incoming: [Share]
        let knownBeforeCopy = try engine.writer.read { db in
            try SyncState.json(db, SyncEngine.ownedSharesBeforeCopyKey, as: SharesBeforeCopy.self)
        }
        do {
            owned = try engine.privateDatabase.fetchShares()
            if let knownBeforeCopy, try retakeRevocations(knownBeforeCopy, on: owned) {
                owned = try engine.privateDatabase.fetchShares()
            }
            incoming = try engine.sharedDatabase.fetchShares()
        } catch let error as CloudError {
            throw SyncError.server(error)
        }
        // Only roots this device does not hold yet (an invitation not
        // answered, or accepted on another device and not fetched here): a
        // refresh runs with every sync.
        let missing = try engine.writer.read { db in
            try incoming.filter { share in
                guard let (table, key) = RecordCoder.split(share.rootRecordID.recordName) else { return false }
                return try !engine.rowExists(db, table: table, key: key)
            }
        }
        let fetched = rootPreviews(of: missing)
        try engine.syncWrite { db in
            // A server that could not show the roots now leaves the
            // previews of the last refresh in place.
            let previous = fetched == nil
                ? Dictionary(try SyncEngine.localShares(db).map { ($0.id, $0.rootPreview) }, uniquingKeysWith: { first, _ in first })
                : [:]
            try db.execute(sql: "DELETE FROM sync_shares")
            for share in owned + incoming {
                guard let (table, key) = RecordCoder.split(share.rootRecordID.recordName) else { continue }
                let participants = String(decoding: try RecordCoder.encoder.encode(share.participants), as: UTF8.self)
                let found = fetched.map { $0[share.rootRecordID] } ?? previous[share.id].flatMap { $0.isEmpty ? nil : $0 }
                let preview = try found.map { String(decoding: try RecordCoder.encoder.encode($0), as: UTF8.self) }
                try db.execute(sql: """
                    INSERT OR REPLACE INTO sync_shares (id, rootRecordType, rootRecordName, zoneName, ownerName, participants, rootPreview)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [share.id, table, key, share.rootRecordID.zoneID.name, share.ownerName, participants, preview])
            }
            try engine.noteLostShares(db)
            if knownBeforeCopy != nil { try SyncState.remove(db, SyncEngine.ownedSharesBeforeCopyKey) }
            // A root shared again (here or on another device) is no
            // longer one this device ended.
            if let ended = try SyncState.json(db, SyncEngine.endedSharesKey, as: [String].self) {
                let shared = Set(owned.map(\.rootRecordID.recordName))
                let still = ended.filter { !shared.contains($0) }
                if still.count != ended.count { try SyncState.setJSON(db, SyncEngine.endedSharesKey, still) }
            }
        }
    }

    /// The server was put back from an older copy, whose shares are as
    /// they were when it was taken. A participant this device had seen
    /// removed (or gone) is removed again, one it had seen made read-only
    /// is made read-only again, and a share it ended is ended again: a
    /// restore does not give back access the owner took away. Only what
    /// the device saw is acted on: a participant or share it has no record
    /// of is left as the server has it (its record may be older than the
    /// copy). Returns whether it changed anything.
    private func retakeRevocations(_ known: SharesBeforeCopy, on server: [Share]) throws -> Bool {
        var changed = false
        for share in server {
            guard let before = known.owned.first(where: { $0.rootRecordName == share.rootRecordID.recordName }) else {
                // Ended here, and not seen shared again since.
                if known.ended.contains(share.rootRecordID.recordName) {
                    try engine.privateDatabase.deleteShare(shareID: share.id)
                    changed = true
                }
                continue
            }
            for participant in share.participants where participant.status != .removed {
                guard let then = before.participants.first(where: { $0.userName == participant.userName }) else { continue }
                if then.status == .removed {
                    _ = try engine.privateDatabase.removeParticipant(shareID: share.id, userName: participant.userName)
                    changed = true
                } else if then.permission == .readOnly, participant.permission == .readWrite {
                    _ = try engine.privateDatabase.saveShare(rootRecordID: share.rootRecordID,
                                                             participants: [(participant.userName, .readOnly)])
                    changed = true
                }
            }
        }
        return changed
    }

    /// The text fields of the root records of shares someone else owns,
    /// read in one request; nil when the request failed (the refresh goes
    /// on without it). The server shows a root to whoever is invited to
    /// it; one it refuses (a removed participant) has no preview.
    private func rootPreviews(of shares: [Share]) -> [RecordID: [String: String]]? {
        let ids = shares.map(\.rootRecordID)
        guard !ids.isEmpty else { return [:] }
        guard let results = try? engine.sharedDatabase.fetchRecords(ids) else { return nil }
        var previews: [RecordID: [String: String]] = [:]
        for (id, result) in results {
            guard case .success(let record) = result else { continue }
            previews[id] = record.fields.compactMapValues { value in
                if case .string(let text) = value { return text }
                return nil
            }.dictionary
        }
        return previews
    }
}
