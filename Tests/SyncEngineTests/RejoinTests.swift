import CloudServer
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import Testing
@testable import SyncEngine
import TestSupport

extension Device {
    /// Points the device at another server (or the same directory opened
    /// again), as a device restarted with another `--server` would be.
    func connect(to server: DirectoryServer) {
        engine.connect(privateDatabase: server.database(user: user, scope: .private, device: name),
                       sharedDatabase: server.database(user: user, scope: .shared, device: name))
    }

    /// Syncs with `server`, and `other` syncs whole just before this
    /// device's first request that changes records reaches it: two
    /// processes syncing at once.
    @discardableResult func sync(with server: DirectoryServer, interleaving other: Device) throws -> SyncReport {
        let base = server.databases(user: user, device: name)
        let first = InterceptingDatabase.FirstTime()
        nonisolated(unsafe) let other = other
        func intercepting(_ database: any CloudDatabase) -> InterceptingDatabase {
            InterceptingDatabase(base: database, modifyRecords: { saving, deleting, through in
                if first.take() { try other.sync() }
                return try database.modifyRecords(saving: saving, deleting: deleting, deletedThrough: through)
            })
        }
        engine.connect(privateDatabase: intercepting(base.private), sharedDatabase: intercepting(base.shared))
        defer { connect(to: server) }
        return try sync()
    }
}

/// A server directory that a test can delete, copy and put back.
struct ServerDirectory {
    let url: URL

    init(_ directory: TemporaryDirectory, name: String = "server") {
        url = directory.url.appendingPathComponent(name)
    }

    func open() throws -> DirectoryServer { try DirectoryServer(directory: url) }

    func delete() throws { try FileManager.default.removeItem(at: url) }

    /// A copy of the directory as it is now, as a backup would take it.
    func backUp(to backup: URL) throws {
        try FileManager.default.copyItem(at: url, to: backup)
    }

    /// Puts a backup back in place of the directory.
    func restore(from backup: URL) throws {
        try FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: backup, to: url)
    }
}

@Suite struct RejoinTests {
    let directory = TemporaryDirectory()

    /// Lists with reminders on A, synced to B.
    private func twoSyncedDevices(_ server: DirectoryServer) throws -> (Device, Device, list: RemindersList, milk: Reminder) {
        let (a, b) = try twoDevices(on: server)
        let list = try a.store.createList(title: "Groceries")
        let milk = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Milk", tags: ["food"]))
        _ = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Bread"))
        try a.store.setCover(listID: list.id, png: SampleCovers.png(named: "ocean"))
        try a.sync()
        try b.sync()
        #expect(try b.export() == a.export())
        return (a, b, list, milk)
    }

    private func serverRecordNames(_ server: DirectoryServer, user: String = "me") throws -> Set<String> {
        let database = server.database(user: user, scope: .private, device: "check")
        var names: Set<String> = []
        for zone in try database.fetchDatabaseChanges(since: nil).changedZoneIDs {
            var token: ChangeToken?
            while true {
                let page = try database.fetchZoneChanges(zoneID: zone, since: token, limit: 500)
                names.formUnion(page.changed.map(\.id.recordName))
                token = page.token
                if !page.moreComing { break }
            }
        }
        return names
    }

    @Test func aServerDeletedAndMadeAgainGetsEverythingBackFromTheDevices() throws {
        let path = ServerDirectory(directory)
        let (a, b, list, milk) = try twoSyncedDevices(try path.open())
        let before = try a.export()
        try path.delete()
        let remade = try path.open()
        a.connect(to: remade)
        b.connect(to: remade)
        let added = try a.store.createReminder(ReminderDraft(listID: list.id, title: "after wipe"))
        let report = try a.sync()
        #expect(report.rejoined == .otherServer)
        #expect(report.receivedDeletes == 0)
        #expect(try a.reminder(milk.id)?.title == "Milk")
        #expect(try a.export().lists == before.lists)
        #expect(try b.sync().rejoined == .otherServer)
        #expect(try b.reminder(added.id)?.title == "after wipe")
        #expect(try b.export() == a.export())
        #expect(try a.sync().rejoined == nil)
        #expect(try a.export() == b.export())
        #expect(try serverRecordNames(remade).contains("reminders/\(milk.id)"))
        #expect(try a.pending() == 0 && b.pending() == 0)
    }

    @Test func anEditSentToAServerMadeAgainIsNotTakenForADelete() throws {
        let path = ServerDirectory(directory)
        let (a, _, _, milk) = try twoSyncedDevices(try path.open())
        try path.delete()
        a.connect(to: try path.open())
        try a.store.updateReminder(id: milk.id, ReminderChanges(title: "Oat milk"))
        // Sending alone meets records the new server never had.
        let report = try a.engine.sendChanges()
        #expect(report.rejoined == .otherServer)
        #expect(report.dropped == 0)
        #expect(try a.reminder(milk.id)?.title == "Oat milk")
        try a.sync()
        #expect(try a.pending() == 0)
        #expect(try a.engine.conflicts().isEmpty)
    }

