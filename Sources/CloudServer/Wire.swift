import Foundation

/// The operations of `CloudDatabase` as values, so that a transport (the
/// network service) can carry them and a server can run them against any
/// store with the same semantics and the same errors. Assets travel as
/// bytes of their own, not here. docs/API.md describes the JSON.
public enum WireRequest: Codable, Sendable, Equatable {
    case modifyZones(saving: [ZoneID], deleting: [ZoneID])
    case modifyRecords(saving: [ServerRecord], deleting: [RecordID], deletedThrough: [WireDeleteTime]? = nil)
    case serverIdentity(checking: Int64?)
    case fetchDatabaseChanges(since: ChangeToken?)
    case fetchZoneChanges(zoneID: ZoneID, since: ChangeToken?, limit: Int)
    case fetchRecords([RecordID])
    case saveShare(rootRecordID: RecordID, participants: [WireInvitee])
    case removeParticipant(shareID: String, userName: String)
    case deleteShare(shareID: String)
    case fetchShares
    case acceptShare(shareID: String)
    case leaveShare(shareID: String)
    case knownUsers(names: [String])

    /// Runs the request against `database` (the server side of a transport).
    /// Request-level errors are thrown as they are; per-record and per-zone
    /// errors travel in the response.
    /// - Parameter brief: answer a save with the server's values only for
    ///   records saved as sent (see `WireSaveStamp`).
    public func perform(on database: any CloudDatabase, brief: Bool = false) throws -> WireResponse {
        switch self {
        case .modifyZones(let saving, let deleting):
            let results = try database.modifyZones(saving: saving, deleting: deleting)
            return .zones(results.map { WireOutcome(zone: $0.key, $0.value) }.sorted { $0.zone < $1.zone })
        case .modifyRecords(let saving, let deleting, let times):
            let through = Dictionary((times ?? []).map { ($0.id, $0.time) }, uniquingKeysWith: { first, _ in first })
            return .modified(WireModifyResult(try database.modifyRecords(saving: saving, deleting: deleting, deletedThrough: through),
                                              briefFor: brief ? saving : nil))
        case .serverIdentity(let sequence):
            return .identity(try database.serverIdentity(checking: sequence))
        case .fetchDatabaseChanges(let token):
            return .databaseChanges(WireDatabaseChanges(try database.fetchDatabaseChanges(since: token)))
        case .fetchZoneChanges(let zone, let token, let limit):
            return .zoneChanges(WireZoneChanges(try database.fetchZoneChanges(zoneID: zone, since: token, limit: limit)))
        case .fetchRecords(let ids):
            let results = try database.fetchRecords(ids)
            return .records(results.map { WireRecordOutcome(id: $0.key, $0.value) }.sorted { $0.id < $1.id })
        case .saveShare(let root, let invitees):
            return .share(try database.saveShare(rootRecordID: root,
                                                 participants: invitees.map { ($0.userName, $0.permission) }))
        case .removeParticipant(let shareID, let userName):
            return .share(try database.removeParticipant(shareID: shareID, userName: userName))
        case .deleteShare(let shareID):
            try database.deleteShare(shareID: shareID)
            return .done
        case .fetchShares:
            return .shares(try database.fetchShares())
        case .acceptShare(let shareID):
            return .share(try database.acceptShare(shareID: shareID))
        case .leaveShare(let shareID):
            try database.leaveShare(shareID: shareID)
            return .done
        case .knownUsers(let names):
            return .users(try database.knownUsers(among: names).sorted())
        }
    }
}

/// A user invited to a share, with what they may do.
public struct WireInvitee: Codable, Sendable, Equatable {
    public var userName: String
    public var permission: SharePermission

    public init(userName: String, permission: SharePermission) {
        self.userName = userName
        self.permission = permission
    }
}

/// The answer to a `WireRequest`.
public enum WireResponse: Codable, Sendable, Equatable {
    case zones([WireOutcome])
    case modified(WireModifyResult)
    case identity(ServerIdentity)
    case databaseChanges(WireDatabaseChanges)
    case zoneChanges(WireZoneChanges)
    case records([WireRecordOutcome])
    case share(Share)
    case shares([Share])
    /// The user names asked about that the server knows, sorted.
    case users([String])
    case done
}

