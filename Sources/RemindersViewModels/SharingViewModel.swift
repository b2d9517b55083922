import Foundation
import GRDB
import RemindersCore

extension AppEnvironment {
    /// The sharing requests' runner: the live sync, when there is a server.
    /// The controls, when they run sharing requests too, come first.
    public var sharingService: (any SharingService)? {
        (syncControls as? any SharingService) ?? syncStatus.sharingService
    }
}

/// The state of a screen that makes sharing requests: how many still run,
/// and the outcome of the last one.
protocol SharingRequestState: ViewState {
    var pendingRequests: Int { get set }
    var message: String? { get set }
    var messageIsError: Bool { get set }
}

extension ViewModel where State: SharingRequestState {
    /// Runs a sharing request through `service`, counting it while it runs;
    /// its outcome becomes the state's message (`done` on success, nothing
    /// when `done` is nil), then the screen re-reads its data.
    /// - Parameter working: the message shown while the request runs.
    func perform(_ request: SharingRequest, with service: (any SharingService)?, done: String?,
                 working: String? = nil, noServer: String) {
        guard let service else {
            if done != nil { update { $0.message = noServer; $0.messageIsError = true } }
            return
        }
        update { state in
            state.pendingRequests += 1
            if let working { state.message = working; state.messageIsError = false }
        }
        service.perform(request) { [weak self] failure, note in
            guard let self else { return }
            self.update { state in
                state.pendingRequests -= 1
                if let failure {
                    // A background refresh's failure is the status bar's
                    // to report (it shows the server's state): not a second
                    // copy of the same warning on the screen.
                    guard done != nil || working != nil else { return }
                    state.message = failure
                    state.messageIsError = true
                } else if let done {
                    state.message = done + (note.map { "; " + $0 } ?? "")
                    state.messageIsError = false
                } else if working != nil {
                    state.message = nil
                }
            }
            self.refresh()
        }
    }
}

extension ViewModel where State: SharingRequestState {
    /// The outcome of the last request, once: a screen that shows it as a
    /// toast takes it, so it does not stay on screen for good.
    func takeRequestMessage() -> (text: String, isError: Bool)? {
        var taken: (text: String, isError: Bool)?
        update { state in
            guard state.pendingRequests == 0, let message = state.message else { return }
            taken = (message, state.messageIsError)
            state.message = nil
            state.messageIsError = false
        }
        return taken
    }
}

// MARK: - One list's sharing

/// The state of `SharingViewModel`.
public struct SharingState: SharingRequestState {
    public var listID: String
    public var listTitle: String
    /// The list's owner (this user for a list never shared with them).
    public var ownerName: String
    /// Whether this user owns the list (and may change its sharing).
    public var isOwner: Bool
    /// The share's participants, by name; removed ones left out.
    public var participants: [ListParticipant]
    /// Whether anyone besides the owner is in the share.
    public var isShared: Bool
    /// Requests still running.
    public var pendingRequests: Int
    /// The outcome of the last action, one line.
    public var message: String?
    /// Whether `message` reports a failure.
    public var messageIsError: Bool
    /// False until the first read arrived.
    public var isLoaded: Bool
    public var errorMessage: String?

    /// The defaults are the state before the first read.
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

    /// Whether a request is still running.
    public var isBusy: Bool { pendingRequests > 0 }
}

/// The Sharing screen of one list: who it is shared with, and the owner's
/// actions. Every action is a server request run on the sharing service's
/// queue; its outcome lands in `state.message`.
public final class SharingViewModel: ViewModel {
    public let core: ViewModelCore<SharingState>
    public let listID: String
    private let service: (any SharingService)?

    /// Starts observing the list's sharing at once.
    /// - Parameters:
    ///   - environment: the device's environment.
    ///   - listID: the list whose sharing the screen shows.
    ///   - service: where requests run; by default the environment's
    ///     `sharingService`.
    public init(environment: AppEnvironment, listID: String, service: (any SharingService)? = nil) {
        self.listID = listID
        self.service = service ?? environment.sharingService
        core = ViewModelCore(environment: environment, initial: SharingState(listID: listID), label: "sharing")
        let me = environment.userName
        let sharing = environment.sharing
        observe({ db in
            (title: try Queries.listTitle(db, id: listID) ?? "", people: try sharing.people(db, listID: listID))
        }, apply: { state, value in
            state.listTitle = value.title
            state.ownerName = value.people.owner ?? me
            state.isOwner = state.ownerName == me
            state.participants = value.people.participants
            state.isShared = !state.participants.isEmpty
            state.isLoaded = true
        })
    }