    @Test func aDeviceSwitchedToAnEmptyServerAndBackLosesNothing() throws {
        let first = ServerDirectory(directory, name: "first")
        let second = ServerDirectory(directory, name: "second")
        let (a, b, list, milk) = try twoSyncedDevices(try first.open())
        let other = try second.open()
        a.connect(to: other)
        #expect(try a.sync().rejoined == .otherServer)
        #expect(try serverRecordNames(other).contains("reminders/\(milk.id)"))
        try a.store.updateReminder(id: milk.id, ReminderChanges(notes: "2 litres"))
        let eggs = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Eggs"))
        try a.sync()
        a.connect(to: try first.open())
        #expect(try a.sync().rejoined == .otherServer)
        #expect(try b.sync().rejoined == nil)
        #expect(try b.reminder(milk.id)?.notes == "2 litres")
        #expect(try b.reminder(eggs.id)?.title == "Eggs")
        #expect(try b.export() == a.export())
    }

    /// A device away on another server edits a reminder that another
    /// device edits on the server it left: back there, the two edits meet
    /// with the version both last agreed on as their ancestor, so the
    /// later one wins and the conflict is logged, whichever is later.
    @Test(arguments: [true, false])
    func editsMadeOnTheServerLeftAndOnTheOtherMeetAsAConflictOnReturn(awayEditIsLater: Bool) throws {
        let first = ServerDirectory(directory, name: "first")
        let second = ServerDirectory(directory, name: "second")
        let (a, b, _, milk) = try twoSyncedDevices(try first.open())
        a.connect(to: try second.open())
        #expect(try a.sync().rejoined == .otherServer)
        // Notes changed on one side only merge without a conflict.
        try b.store.updateReminder(id: milk.id, ReminderChanges(notes: "skimmed"))
        if awayEditIsLater {
            try b.store.updateReminder(id: milk.id, ReminderChanges(title: "Milk (b)"))
            a.clock.advance(60_000)
            try a.store.updateReminder(id: milk.id, ReminderChanges(title: "Milk (a)"))
        } else {
            try a.store.updateReminder(id: milk.id, ReminderChanges(title: "Milk (a)"))
            b.clock.advance(60_000)
            try b.store.updateReminder(id: milk.id, ReminderChanges(title: "Milk (b)"))
        }
        try a.sync()
        try b.sync()
        a.connect(to: try first.open())
        #expect(try a.sync().rejoined == .otherServer)
        try b.sync()
        let winner = awayEditIsLater ? "Milk (a)" : "Milk (b)"
        for device in [a, b] {
            #expect(try device.reminder(milk.id)?.title == winner)
            #expect(try device.reminder(milk.id)?.notes == "skimmed")
            let logged = try device.engine.conflicts().filter { $0.recordID == milk.id }
            #expect(logged.map(\.field) == ["title"], "\(device.name): \(logged)")
            #expect(Set([logged.first?.local, logged.first?.remote]) == ["Milk (a)", "Milk (b)"])
            #expect(logged.first?.ancestor == "Milk")
        }
        #expect(try a.export() == b.export())
    }

    /// The same, with the device sent back and forth before a re-join
    /// could finish (each other server unreachable right after its check:
    /// first → second → first → second, then first for good). The versions
    /// it last agreed on with the first server are still the ancestors:
    /// before, the second trip away kept nothing of the first's, and the
    /// two edits met without their ancestor.
    @Test func backAndForthBeforeARejoinFinishesKeepsTheAncestors() throws {
        let first = ServerDirectory(directory, name: "first")
        let second = ServerDirectory(directory, name: "second")
        let (a, b, _, milk) = try twoSyncedDevices(try first.open())
        func connectUnreachable(_ server: DirectoryServer) {
            func cut(_ base: any CloudDatabase) -> InterceptingDatabase {
                InterceptingDatabase(base: base, fetchZoneChanges: { _, _, _ in throw CloudError.serverUnavailable("cut") })
            }
            a.engine.connect(privateDatabase: cut(server.database(user: a.user, scope: .private, device: a.name)),
                             sharedDatabase: cut(server.database(user: a.user, scope: .shared, device: a.name)))
        }
        try a.store.updateReminder(id: milk.id, ReminderChanges(title: "Milk (a)"))
        for server in [second, first, second] {
            connectUnreachable(try server.open())
            #expect(throws: (any Error).self) { try a.sync() }
        }
        b.clock.advance(60_000)
        try b.store.updateReminder(id: milk.id, ReminderChanges(title: "Milk (b)"))
        try b.sync()
        a.connect(to: try first.open())
        try a.sync()
        try b.sync()
        for device in [a, b] {
            #expect(try device.reminder(milk.id)?.title == "Milk (b)", "\(device.name)")
            let logged = try device.engine.conflicts().filter { $0.recordID == milk.id }
            #expect(logged.map(\.field) == ["title"], "\(device.name): \(logged)")
            #expect(logged.first?.ancestor == "Milk", "\(device.name): \(logged)")
        }
        #expect(try a.export() == b.export())
    }