/// A `CloudError` as the wire carries it: its case, its one line, and the
/// value it holds, so the other side throws the very same error.
public struct WireError: Codable, Sendable, Equatable, Error {
    public var code: String
    public var message: String
    public var record: ServerRecord?
    public var zone: ZoneID?
    public var recordID: RecordID?

    /// An error of the transport itself (not signed in, a malformed
    /// request), which no `CloudError` stands for.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public init(_ error: CloudError) {
        message = error.description
        switch error {
        case .serverRecordChanged(let record): code = "serverRecordChanged"; self.record = record
        case .zoneNotFound(let zone): code = "zoneNotFound"; self.zone = zone
        case .unknownItem(let id): code = "unknownItem"; recordID = id
        case .limitExceeded(let why): code = "limitExceeded"; message = why
        case .batchRequestFailed(let id): code = "batchRequestFailed"; recordID = id
        case .permissionFailure(let why): code = "permissionFailure"; message = why
        case .changeTokenExpired: code = "changeTokenExpired"
        case .assetUnavailable(let why): code = "assetUnavailable"; message = why
        case .shareNotFound(let what): code = "shareNotFound"; message = what
        case .serverUnavailable(let why): code = "serverUnavailable"; message = why
        case .incompatibleVersion(let why): code = "incompatibleVersion"; message = why
        }
    }

    /// The error this stands for; nil for a code this version does not know
    /// or a payload that is missing.
    public var cloudError: CloudError? {
        switch code {
        case "serverRecordChanged": record.map(CloudError.serverRecordChanged)
        case "zoneNotFound": zone.map(CloudError.zoneNotFound)
        case "unknownItem": recordID.map(CloudError.unknownItem)
        case "limitExceeded": .limitExceeded(message)
        case "batchRequestFailed": recordID.map(CloudError.batchRequestFailed)
        case "permissionFailure": .permissionFailure(message)
        case "changeTokenExpired": .changeTokenExpired
        case "assetUnavailable": .assetUnavailable(message)
        case "shareNotFound": .shareNotFound(message)
        case "serverUnavailable": .serverUnavailable(message)
        case "incompatibleVersion": .incompatibleVersion(message)
        default: nil
        }
    }

    /// The HTTP status a request-level error is answered with.
    public var httpStatus: Int {
        switch code {
        case "permissionFailure": 403
        case "zoneNotFound", "unknownItem", "shareNotFound": 404
        case "changeTokenExpired": 410
        case "limitExceeded": 413
        case "serverRecordChanged", "batchRequestFailed": 409
        case "assetUnavailable": 422
        case "serverUnavailable": 503
        default: 500
        }
    }
}

/// The outcome of one zone of `modifyZones`: nil error for success.
public struct WireOutcome: Codable, Sendable, Equatable {
    public var zone: ZoneID
    public var error: WireError?

    public init(zone: ZoneID, _ result: Result<Void, CloudError>) {
        self.zone = zone
        if case .failure(let error) = result { self.error = WireError(error) }
    }

    init(zone: ZoneID, error: WireError?) {
        self.zone = zone
        self.error = error
    }

    public var result: Result<Void, CloudError> {
        error.map { .failure($0.cloudError ?? .serverUnavailable($0.message)) } ?? .success(())
    }
}

/// The outcome of one record: the record, or why not.
public struct WireRecordOutcome: Codable, Sendable, Equatable {
    public var id: RecordID
    public var record: ServerRecord?
    public var error: WireError?
    /// In place of `record`, in a brief answer to a save: the record was
    /// saved as sent, with these values of the server's.
    public var saved: WireSaveStamp?

    public init(id: RecordID, _ result: Result<ServerRecord, CloudError>) {
        self.id = id
        switch result {
        case .success(let record): self.record = record
        case .failure(let error): self.error = WireError(error)
        }
    }

    init(id: RecordID, record: ServerRecord?, error: WireError?, saved: WireSaveStamp? = nil) {
        self.id = id
        self.record = record
        self.error = error
        self.saved = saved
    }

