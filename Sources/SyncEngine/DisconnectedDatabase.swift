import CloudServer
import Foundation

/// The database of an engine with no server: every request fails as the
/// server being unavailable, so pending changes wait.
struct DisconnectedDatabase: CloudDatabase {
    let userName: String
    let scope: DatabaseScope
    let deviceName: String

    private var unavailable: CloudError { .serverUnavailable("not connected to a server") }

    func modifyZones(saving: [ZoneID], deleting: [ZoneID]) throws -> [ZoneID: Result<Void, CloudError>] { throw unavailable }
    func modifyRecords(saving: [ServerRecord], deleting: [RecordID], deletedThrough: [RecordID: Int64]) throws -> ModifyRecordsResult {
        throw unavailable
    }
    func serverIdentity(checking sequence: Int64?) throws -> ServerIdentity { throw unavailable }
    func fetchDatabaseChanges(since token: ChangeToken?) throws -> DatabaseChanges { throw unavailable }
    func fetchZoneChanges(zoneID: ZoneID, since token: ChangeToken?, limit: Int) throws -> ZoneChanges { throw unavailable }
    func fetchRecords(_ ids: [RecordID]) throws -> [RecordID: Result<ServerRecord, CloudError>] { throw unavailable }
    func uploadAsset(_ data: Data) throws -> Asset { throw unavailable }
    func assetData(_ asset: Asset) throws -> Data { throw unavailable }
    func saveShare(rootRecordID: RecordID, participants: [(userName: String, permission: SharePermission)]) throws -> Share { throw unavailable }
    func removeParticipant(shareID: String, userName: String) throws -> Share { throw unavailable }
    func deleteShare(shareID: String) throws { throw unavailable }
    func fetchShares() throws -> [Share] { throw unavailable }
    func acceptShare(shareID: String) throws -> Share { throw unavailable }
    func leaveShare(shareID: String) throws { throw unavailable }
    func knownUsers(among names: [String]) throws -> Set<String> { throw unavailable }
}
