import CloudServer
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import SyncEngine

/// What sharing means for one list, read from the engine's tables in the
/// device's database (so observations that read it redraw when a share
/// changes).
public struct ListSharing: SharingInfoProvider {
    /// The user of this device: lists no one else owns are theirs.
    public let userName: String

    /// The sharing of `userName`'s lists and of those shared with them.
    public init(userName: String) {
        self.userName = userName
    }

    /// The share rooted at a list, if any.
    public func share(_ db: Database, listID: String) throws -> LocalShare? {
        try SyncEngine.localShares(db).first { $0.rootTable == RemindersList.databaseTableName && $0.rootKey == listID }
    }

    /// Who owns a list: this user, unless the engine's metadata names
    /// another.
    public func owner(_ db: Database, listID: String) throws -> String {
        try SyncEngine.owner(db, table: RemindersList.databaseTableName, key: listID, defaultOwner: userName)
    }

    /// "Shared with" for a list this user shares with someone, "shared by"
    /// for another user's list; nil for the user's own list that nobody else
    /// is in.
    public func shareStatus(_ db: Database, listID: String) throws -> ListShareStatus? {
        let owner = try owner(db, listID: listID)
        guard let share = try share(db, listID: listID) else {
            return owner == userName ? nil : .sharedBy(owner: owner, isReadOnly: false)
        }
        if share.ownerName == userName {
            let people = share.participants.filter { $0.status != .removed }
            guard !people.isEmpty else { return nil }
            return .sharedWith(people.map {
                SharedPerson(name: $0.userName, isInvited: $0.status == .pending, isReadOnly: $0.permission == .readOnly)
            })
        }
        return .sharedBy(owner: share.ownerName, isReadOnly: share.participant(userName)?.permission == .readOnly)
    }

    /// Who owns a list and who it is shared with (by name, removed ones
    /// left out), as the Sharing screen shows it.
    public func people(_ db: Database, listID: String) throws -> (owner: String?, participants: [ListParticipant]) {
        let share = try share(db, listID: listID)
        let owner = try share?.ownerName
            ?? (db.hasTable("sync_metadata") ? self.owner(db, listID: listID) : userName)
        let participants = (share?.participants ?? []).compactMap(ListParticipant.init(_:))
        return (owner, participants.sorted { $0.userName < $1.userName })
    }

    /// Shares of lists other users own that this user has not answered.
    public func invitations(_ db: Database) throws -> [Invitation] {
        try SyncEngine.localShares(db).compactMap { share -> Invitation? in
            guard share.ownerName != userName, share.rootTable == RemindersList.databaseTableName,
                  let mine = share.participant(userName), mine.status == .pending else { return nil }
            // The list's rows arrive once accepted; until then, the
            // title the server showed at the last refresh.
            let title = try Queries.listTitle(db, id: share.rootKey) ?? share.rootPreview["title"]
            return Invitation(id: share.id, ownerName: share.ownerName, listID: share.rootKey, listTitle: title,
                              permission: SharingPermission(mine.permission))
        }
    }

    /// Whether another user owns the list and has not let this user change
    /// it.
    public func isReadOnly(_ db: Database, listID: String) throws -> Bool {
        guard try owner(db, listID: listID) != userName, let share = try share(db, listID: listID) else { return false }
        return share.participant(userName)?.permission != .readWrite
    }

    /// The store's delete guard: refuses the delete of a list another user
    /// owns (only the owner deletes a list; a participant leaves it).
    public func deleteGuard(_ db: Database, listID: String) throws {
        let owner = try owner(db, listID: listID)
        guard owner != userName else { return }
        let title = try Queries.listTitle(db, id: listID) ?? listID
        throw CoreError.readOnly("list '\(title)' is \(owner)'s, shared with you: only \(owner) can delete it; leave it instead")
    }

    /// The store's write guard: refuses, at once and with a clear message,
    /// any change to a list shared with this user read-only.
    public func writeGuard(_ db: Database, listIDs: Set<String>) throws {
        for listID in listIDs where try isReadOnly(db, listID: listID) {
            let title = try Queries.listTitle(db, id: listID) ?? listID
            let owner = try owner(db, listID: listID)
            throw CoreError.readOnly("list '\(title)' is shared with you read-only by \(owner)")
        }
    }
}