    public var result: Result<ServerRecord, CloudError> {
        if let record { return .success(record) }
        return .failure(error?.cloudError ?? .serverUnavailable(error?.message ?? "the server sent neither record nor error"))
    }
}

/// What a save adds to a record: the server's values. A brief answer to a
/// save sends only these for a record saved exactly as it was sent (most
/// of them), instead of the whole record back.
public struct WireSaveStamp: Codable, Sendable, Equatable {
    public var changeTag: String?
    public var modificationDate: Date?
    public var modifiedByUser: String?
    public var modifiedByDevice: String?

    /// The stamp of `saved` when it is `sent` with the server's values,
    /// nil when the server changed anything else.
    public init?(_ saved: ServerRecord, sent: ServerRecord) {
        var plain = saved
        plain.changeTag = sent.changeTag
        plain.modificationDate = sent.modificationDate
        plain.modifiedByUser = sent.modifiedByUser
        plain.modifiedByDevice = sent.modifiedByDevice
        plain.knownThrough = sent.knownThrough
        guard plain == sent else { return nil }
        changeTag = saved.changeTag
        modificationDate = saved.modificationDate
        modifiedByUser = saved.modifiedByUser
        modifiedByDevice = saved.modifiedByDevice
    }

    init(changeTag: String?, modificationDate: Date?, modifiedByUser: String?, modifiedByDevice: String?) {
        self.changeTag = changeTag
        self.modificationDate = modificationDate
        self.modifiedByUser = modifiedByUser
        self.modifiedByDevice = modifiedByDevice
    }

    /// The saved record: `sent` with the server's values.
    public func record(sent: ServerRecord) -> ServerRecord {
        var record = sent
        record.changeTag = changeTag
        record.modificationDate = modificationDate
        record.modifiedByUser = modifiedByUser
        record.modifiedByDevice = modifiedByDevice
        record.knownThrough = nil
        return record
    }

