import CloudServer
import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport
@testable import SyncEngine

/// Conflicts between two devices of one user, against the real server.
@Suite struct ConflictTests {
    let directory = TemporaryDirectory()

    /// Two devices that share one list with one reminder, both in sync.
    func world(clockB: TestClock = TestClock(1_800_000_000_500)) throws -> (Device, Device, Reminder) {
        let server = try makeServer(directory)
        let a = try Device("A", server: server, clock: TestClock(1_800_000_000_000))
        let b = try Device("B", server: server, clock: clockB)
        let list = try a.store.createList(title: "Home")
        let r = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Paint", notes: "white"))
        try a.sync(); try b.sync()
        return (a, b, r)
    }

    /// Both devices give the reminder a title of their own ("A's title"),
    /// `later`'s edit a second after `earlier`'s.
    func retitle(_ r: Reminder, earlier: Device, later: Device) throws {
        earlier.clock.advance(1_000); later.clock.advance(2_000)
        try earlier.store.updateReminder(id: r.id, ReminderChanges(title: "\(earlier.name)'s title"))
        try later.store.updateReminder(id: r.id, ReminderChanges(title: "\(later.name)'s title"))
    }

    @Test(arguments: [true, false])
    func differentFieldsBothKept(aSendsFirst: Bool) throws {
        let (a, b, r) = try world()
        a.clock.advance(); b.clock.advance()
        try a.store.updateReminder(id: r.id, ReminderChanges(title: "Paint the fence"))
        try b.store.updateReminder(id: r.id, ReminderChanges(notes: "green"))
        let (first, second) = aSendsFirst ? (a, b) : (b, a)
        try first.sync(); try second.sync(); try first.sync()
        for device in [a, b] {
            #expect(try device.reminder(r.id)?.title == "Paint the fence")
            #expect(try device.reminder(r.id)?.notes == "green")
            #expect(try device.pending() == 0)
        }
        #expect(try a.engine.conflicts().isEmpty)
        #expect(try b.engine.conflicts().isEmpty)
    }

    /// Conflict on send: B sends a stale record and merges the server's.
    @Test func sameFieldNewerEditWinsOnSend() throws {
        let (a, b, r) = try world()
        try retitle(r, earlier: a, later: b)
        try a.sync()
        let report = try b.engine.sendChanges()
        #expect(report.merged == 1)
        try b.sync(); try a.sync()
        #expect(try a.reminder(r.id)?.title == "B's title")
        #expect(try b.reminder(r.id)?.title == "B's title")
        let logged = try b.engine.conflicts()
        #expect(logged.count == 1)
        #expect(logged.first?.field == "title")
        #expect(logged.first?.local == "B's title")
        #expect(logged.first?.remote == "A's title")
        #expect(logged.first?.ancestor == "Paint")
        #expect(logged.first?.winner == "local")
        #expect(logged.first?.remoteDevice == "A")
    }

    /// Conflict on fetch: B fetches the newer record while it has a pending
    /// edit of the same field.
    @Test func sameFieldNewerEditWinsOnFetch() throws {
        let (a, b, r) = try world()
        try retitle(r, earlier: b, later: a)
        try a.sync()
        let fetched = try b.engine.fetchChanges()
        #expect(fetched.conflicts == 1)
        #expect(try b.reminder(r.id)?.title == "A's title")
        #expect(try b.pending() == 0)
        try b.sync(); try a.sync()
        #expect(try a.export() == b.export())
        #expect(try b.engine.conflicts().first?.winner == "remote")
    }