    /// Invites `user` (or changes their permission).
    public func invite(_ user: String, permission: SharingPermission) {
        let name = user.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return finish(error: "Type a user name") }
        request(.invite(listID: listID, user: name, permission: permission), done: "Invited \(name) (\(permission.rawValue))")
    }

    /// Changes a participant's permission.
    public func setPermission(_ user: String, _ permission: SharingPermission) {
        request(.invite(listID: listID, user: user, permission: permission), done: "\(user) is now \(permission.rawValue)")
    }

    /// Removes one participant.
    public func remove(_ user: String) {
        request(.remove(listID: listID, user: user), done: "Removed \(user)")
    }

    /// Leaves a list another user owns (a participant's way out: only the
    /// owner deletes it).
    public func leave() {
        request(.leave(listID: listID), done: "Left “\(state.listTitle)”, \(state.ownerName)’s list")
    }

    /// Stops sharing the list with everyone.
    public func stopSharing() {
        request(.stopSharing(listID: listID), done: "Stopped sharing")
    }

    /// Re-reads the shares from the server.
    public func refreshShares() {
        request(.refresh, done: nil)
    }

    private func request(_ request: SharingRequest, done: String?) {
        perform(request, with: service, done: done, working: "Working…",
                noServer: "Sharing needs a server (start with --server)")
    }

    private func finish(error: String) {
        update { $0.message = error; $0.messageIsError = true }
    }
}

// MARK: - Invitations (Home)

/// The state of `InvitationsViewModel`.
public struct InvitationsState: SharingRequestState {
    /// Invitations this user has not answered.
    public var invitations: [Invitation]
    /// Requests still running.
    public var pendingRequests: Int
    /// The outcome of the last action, one line.
    public var message: String?
    /// Whether `message` reports a failure.
    public var messageIsError: Bool
    public var errorMessage: String?

    /// The defaults are the state before the first read.
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
public final class InvitationsViewModel: ViewModel {
    public let core: ViewModelCore<InvitationsState>
    private let explicitService: (any SharingService)?
    /// Looked up when a request is made, not as Home opens: finding the
    /// environment's service may cost the runtime a search of the
    /// program's conformances, on the main thread.
    private var service: (any SharingService)? { explicitService ?? environment.sharingService }

    /// Starts observing invitations at once.
    /// - Parameters:
    ///   - environment: the device's environment.
    ///   - service: where requests run; by default the environment's
    ///     `sharingService`.
    public init(environment: AppEnvironment, service: (any SharingService)? = nil) {
        explicitService = service
        core = ViewModelCore(environment: environment, initial: InvitationsState(), label: "invitations")
        let sharing = environment.sharing
        observe({ db in try sharing.invitations(db) }, apply: { state, invitations in
            state.invitations = invitations
        })
    }

    /// Reads the shares from the server (when Home opens).
    public func refreshShares() {
        request(.refresh, done: nil)
    }

    /// Accepts an invitation; the list's reminders arrive with the sync
    /// that follows.
    public func accept(_ invitation: Invitation) {
        let list = invitation.listTitle.map { " “\($0)”" } ?? ""
        request(.accept(shareID: invitation.id), done: "Accepted \(invitation.ownerName)’s list\(list)")
    }

    /// "Accepted alice’s list “Groceries”", once (see `takeRequestMessage`).
    public func takeMessage() -> (text: String, isError: Bool)? {
        takeRequestMessage()
    }

    /// Declines an invitation.
    public func decline(_ invitation: Invitation) {
        request(.decline(shareID: invitation.id), done: "Declined \(invitation.ownerName)’s invitation")
    }

    private func request(_ request: SharingRequest, done: String?) {
        perform(request, with: service, done: done, noServer: "Sharing needs a server")
    }
}

