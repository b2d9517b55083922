import Foundation

/// Which of a user's two databases a `CloudDatabase` talks to.
public enum DatabaseScope: String, Codable, Sendable, CaseIterable {
    /// The user's own records, in zones the user owns.
    case `private`
    /// Records other users shared with this user and that this user accepted,
    /// in the owners' zones.
    case shared
}

/// Result of `modifyRecords`: one entry per record of the request.
public struct ModifyRecordsResult: Sendable {
    /// The server's version of each saved record (with its new change tag),
    /// or why it was not saved.
    public var saveResults: [RecordID: Result<ServerRecord, CloudError>]
    /// For each requested delete: success or why it failed.
    public var deleteResults: [RecordID: Result<Void, CloudError>]
    /// The store's mark once the request committed (see `HistoryMark`).
    public var head: HistoryMark?

    public init(saveResults: [RecordID: Result<ServerRecord, CloudError>] = [:],
                deleteResults: [RecordID: Result<Void, CloudError>] = [:], head: HistoryMark? = nil) {
        self.saveResults = saveResults
        self.deleteResults = deleteResults
        self.head = head
    }
}

/// Zones that changed in a database since a token.
public struct DatabaseChanges: Sendable {
    public var changedZoneIDs: [ZoneID]
    public var deletedZoneIDs: [ZoneID]
    public var token: ChangeToken
    public var moreComing: Bool
    /// The store's mark in the snapshot read (see `HistoryMark`).
    public var head: HistoryMark?

    public init(changedZoneIDs: [ZoneID], deletedZoneIDs: [ZoneID], token: ChangeToken, moreComing: Bool,
                head: HistoryMark? = nil) {
        self.changedZoneIDs = changedZoneIDs
        self.deletedZoneIDs = deletedZoneIDs
        self.token = token
        self.moreComing = moreComing
        self.head = head
    }
}

/// A deleted record as a fetch reports it (a tombstone).
public struct RecordDeletion: Hashable, Sendable {
    public var id: RecordID
    public var recordType: String
    /// Who deleted it, as the tombstone says; nil when the server does not
    /// know (a record that left a shared view without being deleted, a
    /// store from before tombstones were read for it).
    public var deletedByUser: String?
    public var deletedByDevice: String?
    /// The newest field edit time of the version the delete was made
    /// against, as the deleting device sent it: a row made after it (its
    /// record's key time, when it was created) was made again after the
    /// delete, which must not take it. Nil when not sent.
    public var deletedThrough: Int64?

    public init(id: RecordID, recordType: String, deletedByUser: String? = nil, deletedByDevice: String? = nil,
                deletedThrough: Int64? = nil) {
        self.id = id
        self.recordType = recordType
        self.deletedByUser = deletedByUser
        self.deletedByDevice = deletedByDevice
        self.deletedThrough = deletedThrough
    }
}

/// One page of a zone's record changes since a token. Records are in the
/// order they were last saved; a record saved several times appears once,
/// in its latest version.
public struct ZoneChanges: Sendable {
    public var changed: [ServerRecord]
    public var deleted: [RecordDeletion]
    public var token: ChangeToken
    public var moreComing: Bool
    /// The store's mark in the snapshot read (see `HistoryMark`).
    public var head: HistoryMark?

    public init(changed: [ServerRecord], deleted: [RecordDeletion], token: ChangeToken, moreComing: Bool,
                head: HistoryMark? = nil) {
        self.changed = changed
        self.deleted = deleted
        self.token = token
        self.moreComing = moreComing
        self.head = head
    }
}

public enum SharePermission: String, Codable, Sendable, CaseIterable {
    case readOnly = "read-only"
    case readWrite = "read-write"
}

public enum ParticipantStatus: String, Codable, Sendable, CaseIterable {
    case pending, accepted, removed
}

public struct ShareParticipant: Hashable, Codable, Sendable {
    public var userName: String
    public var permission: SharePermission
    public var status: ParticipantStatus

    public init(userName: String, permission: SharePermission, status: ParticipantStatus) {
        self.userName = userName
        self.permission = permission
        self.status = status
    }
}

