import CloudServer
import Foundation
import GRDB
import RemindersCore
import SyncEngine

/// Where sharing requests run: off the caller's thread, with the engine
/// connected to the server. `LiveSync` provides it in the app.
public protocol SharingService: AnyObject, Sendable {
    /// Runs `body` on a background queue with a connected engine, then
    /// `completion` (on that queue) with the error, if any.
    func withConnectedEngine(_ body: @escaping @Sendable (SyncEngine) throws -> Void,
                             completion: @escaping @Sendable ((any Error)?) -> Void)
}

extension LiveSync: SharingService {}

extension AppEnvironment {
    /// The sharing requests' runner: the live sync, when there is a server.
    public var sharingService: (any SharingService)? {
        (syncControls as? any SharingService) ?? (syncStatus as? any SharingService)
    }
}

/// A user-facing line for a sharing failure.
func describeSharingError(_ error: any Error) -> String {
    if let error = error as? SyncError { return error.description }
    if let error = error as? CloudError { return error.description }
    if let error = error as? CoreError { return error.description }
    return "\(error)"
}

// MARK: - One list's sharing

public struct SharingState: ViewState {
    public var listID: String
    public var listTitle: String
    /// The list's owner (this user for a list never shared with them).
    public var ownerName: String
    /// Whether this user owns the list (and may change its sharing).
    public var isOwner: Bool
    /// The share's participants, by name; removed ones left out.
    public var participants: [ListParticipant]
    public var isShared: Bool
    /// Requests still running.
    public var pendingRequests: Int
    /// The outcome of the last action, one line.
    public var message: String?
    public var messageIsError: Bool
    public var isLoaded: Bool
    public var errorMessage: String?

    public init(listID: String, listTitle: String = "", ownerName: String = "", isOwner: Bool = true,
                participants: [ListParticipant] = [], isShared: Bool = false, pendingRequests: Int = 0,
                message: String? = nil, messageIsError: Bool = false, isLoaded: Bool = false, errorMessage: String? = nil) {
        self.listID = listID
        self.listTitle = listTitle
        self.ownerName = ownerName
        self.isOwner = isOwner
        self.participants = participants
        self.isShared = isShared
        self.pendingRequests = pendingRequests
        self.message = message
        self.messageIsError = messageIsError
        self.isLoaded = isLoaded
        self.errorMessage = errorMessage
    }

    public var isBusy: Bool { pendingRequests > 0 }
}

/// The Sharing screen of one list: who it is shared with, and the owner's
/// actions. Every action is a server request run on the sharing service's
/// queue; its outcome lands in `state.message`.
public final class SharingViewModel: ViewModel<SharingState>, @unchecked Sendable {
    public let listID: String
    private let service: (any SharingService)?

    public init(environment: AppEnvironment, listID: String, service: (any SharingService)? = nil) {
        self.listID = listID
        self.service = service ?? environment.sharingService
        super.init(environment: environment, initial: SharingState(listID: listID), label: "sharing")
        let me = environment.userName
        observe({ db -> (String, String, LocalShare?) in
            let title = try Queries.listTitle(db, id: listID) ?? ""
            let owner = try db.tableExists("sync_metadata")
                ? SyncEngine.owner(db, table: RemindersList.databaseTableName, key: listID, defaultOwner: me) : me
            let share = try SyncEngine.localShares(db).first { $0.rootTable == RemindersList.databaseTableName && $0.rootKey == listID }
            return (title, owner, share)
        }, apply: { state, value in
            let (title, owner, share) = value
            state.listTitle = title
            state.ownerName = share?.ownerName ?? owner
            state.isOwner = state.ownerName == me
            state.participants = (share?.participants ?? []).compactMap(ListParticipant.init(_:)).sorted { $0.userName < $1.userName }
            state.isShared = share != nil && !state.participants.isEmpty
            state.isLoaded = true
        })
    }

