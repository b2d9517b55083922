import Foundation
import Testing
@testable import CloudServer

/// Alice owns a zone with a shared list (two reminders) and a private list
/// (one reminder).
struct ShareScene {
    let world: ServerWorld
    let alice: StoreDatabase
    let zone: ZoneID
    let list: ServerRecord
    let privateList: ServerRecord
    var reminders: [String: ServerRecord] = [:]

    init(_ kind: StoreKind) throws {
        world = try ServerWorld(kind)
        alice = world.database("alice", device: "alice-laptop")
        zone = try alice.createZone("Reminders")
        list = try alice.save(record("groceries", in: zone, type: "List", fields: ["title": .string("Groceries")]))
        privateList = try alice.save(record("secret", in: zone, type: "List", fields: ["title": .string("Secret")]))
        for saved in try alice.save([
            record("milk", in: zone, fields: ["title": .string("Milk")], parent: list.id),
            record("eggs", in: zone, fields: ["title": .string("Eggs")], parent: list.id),
            record("gift", in: zone, fields: ["title": .string("Gift")], parent: privateList.id),
        ]) {
            reminders[saved.id.recordName] = saved
        }
    }

    func shared(_ user: String) -> StoreDatabase {
        world.database(user, .shared, device: "\(user)-phone")
    }

    func id(_ name: String) -> RecordID {
        RecordID(recordName: name, zoneID: zone)
    }

    func share(with participants: [(userName: String, permission: SharePermission)]) throws -> Share {
        try alice.saveShare(rootRecordID: list.id, participants: participants)
    }

    /// Shares the list with `user` and has them accept it.
    func shareAccepted(by user: String, _ permission: SharePermission = .readWrite) throws -> Share {
        let share = try share(with: [(user, permission)])
        return try shared(user).acceptShare(shareID: share.id)
    }

    func current(_ name: String) throws -> ServerRecord {
        try #require(try alice.fetchRecords([id(name)])[id(name)]?.get())
    }
}

