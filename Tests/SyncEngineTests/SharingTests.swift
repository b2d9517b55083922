import CloudServer
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import Testing
import TestSupport
@testable import SyncEngine

/// Alice shares a list with Bob, against the real server: two users, and
/// two devices of Alice.
@Suite struct SharingTests {
    let directory = TemporaryDirectory()

    struct People {
        let server: DirectoryServer
        let alice: Device
        let alice2: Device
        let bob: Device
        let list: RemindersList
        let reminder: Reminder
    }

    func people() throws -> People {
        let server = try makeServer(directory)
        let alice = try Device("laptop", user: "alice", server: server, clock: TestClock(1_800_000_000_000))
        let alice2 = try Device("phone", user: "alice", server: server, clock: TestClock(1_800_000_000_100))
        let bob = try Device("desktop", user: "bob", server: server, clock: TestClock(1_800_000_000_200))
        let list = try alice.store.createList(title: "Groceries")
        let reminder = try alice.store.createReminder(ReminderDraft(listID: list.id, title: "Milk", tags: ["food"]))
        try alice.store.setCover(listID: list.id, png: SampleCovers.png(named: "forest"))
        try alice.sync(); try alice2.sync()
        return People(server: server, alice: alice, alice2: alice2, bob: bob, list: list, reminder: reminder)
    }

    func share(_ p: People, _ permission: SharePermission) throws -> LocalShare {
        try p.alice.engine.share(table: "remindersLists", key: p.list.id, with: [("bob", permission)])
    }

