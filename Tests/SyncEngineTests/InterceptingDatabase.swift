import CloudServer
import Foundation

/// A server database that answers some requests itself, as a busy, failing
/// or swapped server would; everything else goes through to `base`.
struct InterceptingDatabase: CloudDatabase {
    let base: any CloudDatabase
    var serverIdentity: (@Sendable (Int64?) throws -> ServerIdentity)?
    var fetchRecords: (@Sendable ([RecordID]) throws -> [RecordID: Result<ServerRecord, CloudError>])?
    var fetchZoneChanges: (@Sendable (ZoneID, ChangeToken?, Int) throws -> ZoneChanges)?
    var modifyRecords: (@Sendable ([ServerRecord], [RecordID], [RecordID: Int64]) throws -> ModifyRecordsResult)?

    /// Record reads fail with `serverUnavailable`, as a busy server's would.
    static func recordsUnavailable(_ base: any CloudDatabase) -> InterceptingDatabase {
        InterceptingDatabase(base: base, fetchRecords: { _ in throw CloudError.serverUnavailable("busy") })
    }

    /// The server was swapped right after the device checked it: the first
    /// identity answer is `old`, every later one the new server's.
    static func swappedAfterTheCheck(_ base: any CloudDatabase, old: ServerIdentity) -> InterceptingDatabase {
        let first = FirstTime()
        return InterceptingDatabase(base: base, serverIdentity: { sequence in
            first.take() ? old : try base.serverIdentity(checking: sequence)
        })
    }

    /// True the first time only. (A lock-guarded flag: `Mutex` needs a
    /// newer macOS than the package's floor.)
    final class FirstTime: @unchecked Sendable {
        private let lock = NSLock()
        private var used = false
        func take() -> Bool { lock.withLock { defer { used = true }; return !used } }
    }

    var userName: String { base.userName }
    var scope: DatabaseScope { base.scope }
    var deviceName: String { base.deviceName }

    func serverIdentity(checking sequence: Int64?) throws -> ServerIdentity {
        try serverIdentity?(sequence) ?? base.serverIdentity(checking: sequence)
    }

    func fetchRecords(_ ids: [RecordID]) throws -> [RecordID: Result<ServerRecord, CloudError>] {
        try fetchRecords?(ids) ?? base.fetchRecords(ids)
    }

    func modifyZones(saving: [ZoneID], deleting: [ZoneID]) throws -> [ZoneID: Result<Void, CloudError>] {
        try base.modifyZones(saving: saving, deleting: deleting)
    }

    func modifyRecords(saving: [ServerRecord], deleting: [RecordID], deletedThrough: [RecordID: Int64]) throws -> ModifyRecordsResult {
        try modifyRecords?(saving, deleting, deletedThrough) ?? base.modifyRecords(saving: saving, deleting: deleting, deletedThrough: deletedThrough)
    }

    func fetchDatabaseChanges(since token: ChangeToken?) throws -> DatabaseChanges {
        try base.fetchDatabaseChanges(since: token)
    }

    func fetchZoneChanges(zoneID: ZoneID, since token: ChangeToken?, limit: Int) throws -> ZoneChanges {
        try fetchZoneChanges?(zoneID, token, limit) ?? base.fetchZoneChanges(zoneID: zoneID, since: token, limit: limit)
    }

    func uploadAsset(_ data: Data) throws -> Asset { try base.uploadAsset(data) }

    func assetData(_ asset: Asset) throws -> Data { try base.assetData(asset) }

    func saveShare(rootRecordID: RecordID, participants: [(userName: String, permission: SharePermission)]) throws -> Share {
        try base.saveShare(rootRecordID: rootRecordID, participants: participants)
    }

    func removeParticipant(shareID: String, userName: String) throws -> Share {
        try base.removeParticipant(shareID: shareID, userName: userName)
    }

    func deleteShare(shareID: String) throws { try base.deleteShare(shareID: shareID) }

    func fetchShares() throws -> [Share] { try base.fetchShares() }

    func acceptShare(shareID: String) throws -> Share { try base.acceptShare(shareID: shareID) }

    func leaveShare(shareID: String) throws { try base.leaveShare(shareID: shareID) }
    func knownUsers(among names: [String]) throws -> Set<String> { try base.knownUsers(among: names) }
}
