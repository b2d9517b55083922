import CloudServer
import Foundation
import GRDB
import RemindersCore
import Testing
@testable import SyncEngine
import TestSupport

@Suite struct BasicSyncTests {
    let directory = TemporaryDirectory()

    @Test func createOnOneDeviceAppearsOnAnother() throws {
        let (a, b) = try twoDevices(directory)
        let list = try a.store.createList(title: "Groceries", color: "#5cc15a")
        let milk = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Milk", dueDate: DueDate("2026-05-01"), tags: ["food"]))
        try a.store.setCover(listID: list.id, png: SampleCovers.png(named: "ocean"))
        try a.sync()
        #expect(try a.pending() == 0)
        try b.sync()
        #expect(try b.export() == a.export())
        #expect(try b.reminder(milk.id)?.title == "Milk")
        #expect(try b.export().lists.first?.coverImageSHA256 != nil)
    }

    @Test func editsAndDeletesPropagate() throws {
        let (a, b) = try twoDevices(directory)
        let list = try a.store.createList(title: "Work")
        let r = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Report"))
        try a.sync(); try b.sync()
        try b.store.updateReminder(id: r.id, ReminderChanges(title: "Quarterly report", priority: .high))
        try b.sync(); try a.sync()
        #expect(try a.reminder(r.id)?.title == "Quarterly report")
        #expect(try a.reminder(r.id)?.priority == .high)
        try a.store.deleteList(id: list.id)
        try a.sync(); try b.sync()
        #expect(try b.list(list.id) == nil)
        #expect(try b.reminder(r.id) == nil)
        #expect(try b.export() == a.export())
        #expect(try a.pending() == 0)
        #expect(try b.pending() == 0)
    }

    @Test func enginesOwnWritesAreNotCaptured() throws {
        let (a, b) = try twoDevices(directory)
        let list = try a.store.createList(title: "Work")
        _ = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Report"))
        try a.sync()
        try b.sync()
        #expect(try b.pending() == 0)
    }

    /// The undo of a list's delete, after the delete reached the other
    /// device and before: either way both end with the whole list back.
    @Test(arguments: [true, false])
    func aListDeletedThenRestoredComesBackEverywhere(deleteSyncedFirst: Bool) throws {
        let (a, b) = try twoDevices(directory)
        let list = try a.store.createList(title: "Groceries")
        try a.store.setCover(listID: list.id, png: SampleCovers.png(named: "ocean"))
        for title in ["Milk", "Bread", "Eggs"] {
            try a.store.createReminder(ReminderDraft(listID: list.id, title: title, tags: ["food"]))
        }
        try a.sync(); try b.sync()
        let before = try b.export()

        let deleted = try a.store.deleteList(id: list.id)
        if deleteSyncedFirst {
            try a.sync(); try b.sync()
            #expect(try b.list(list.id) == nil)
        }
        try a.store.restore(deleted)
        try a.sync(); try b.sync()
        #expect(try a.export() == before)
        #expect(try b.export() == before)
        #expect(try a.pending() == 0)
        #expect(try b.pending() == 0)
    }

    @Test func deleteThenInsertSameKeyEndsWithNewRow() throws {
        let (a, b) = try twoDevices(directory)
        try a.store.createTag("Work")
        try a.sync(); try b.sync()
        try a.store.deleteTag("Work")
        try a.store.createTag("Work")
        try a.sync(); try b.sync()
        #expect(try b.export().tags.map(\.title) == ["Work"])
        #expect(try a.export() == b.export())
    }

    @Test func sameTagCreatedOnTwoDevicesEndsAsOne() throws {
        let (a, b) = try twoDevices(directory)
        try a.store.createTag("Home")
        try b.store.createTag("Home")
        try a.sync(); try b.sync(); try a.sync()
        #expect(try a.export().tags.map(\.title) == ["Home"])
        #expect(try a.export() == b.export())
        #expect(try b.pending() == 0)
    }

    @Test func tagRenameSyncs() throws {
        let (a, b) = try twoDevices(directory)
        let list = try a.store.createList(title: "Work")
        let r = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Report", tags: ["todo"]))
        try a.sync(); try b.sync()
        try a.store.renameTag("todo", to: "next")
        try a.sync(); try b.sync()
        let exported = try b.export()
        #expect(exported.tags.map(\.title) == ["next"])
        #expect(exported.reminders.first { $0.id == r.id }?.tags == ["next"])
        #expect(try a.export() == exported)
        let hits = try b.db.read { db in try Queries.search(db, text: "next", showCompleted: true, clock: b.store.clock) }
        #expect(hits.hits.map(\.row.id) == [r.id])
    }
}