    @Test func pendingInvitationIsInvisibleUntilAccepted() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.sync()
        #expect(try p.bob.export().lists.isEmpty)
        try p.bob.engine.refreshShares()
        #expect(try p.bob.engine.localShares().first?.participant("bob")?.status == .pending)
        // Before accepting, Bob's device knows what he is invited to.
        #expect(try p.bob.engine.localShares().first?.rootPreview["title"] == "Groceries")
        try p.alice.store.updateList(id: p.list.id, title: "Food")
        try p.alice.sync()
        try p.bob.engine.refreshShares()
        #expect(try p.bob.engine.localShares().first?.rootPreview["title"] == "Food")
        // Alice's own copy of the share needs no preview.
        #expect(try p.alice.engine.localShares().first?.rootPreview == [:])
        try p.alice.store.updateList(id: p.list.id, title: "Groceries")
        try p.alice.sync()
        try p.bob.engine.acceptShare(id: share.id)
        // Accepted, the list is a local row: no preview is read any more.
        #expect(try p.bob.engine.localShares().first?.rootPreview == [:])
        let lists = try p.bob.export().lists
        #expect(lists.map(\.title) == ["Groceries"])
        #expect(lists.first?.owner == "alice")
        #expect(lists.first?.coverImageSHA256 != nil)
        #expect(try p.bob.reminder(p.reminder.id)?.title == "Milk")
        // Tags stay Alice's own: Bob sees the reminder, not her tag.
        #expect(try p.bob.export().reminders.first?.tags == [])
        #expect(try p.bob.pending() == 0)
    }

    /// Accepted on Bob's desktop, the list is not yet on his phone: the
    /// phone names it from the server until its rows arrive.
    @Test func aShareAcceptedElsewhereIsNamedUntilItsRowsArrive() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        let phone = try Device("phone", user: "bob", server: p.server, clock: TestClock(1_800_000_000_300))
        try phone.engine.refreshShares()
        #expect(try phone.engine.localShares().first?.participant("bob")?.status == .accepted)
        #expect(try phone.engine.localShares().first?.rootPreview["title"] == "Groceries")
        try phone.sync()
        #expect(try phone.list(p.list.id)?.title == "Groceries")
        #expect(try phone.engine.localShares().first?.rootPreview == [:])
    }

    /// A server too busy to show the roots now: the invitation keeps the
    /// name it had, rather than going back to "a list".
    @Test func aPreviewOutlivesARefreshThatCouldNotReadIt() throws {
        let p = try people()
        _ = try share(p, .readOnly)
        try p.bob.engine.refreshShares()
        #expect(try p.bob.engine.localShares().first?.rootPreview["title"] == "Groceries")
        p.bob.engine.connect(
            privateDatabase: p.server.database(user: "bob", scope: .private, device: "desktop"),
            sharedDatabase: InterceptingDatabase.recordsUnavailable(p.server.database(user: "bob", scope: .shared, device: "desktop")))
        try p.bob.engine.refreshShares()
        #expect(try p.bob.engine.localShares().first?.participant("bob")?.status == .pending)
        #expect(try p.bob.engine.localShares().first?.rootPreview["title"] == "Groceries")
    }

    @Test func editsGoBothWaysAndReachAlicesOtherDevice() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Oat milk"))
        let bread = try p.bob.store.createReminder(ReminderDraft(listID: p.list.id, title: "Bread", tags: ["bob-tag"]))
        try p.bob.sync()
        try p.alice.sync(); try p.alice2.sync()
        #expect(try p.alice.reminder(p.reminder.id)?.title == "Oat milk")
        #expect(try p.alice2.reminder(bread.id)?.title == "Bread")
        // Bob's tag is his own.
        #expect(try p.alice.export().reminders.first { $0.id == bread.id }?.tags == [])
        #expect(try p.bob.export().reminders.first { $0.id == bread.id }?.tags == ["bob-tag"])
        try p.alice2.store.updateReminder(id: bread.id, ReminderChanges(notes: "Sourdough"))
        try p.alice2.sync(); try p.bob.sync(); try p.alice.sync()
        #expect(try p.bob.reminder(bread.id)?.notes == "Sourdough")
        // Everything but tags matches between the two people.
        func untagged(_ device: Device) throws -> [String] {
            try device.export().reminders.map { "\($0.id) \($0.title) \($0.notes)" }
        }
        #expect(try untagged(p.alice) == untagged(p.bob))
        #expect(try p.alice.pending() == 0 && p.bob.pending() == 0)
    }

    @Test func readOnlyIsRefusedLocallyAndByTheServer() throws {
        let p = try people()
        let share = try share(p, .readOnly)
        try p.bob.engine.acceptShare(id: share.id)
        // Locally, at once.
        #expect(throws: CoreError.readOnly("list 'Groceries' is shared with you read-only by alice")) {
            try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Hacked"))
        }
        #expect(throws: CoreError.self) {
            try p.bob.store.createReminder(ReminderDraft(listID: p.list.id, title: "Sneaky"))
        }
        // Bypassing the local check (as an old device that did not know yet):
        // the server refuses, the value is put back and the refusal logged.
        try p.bob.db.write { try $0.execute(sql: "UPDATE reminders SET title = 'Hacked' WHERE id = ?", arguments: [p.reminder.id]) }
        try p.bob.sync()
        #expect(try p.bob.reminder(p.reminder.id)?.title == "Milk")
        #expect(try p.bob.pending() == 0)
        let refused = try p.bob.engine.conflicts().filter { $0.cause == .readOnly }
        #expect(refused.count == 1)
        #expect(refused.first?.byUser == "alice")
        #expect(refused.first?.subject == "Groceries")
        // Bob's text is kept, to be copied out; the words say what happened.
        #expect(ConflictEntry.keptValues(refused.first?.local)?.map(\.value) == ["Hacked"])
        #expect(refused.first.map { ConflictsViewModel.reason($0) }
                == "refused: “Groceries” is now read-only (alice changed your permission)")
        try p.alice.sync()
        #expect(try p.alice.reminder(p.reminder.id)?.title == "Milk")
    }

    @Test func upgradeToReadWriteTakesEffectAtNextSync() throws {
        let p = try people()
        let share = try share(p, .readOnly)
        try p.bob.engine.acceptShare(id: share.id)
        #expect(throws: CoreError.self) {
            try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Soy milk"))
        }
        _ = try self.share(p, .readWrite)
        try p.bob.sync()
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Soy milk"))
        try p.bob.sync(); try p.alice.sync()
        #expect(try p.alice.reminder(p.reminder.id)?.title == "Soy milk")
    }

    @Test func downgradeMeanwhileRevertsThePendingEdit() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Bob's edit"))
        _ = try self.share(p, .readOnly)
        try p.bob.sync()
        #expect(try p.bob.reminder(p.reminder.id)?.title == "Milk")
        #expect(try p.bob.pending() == 0)
        #expect(try p.bob.engine.conflicts().map(\.cause) == [.readOnly])
    }

    @Test func aNewReminderRefusedByADowngradeSaysReadOnlyAndKeepsItsText() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        let pears = try p.bob.store.createReminder(ReminderDraft(listID: p.list.id, title: "Pears", notes: "ripe ones"))
        _ = try self.share(p, .readOnly)
        try p.bob.sync()
        #expect(try p.bob.reminder(pears.id) == nil)
        let entry = try #require(try p.bob.engine.conflicts().first)
        #expect(entry.cause == .readOnly)
        #expect(ConflictEntry.keptValues(entry.local)?.map { "\($0.column)=\($0.value)" } == ["title=Pears", "notes=ripe ones", "status=incomplete", "position=1"])
        #expect(ConflictsViewModel.reason(entry) == "refused: “Groceries” is now read-only (alice changed your permission)")
    }

    /// Bob deletes a reminder of Alice's list while it is read-write; Alice
    /// makes it read-only before his send. The reminder comes back, and the
    /// delete the server refused is logged, naming the list, as a refused
    /// edit is (it used to come back without a word).
    @Test func aDeleteRefusedByADowngradeComesBackAndIsLogged() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        try p.bob.sync()
        try p.bob.store.deleteReminder(id: p.reminder.id)
        _ = try self.share(p, .readOnly)
        let report = try p.bob.sync()
        #expect(report.dropped == 1)
        #expect(try p.bob.reminder(p.reminder.id)?.title == p.reminder.title)
        let entry = try #require(try p.bob.engine.conflicts().first)
        #expect(entry.cause == .readOnly)
        #expect(entry.local == "deleted" && entry.recordID == p.reminder.id)
        #expect(ConflictsViewModel.reason(entry) == "refused: “Groceries” is now read-only (alice changed your permission)")
        #expect(try p.bob.pending() == 0)
        try p.alice.sync()
        // (Tags are each person's own: Alice's "food" is not Bob's.)
        #expect(try p.alice.export().reminders.map(\.title) == p.bob.export().reminders.map(\.title))
    }

    /// Bob deletes a reminder with a subtask while the list is read-write;
    /// Alice makes it read-only before his send. The deletes go children
    /// first, and both come back: the subtask after its parent, or the
    /// write back fails its foreign key and every later send with it.
    @Test func aParentAndSubtaskWhoseDeletesTheShareRefusedComeBackTogether() throws {
        let p = try people()
        let subtask = try p.alice.store.createReminder(ReminderDraft(listID: p.list.id, title: "Oat", parentID: p.reminder.id))
        try p.alice.sync()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        try p.bob.sync()
        try p.bob.store.deleteReminder(id: p.reminder.id)
        _ = try self.share(p, .readOnly)
        try p.bob.sync()
        #expect(try p.bob.reminder(p.reminder.id)?.title == "Milk")
        #expect(try p.bob.reminder(subtask.id)?.parentID == p.reminder.id)
        #expect(try p.bob.pending() == 0)
        try p.bob.sync()
        #expect(try p.bob.pending() == 0)
    }

    /// Bob's later edit beats Alice's: Bob's device logs it, and now so do
    /// Alice's (both of them, as one entry), from her side, naming Bob's
    /// device; putting her value back is an edit that reaches Bob.
    @Test func theLosingSideOfAConflictWithAnotherPersonLogsItToo() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        try p.bob.sync()
        try p.alice.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Oat milk", notes: "2 cartons"))
        try p.alice.sync()
        try p.alice2.sync()
        p.bob.clock.advance(60_000)
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Soy milk"))
        try p.bob.sync()
        let bobs = try p.bob.engine.conflicts().filter { $0.recordID == p.reminder.id }
        #expect(bobs.map(\.field) == ["title"] && bobs.first?.winner == "local" && bobs.first?.remoteDevice == "alice@laptop")
        #expect(bobs.first?.ancestor == p.reminder.title)

        try p.alice.sync()
        try p.alice2.sync()
        try p.alice.sync()
        #expect(try p.alice.reminder(p.reminder.id)?.title == "Soy milk")
        #expect(try p.alice.reminder(p.reminder.id)?.notes == "2 cartons")
        for device in [p.alice, p.alice2] {
            let entries = try device.engine.conflicts().filter { $0.recordID == p.reminder.id }
            #expect(entries.count == 1, "\(device.name): \(entries)")
            let entry = try #require(entries.first)
            #expect(entry.field == "title" && entry.local == "Oat milk" && entry.remote == "Soy milk" && entry.winner == "remote")
            #expect(entry.localDevice == "laptop" && entry.remoteDevice == "bob@desktop")
            // The value both had before, as Bob's side names it.
            #expect(entry.ancestor == p.reminder.title, "\(device.name): \(entry)")
            #expect(ConflictsViewModel.reason(entry) == "bob@desktop's edit is the later one")
        }
        // Once: the next saves carry no note, and nothing more is logged.
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(notes: "3 cartons"))
        try p.bob.sync()
        try p.alice.sync()
        #expect(try p.alice.engine.conflicts().filter { $0.recordID == p.reminder.id }.count == 1)
        #expect(try p.bob.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_lost_edits") } == 0)

        let id = try #require(try p.alice.engine.conflicts().first { $0.recordID == p.reminder.id }?.id)
        #expect(try p.alice.engine.restoreLosingValue(conflictID: id))
        try p.alice.sync()
        try p.bob.sync()
        #expect(try p.bob.reminder(p.reminder.id)?.title == "Oat milk")
        #expect(try p.bob.reminder(p.reminder.id)?.notes == "3 cartons")
    }

    /// Tags are each person's own: a shared reminder one person deletes
    /// takes the other's tags with it, tags they put on it long before, and
    /// that is no conflict of theirs (only a tag this user put on a reminder
    /// another of their own devices deleted is, `ConflictTests`).
    @Test func anotherPersonsDeleteOfATaggedReminderLogsNoConflict() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        try p.bob.sync()
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(tags: ["bobs"]))
        try p.bob.sync()
        let second = try p.alice.store.createReminder(ReminderDraft(listID: p.list.id, title: "Bread", tags: ["bakery"]))
        try p.alice.sync(); try p.bob.sync()
        try p.alice.store.deleteReminder(id: p.reminder.id)
        try p.bob.store.deleteReminder(id: second.id)
        try p.alice.sync(); try p.bob.sync(); try p.alice.sync()
        #expect(try p.bob.reminder(p.reminder.id) == nil && p.alice.reminder(second.id) == nil)
        for device in [p.alice, p.bob] {
            #expect(try device.engine.conflicts().filter { $0.winner == "delete" }.isEmpty, "\(device.name)")
        }
    }

    /// A record names only its last saver: when the edit that lost is not
    /// the newest of the record's, it may not be theirs, and nobody is
    /// told rather than the wrong person.
    @Test func anEditThatLostIsNotPinnedOnWhoeverSavedLast() throws {
        let p = try people()
        let carol = try Device("tablet", user: "carol", server: p.server, clock: TestClock(1_800_000_000_300))
        let share = try p.alice.engine.share(table: "remindersLists", key: p.list.id, with: [("bob", .readWrite), ("carol", .readWrite)])
        try p.bob.engine.acceptShare(id: share.id)
        try carol.engine.acceptShare(id: share.id)
        try p.bob.sync()
        try carol.sync()
        try p.alice.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Oat milk"))
        try p.alice.sync()
        carol.clock.advance(30_000)
        try carol.sync()
        try carol.store.setFlag(id: p.reminder.id, true)
        try carol.sync()
        p.bob.clock.advance(60_000)
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Soy milk"))
        try p.bob.sync()
        #expect(try p.bob.engine.conflicts().contains { $0.recordID == p.reminder.id && $0.field == "title" })
        try carol.sync()
        try p.alice.sync()
        #expect(try carol.engine.conflicts().filter { $0.recordID == p.reminder.id }.isEmpty)
        #expect(try carol.reminder(p.reminder.id)?.title == "Soy milk")
    }

    @Test func removedParticipantLosesTheListAndPendingEditsAreDroppedWithANote() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Pending edit"))
        try p.alice.engine.unshare(table: "remindersLists", key: p.list.id, user: "bob")
        let report = try p.bob.sync()
        // The list that went is named, for the word that it did.
        #expect(report.goneShares == [GoneShare(owner: "alice", name: "Groceries")])
        #expect(try p.bob.export().lists.isEmpty)
        #expect(try p.bob.export().reminders.isEmpty)
        #expect(try p.bob.pending() == 0)
        // Logged once, with Bob's text and what happened, in words.
        let dropped = try p.bob.engine.conflicts()
        #expect(dropped.count == 1)
        #expect(dropped.first?.cause == .noLongerShared)
        #expect(ConflictEntry.keptValues(dropped.first?.local)?.map(\.value) == ["Pending edit"])
        #expect(dropped.first.map { ConflictsViewModel.reason($0) }
                == "refused: “Groceries” is no longer shared with you (alice deleted it, removed you, ended the share or moved it out)")
        try p.alice.sync()
        #expect(try p.alice.reminder(p.reminder.id)?.title == "Milk")
        #expect(try p.alice.engine.localShares().first?.participant("bob")?.status != .accepted)
    }

    /// Two people's devices may share a name: the log names the other
    /// person's as "alice@laptop", and says whose edit won in those words.
    @Test func aConflictWithAnotherPersonNamesTheirDeviceWithTheirName() throws {
        let p = try people()
        try p.bob.engine.acceptShare(id: try share(p, .readWrite).id)
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Milk (bob)"))
        p.alice.clock.advance(5_000)
        try p.alice.store.updateReminder(id: p.reminder.id, ReminderChanges(title: "Milk (alice)"))
        try p.alice.sync()
        try p.bob.sync()
        let entry = try #require(try p.bob.engine.conflicts().first)
        #expect(entry.remoteDevice == "alice@laptop" && entry.localDevice == "desktop", "\(entry)")
        #expect(ConflictsViewModel.reason(entry) == "alice@laptop's edit is the later one")
        #expect(try p.bob.reminder(p.reminder.id)?.title == "Milk (alice)")
    }

    /// Bob edits Milk while Alice deletes Groceries; another list of
    /// hers is shared with him read-only. The edit is refused because the
    /// list is gone, not for a permission he has on the other list.
    @Test func anEditInADeletedListIsNotCalledReadOnlyForAnotherListOfTheOwners() throws {
        let p = try people()
        try p.bob.engine.acceptShare(id: try share(p, .readWrite).id)
        let party = try p.alice.store.createList(title: "Party")
        try p.alice.sync()
        let partyShare = try p.alice.engine.share(table: "remindersLists", key: party.id, with: [("bob", .readOnly)])
        try p.bob.engine.acceptShare(id: partyShare.id)
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(notes: "oat"))
        _ = try p.alice.store.deleteList(id: p.list.id)
        try p.alice.sync()
        try p.bob.sync()
        #expect(try p.bob.reminder(p.reminder.id) == nil)
        let entries = try p.bob.engine.conflicts()
        #expect(entries.count == 1, "\(entries)")
        #expect(entries.first?.cause != .readOnly, "\(entries)")
        // The list and the reminder are gone: the entry names it by the
        // title kept beside the edit.
        #expect(ConflictEntry.keptValues(entries.first?.local)?.map { "\($0.column)=\($0.value)" } == ["title=Milk", "notes=oat"])
        #expect(entries.first.map { ConflictsViewModel.reason($0) }?.contains("read-only") == false)
        #expect(try p.bob.list(party.id)?.title == "Party")
        // "Keep the other value" says why not: a refusal, not a delete.
        let item = try p.bob.db.read { db in try ConflictsViewModel.item(#require(entries.first), db, device: "desktop") }
        #expect(item.whyNoOtherValue == "The edit that lost was refused by the share, not merged: there is no value to put back")
    }

    @Test func leavingRemovesBobsCopyAndAliceSeesHimGone() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        try p.bob.engine.leaveShare(id: share.id)
        #expect(try p.bob.export().lists.isEmpty)
        try p.alice.sync()
        let bob = try p.alice.engine.localShares().first?.participant("bob")
        #expect(bob == nil || bob?.status == .removed)
        #expect(try p.alice.export().lists.count == 1)
    }

    @Test func ownerDeletingTheListRemovesBobsCopy() throws {
        let p = try people()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        try p.bob.store.updateReminder(id: p.reminder.id, ReminderChanges(notes: "meanwhile"))
        try p.alice.store.deleteList(id: p.list.id)
        try p.alice.sync()
        try p.bob.sync()
        #expect(try p.bob.export().lists.isEmpty)
        #expect(try p.bob.export().reminders.isEmpty)
        #expect(try p.bob.pending() == 0)
        try p.alice2.sync()
        #expect(try p.alice2.export().lists.isEmpty)
    }

    @Test func shareAcceptedWhileTheListHas500Reminders() throws {
        let p = try people()
        try p.alice.db.write { db in
            for index in 0..<500 {
                try Reminder(remindersListID: p.list.id, title: "Item \(index)", position: index + 1).insert(db)
            }
        }
        try p.alice.sync()
        let share = try share(p, .readWrite)
        try p.bob.engine.acceptShare(id: share.id)
        #expect(try p.bob.export().reminders.count == 501)
        #expect(try p.bob.pending() == 0)
        let titles = Set(try p.bob.export().reminders.map(\.title))
        #expect(titles.contains("Item 0") && titles.contains("Item 499"))
    }

    @Test func strangersCannotTouchTheList() throws {
        let p = try people()
        _ = try share(p, .readWrite)
        let carol = p.server.database(user: "carol", scope: .shared, device: "x")
        let zone = ZoneID(name: "reminders", ownerName: "alice")
        let id = RecordID(recordName: "reminders/\(p.reminder.id)", zoneID: zone)
        if case .success? = try carol.fetchRecords([id])[id] {
            Issue.record("a user never invited could read a shared record")
        }
        let forged = ServerRecord(id: id, recordType: "reminders", fields: ["title": .string("Carol was here")])
        let result = try carol.modifyRecords(saving: [forged], deleting: [])
        guard case .failure(.permissionFailure)? = result.saveResults[id] else {
            Issue.record("the server let a stranger save: \(String(describing: result.saveResults[id]))")
            return
        }
    }
}