    /// A delete made on the other server meets an edit made meanwhile on
    /// the server left: the delete wins, as anywhere, and the lost edit is
    /// logged, since the kept version tells that there was one.
    @Test func aDeleteMadeAwayThatBeatsAnEditOnTheServerLeftIsLogged() throws {
        let first = ServerDirectory(directory, name: "first")
        let second = ServerDirectory(directory, name: "second")
        let (a, b, _, milk) = try twoSyncedDevices(try first.open())
        a.connect(to: try second.open())
        #expect(try a.sync().rejoined == .otherServer)
        _ = try a.store.deleteReminder(id: milk.id)
        try a.sync()
        try b.store.updateReminder(id: milk.id, ReminderChanges(title: "Oat milk"))
        try b.sync()
        a.connect(to: try first.open())
        #expect(try a.sync().rejoined == .otherServer)
        try b.sync()
        for device in [a, b] {
            #expect(try device.reminder(milk.id) == nil, "\(device.name)")
            let logged = try device.engine.conflicts().filter { $0.recordID == milk.id }
            #expect(logged.map(\.winner) == ["delete"], "\(device.name): \(logged)")
        }
        #expect(try a.export() == b.export())
    }

    @Test func aServerPutBackFromAnOlderCopyEndsWithTheUnion() throws {
        let path = ServerDirectory(directory)
        let backup = directory.url.appendingPathComponent("backup")
        let (a, b, list, milk) = try twoSyncedDevices(try path.open())
        let bread = try #require(try a.export().reminders.first { $0.title == "Bread" })
        try path.backUp(to: backup)
        // Edits after the backup, on both devices, each on its own field.
        try a.store.updateReminder(id: milk.id, ReminderChanges(title: "Oat milk"))
        let eggs = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Eggs"))
        try a.sync()
        try b.sync()
        try b.store.updateReminder(id: bread.id, ReminderChanges(notes: "sourdough"))
        try b.sync()
        try a.sync()
        let expected = try a.export()
        try path.restore(from: backup)
        let restored = try path.open()
        a.connect(to: restored)
        b.connect(to: restored)
        #expect(try a.sync().rejoined == .olderCopy)
        #expect(try b.sync().rejoined == .olderCopy)
        try a.sync()
        #expect(try a.export() == expected)
        #expect(try b.export() == expected)
        #expect(try a.reminder(eggs.id)?.title == "Eggs")
        let fresh = try Device("C", server: restored)
        try fresh.sync()
        #expect(try fresh.export() == expected)
    }

