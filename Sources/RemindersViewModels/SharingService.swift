import Foundation

/// A sharing action a screen asks for. Each is a server request, run by a
/// `SharingService` off the caller's thread.
public enum SharingRequest: Sendable, Equatable {
    /// Invites a user to a list, or changes the permission of one invited.
    case invite(listID: String, user: String, permission: SharingPermission)
    /// Removes one participant from a list's share.
    case remove(listID: String, user: String)
    /// Stops sharing a list with everyone.
    case stopSharing(listID: String)
    /// Re-reads the shares from the server.
    case refresh
    /// Accepts an invitation (a share another user owns).
    case accept(shareID: String)
    /// Declines an invitation, or leaves a share already accepted.
    case decline(shareID: String)
    /// Leaves the share of a list another user owns: the list goes from
    /// this user's devices, and stays the owner's.
    case leave(listID: String)
}

/// Where sharing requests run: off the caller's thread, with the engine
/// connected to the server. `LiveSync` provides it in the app; tests may
/// provide their own.
public protocol SharingService: AnyObject, Sendable {
    /// Runs `request` on a background queue, then `completion` (on that
    /// queue) with a one-line failure for the user, or nil on success, and
    /// on success a note to add to the outcome (an invitation of a name
    /// nobody uses yet), if any.
    func perform(_ request: SharingRequest, completion: @escaping @Sendable (_ failure: String?, _ note: String?) -> Void)
}