    /// Invites `user` (or changes their permission).
    public func invite(_ user: String, permission: SharingPermission) {
        let name = user.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return finish(error: "Type a user name") }
        let listID = self.listID
        request(done: "Invited \(name) (\(permission.rawValue))") { engine in
            _ = try engine.share(table: RemindersList.databaseTableName, key: listID, with: [(userName: name, permission: permission.server)])
        }
    }

    /// Changes a participant's permission.
    public func setPermission(_ user: String, _ permission: SharingPermission) {
        let listID = self.listID
        request(done: "\(user) is now \(permission.rawValue)") { engine in
            _ = try engine.share(table: RemindersList.databaseTableName, key: listID, with: [(userName: user, permission: permission.server)])
        }
    }

    /// Removes one participant.
    public func remove(_ user: String) {
        let listID = self.listID
        request(done: "Removed \(user)") { engine in
            try engine.unshare(table: RemindersList.databaseTableName, key: listID, user: user)
        }
    }

    /// Stops sharing the list with everyone.
    public func stopSharing() {
        let listID = self.listID
        request(done: "Stopped sharing") { engine in
            try engine.unshare(table: RemindersList.databaseTableName, key: listID, user: nil)
        }
    }

    /// Re-reads the shares from the server.
    public func refreshShares() {
        request(done: nil) { engine in try engine.refreshShares() }
    }

    private func request(done: String?, _ body: @escaping @Sendable (SyncEngine) throws -> Void) {
        guard let service else {
            if done != nil { finish(error: "Sharing needs a server (start with --server)") }
            return
        }
        update { $0.pendingRequests += 1; $0.message = "Working…"; $0.messageIsError = false }
        service.withConnectedEngine(body) { [weak self] error in
            guard let self else { return }
            self.update { state in
                state.pendingRequests -= 1
                if let error {
                    state.message = describeSharingError(error)
                    state.messageIsError = true
                } else {
                    state.message = done
                    state.messageIsError = false
                }
            }
            self.refresh()
        }
    }

    private func finish(error: String) {
        update { $0.message = error; $0.messageIsError = true }
    }
}

// MARK: - Invitations (Home)

/// A share someone else owns that this user has not answered yet.
public struct Invitation: Equatable, Sendable, Identifiable {
    public var id: String
    public var ownerName: String
    public var listID: String
    /// The list's title: this device's copy, else what the server showed
    /// at the last refresh; nil when neither is known.
    public var listTitle: String?
    public var permission: SharingPermission

    public init(id: String, ownerName: String, listID: String, listTitle: String?, permission: SharingPermission) {
        self.id = id
        self.ownerName = ownerName
        self.listID = listID
        self.listTitle = listTitle
        self.permission = permission
    }

    /// "alice invites you to “Groceries” (read-write)"
    public var line: String {
        let what = listTitle.map { "“\($0)”" } ?? "a list"
        return "\(ownerName) invites you to \(what) (\(permission.rawValue))"
    }
}

public struct InvitationsState: ViewState {
    public var invitations: [Invitation]
    public var pendingRequests: Int
    public var message: String?
    public var messageIsError: Bool
    public var errorMessage: String?

    public init(invitations: [Invitation] = [], pendingRequests: Int = 0, message: String? = nil,
                messageIsError: Bool = false, errorMessage: String? = nil) {
        self.invitations = invitations
        self.pendingRequests = pendingRequests
        self.message = message
        self.messageIsError = messageIsError
        self.errorMessage = errorMessage
    }
}

/// Home's incoming invitations: pending shares where this user is a
/// participant, with accept and decline (server requests, in the
/// background).
public final class InvitationsViewModel: ViewModel<InvitationsState>, @unchecked Sendable {
    private let service: (any SharingService)?

    public init(environment: AppEnvironment, service: (any SharingService)? = nil) {
        self.service = service ?? environment.sharingService
        super.init(environment: environment, initial: InvitationsState(), label: "invitations")
        let me = environment.userName
        observe({ db -> [Invitation] in
            try SyncEngine.localShares(db).compactMap { share -> Invitation? in
                guard share.ownerName != me, share.rootTable == RemindersList.databaseTableName,
                      let mine = share.participant(me), mine.status == .pending else { return nil }
                // The list's rows arrive once accepted; until then, the
                // title the server showed at the last refresh.
                let title = try Queries.listTitle(db, id: share.rootKey)
                    ?? share.rootPreview["title"]
                return Invitation(id: share.id, ownerName: share.ownerName, listID: share.rootKey, listTitle: title,
                                  permission: SharingPermission(mine.permission))
            }
        }, apply: { state, invitations in
            state.invitations = invitations
        })
    }

    /// Reads the shares from the server (when Home opens).
    public func refreshShares() {
        request(done: nil) { engine in try engine.refreshShares() }
    }

    public func accept(_ invitation: Invitation) {
        let id = invitation.id
        request(done: "Accepted \(invitation.ownerName)’s list") { engine in try engine.acceptShare(id: id) }
    }

    public func decline(_ invitation: Invitation) {
        let id = invitation.id
        request(done: "Declined \(invitation.ownerName)’s invitation") { engine in try engine.leaveShare(id: id) }
    }

    private func request(done: String?, _ body: @escaping @Sendable (SyncEngine) throws -> Void) {
        guard let service else {
            if done != nil { update { $0.message = "Sharing needs a server"; $0.messageIsError = true } }
            return
        }
        update { $0.pendingRequests += 1 }
        service.withConnectedEngine(body) { [weak self] error in
            guard let self else { return }
            self.update { state in
                state.pendingRequests -= 1
                if let error {
                    state.message = describeSharingError(error)
                    state.messageIsError = true
                } else if let done {
                    state.message = done
                    state.messageIsError = false
                }
            }
            self.refresh()
        }
    }
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