    @Test func equalTimestampsGoToTheClient() throws {
        let clock = TestClock(1_900_000_000_000)
        let server = try makeServer(directory)
        let a = try Device("A", server: server, clock: clock)
        let b = try Device("B", server: server, clock: clock)
        let list = try a.store.createList(title: "Home")
        let r = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Paint"))
        try a.sync(); try b.sync()
        // Both clocks read the same instant and both have seen the same history.
        try a.db.write { try $0.execute(sql: "UPDATE sync_clock SET hlc = 1900000000500") }
        try b.db.write { try $0.execute(sql: "UPDATE sync_clock SET hlc = 1900000000500") }
        try a.store.updateReminder(id: r.id, ReminderChanges(title: "A"))
        try b.store.updateReminder(id: r.id, ReminderChanges(title: "B"))
        try a.sync()
        try b.sync()
        #expect(try b.engine.conflicts().first?.winner == "local")
        try a.sync()
        #expect(try a.reminder(r.id)?.title == "B")
        #expect(try a.export() == b.export())
    }

    /// B's clock runs an hour behind, but B edits after seeing A's edit:
    /// the hybrid logical clock makes B's edit the later one.
    @Test func deviceBehindStillWinsWithLaterEdit() throws {
        let (a, b, r) = try world(clockB: TestClock(1_800_000_000_000 - 3_600_000))
        a.clock.advance()
        try a.store.updateReminder(id: r.id, ReminderChanges(title: "A's title"))
        try a.sync()
        try b.sync()
        #expect(try b.reminder(r.id)?.title == "A's title")
        // B edits offline after having seen A's edit; A edits the notes.
        try b.store.updateReminder(id: r.id, ReminderChanges(title: "B's later title"))
        try a.store.updateReminder(id: r.id, ReminderChanges(notes: "A's notes"))
        try a.sync(); try b.sync(); try a.sync()
        #expect(try a.reminder(r.id)?.title == "B's later title")
        #expect(try a.reminder(r.id)?.notes == "A's notes")
        #expect(try a.export() == b.export())
    }

    @Test(arguments: [true, false])
    func deleteWinsOverConcurrentEdit(deleterSendsFirst: Bool) throws {
        let (a, b, r) = try world()
        try a.store.deleteReminder(id: r.id)
        try b.store.updateReminder(id: r.id, ReminderChanges(title: "Edited"))
        // The sync that meets both counts the lost edit as a conflict in
        // its report, as a merge's conflicts are: its summary points to
        // the log. (The editor's send is refused when the delete went
        // first; otherwise the deleter fetches the edit.)
        let met: SyncReport
        if deleterSendsFirst {
            try a.sync(); met = try b.sync()
        } else {
            try b.sync(); met = try a.sync(); try b.sync()
        }
        #expect(met.conflicts == 1)
        try a.sync()
        #expect(try a.reminder(r.id) == nil)
        #expect(try b.reminder(r.id) == nil)
        #expect(try a.export() == b.export())
        #expect(try a.pending() == 0 && b.pending() == 0)
        // Logged once, by the device that met it, and seen on both.
        let deletes = try (a.engine.conflicts() + b.engine.conflicts()).filter { $0.winner == "delete" }
        #expect(Set(deletes.map(\.id)).count == 1)
        #expect(try a.engine.conflicts().map(\.id) == b.engine.conflicts().map(\.id))
        // Whichever side logged it, the entry keeps what the edit wrote, to
        // be put back: the deleter's send found it too.
        for entry in try a.engine.conflicts() where entry.winner == "delete" {
            let kept = ConflictEntry.keptValues(entry.local == "deleted" ? entry.remote : entry.local)
            #expect(kept?.contains { $0.column == "title" && $0.value == "Edited" } == true, "\(entry)")
        }
    }

