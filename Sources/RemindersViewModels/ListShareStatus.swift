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
