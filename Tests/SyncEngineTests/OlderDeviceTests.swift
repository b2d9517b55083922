import CloudServer
import DeviceRuntime
import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport
@testable import SyncEngine

/// A device still on the schema before subtasks, repeats and early alerts
/// (v7) syncing with one that has them: what it does not know stays on the
/// server, and what it sends is no edit of the fields it lacks.
@Suite struct OlderDeviceTests {
    /// A device whose database stops at migration v7, written to with SQL
    /// as the older program's store would.
    final class OlderDevice {
        let db: DatabaseQueue
        let engine: SyncEngine

        init(_ name: String, server: DirectoryServer, clock: TestClock) throws {
            db = try DatabaseQueue(configuration: AppDatabase.configuration())
            try Schema.migrator.migrate(db, upTo: "v7: this device's view settings and first-run answer")
            let databases = server.databases(user: "me", device: name)
            engine = try SyncEngine(writer: db, privateDatabase: databases.private, sharedDatabase: databases.shared,
                                    tables: DeviceSession.syncedTables, wallClock: { clock.now })
        }
    }

    @Test func anOlderDeviceEditingARowKeepsTheFieldsItDoesNotKnow() throws {
        let directory = TemporaryDirectory()
        let server = try makeServer(directory)
        let clock = TestClock()
        let new = try Device("new", server: server, clock: clock)
        let old = try OlderDevice("old", server: server, clock: clock)
        let list = try new.store.createList(title: "Home")
        let parent = try new.store.createReminder(ReminderDraft(listID: list.id, title: "Trip")).id
        let bins = try new.store.createReminder(ReminderDraft(
            listID: list.id, title: "Bins", dueDate: DueDate("2027-01-11T19:00"), parentID: parent,
            repeatRule: "FREQ=WEEKLY", alertBefore: 900)).id
        try new.sync()
        try old.engine.sync()
        clock.advance(1_000)
        try old.db.write { db in try db.execute(sql: "UPDATE reminders SET title = 'Bins out' WHERE id = ?", arguments: [bins]) }
        try old.engine.sync()
        try new.sync()
        let after = try #require(try new.reminder(bins))
        #expect(after.title == "Bins out")
        #expect(after.parentID == parent)
        #expect(after.repeatRule == "FREQ=WEEKLY")
        #expect(after.alertBefore == 900)
    }

    @Test func aNewDeviceSendingARowAnOlderOneWroteDoesNotStampTheNewFields() throws {
        let directory = TemporaryDirectory()
        let server = try makeServer(directory)
        let clock = TestClock()
        let old = try OlderDevice("old", server: server, clock: clock)
        let new = try Device("new", server: server, clock: clock)
        try old.db.write { db in
            try db.execute(sql: "INSERT INTO remindersLists (id, title) VALUES ('l1', 'Home')")
            try db.execute(sql: "INSERT INTO reminders (id, remindersListID, title) VALUES ('r1', 'l1', 'Bins')")
        }
        try old.engine.sync()
        try new.sync()
        clock.advance(1_000)
        try new.store.updateReminder(id: "r1", ReminderChanges(title: "Bins out"))
        try new.sync()
        let record = try #require(try server.database(user: "me", scope: .private, device: "x")
            .fetchRecords([RecordID(recordName: "reminders/r1", zoneID: ZoneID(name: "reminders", ownerName: "me"))])
            .values.first?.get())
        #expect(record.fields["title"] == .string("Bins out"))
        for column in ["parentID", "repeatRule", "repeatOf", "alertBefore", "occurrence"] {
            #expect(record.fieldModificationTimes[column] == nil, "\(column) was stamped as an edit")
        }
    }
}