    /// A reminder deleted on one device while edited on the other keeps
    /// its tags in the log entry, and what was not edited (its due date,
    /// its priority), whichever way the two meet: the editor
    /// fetching the delete (the page deletes the links first) or sending
    /// its edit into it, the deleter fetching the edit or sending its
    /// delete over it (its links' deletes still pending).
    @Test(arguments: ["editor fetches", "editor sends", "deleter fetches", "deleter sends"])
    func aDeleteThatBeatsAnEditKeepsTheReminderTags(_ path: String) throws {
        let (a, b, list) = try world()
        let r = try a.store.createReminder(ReminderDraft(listID: list.remindersListID, title: "Stamps", dueDate: DueDate("2026-03-05T09:00"),
                                                         priority: .high, tags: ["post", "Town"]))
        try a.sync(); try b.sync()
        try a.store.deleteReminder(id: r.id)
        try b.store.updateReminder(id: r.id, ReminderChanges(notes: "first class"))
        switch path {
        case "editor fetches": try a.sync(); _ = try b.engine.fetchChanges()
        case "editor sends": try a.sync(); _ = try b.engine.sendChanges()
        case "deleter fetches": try b.sync(); _ = try a.engine.fetchChanges()
        default: try b.sync(); _ = try a.engine.sendChanges()
        }
        let logger = path.hasPrefix("editor") ? b : a
        let entries = try logger.engine.conflicts().filter { $0.recordID == r.id && $0.winner == "delete" }
        #expect(entries.count == 1, "\(path): \(entries)")
        let entry = try #require(entries.first)
        let kept = try #require(ConflictEntry.keptValues(entry.local == "deleted" ? entry.remote : entry.local), "\(path): \(entry)")
        #expect(kept.contains { $0 == ("notes", "first class") }, "\(path): \(kept)")
        #expect(kept.contains { $0 == ("tags", #"["Town","post"]"#) }, "\(path): \(kept)")
        #expect(kept.contains { $0 == ("dueDate", "2026-03-05T09:00") } && kept.contains { $0 == ("priority", "3") }, "\(path): \(kept)")
        #expect(!kept.contains { $0.column == "isFlagged" || $0.column == "icalendar" }, "\(path): \(kept)")
    }

    /// A tag put on a reminder that another device deletes is an edit the
    /// delete beats, as an edit of the reminder itself would be: logged,
    /// with the reminder whole and every tag, new ones too, to be put back.
    @Test(arguments: [true, false])
    func aTagPutOnAReminderDeletedElsewhereIsLogged(fetchesFirst: Bool) throws {
        let (a, b, list) = try world()
        let r = try a.store.createReminder(ReminderDraft(listID: list.remindersListID, title: "Stamps", priority: .high, tags: ["post"]))
        try a.sync(); try b.sync()
        try a.store.deleteReminder(id: r.id)
        try a.sync()
        try b.store.updateReminder(id: r.id, ReminderChanges(tags: ["post", "urgent"]))
        if fetchesFirst { _ = try b.engine.fetchChanges() } else { try b.sync() }
        // One entry, the reminder's (not one more for its tag link), and on
        // the device that put the tag on only.
        let entries = try b.engine.conflicts()
        #expect(entries.count == 1 && entries.first?.recordID == r.id && entries.first?.winner == "delete", "\(entries)")
        let kept = try #require(ConflictEntry.keptValues(entries.first?.local), "\(entries)")
        #expect(kept.contains { $0 == ("title", "Stamps") } && kept.contains { $0 == ("priority", "3") }, "\(kept)")
        #expect(kept.contains { $0 == ("tags", #"["post","urgent"]"#) }, "\(kept)")
        try b.sync(); try a.sync()
        #expect(try a.export() == b.export())
    }