struct SharingTests {
    @Test(arguments: StoreKind.available) func aPendingShareIsInvisibleUntilAccepted(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        let share = try scene.share(with: [("bob", .readWrite)])
        let bob = scene.shared("bob")
        #expect(share.participants == [ShareParticipant(userName: "bob", permission: .readWrite, status: .pending)])
        #expect(share.ownerName == "alice")
        #expect(share.rootRecordID == scene.list.id)

        #expect(try bob.fetchDatabaseChanges(since: nil).changedZoneIDs.isEmpty)
        #expect(throws: CloudError.zoneNotFound(scene.zone)) {
            try bob.fetchZoneChanges(zoneID: scene.zone, since: nil, limit: 10)
        }
        #expect(throws: CloudError.unknownItem(scene.id("milk"))) {
            try bob.fetchRecords([scene.id("milk")])[scene.id("milk")]?.get()
        }
        // The invitation shows what it shares.
        #expect(try bob.fetchRecords([scene.list.id])[scene.list.id]?.get() == scene.list)
        #expect(try bob.fetchShares() == [share])

        let accepted = try bob.acceptShare(shareID: share.id)
        #expect(accepted.participants.map(\.status) == [.accepted])
        #expect(try bob.fetchDatabaseChanges(since: nil).changedZoneIDs == [scene.zone])
        let changes = try bob.fetchAllChanges(in: scene.zone, since: nil)
        #expect(changes.changed.map(\.id.recordName).sorted() == ["eggs", "groceries", "milk"])
        #expect(changes.deleted.isEmpty)
        #expect(Set(changes.changed) == [scene.list, scene.reminders["milk"]!, scene.reminders["eggs"]!])
    }

    @Test(arguments: StoreKind.available) func acceptingShowsAllRecordsEvenFromAnOlderToken(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        // Bob already follows another of Alice's lists.
        let other = try scene.alice.save(record("chores", in: scene.zone, type: "List"))
        let bob = scene.shared("bob")
        let first = try scene.alice.saveShare(rootRecordID: other.id, participants: [("bob", .readOnly)])
        _ = try bob.acceptShare(shareID: first.id)
        let token = try bob.fetchAllChanges(in: scene.zone, since: nil).token
        let databaseToken = try bob.fetchDatabaseChanges(since: nil).token

        // The groceries records are older than Bob's token.
        _ = try scene.shareAccepted(by: "bob")
        #expect(try bob.names(in: scene.zone, since: token).changed == ["eggs", "groceries", "milk"])
        #expect(try bob.fetchDatabaseChanges(since: databaseToken).changedZoneIDs == [scene.zone])
    }

    @Test(arguments: StoreKind.available) func aRemovedParticipantGetsDeletionsAndLosesTheZone(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        let share = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        let token = try bob.fetchAllChanges(in: scene.zone, since: nil).token
        let databaseToken = try bob.fetchDatabaseChanges(since: nil).token

        let updated = try scene.alice.removeParticipant(shareID: share.id, userName: "bob")
        #expect(updated.participants.map(\.status) == [.removed])

        let changes = try bob.fetchAllChanges(in: scene.zone, since: token)
        #expect(changes.changed.isEmpty)
        #expect(changes.deleted.map(\.id.recordName).sorted() == ["eggs", "groceries", "milk"])
        #expect(changes.deleted.first { $0.id.recordName == "groceries" }?.recordType == "List")
        let databaseChanges = try bob.fetchDatabaseChanges(since: databaseToken)
        #expect(databaseChanges.deletedZoneIDs == [scene.zone])
        #expect(databaseChanges.changedZoneIDs.isEmpty)
        #expect(try bob.fetchShares().isEmpty)
        #expect(throws: CloudError.unknownItem(scene.id("milk"))) {
            try bob.fetchRecords([scene.id("milk")])[scene.id("milk")]?.get()
        }
        var edit = try scene.current("milk")
        edit.fields["title"] = .string("Hacked")
        #expect(try bob.saveError(edit)?.isPermissionFailure == true)
        #expect(throws: CloudError.self) { try bob.acceptShare(shareID: share.id) }
    }

    @Test(arguments: StoreKind.available) func leavingAShareWorksLikeBeingRemoved(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        let share = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        let token = try bob.fetchAllChanges(in: scene.zone, since: nil).token
        try bob.leaveShare(shareID: share.id)
        #expect(try bob.names(in: scene.zone, since: token).deleted == ["eggs", "groceries", "milk"])
        #expect(try scene.alice.fetchShares().first?.participants == [
            ShareParticipant(userName: "bob", permission: .readWrite, status: .removed),
        ])
        #expect(try bob.fetchShares().isEmpty)
    }

    @Test(arguments: StoreKind.available) func declininAPendingShareRemovesTheInvitation(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        let share = try scene.share(with: [("bob", .readOnly)])
        let bob = scene.shared("bob")
        try bob.leaveShare(shareID: share.id)
        #expect(try bob.fetchShares().isEmpty)
        #expect(try bob.fetchDatabaseChanges(since: nil).changedZoneIDs.isEmpty)
    }

    @Test(arguments: StoreKind.available) func deletingAShareEndsEveryonesAccessAtOnce(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        let share = try scene.shareAccepted(by: "bob")
        _ = try scene.shared("carol").acceptShare(shareID: try scene.share(with: [("carol", .readOnly)]).id)
        let bobToken = try scene.shared("bob").fetchAllChanges(in: scene.zone, since: nil).token
        let carolToken = try scene.shared("carol").fetchAllChanges(in: scene.zone, since: nil).token
        let carolDatabaseToken = try scene.shared("carol").fetchDatabaseChanges(since: nil).token
        try scene.alice.deleteShare(shareID: share.id)
        #expect(try scene.shared("bob").names(in: scene.zone, since: bobToken).deleted == ["eggs", "groceries", "milk"])
        #expect(try scene.shared("carol").names(in: scene.zone, since: carolToken).deleted == ["eggs", "groceries", "milk"])
        #expect(try scene.shared("carol").fetchDatabaseChanges(since: carolDatabaseToken).deletedZoneIDs == [scene.zone])
        #expect(try scene.alice.fetchShares().isEmpty)
        #expect(throws: CloudError.shareNotFound("no share with id \(share.id)")) {
            try scene.shared("bob").acceptShare(shareID: share.id)
        }
    }

    @Test(arguments: StoreKind.available) func ownerChangesReachParticipants(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        let token = try bob.fetchAllChanges(in: scene.zone, since: nil).token
        var milk = try scene.current("milk")
        milk.fields["title"] = .string("Oat milk")
        milk = try scene.alice.save(milk)
        try scene.alice.delete([scene.id("eggs")])
        var gift = try scene.current("gift")
        gift.fields["title"] = .string("Bigger gift")
        try scene.alice.save(gift) // not shared: Bob must not hear of it

        let changes = try bob.fetchAllChanges(in: scene.zone, since: token)
        #expect(changes.changed == [milk])
        #expect(changes.deleted == [RecordDeletion(id: scene.id("eggs"), recordType: "Reminder",
                                                   deletedByUser: "alice", deletedByDevice: "alice-laptop")])
    }

    @Test(arguments: StoreKind.available) func recordsMovingInAndOutOfAShareAppearAndDisappear(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        let token = try bob.fetchAllChanges(in: scene.zone, since: nil).token
        let databaseToken = try bob.fetchDatabaseChanges(since: nil).token

        var gift = try scene.current("gift")
        gift.parent = scene.list.id // moved into the shared list
        gift = try scene.alice.save(gift)
        var milk = try scene.current("milk")
        milk.parent = scene.privateList.id // moved out of it
        try scene.alice.save(milk)

        let changes = try bob.fetchAllChanges(in: scene.zone, since: token)
        #expect(changes.changed == [gift])
        #expect(changes.deleted.map(\.id.recordName) == ["milk"])
        #expect(try bob.fetchDatabaseChanges(since: databaseToken).changedZoneIDs == [scene.zone])
        #expect(try bob.names(in: scene.zone, since: nil).changed == ["eggs", "gift", "groceries"])
    }

    @Test(arguments: StoreKind.available) func movingASubtreeCarriesItsDescendants(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        let subtask = try scene.alice.save(record("wrap", in: scene.zone, parent: scene.id("gift")))
        let token = try bob.fetchAllChanges(in: scene.zone, since: nil).token
        var gift = try scene.current("gift")
        gift.parent = scene.list.id
        try scene.alice.save(gift)
        #expect(try bob.names(in: scene.zone, since: token).changed == ["gift", "wrap"])
        gift = try scene.current("gift")
        gift.parent = scene.privateList.id
        let second = try bob.fetchAllChanges(in: scene.zone, since: nil).token
        try scene.alice.save(gift)
        #expect(try bob.names(in: scene.zone, since: second).deleted == ["gift", subtask.id.recordName])
    }

    @Test(arguments: StoreKind.available) func deletingTheSharedRootDeletesTheShareAndTheZoneForTheParticipant(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        let token = try bob.fetchAllChanges(in: scene.zone, since: nil).token
        let databaseToken = try bob.fetchDatabaseChanges(since: nil).token
        // Children first, as the sync engine sends deletes.
        try scene.alice.delete([scene.id("milk"), scene.id("eggs"), scene.list.id])
        #expect(try bob.names(in: scene.zone, since: token).deleted == ["eggs", "groceries", "milk"])
        #expect(try bob.fetchDatabaseChanges(since: databaseToken).deletedZoneIDs == [scene.zone])
        #expect(try scene.alice.fetchShares().isEmpty)
        #expect(try bob.fetchShares().isEmpty)
    }

    @Test(arguments: StoreKind.available) func deletingTheOwnersZoneRemovesItFromParticipants(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        let databaseToken = try bob.fetchDatabaseChanges(since: nil).token
        _ = try scene.alice.modifyZones(saving: [], deleting: [scene.zone])
        #expect(try bob.fetchDatabaseChanges(since: databaseToken).deletedZoneIDs == [scene.zone])
        #expect(try scene.alice.fetchShares().isEmpty)
    }

    @Test(arguments: StoreKind.available) func aReadWriteParticipantEditsAndAddsRecords(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        let aliceToken = try scene.alice.fetchAllChanges(in: scene.zone, since: nil).token

        var milk = try #require(try bob.fetchRecords([scene.id("milk")])[scene.id("milk")]?.get())
        milk.fields["title"] = .string("Oat milk")
        let saved = try bob.save(milk)
        #expect(saved.modifiedByUser == "bob")
        #expect(saved.modifiedByDevice == "bob-phone")
        let butter = try bob.save(record("butter", in: scene.zone, fields: ["title": .string("Butter")], parent: scene.list.id))
        try bob.delete([scene.id("eggs")])

        let seenByAlice = try scene.alice.fetchAllChanges(in: scene.zone, since: aliceToken)
        #expect(Set(seenByAlice.changed) == [saved, butter])
        #expect(seenByAlice.deleted.map(\.id.recordName) == ["eggs"])
        // The new child is shared like its parent.
        #expect(try bob.names(in: scene.zone, since: nil).changed == ["butter", "groceries", "milk"])
    }

    @Test(arguments: StoreKind.available) func aReadWriteParticipantStaysInsideTheShare(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        // No parent, a parent outside the share, or moving a record out.
        #expect(try bob.saveError(record("loose", in: scene.zone))?.isPermissionFailure == true)
        #expect(try bob.saveError(record("peek", in: scene.zone, parent: scene.privateList.id))?.isPermissionFailure == true)
        var milk = try scene.current("milk")
        milk.parent = scene.privateList.id
        #expect(try bob.saveError(milk)?.isPermissionFailure == true)
        // Records outside the share can be neither edited nor deleted.
        var gift = try scene.current("gift")
        gift.fields["title"] = .string("Peeked")
        #expect(try bob.saveError(gift)?.isPermissionFailure == true)
        #expect(try bob.deleteError(scene.id("gift"))?.isPermissionFailure == true)
        // Only the owner deletes the shared root.
        #expect(try bob.deleteError(scene.list.id)?.isPermissionFailure == true)
        // Nothing changed.
        #expect(try scene.current("gift") == scene.reminders["gift"])
        #expect(try scene.current("milk") == scene.reminders["milk"])
    }

    @Test(arguments: StoreKind.available) func aParentAndChildCreatedTogetherByAParticipantAreAccepted(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        let parent = record("section", in: scene.zone, type: "Section", parent: scene.list.id)
        let child = record("item", in: scene.zone, parent: parent.id)
        // Child listed first: the server orders parents first.
        let result = try bob.modifyRecords(saving: [child, parent], deleting: [])
        #expect(result.saveError(child.id) == nil)
        #expect(result.saveError(parent.id) == nil)
    }

    @Test(arguments: StoreKind.available) func aParentInAnotherOwnersZoneGrantsNothing(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "bob")
        let carol = scene.world.database("carol")
        let carolZone = try carol.createZone("Reminders")
        // Carol points one of her records at Alice's shared list...
        let planted = try carol.save(record("planted", in: carolZone, parent: scene.list.id))
        // ...which neither shows it to Bob nor lets Bob write into her zone.
        #expect(try scene.shared("bob").fetchDatabaseChanges(since: nil).changedZoneIDs == [scene.zone])
        var edit = planted
        edit.fields["title"] = .string("Bob was here")
        #expect(try scene.shared("bob").saveError(edit)?.isPermissionFailure == true)
        #expect(try scene.shared("bob").saveError(record("new", in: carolZone, parent: scene.list.id))?.isPermissionFailure == true)
    }

    @Test(arguments: StoreKind.available) func aReadOnlyParticipantIsRefused(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "carol", .readOnly)
        let carol = scene.shared("carol")
        var milk = try #require(try carol.fetchRecords([scene.id("milk")])[scene.id("milk")]?.get())
        milk.fields["title"] = .string("Carol's milk")
        let saveError = try carol.saveError(milk)
        #expect(saveError == .permissionFailure("carol has read-only access to record milk in Reminders@alice"))
        #expect(try carol.saveError(record("new", in: scene.zone, parent: scene.list.id))?.isPermissionFailure == true)
        #expect(try carol.deleteError(scene.id("eggs"))?.isPermissionFailure == true)
        #expect(try scene.current("milk") == scene.reminders["milk"])
    }

    @Test(arguments: StoreKind.available) func nonParticipantsAndPendingParticipantsAreRefused(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.share(with: [("pam", .readWrite)]) // never accepted
        var milk = try scene.current("milk")
        milk.fields["title"] = .string("Intruder")
        for user in ["dave", "pam"] {
            let database = scene.shared(user)
            #expect(try database.saveError(milk) == .permissionFailure("record milk in Reminders@alice is not shared with \(user)"))
            var fresh = milk
            fresh.changeTag = nil // must not learn the record through a conflict
            #expect(try database.saveError(fresh)?.isPermissionFailure == true)
            #expect(try database.deleteError(scene.id("milk"))?.isPermissionFailure == true)
            #expect(try database.saveError(record("new", in: scene.zone, parent: scene.list.id))?.isPermissionFailure == true)
        }
        #expect(try scene.current("milk") == scene.reminders["milk"])
    }

    @Test(arguments: StoreKind.available) func aParticipantGetsConflictsLikeTheOwner(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.shareAccepted(by: "bob")
        let bob = scene.shared("bob")
        let stale = try scene.current("milk")
        var ownerEdit = stale
        ownerEdit.fields["title"] = .string("Owner")
        let current = try scene.alice.save(ownerEdit)
        var bobEdit = stale
        bobEdit.fields["title"] = .string("Bob")
        #expect(try bob.saveError(bobEdit) == .serverRecordChanged(current))
    }

    @Test(arguments: StoreKind.available) func twoParticipantsBothSeeTombstones(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        _ = try scene.alice.saveShare(rootRecordID: scene.list.id, participants: [("bob", .readWrite), ("carol", .readOnly)])
        let shareID = try #require(try scene.alice.fetchShares().first?.id)
        _ = try scene.shared("bob").acceptShare(shareID: shareID)
        _ = try scene.shared("carol").acceptShare(shareID: shareID)
        let bobToken = try scene.shared("bob").fetchAllChanges(in: scene.zone, since: nil).token
        let carolToken = try scene.shared("carol").fetchAllChanges(in: scene.zone, since: nil).token
        try scene.shared("bob").delete([scene.id("eggs")])
        #expect(try scene.shared("bob").names(in: scene.zone, since: bobToken).deleted == ["eggs"])
        #expect(try scene.shared("carol").names(in: scene.zone, since: carolToken).deleted == ["eggs"])
        #expect(try scene.shared("carol").names(in: scene.zone, since: carolToken).deleted == ["eggs"])
    }

    @Test(arguments: StoreKind.available) func fetchSharesListsOwnedAndInvitedShares(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        let share = try scene.share(with: [("bob", .readWrite), ("carol", .readOnly)])
        #expect(share.participants.map(\.userName) == ["bob", "carol"])
        #expect(try scene.alice.fetchShares() == [share])
        #expect(try scene.world.database("alice", .shared).fetchShares().isEmpty)
        #expect(try scene.shared("bob").fetchShares() == [share])
        #expect(try scene.world.database("bob").fetchShares().isEmpty)
        _ = try scene.shared("bob").acceptShare(shareID: share.id)
        #expect(try scene.shared("bob").fetchShares().first?.participants.first?.status == .accepted)
    }

    @Test(arguments: StoreKind.available) func savingAShareAgainChangesPermissionsAndReinvites(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        let share = try scene.shareAccepted(by: "bob")
        let readOnly = try scene.share(with: [("bob", .readOnly)])
        #expect(readOnly.id == share.id)
        #expect(readOnly.participants == [ShareParticipant(userName: "bob", permission: .readOnly, status: .accepted)])
        var milk = try scene.current("milk")
        milk.fields["title"] = .string("Nope")
        #expect(try scene.shared("bob").saveError(milk)?.isPermissionFailure == true)

        _ = try scene.alice.removeParticipant(shareID: share.id, userName: "bob")
        let reinvited = try scene.share(with: [("bob", .readWrite)])
        #expect(reinvited.participants == [ShareParticipant(userName: "bob", permission: .readWrite, status: .pending)])
        _ = try scene.shared("bob").acceptShare(shareID: share.id)
        #expect(try scene.shared("bob").names(in: scene.zone, since: nil).changed == ["eggs", "groceries", "milk"])
    }

    @Test(arguments: StoreKind.available) func sharingRequestsCheckWhoAsks(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        let share = try scene.share(with: [("bob", .readWrite)])
        let missing = scene.id("nope")
        #expect(throws: CloudError.unknownItem(missing)) {
            try scene.alice.saveShare(rootRecordID: missing, participants: [("bob", .readOnly)])
        }
        #expect(cloudError { _ = try scene.world.database("bob").saveShare(rootRecordID: scene.list.id, participants: []) }?.isPermissionFailure == true)
        #expect(cloudError { _ = try scene.share(with: [("alice", .readOnly)]) }?.isPermissionFailure == true)
        #expect(cloudError { _ = try scene.world.database("bob").removeParticipant(shareID: share.id, userName: "bob") }?.isPermissionFailure == true)
        #expect(cloudError { try scene.world.database("bob").deleteShare(shareID: share.id) }?.isPermissionFailure == true)
        #expect(throws: CloudError.shareNotFound("dave was not invited to share \(share.id)")) {
            try scene.shared("dave").acceptShare(shareID: share.id)
        }
        #expect(throws: CloudError.shareNotFound("no share with id missing")) {
            try scene.shared("bob").acceptShare(shareID: "missing")
        }
        #expect(throws: CloudError.shareNotFound("carol is not a participant of share \(share.id)")) {
            try scene.alice.removeParticipant(shareID: share.id, userName: "carol")
        }
    }

    @Test(arguments: StoreKind.available) func aParticipantPagesThroughALargeShareExactlyOnce(_ kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        for batch in 0..<3 {
            try scene.alice.save((0..<100).map { record("item\(batch)-\($0)", in: scene.zone, parent: scene.list.id) })
        }
        _ = try scene.shareAccepted(by: "bob")
        let changes = try scene.shared("bob").fetchAllChanges(in: scene.zone, since: nil, limit: 40)
        let names = changes.changed.map(\.id.recordName)
        #expect(names.count == 303)
        #expect(Set(names).count == 303)
        #expect(changes.pages == 8)
    }
}
