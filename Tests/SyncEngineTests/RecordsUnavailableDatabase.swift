import CloudServer
import Foundation

/// A server database whose record reads fail with `serverUnavailable`, as a
/// busy server's would; everything else goes through to `base`.
struct RecordsUnavailableDatabase: CloudDatabase {
    let base: any CloudDatabase

    var userName: String { base.userName }
    var scope: DatabaseScope { base.scope }
    var deviceName: String { base.deviceName }

    func fetchRecords(_ ids: [RecordID]) throws -> [RecordID: Result<ServerRecord, CloudError>] {
        throw CloudError.serverUnavailable("busy")
    }

    func modifyZones(saving: [ZoneID], deleting: [ZoneID]) throws -> [ZoneID: Result<Void, CloudError>] {
        try base.modifyZones(saving: saving, deleting: deleting)
    }

    func modifyRecords(saving: [ServerRecord], deleting: [RecordID]) throws -> ModifyRecordsResult {
        try base.modifyRecords(saving: saving, deleting: deleting)
    }

    func serverIdentity(checking sequence: Int64?) throws -> ServerIdentity {
        try base.serverIdentity(checking: sequence)
    }

    func fetchDatabaseChanges(since token: ChangeToken?) throws -> DatabaseChanges {
        try base.fetchDatabaseChanges(since: token)
    }

    func fetchZoneChanges(zoneID: ZoneID, since token: ChangeToken?, limit: Int) throws -> ZoneChanges {
        try base.fetchZoneChanges(zoneID: zoneID, since: token, limit: limit)
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
}