    /// A tags a reminder with a tag B deleted and sent first: A's link
    /// reaches the server after the tag's delete. B, which will never
    /// fetch the tag again, lets the link go with it (and deletes it on
    /// the server) instead of holding it for its parent for ever; A takes
    /// it with the tag. A link holds no text, so the log has no entry.
    @Test func aTagLinkMadeAfterItsTagWasDeletedElsewhereGoesWithIt() throws {
        let (a, b, r) = try world()
        _ = try a.store.createReminder(ReminderDraft(listID: r.remindersListID, title: "Essay", tags: ["writing"]))
        try a.sync(); try b.sync()
        _ = try b.store.deleteTag("writing")
        try b.sync()
        try a.store.updateReminder(id: r.id, ReminderChanges(tags: ["writing"]))
        try a.sync(); try b.sync(); try a.sync()
        for device in [a, b] {
            #expect(try device.db.read { try Queries.tags($0, reminderID: r.id) }.isEmpty, "\(device.name)")
            #expect(try device.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_held_records") } == 0, "\(device.name)")
        }
        let names = try b.db.read { db in try String.fetchAll(db, sql: "SELECT recordName FROM sync_metadata WHERE recordType = 'remindersTags'") }
        #expect(names.isEmpty, "every link went, its delete confirmed: \(names)")
        #expect(try a.export() == b.export())
        #expect(try a.pending() == 0 && b.pending() == 0)
    }

    @Test(arguments: [true, false])
    func childCreatedUnderParentDeletedElsewhereGoesWithIt(deleterSendsFirst: Bool) throws {
        let (a, b, r) = try world()
        let listID = try #require(try a.reminder(r.id)).remindersListID
        try a.store.deleteList(id: listID)
        let child = try b.store.createReminder(ReminderDraft(listID: listID, title: "New under deleted list"))
        if deleterSendsFirst {
            try a.sync(); try b.sync(); try a.sync()
        } else {
            try b.sync(); try a.sync(); try b.sync(); try a.sync()
        }
        #expect(try b.reminder(child.id) == nil)
        #expect(try a.reminder(child.id) == nil)
        #expect(try b.list(listID) == nil)
        #expect(try a.export() == b.export())
        #expect(try a.pending() == 0 && b.pending() == 0)
        // Nothing is left on the server either: a fresh device sees nothing.
        let c = try Device("C", server: try makeServer(directory))
        try c.sync()
        #expect(try c.export().reminders.isEmpty)
        #expect(try c.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_held_records") } == 0)
    }

    /// B moves an existing reminder (with a tag and a subtask) into a list
    /// that A deleted meanwhile. The delete wins: once both have synced,
    /// neither device nor the server has the reminder or its subtask. (A
    /// device that hears of the move before it sends its delete keeps the
    /// row in its old list until that send: deleting it at the fetch would
    /// change, mid-page, the rows a page's look-ups were read for.)
    @Test(arguments: [true, false])
    func reminderMovedIntoListDeletedElsewhereGoesWithIt(deleterSendsFirst: Bool) throws {
        let (a, b, r) = try world()
        let doomed = try a.store.createList(title: "Doomed")
        let subtask = try a.store.createReminder(ReminderDraft(listID: r.remindersListID, title: "Buy brushes", tags: ["diy"],
                                                               parentID: r.id))
        try a.sync(); try b.sync()
        try a.store.deleteList(id: doomed.id)
        b.clock.advance(1_000)
        try b.store.updateReminder(id: r.id, ReminderChanges(listID: doomed.id))
        if deleterSendsFirst {
            try a.sync(); try b.sync(); try a.sync()
        } else {
            // A hears of the move before it sends its delete (a live
            // device fetches on every change the server announces).
            try b.sync(); try a.engine.fetchChanges(); try a.sync()
            try b.sync(); try a.sync()
        }
        for device in [a, b] {
            #expect(try device.reminder(r.id) == nil, "\(device.name) kept the moved reminder")
            #expect(try device.reminder(subtask.id) == nil, "\(device.name) kept the moved subtask")
            #expect(try device.list(doomed.id) == nil)
            #expect(try device.pending() == 0)
        }
        #expect(try a.export() == b.export())
        // The server holds what the devices hold: a fresh device agrees.
        let c = try Device("C", server: try makeServer(directory))
        try c.sync()
        #expect(try c.export() == a.export())
    }

