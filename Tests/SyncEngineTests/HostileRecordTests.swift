import CloudServer
import Foundation
import GRDB
import RemindersCore
@testable import SyncEngine
import Testing
import TestSupport

/// Another device (buggy, or someone with the server directory and a
/// script) saves records straight through the server API, bypassing every
/// check the app makes. A device that fetches them must not crash, must not
/// be blocked from syncing forever, and must keep its own data valid.
@Suite struct HostileRecordTests {
    /// Records the local schema refuses: a value of the wrong type, a CHECK
    /// it breaks, a foreign key to nothing.
    @Test func recordsTheSchemaRefusesAreSkippedAndSyncGoesOn() throws {
        let folder = TemporaryDirectory()
        let server = try makeServer(folder)
        let phone = try Device("phone", server: server)
        let list = try phone.store.createList(title: "Home").id
        try phone.sync()
        let zone = ZoneID(name: "reminders", ownerName: "me")
        let evil = server.database(user: "me", scope: .private, device: "script")

        func reminder(_ fields: FieldMap<FieldValue>) -> ServerRecord {
            let id = newID()
            var all: FieldMap<FieldValue> = ["remindersListID": .string(list), "title": .string("r \(id.prefix(4))")]
            all.merge(fields) { $1 }
            return ServerRecord(id: RecordID(recordName: "reminders/\(id)", zoneID: zone), recordType: "reminders",
                                fields: all, fieldModificationTimes: all.mapValues { _ in 1 },
                                parent: RecordID(recordName: "remindersLists/\(list)", zoneID: zone))
        }
        let refused = [
            reminder(["priority": .int64(99)]),
            reminder(["priority": .double(1.5)]),
            reminder(["title": .bytes(Data([0xFF, 0xFE, 0x1B]))]),
            reminder(["isFlagged": .string("yes")]),
            reminder(["status": .string("exploded")]),
            reminder(["dueDate": .string("tomorrow, maybe")]),
            reminder(["remindersListID": .int64(5)]),
            ServerRecord(id: RecordID(recordName: "remindersLists/\(newID())", zoneID: zone), recordType: "remindersLists",
                         fields: ["title": .string("Red"), "color": .string("red")], fieldModificationTimes: ["title": 1, "color": 1]),
        ]
        let accepted = [
            reminder(["title": .string("fine")]),
            reminder(["title": .string("\u{1B}[2J\u{1B}]0;owned\u{7} escapes are only text"), "notes": .string(String(repeating: "n", count: 1_000_000))]),
            reminder(["dueDate": .string("0000-00-00")]),
        ]
        let result = try evil.modifyRecords(saving: refused + accepted, deleting: [])
        #expect(result.saveResults.values.allSatisfy { if case .success = $0 { true } else { false } })

        let report = try phone.sync()
        #expect(report.conflicts >= refused.count)
        for record in refused {
            let key = String(record.id.recordName.split(separator: "/")[1])
            #expect(try phone.db.read { db in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM reminders WHERE id = ?) OR EXISTS (SELECT 1 FROM remindersLists WHERE id = ?)",
                                  arguments: [key, key])
            } == false, "\(record.fields) was applied")
        }
        // The valid ones arrived; a due date no calendar has reads as none.
        let dump = try phone.export()
        #expect(Set(dump.reminders.map(\.title)).isSuperset(of: ["fine", "\u{1B}[2J\u{1B}]0;owned\u{7} escapes are only text"]))
        #expect(dump.reminders.count == accepted.count)
        #expect(dump.reminders.first { $0.id == String(accepted[2].id.recordName.dropFirst("reminders/".count)) }?.dueDate == nil)
        // Each refusal is in the conflict log, naming the device.
        let refusals = try phone.engine.conflicts().filter { $0.remote?.hasPrefix("refused") == true }
        #expect(refusals.count == refused.count)
        #expect(refusals.allSatisfy { $0.remoteDevice == "script" && $0.winner == "local" })

        // Nothing is stuck: the next sync is quiet, and edits still travel.
        #expect(try phone.sync().isEmpty)
        _ = try phone.store.createReminder(ReminderDraft(listID: list, title: "after"))
        #expect(try phone.sync().sentSaves == 1)
        #expect(try phone.pending() == 0)
    }

    /// An update that breaks the schema: the local row stays valid and is
    /// sent back, so the server heals and every device converges.
    @Test func aRefusedUpdateKeepsTheLocalRowAndHealsTheServer() throws {
        let folder = TemporaryDirectory()
        let server = try makeServer(folder)
        let phone = try Device("phone", server: server)
        let laptop = try Device("laptop", server: server)
        let list = try phone.store.createList(title: "Home").id
        let id = try phone.store.createReminder(ReminderDraft(listID: list, title: "Buy milk", priority: .high)).id
        try phone.sync()
        try laptop.sync()

        let zone = ZoneID(name: "reminders", ownerName: "me")
        let evil = server.database(user: "me", scope: .private, device: "script")
        let recordID = RecordID(recordName: "reminders/\(id)", zoneID: zone)
        guard case .success(var record)? = try evil.fetchRecords([recordID])[recordID] else {
            Issue.record("the reminder is not on the server")
            return
        }
        record.fields["priority"] = .int64(7)
        record.fields["title"] = .string("Buy oat milk")
        record.fieldModificationTimes["priority"] = Int64.max / 2
        record.fieldModificationTimes["title"] = Int64.max / 2
        guard case .success? = try evil.modifyRecords(saving: [record], deleting: []).saveResults[recordID] else {
            Issue.record("the server refused the save")
            return
        }

        try phone.sync()
        #expect(try phone.reminder(id)?.priority == .high)
        #expect(try phone.reminder(id)?.title == "Buy milk")
        try laptop.sync()
        try phone.sync()
        #expect(try phone.export() == laptop.export())
        guard case .success(let healed)? = try evil.fetchRecords([recordID])[recordID] else {
            Issue.record("the reminder left the server")
            return
        }
        #expect(healed.fields["priority"] == .int64(3))
        // A later edit on either device still syncs.
        try laptop.store.updateReminder(id: id, ReminderChanges(title: "Buy milk and eggs"))
        try laptop.sync()
        try phone.sync()
        #expect(try phone.reminder(id)?.title == "Buy milk and eggs")
    }
}