    /// The records of a request by id; the first of a name sent twice, on
    /// both sides.
    static func byID(_ records: [ServerRecord]) -> [RecordID: ServerRecord] {
        Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// `ModifyRecordsResult` on the wire.
public struct WireModifyResult: Codable, Sendable, Equatable {
    public var saves: [WireRecordOutcome]
    public var deletes: [WireOutcomeOfDelete]
    public var head: HistoryMark?

    /// - Parameter sent: the records the request saved, for a brief
    ///   answer (see `WireSaveStamp`); nil for the whole records.
    public init(_ result: ModifyRecordsResult, briefFor sent: [ServerRecord]? = nil) {
        let sentByID = sent.map(WireSaveStamp.byID)
        saves = result.saveResults.map { id, result in
            if case .success(let record) = result, let original = sentByID?[id],
               let stamp = WireSaveStamp(record, sent: original) {
                return WireRecordOutcome(id: id, record: nil, error: nil, saved: stamp)
            }
            return WireRecordOutcome(id: id, result)
        }.sorted { $0.id < $1.id }
        deletes = result.deleteResults.map { WireOutcomeOfDelete(id: $0.key, $0.value) }.sorted { $0.id < $1.id }
        head = result.head
    }

    init(saves: [WireRecordOutcome], deletes: [WireOutcomeOfDelete], head: HistoryMark?) {
        self.saves = saves
        self.deletes = deletes
        self.head = head
    }

    /// The result, with the records of a brief answer made whole again
    /// from the records the request sent.
    public func result(sent: [ServerRecord]) -> ModifyRecordsResult {
        let sentByID = saves.contains { $0.saved != nil } ? WireSaveStamp.byID(sent) : [:]
        let saveResults = saves.map { outcome -> (RecordID, Result<ServerRecord, CloudError>) in
            guard outcome.record == nil, outcome.error == nil, let stamp = outcome.saved else { return (outcome.id, outcome.result) }
            guard let original = sentByID[outcome.id] else {
                return (outcome.id, .failure(.serverUnavailable("the server answered for \(outcome.id), which was not sent")))
            }
            return (outcome.id, .success(stamp.record(sent: original)))
        }
        return ModifyRecordsResult(saveResults: Dictionary(saveResults, uniquingKeysWith: { first, _ in first }),
                                   deleteResults: Dictionary(deletes.map { ($0.id, $0.result) }, uniquingKeysWith: { first, _ in first }),
                                   head: head)
    }
}

/// The outcome of one delete.
public struct WireOutcomeOfDelete: Codable, Sendable, Equatable {
    public var id: RecordID
    public var error: WireError?

    public init(id: RecordID, _ result: Result<Void, CloudError>) {
        self.id = id
        if case .failure(let error) = result { self.error = WireError(error) }
    }

    init(id: RecordID, error: WireError?) {
        self.id = id
        self.error = error
    }

    public var result: Result<Void, CloudError> {
        error.map { .failure($0.cloudError ?? .serverUnavailable($0.message)) } ?? .success(())
    }
}

/// `DatabaseChanges` on the wire.
public struct WireDatabaseChanges: Codable, Sendable, Equatable {
    public var changedZoneIDs: [ZoneID]
    public var deletedZoneIDs: [ZoneID]
    public var token: ChangeToken
    public var moreComing: Bool
    public var head: HistoryMark?

    public init(_ changes: DatabaseChanges) {
        changedZoneIDs = changes.changedZoneIDs
        deletedZoneIDs = changes.deletedZoneIDs
        token = changes.token
        moreComing = changes.moreComing
        head = changes.head
    }

    public var changes: DatabaseChanges {
        DatabaseChanges(changedZoneIDs: changedZoneIDs, deletedZoneIDs: deletedZoneIDs, token: token,
                        moreComing: moreComing, head: head)
    }
}

/// `ZoneChanges` on the wire.
public struct WireZoneChanges: Codable, Sendable, Equatable {
    public var changed: [ServerRecord]
    public var deleted: [WireDeletion]
    public var token: ChangeToken
    public var moreComing: Bool
    public var head: HistoryMark?

    public init(_ changes: ZoneChanges) {
        changed = changes.changed
        deleted = changes.deleted.map(WireDeletion.init)
        token = changes.token
        moreComing = changes.moreComing
        head = changes.head
    }

    public var changes: ZoneChanges {
        ZoneChanges(changed: changed, deleted: deleted.map(\.deletion), token: token, moreComing: moreComing, head: head)
    }
}

/// A tombstone on the wire; who deleted it, and the time of the version
/// deleted, are left out when not known. (A reader from before a key was
/// sent reads past it, as docs/API.md says of every key.)
public struct WireDeletion: Codable, Sendable, Equatable {
    public var id: RecordID
    public var recordType: String
    public var deletedByUser: String?
    public var deletedByDevice: String?
    public var deletedThrough: Int64?

    init(_ deletion: RecordDeletion) {
        id = deletion.id
        recordType = deletion.recordType
        deletedByUser = deletion.deletedByUser
        deletedByDevice = deletion.deletedByDevice
        deletedThrough = deletion.deletedThrough
    }

    var deletion: RecordDeletion {
        RecordDeletion(id: id, recordType: recordType, deletedByUser: deletedByUser, deletedByDevice: deletedByDevice,
                       deletedThrough: deletedThrough)
    }
}

/// A delete's version time in a request (`CloudDatabase.modifyRecords`).
public struct WireDeleteTime: Codable, Sendable, Equatable {
    public var id: RecordID
    public var time: Int64

    public init(id: RecordID, time: Int64) {
        self.id = id
        self.time = time
    }

    /// The times of `deleting`, in its order; nil when there are none.
    public static func list(_ deleting: [RecordID], _ times: [RecordID: Int64]) -> [WireDeleteTime]? {
        let list = deleting.compactMap { id in times[id].map { WireDeleteTime(id: id, time: $0) } }
        return list.isEmpty ? nil : list
    }
}

/// What a network service serves: each user's two databases and the head
/// of its change feed. `DirectoryServer` is one.
public protocol CloudStore: Sendable {
    func cloudDatabase(user: String, scope: DatabaseScope, device: String) -> any CloudDatabase
    /// A number that moves with every commit.
    func head() -> Int64
}

extension DirectoryServer: CloudStore {
    public func cloudDatabase(user: String, scope: DatabaseScope, device: String) -> any CloudDatabase {
        database(user: user, scope: scope, device: device)
    }
}
