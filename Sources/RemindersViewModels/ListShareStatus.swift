import Foundation
import GRDB

/// How a list is shared, as this user sees it. Typed, so screens put it in
/// words and nothing reads words back.
public enum ListShareStatus: Equatable, Sendable {
    /// This user shares the list with these people.
    case sharedWith([SharedPerson])
    /// Another user's list, shared with this user.
    case sharedBy(owner: String, isReadOnly: Bool)
}

/// Someone a list is shared with.
public struct SharedPerson: Equatable, Sendable {
    public var name: String
    /// Invited, not accepted yet.
    public var isInvited: Bool
    /// May read the list, not change it.
    public var isReadOnly: Bool

    /// A person a list is shared with.
    public init(name: String, isInvited: Bool, isReadOnly: Bool = false) {
        self.name = name
        self.isInvited = isInvited
        self.isReadOnly = isReadOnly
    }
}

/// What a person may do with a list shared with them. The view models' own
/// type, so screens need not know the server's.
public enum SharingPermission: String, Equatable, Sendable {
    /// May read the list, not change it.
    case readOnly = "read-only"
    /// May read and change the list.
    case readWrite = "read-write"
}

/// Someone a list is shared with, as the Sharing screen lists them.
public struct ListParticipant: Equatable, Sendable {
    /// Whether they accepted the invitation.
    public enum Status: String, Equatable, Sendable {
        /// Invited, not accepted yet.
        case pending
        /// In the share: the list syncs to their devices.
        case accepted
    }

    public var userName: String
    /// What they may do with the list.
    public var permission: SharingPermission
    public var status: Status

    /// A participant as the sharing layer reports them.
    public init(userName: String, permission: SharingPermission, status: Status) {
        self.userName = userName
        self.permission = permission
        self.status = status
    }
}

/// A share someone else owns that this user has not answered yet.
public struct Invitation: Equatable, Sendable, Identifiable {
    /// The share's id, which accepting or declining names.
    public var id: String
    public var ownerName: String
    /// The shared list's id.
    public var listID: String
    /// The list's title: this device's copy, else what the server showed
    /// at the last refresh; nil when neither is known.
    public var listTitle: String?
    /// What this user may do once they accept.
    public var permission: SharingPermission

    /// An invitation as the sharing layer reports it.
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

/// What the sharing layer tells screens about a list. Both calls run inside
/// a view model's observed fetch, so whatever they read in the database
/// (share tables kept in the same file) is tracked: when it changes, the
/// screen updates.
public protocol SharingInfoProvider: Sendable {
    /// How a list is shared, or nil for a list that is not.
    func shareStatus(_ db: Database, listID: String) throws -> ListShareStatus?
    /// Whether the user may only read the list; screens then hide editing
    /// keys and the store refuses writes anyway.
    func isReadOnly(_ db: Database, listID: String) throws -> Bool
    /// Who owns a list (nil: this user) and who it is shared with, by
    /// name, removed ones left out, as the Sharing screen lists them.
    func people(_ db: Database, listID: String) throws -> (owner: String?, participants: [ListParticipant])
    /// Shares of lists other users own that this user has not answered.
    func invitations(_ db: Database) throws -> [Invitation]
}

/// No sharing: every list is the user's own.
public struct NoSharing: SharingInfoProvider {
    /// The provider of a device with no sharing.
    public init() {}
    public func shareStatus(_ db: Database, listID: String) -> ListShareStatus? { nil }
    public func isReadOnly(_ db: Database, listID: String) -> Bool { false }
}

extension SharingInfoProvider {
    /// A provider that knows of no shares: the user owns every list.
    public func people(_ db: Database, listID: String) throws -> (owner: String?, participants: [ListParticipant]) {
        (nil, [])
    }

    /// None: a provider that knows of no shares has no invitations.
    public func invitations(_ db: Database) throws -> [Invitation] { [] }
}