/// A share of a root record and every record whose parent chain reaches it.
public struct Share: Hashable, Codable, Sendable {
    public var id: String
    public var rootRecordID: RecordID
    public var ownerName: String
    public var participants: [ShareParticipant]

    public init(id: String, rootRecordID: RecordID, ownerName: String, participants: [ShareParticipant]) {
        self.id = id
        self.rootRecordID = rootRecordID
        self.ownerName = ownerName
        self.participants = participants
    }
}

/// A database of one user, shaped like CloudKit's `CKDatabase`.
///
/// Every call is one request to the server: it either happens entirely or
/// not at all, and it is safe to call from several processes at once.
public protocol CloudDatabase: Sendable {
    var userName: String { get }
    var scope: DatabaseScope { get }
    /// The device that makes the requests; recorded on every saved record.
    var deviceName: String { get }

    /// Creates and deletes zones. Only the private database has zones of its
    /// own: the shared database's zones come and go with shares.
    func modifyZones(saving: [ZoneID], deleting: [ZoneID]) throws -> [ZoneID: Result<Void, CloudError>]

    /// Saves and deletes records. Each save is "if server record unchanged":
    /// a new record has a nil change tag, an existing one must carry the
    /// server's current change tag. Atomic per zone. Throws
    /// `limitExceeded` for more than 400 records or 2 MB in one request.
    /// `deletedThrough` gives a delete the newest field edit time of the
    /// version it was made against, kept on its tombstone
    /// (`RecordDeletion.deletedThrough`).
    func modifyRecords(saving: [ServerRecord], deleting: [RecordID], deletedThrough: [RecordID: Int64]) throws -> ModifyRecordsResult

    /// Which store answers, with the commit at `sequence` (the head a
    /// device last saw), so a device can tell a server that was reset,
    /// replaced or restored from an older copy from the one it synced with.
    func serverIdentity(checking sequence: Int64?) throws -> ServerIdentity

    /// Zones changed or deleted since `token` (nil: all zones).
    func fetchDatabaseChanges(since token: ChangeToken?) throws -> DatabaseChanges

    /// Records saved or deleted in a zone since `token` (nil: everything
    /// live), at most `limit` per page. Tombstones are kept for every reader.
    func fetchZoneChanges(zoneID: ZoneID, since token: ChangeToken?, limit: Int) throws -> ZoneChanges

    /// The current server version of each record, or `unknownItem`.
    func fetchRecords(_ ids: [RecordID]) throws -> [RecordID: Result<ServerRecord, CloudError>]

    /// Stores bytes as an asset (content-addressed: uploading the same bytes
    /// twice stores them once).
    func uploadAsset(_ data: Data) throws -> Asset

    /// The bytes of an asset, checked against its hash.
    func assetData(_ asset: Asset) throws -> Data

    // MARK: Sharing

    /// Creates or updates the share of a root record in the private
    /// database, inviting users (status pending) or changing permissions.
    func saveShare(rootRecordID: RecordID, participants: [(userName: String, permission: SharePermission)]) throws -> Share

    /// Removes a participant from a share this user owns (access ends at once).
    func removeParticipant(shareID: String, userName: String) throws -> Share

    /// Deletes a share this user owns: every participant loses access at once.
    func deleteShare(shareID: String) throws

    /// Shares this user owns (private scope) or was invited to (shared scope,
    /// pending and accepted).
    func fetchShares() throws -> [Share]

    /// Accepts an invitation: the share's records appear in this user's
    /// shared database.
    func acceptShare(shareID: String) throws -> Share

    /// Leaves (or declines) a share this user was invited to.
    func leaveShare(shareID: String) throws

    /// Which of `names` belong to users with lists on this server (they own
    /// a zone: a user who synced nothing yet has none). User names are compared exactly, as everywhere:
    /// "Bob" is not "bob". A share may invite a name nobody uses yet; this
    /// lets the inviter be told so.
    func knownUsers(among names: [String]) throws -> Set<String>
}

extension CloudDatabase {
    /// Saves and deletes records, the deletes without their versions' times.
    public func modifyRecords(saving: [ServerRecord], deleting: [RecordID]) throws -> ModifyRecordsResult {
        try modifyRecords(saving: saving, deleting: deleting, deletedThrough: [:])
    }
}
