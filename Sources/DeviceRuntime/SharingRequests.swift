import CloudServer
import Foundation
import RemindersCore
import RemindersViewModels
import SyncEngine
import Synchronization

extension SharingRequest {
    /// Makes the request of the server, through the engine.
    /// Returns a note for the user, if the request has one.
    func run(on engine: SyncEngine) throws -> String? {
        let lists = RemindersList.databaseTableName
        switch self {
        case .invite(let listID, let user, let permission):
            // A new participant, not a permission changed.
            let isNew = try engine.localShares().first { $0.rootKey == listID && $0.ownerName == engine.userName }?
                .participant(user).map { $0.status == .removed } ?? true
            _ = try engine.share(table: lists, key: listID, with: [(userName: user, permission: permission.server)])
            // Only a note: a server that cannot answer leaves it out.
            return isNew ? (try? engine.unknownUserNote(user)) ?? nil : nil
        case .remove(let listID, let user):
            try engine.unshare(table: lists, key: listID, user: user)
        case .stopSharing(let listID):
            try engine.unshare(table: lists, key: listID, user: nil)
        case .refresh:
            try engine.refreshShares()
        case .accept(let shareID):
            try engine.acceptShare(id: shareID)
        case .decline(let shareID):
            try engine.leaveShare(id: shareID)
        case .leave(let listID):
            guard try engine.leaveShare(ofRoot: lists, key: listID) != nil else {
                throw CoreError.invalidInput("this list is not shared with you by someone else")
            }
        }
        return nil
    }
}

extension LiveSync: SharingService {
    /// Runs the request on the sync queue with the engine connected, then
    /// `completion` with a line for the user if it failed.
    public func perform(_ request: SharingRequest, completion: @escaping @Sendable (String?, String?) -> Void) {
        let note = Mutex<String?>(nil)
        withConnectedEngine({ engine in
            let said = try request.run(on: engine)
            note.withLock { $0 = said }
        }, completion: { error in
            completion(error.map(describeSyncFailure), note.withLock { $0 })
        })
    }
}

/// A user-facing line for a failure of a sync or sharing request.
func describeSyncFailure(_ error: any Error) -> String {
    if let error = error as? SyncError { return error.description }
    if let error = error as? CloudError { return error.description }
    if let error = error as? CoreError { return error.description }
    return "\(error)"
}

extension SharingPermission {
    init(_ permission: SharePermission) {
        self = permission == .readOnly ? .readOnly : .readWrite
    }

    /// The server's name for it.
    var server: SharePermission { self == .readOnly ? .readOnly : .readWrite }
}

extension ListParticipant {
    /// A participant as the server lists them; nil for one removed.
    init?(_ participant: ShareParticipant) {
        let status: Status
        switch participant.status {
        case .pending: status = .pending
        case .accepted: status = .accepted
        case .removed: return nil
        }
        self.init(userName: participant.userName, permission: SharingPermission(participant.permission), status: status)
    }
}