    /// A deletes Milk after the backup; the backup is put back; B, which
    /// still has Milk, adds notes to it and syncs before A does. A's
    /// re-join sends its remembered delete, which wins over B's edit as a
    /// delete wins anywhere, and is logged (with B's notes) on both, as it
    /// is without the copy put back. The copy's own version of Milk, met
    /// the same way, is no conflict.
    @Test func aRememberedDeleteThatBeatsAnEditMadeOnTheCopyIsLogged() throws {
        let path = ServerDirectory(directory)
        let backup = directory.url.appendingPathComponent("backup")
        let (a, b, list, milk) = try twoSyncedDevices(try path.open())
        let bread = try #require(try a.export().reminders.first { $0.title == "Bread" })
        try path.backUp(to: backup)
        _ = try a.store.deleteReminder(id: milk.id)
        _ = try a.store.deleteReminder(id: bread.id)
        try a.sync()
        try path.restore(from: backup)
        let restored = try path.open()
        a.connect(to: restored)
        b.connect(to: restored)
        b.clock.advance(5_000)
        try b.store.updateReminder(id: milk.id, ReminderChanges(notes: "oat, 2 cartons"))
        try b.sync()
        #expect(try a.sync().rejoined == .olderCopy)
        try b.sync()
        #expect(try b.reminder(milk.id) == nil && b.reminder(bread.id) == nil)
        for device in [a, b] {
            let entries = try device.engine.conflicts()
            #expect(entries.count == 1, "\(device.name): \(entries)")
            let entry = try #require(entries.first)
            #expect(entry.recordID == milk.id && entry.winner == "delete")
            let lost = try #require(ConflictEntry.keptValues(entry.localDevice == "B" ? entry.local : entry.remote))
            // With its list, to be put back there.
            #expect(lost.map(\.column) == ["remindersListID", "title", "notes"]
                    && lost.map(\.value) == [list.id, "Milk", "oat, 2 cartons"], "\(lost)")
        }
        #expect(try a.export() == b.export())
    }

    @Test func anOlderCopyWrittenToSinceIsStillToldApart() throws {
        let path = ServerDirectory(directory)
        let backup = directory.url.appendingPathComponent("backup")
        let (a, _, list, _) = try twoSyncedDevices(try path.open())
        try path.backUp(to: backup)
        let eggs = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Eggs"))
        try a.sync()
        try path.restore(from: backup)
        let restored = try path.open()
        // Another device writes to the restored copy until its sequence is
        // past everything A saw: only the commit ids tell the histories apart.
        let c = try Device("C", server: restored)
        try c.sync()
        let other = try c.store.createList(title: "Errands")
        for index in 0..<30 {
            _ = try c.store.createReminder(ReminderDraft(listID: other.id, title: "Errand \(index)"))
            try c.sync()
        }
        a.connect(to: restored)
        #expect(try a.sync().rejoined == .olderCopy)
        try c.sync()
        #expect(try c.reminder(eggs.id)?.title == "Eggs")
        #expect(try c.export() == a.export())
    }

    @Test func theNoticeIsGivenOnce() throws {
        let path = ServerDirectory(directory)
        let (a, _, _, _) = try twoSyncedDevices(try path.open())
        #expect(try a.engine.takeRejoinNotice() == nil)
        try path.delete()
        a.connect(to: try path.open())
        try a.sync()
        #expect(try a.engine.takeRejoinNotice()?.reason == .otherServer)
        #expect(try a.engine.takeRejoinNotice() == nil)
        try a.sync()
        #expect(try a.engine.takeRejoinNotice() == nil)
    }

    /// Alice's "Groceries" with Milk and Bread, shared with Bob, who accepted.
    private func sharedGroceries(_ path: ServerDirectory) throws -> (alice: Device, bob: Device, list: RemindersList, milk: Reminder) {
        let server = try path.open()
        let alice = try Device("laptop", user: "alice", server: server)
        let bob = try Device("desktop", user: "bob", server: server)
        let list = try alice.store.createList(title: "Groceries")
        let milk = try alice.store.createReminder(ReminderDraft(listID: list.id, title: "Milk"))
        _ = try alice.store.createReminder(ReminderDraft(listID: list.id, title: "Bread"))
        _ = try alice.store.createList(title: "Private")
        try alice.sync()
        let share = try alice.engine.share(table: "remindersLists", key: list.id, with: [("bob", .readWrite)])
        try bob.engine.acceptShare(id: share.id)
        return (alice, bob, list, milk)
    }

    /// Alice removes Bob, makes Carol read-only and stops sharing
    /// "Errands" after a backup; the backup is put back. Her device's
    /// re-join takes all three back again: a restore does not give back
    /// access the owner took away.
    @Test func aServerPutBackFromACopyDoesNotGiveBackAccessTheOwnerTookAway() throws {
        let path = ServerDirectory(directory)
        let backup = directory.url.appendingPathComponent("backup")
        let (alice, bob, list, _) = try sharedGroceries(path)
        let carol = try Device("tablet", user: "carol", server: try path.open())
        let errands = try alice.store.createList(title: "Errands")
        try alice.sync()
        _ = try alice.engine.share(table: "remindersLists", key: list.id, with: [("carol", .readWrite)])
        let errandsShare = try alice.engine.share(table: "remindersLists", key: errands.id, with: [("carol", .readWrite)])
        try carol.engine.acceptShare(id: try #require(try alice.engine.localShares().first { $0.rootKey == list.id }).id)
        try carol.engine.acceptShare(id: errandsShare.id)
        try path.backUp(to: backup)
        // Alice's phone last syncs after the backup, before she takes anything back.
        let phone = try Device("phone", user: "alice", server: try path.open())
        _ = try phone.store.createList(title: "Made on the phone")
        try phone.sync()

        try alice.engine.unshare(table: "remindersLists", key: list.id, user: "bob")
        _ = try alice.engine.share(table: "remindersLists", key: list.id, with: [("carol", .readOnly)])
        try alice.engine.unshare(table: "remindersLists", key: errands.id, user: nil)
        try alice.sync()
        try path.restore(from: backup)
        let restored = try path.open()
        for device in [alice, bob, carol] { device.connect(to: restored) }
        #expect(try alice.sync().rejoined == .olderCopy)

        let shares = try restored.database(user: "alice", scope: .private, device: "check").fetchShares()
        #expect(shares.map(\.rootRecordID.recordName) == ["remindersLists/\(list.id)"], "\(shares)")
        let participants = try #require(shares.first).participants
        #expect(participants.first { $0.userName == "bob" }?.status == .removed)
        #expect(participants.first { $0.userName == "carol" }?.permission == .readOnly)
        try bob.sync(); try carol.sync()
        #expect(try bob.list(list.id) == nil)
        #expect(try carol.list(errands.id) == nil)
        #expect(try carol.list(list.id)?.title == "Groceries")
        // Told once: the next sync leaves the shares alone.
        #expect(try alice.sync().rejoined == nil)
        #expect(try alice.engine.localShares().count == 1)

        // What Alice gives after the restore stays, when her phone, which
        // never saw any of it taken back, re-joins later.
        _ = try alice.engine.share(table: "remindersLists", key: list.id, with: [("carol", .readWrite)])
        let trip = try alice.store.createList(title: "Trip")
        try alice.sync()
        _ = try alice.engine.share(table: "remindersLists", key: trip.id, with: [("dave", .readWrite)])
        phone.connect(to: restored)
        #expect(try phone.sync().rejoined == .olderCopy)
        let after = try restored.database(user: "alice", scope: .private, device: "check").fetchShares()
        #expect(after.count == 2, "\(after)")
        #expect(after.first { $0.rootRecordID.recordName.hasSuffix(list.id) }?.participants.first { $0.userName == "carol" }?.permission == .readWrite)
        #expect(after.first { $0.rootRecordID.recordName.hasSuffix(trip.id) }?.participants.first?.userName == "dave")
    }

    @Test func theNoticeNamesTheSharesTheNewServerLacks() throws {
        let path = ServerDirectory(directory)
        let (alice, _, _, _) = try sharedGroceries(path)
        try path.delete()
        alice.connect(to: try path.open())
        try alice.sync()
        let notice = try #require(try alice.engine.takeRejoinNotice())
        #expect(notice.reason == .otherServer)
        #expect(notice.lostShares == ["Groceries"])
    }

    @Test func aParticipantLosesTheCopyOfASharedListWithItsOwnEditsLoggedOnce() throws {
        let path = ServerDirectory(directory)
        let (alice, bob, list, milk) = try sharedGroceries(path)
        let own = try bob.store.createList(title: "Bob's own")
        try bob.sync()
        // Unsent work of Bob's in Alice's list, then the server is made again.
        _ = try bob.store.createReminder(ReminderDraft(listID: list.id, title: "Bob unsent"))
        try bob.store.updateReminder(id: milk.id, ReminderChanges(notes: "oat"))
        try path.delete()
        let remade = try path.open()
        alice.connect(to: remade)
        bob.connect(to: remade)
        for order in [[alice, bob], [bob, alice]] {
            for device in order { try device.sync() }
        }
        #expect(try bob.list(list.id) == nil)
        #expect(try bob.list(own.id)?.title == "Bob's own")
        #expect(try bob.pending() == 0)
        let log = try bob.engine.conflicts()
        #expect(log.count == 2, "\(log)")
        #expect(log.allSatisfy { $0.cause == .shareLost && $0.byUser == "alice" && $0.subject == "Groceries" })
        #expect(Set(log.compactMap { ConflictEntry.keptValues($0.local)?.first?.value }) == ["Bob unsent", "oat"])
        #expect(log.first.map { ConflictsViewModel.reason($0) }
                == "refused: “Groceries” is not shared on the server this device now syncs with (it was reset or replaced); ask alice to share it again")
        // Alice keeps her list, is told to share it again, and Bob gets it back when she does.
        #expect(try alice.reminder(milk.id)?.title == "Milk")
        let again = try alice.engine.share(table: "remindersLists", key: list.id, with: [("bob", .readWrite)])
        try bob.engine.acceptShare(id: again.id)
        #expect(try bob.reminder(milk.id)?.title == "Milk")
    }

    @Test func rememberedDeletesReachAServerMadeAgainAndTheDevicesThatMissedThem() throws {
        let path = ServerDirectory(directory)
        let (a, b, list, milk) = try twoSyncedDevices(try path.open())
        let other = try a.store.createList(title: "Errands")
        try a.sync(); try b.sync()
        // A deletes everything it made; B, away, never hears of it.
        _ = try a.store.deleteList(id: list.id)
        _ = try a.store.deleteList(id: other.id)
        try a.sync()
        try path.delete()
        let remade = try path.open()
        a.connect(to: remade)
        b.connect(to: remade)
        // A's own zone holds nothing but remembered deletes: they still go.
        try a.sync()
        #expect(try a.pending() == 0)
        try b.sync()
        #expect(try b.list(list.id) == nil)
        #expect(try b.reminder(milk.id) == nil)
        #expect(try b.list(other.id) == nil)
        try a.sync()
        #expect(try a.export() == b.export())
    }

    /// B deletes Milk; A fetches the delete and puts Milk back (an undo)
    /// while B is away; then the server is made again under both.
    private func milkPutBackAfterBDeletedIt() throws -> (ServerDirectory, Device, Device, Reminder) {
        let path = ServerDirectory(directory)
        let (a, b, _, milk) = try twoSyncedDevices(try path.open())
        let deleted = try b.store.deleteReminder(id: milk.id)
        try b.sync(); try a.sync()
        #expect(try a.reminder(milk.id) == nil)
        try a.store.restore(deleted)
        try a.sync()
        try path.delete()
        let remade = try path.open()
        a.connect(to: remade)
        b.connect(to: remade)
        return (path, a, b, milk)
    }

    /// B deletes Milk; A hears of it and puts Milk back (an undo), while B
    /// is away. The server is made again; A re-joins first, sending Milk.
    /// B's re-join sends the delete it remembers, made against a version
    /// older than the one A put back: that delete must not take Milk again,
    /// and nothing is logged as lost.
    @Test func aReminderPutBackAfterADeleteSurvivesTheDeletersRejoin() throws {
        let (path, a, b, milk) = try milkPutBackAfterBDeletedIt()
        try a.sync(); try b.sync(); try a.sync()
        #expect(try a.reminder(milk.id)?.title == "Milk")
        #expect(try b.reminder(milk.id)?.title == "Milk")
        #expect(try b.engine.conflicts().isEmpty)
        #expect(try a.export() == b.export())
        // A delete made after the put-back still goes on a later re-join.
        _ = try b.store.deleteReminder(id: milk.id)
        try b.sync()
        try path.delete()
        let third = try path.open()
        a.connect(to: third)
        b.connect(to: third)
        try a.sync(); try b.sync(); try a.sync()
        #expect(try a.reminder(milk.id) == nil)
        #expect(try a.export() == b.export())
    }

    /// The same with the deleter back first: its remembered delete reaches
    /// the new server before the reminder does, and carries the time of
    /// the version it took (`RecordDeletion.deletedThrough`), which A's
    /// put-back is wholly later than: A keeps Milk and creates it again.
    @Test func aReminderPutBackAfterADeleteSurvivesTheDeleterComingBackFirst() throws {
        let (_, a, b, milk) = try milkPutBackAfterBDeletedIt()
        try b.sync(); try a.sync(); try b.sync()
        #expect(try a.reminder(milk.id)?.title == "Milk")
        #expect(try b.reminder(milk.id)?.title == "Milk")
        #expect(try a.engine.conflicts().isEmpty)
        #expect(try a.export() == b.export())
    }

    /// An edit that writes every column of a one-column record (a tag's
    /// spelling, a list's cover) is not a row made again: a delete made
    /// meanwhile elsewhere still wins over it, as over any edit.
    @Test func anEditOfEveryColumnIsNotARowMadeAgain() throws {
        let path = ServerDirectory(directory)
        let (a, b, list, _) = try twoSyncedDevices(try path.open())
        _ = try a.store.renameTag("food", to: "FOOD")
        try a.store.setCover(listID: list.id, png: SampleCovers.png(named: "forest"))
        _ = try b.store.deleteTag("food")
        try b.store.setCover(listID: list.id, png: nil)
        try b.sync(); try a.sync(); try b.sync()
        for device in [a, b] {
            #expect(try device.export().tags.isEmpty, "\(device.name)")
            #expect(try device.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM remindersListCovers") } == 0, "\(device.name)")
        }
        #expect(try a.export() == b.export())
    }

    /// Two devices re-join a server made again at once. B fetches (nothing
    /// yet), then A's re-join lands, with A's delete of Milk made while the
    /// server was gone, and only then does B send every row it holds, Milk
    /// among them. B's save of Milk is refused (the record was deleted
    /// after B's fetch: `ServerRecord.knownThrough`), and Milk stays deleted
    /// everywhere instead of coming back.
    @Test func aDeleteThatLandsBetweenARejoinsFetchAndItsSendStaysDeleted() throws {
        let path = ServerDirectory(directory)
        let (a, b, _, milk) = try twoSyncedDevices(try path.open())
        try path.delete()
        let new = try path.open()
        a.connect(to: new)
        _ = try a.store.deleteReminder(id: milk.id)
        try b.sync(with: new, interleaving: a)
        #expect(try b.reminder(milk.id) == nil)
        try a.sync(); try b.sync()
        #expect(try a.reminder(milk.id) == nil)
        #expect(try serverRecordNames(new).allSatisfy { !$0.contains(milk.id) })
        #expect(try a.export() == b.export())
    }

    /// The same in a shared list, on a server put back from a copy that
    /// still has the share but not Eggs, added after it: Bob's re-join
    /// fetches, Alice's re-join lands with her delete of Eggs, and then Bob
    /// sends the Eggs he holds, which the copy lacks.
    @Test func aDeleteInASharedListThatLandsBetweenARejoinsFetchAndItsSendStaysDeleted() throws {
        let path = ServerDirectory(directory)
        let backup = directory.url.appendingPathComponent("backup")
        let (alice, bob, list, _) = try sharedGroceries(path)
        try path.backUp(to: backup)
        let eggs = try alice.store.createReminder(ReminderDraft(listID: list.id, title: "Eggs"))
        try alice.sync(); try bob.sync()
        #expect(try bob.reminder(eggs.id)?.title == "Eggs")
        try path.restore(from: backup)
        let restored = try path.open()
        alice.connect(to: restored)
        _ = try alice.store.deleteReminder(id: eggs.id)
        try bob.sync(with: restored, interleaving: alice)
        #expect(try bob.reminder(eggs.id) == nil)
        try alice.sync(); try bob.sync()
        #expect(try alice.reminder(eggs.id) == nil)
        #expect(try serverRecordNames(restored, user: "alice").allSatisfy { !$0.contains(eggs.id) })
        #expect(try alice.export().reminders.filter { $0.listID == list.id }.map(\.title).sorted() == ["Bread", "Milk"])
        #expect(try bob.export().reminders.map(\.title).sorted() == ["Bread", "Milk"])
    }

    @Test func aServerDeletedWhileOpenRefusesRequestsInsteadOfWritingToTheDeletedFile() throws {
        let path = ServerDirectory(directory)
        let (a, _, list, _) = try twoSyncedDevices(try path.open())
        try path.delete()
        _ = try a.store.createReminder(ReminderDraft(listID: list.id, title: "while gone"))
        #expect(throws: SyncError.self) { try a.sync() }
        #expect(try a.pending() == 1)
        #expect(!FileManager.default.fileExists(atPath: path.url.path))
    }

    @Test func aDeletedZoneIsStillADeleteFromTheSameServer() throws {
        let path = ServerDirectory(directory)
        let server = try path.open()
        let (a, b, _, _) = try twoSyncedDevices(server)
        let database = server.database(user: "me", scope: .private, device: "admin")
        _ = try database.modifyZones(saving: [], deleting: [a.engine.defaultZoneID])
        try b.sync()
        #expect(try b.export().lists.isEmpty)
        #expect(try b.sync().rejoined == nil)
    }

    // MARK: The crash window

    /// Sends A's pending changes and stops before A stores the answer, as a
    /// process killed between the server's commit and its own would.
    private func sendAndDie(_ device: Device) throws {
        let engine = device.engine
        let batch = try engine.takeBatch(limit: 400, excluding: [])
        try engine.willSend(unsent: [])
        try engine.ensureZones(for: batch, in: engine.privateDatabase)
        _ = try engine.privateDatabase.modifyRecords(
            saving: batch.compactMap(\.record), deleting: batch.compactMap(\.deleteID),
            deletedThrough: Dictionary(uniqueKeysWithValues: batch.compactMap { change in change.deleteID.flatMap { id in change.deletedThrough.map { (id, $0) } } }))
    }

    @Test func aDeleteAfterTheServerTookTheCreationButTheDeviceDidNotReachesTheServer() throws {
        let server = try ServerDirectory(directory).open()
        let (a, b, list, _) = try twoSyncedDevices(server)
        let doomed = try a.store.createReminder(ReminderDraft(listID: list.id, title: "doomed"))
        try sendAndDie(a)
        _ = try a.store.deleteReminder(id: doomed.id)
        #expect(try a.pending() == 1)
        try a.sync()
        try b.sync()
        #expect(try b.reminder(doomed.id) == nil)
        #expect(try a.reminder(doomed.id) == nil)
        #expect(try !serverRecordNames(server).contains("reminders/\(doomed.id)"))
        #expect(try a.export() == b.export())
    }

    @Test func anEditAfterTheServerTookTheCreationButTheDeviceDidNotIsKept() throws {
        let server = try ServerDirectory(directory).open()
        let (a, b, list, _) = try twoSyncedDevices(server)
        let r = try a.store.createReminder(ReminderDraft(listID: list.id, title: "draft"))
        try sendAndDie(a)
        try a.store.updateReminder(id: r.id, ReminderChanges(title: "final"))
        try a.sync()
        try b.sync()
        #expect(try b.reminder(r.id)?.title == "final")
        #expect(try a.export() == b.export())
        #expect(try a.engine.conflicts().isEmpty)
    }

    @Test func aDeleteFromElsewhereBeatsACreationThatReachedTheServerUnconfirmed() throws {
        let server = try ServerDirectory(directory).open()
        let (a, b, list, _) = try twoSyncedDevices(server)
        let r = try a.store.createReminder(ReminderDraft(listID: list.id, title: "short-lived"))
        try sendAndDie(a)
        try b.sync()
        _ = try b.store.deleteReminder(id: r.id)
        try b.sync()
        try a.sync()
        #expect(try a.reminder(r.id) == nil)
        #expect(try a.export() == b.export())
    }

    @Test func aRowCreatedAndDeletedBeforeAnySendNeverReachesTheServer() throws {
        let server = try ServerDirectory(directory).open()
        let (a, _, list, _) = try twoSyncedDevices(server)
        let r = try a.store.createReminder(ReminderDraft(listID: list.id, title: "never sent"))
        _ = try a.store.deleteReminder(id: r.id)
        #expect(try a.pending() == 0)
    }

    // MARK: Writes made with the triggers gone

    @Test func rowsRebuiltWithoutTheTriggersAreSentAsEditsAndDeletes() throws {
        let server = try ServerDirectory(directory).open()
        let (a, b, list, milk) = try twoSyncedDevices(server)
        let other = try a.store.createList(title: "Old")
        try a.sync(); try b.sync()
        // A migration rebuilding the table: the triggers go with it.
        try a.db.writeWithoutTransaction { db in
            for suffix in ChangeCapture.suffixes {
                try db.execute(sql: "DROP TRIGGER \(ChangeCapture.triggerName(a.engine.tablesByName["remindersLists"]!, suffix))")
            }
            try db.execute(sql: "UPDATE remindersLists SET title = 'Food' WHERE id = ?", arguments: [list.id])
            try db.execute(sql: "DELETE FROM remindersLists WHERE id = ?", arguments: [other.id])
        }
        let reattached = try SyncEngine(writer: a.db, privateDatabase: server.database(user: "me", scope: .private, device: "A"),
                                        sharedDatabase: server.database(user: "me", scope: .shared, device: "A"),
                                        tables: RemindersTables.all)
        #expect(try reattached.pendingCount() == 2)
        try reattached.sync()
        try b.sync()
        #expect(try b.list(list.id)?.title == "Food")
        #expect(try b.list(other.id) == nil)
        #expect(try b.reminder(milk.id) != nil)
    }
}