    /// As above, but A moves the reminder to a list of its own after B
    /// moved it into the list A deleted: A's later move wins the merge, so
    /// the reminder lives on in A's list everywhere, with its subtask.
    @Test func laterMoveOutOfAListDeletedHereWins() throws {
        let (a, b, r) = try world()
        let doomed = try a.store.createList(title: "Doomed")
        let kept = try a.store.createList(title: "Kept")
        let subtask = try a.store.createReminder(ReminderDraft(listID: r.remindersListID, title: "Buy brushes", parentID: r.id))
        try a.sync(); try b.sync()
        try a.store.deleteList(id: doomed.id)
        b.clock.advance(1_000)
        try b.store.updateReminder(id: r.id, ReminderChanges(listID: doomed.id))
        a.clock.advance(2_000)
        try a.store.updateReminder(id: r.id, ReminderChanges(listID: kept.id))
        try b.sync(); try a.engine.fetchChanges()
        #expect(try a.reminder(r.id)?.remindersListID == kept.id)
        try a.sync(); try b.sync(); try a.sync()
        for device in [a, b] {
            #expect(try device.reminder(r.id)?.remindersListID == kept.id, "\(device.name)")
            #expect(try device.reminder(subtask.id)?.remindersListID == kept.id, "\(device.name)")
            #expect(try device.list(doomed.id) == nil)
            #expect(try device.pending() == 0)
        }
        #expect(try a.export() == b.export())
    }

    @Test func reminderMovedBetweenListsOnTwoDevices() throws {
        let (a, b, r) = try world()
        let work = try a.store.createList(title: "Work")
        let errands = try a.store.createList(title: "Errands")
        try a.sync(); try b.sync()
        a.clock.advance(1_000); b.clock.advance(2_000)
        try a.store.updateReminder(id: r.id, ReminderChanges(listID: work.id))
        try b.store.updateReminder(id: r.id, ReminderChanges(listID: errands.id))
        try a.sync(); try b.sync(); try a.sync()
        #expect(try a.reminder(r.id)?.remindersListID == errands.id)
        #expect(try a.export() == b.export())
    }

    @Test func childArrivingBeforeParentIsHeldAcrossRestarts() throws {
        let server = try makeServer(directory)
        let (a, b) = try twoDevices(on: server)
        let list = try a.store.createList(title: "Later")
        let r = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Child first"))
        try a.sync()
        // Save the child again so that it comes after its parent in the change
        // stream, then make B see only the child by applying it alone.
        let record = try #require(try server.database(user: "me", scope: .private, device: "X")
            .fetchRecords([RecordID(recordName: "reminders/\(r.id)", zoneID: b.engine.defaultZoneID)]).values.first?.get())
        try b.engine.applyWrite { db in _ = try b.engine.applyFetched(db, record: record) }
        #expect(try b.reminder(r.id) == nil)
        #expect(try b.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_held_records") } == 1)
        // A new engine on the same database (a restart) still holds it.
        let restarted = try SyncEngine(
            writer: b.db, privateDatabase: server.database(user: "me", scope: .private, device: "B"),
            sharedDatabase: server.database(user: "me", scope: .shared, device: "B"), tables: RemindersTables.all)
        try restarted.sync()
        #expect(try b.reminder(r.id)?.title == "Child first")
        #expect(try b.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_held_records") } == 0)
        #expect(try b.export() == a.export())
    }

    @Test func restoringTheLosingValueIsANewEdit() throws {
        let (a, b, r) = try world()
        a.clock.advance(1_000); b.clock.advance(2_000)
        try a.store.updateReminder(id: r.id, ReminderChanges(title: "A's title"))
        try b.store.updateReminder(id: r.id, ReminderChanges(title: "B's title"))
        try a.sync(); try b.sync(); try a.sync()
        let entry = try #require(try b.engine.conflicts().first)
        #expect(try b.engine.restoreLosingValue(conflictID: entry.id))
        #expect(try b.reminder(r.id)?.title == "A's title")
        try b.sync(); try a.sync()
        #expect(try a.reminder(r.id)?.title == "A's title")
        #expect(try a.export() == b.export())
    }
}
