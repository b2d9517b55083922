import Foundation

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

    public init(name: String, isInvited: Bool) {
        self.name = name
        self.isInvited = isInvited
    }
}

/// What a person may do with a list shared with them. The view models' own
/// type, so screens need not know the server's.
public enum SharingPermission: String, Equatable, Sendable {
    case readOnly = "read-only"
    case readWrite = "read-write"
}

/// Someone a list is shared with, as the Sharing screen lists them.
public struct ListParticipant: Equatable, Sendable {
    public enum Status: String, Equatable, Sendable {
        /// Invited, not accepted yet.
        case pending
        case accepted
    }

    public var userName: String
    public var permission: SharingPermission
    public var status: Status

    public init(userName: String, permission: SharingPermission, status: Status) {
        self.userName = userName
        self.permission = permission
        self.status = status
    }
}