@Suite struct GoneAnswersTests {
    let directory = TemporaryDirectory()

    /// A with a list and a reminder on the old server; then the directory
    /// is made again and A reaches it through a check that still says old.
    private func swapped() throws -> (Device, DirectoryServer, Reminder) {
        let path = ServerDirectory(directory)
        let old = try path.open()
        let a = try Device("A", server: old)
        let list = try a.store.createList(title: "Home")
        let milk = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Milk"))
        try a.sync()
        let mark = try #require(try a.db.read { db in try SyncEngine.storedMark(db) })
        try path.delete()
        let new = try path.open()
        let identity = ServerIdentity(head: mark, checked: mark)
        a.engine.connect(
            privateDatabase: InterceptingDatabase.swappedAfterTheCheck(new.database(user: "me", scope: .private, device: "A"), old: identity),
            sharedDatabase: new.database(user: "me", scope: .shared, device: "A"))
        return (a, new, milk)
    }

    @Test func aSaveAnsweredUnknownItemIsCheckedAndReJoins() throws {
        let (a, new, milk) = try swapped()
        try a.store.updateReminder(id: milk.id, ReminderChanges(title: "Oat milk"))
        let report = try a.engine.sendChanges()
        #expect(report.rejoined == .otherServer)
        #expect(report.dropped == 0)
        #expect(try a.reminder(milk.id)?.title == "Oat milk")
        #expect(try a.engine.conflicts().isEmpty)
        let b = try Device("B", server: new)
        try b.sync()
        #expect(try b.reminder(milk.id)?.title == "Oat milk")
    }

    @Test func aDeleteOnTheNewServerStaysDeletedWhenTheSaveThatMetItReJoins() throws {
        let path = ServerDirectory(directory)
        let old = try path.open()
        let a = try Device("A", server: old)
        let c = try Device("C", server: old)
        let list = try a.store.createList(title: "Home")
        let milk = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Milk"))
        try a.sync(); try c.sync()
        let mark = try #require(try a.db.read { db in try SyncEngine.storedMark(db) })
        try path.delete()
        let new = try path.open()
        // C re-joins the new server first and deletes Milk there.
        c.connect(to: new)
        try c.sync()
        _ = try c.store.deleteReminder(id: milk.id)
        try c.sync()
        // A edits Milk and meets the delete through a check that still says old.
        a.engine.connect(
            privateDatabase: InterceptingDatabase.swappedAfterTheCheck(
                new.database(user: "me", scope: .private, device: "A"), old: ServerIdentity(head: mark, checked: mark)),
            sharedDatabase: new.database(user: "me", scope: .shared, device: "A"))
        try a.store.updateReminder(id: milk.id, ReminderChanges(title: "Oat milk"))
        #expect(try a.engine.sendChanges().rejoined == .otherServer)
        try a.sync(); try c.sync()
        #expect(try a.reminder(milk.id) == nil)
        #expect(try c.reminder(milk.id) == nil)
        #expect(try a.export() == c.export())
    }

    @Test func anExpiredTokenIsCheckedAndReJoins() throws {
        let (a, new, milk) = try swapped()
        let report = try a.engine.fetchChanges()
        #expect(report.rejoined == .otherServer)
        #expect(report.receivedDeletes == 0)
        #expect(try a.reminder(milk.id)?.title == "Milk")
        try a.sync()
        let b = try Device("B", server: new)
        try b.sync()
        #expect(try b.export() == a.export())
    }
}
