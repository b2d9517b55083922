import Foundation
import RemindersCore
@testable import DeviceRuntime
@testable import RemindersViewModels
import Testing
import TestSupport

/// The conflicts screen's data: real conflicts made by two devices that
/// edited the same reminder between syncs.
@Suite struct ConflictsViewModelTests {
    /// A reminder "Milk" in Groceries on both devices; the laptop renames it
    /// and flags it, the desktop renames it later and sets a due date; the
    /// laptop syncs first, so the desktop's merge logs the title conflict.
    struct Scenario {
        let cloud: DeviceWorld
        let laptop: DeviceSession
        let desktop: DeviceSession
        let reminderID: String

        init() throws {
            cloud = DeviceWorld()
            (laptop, desktop, reminderID) = try cloud.milkOnLaptopAndDesktop(priority: .low)
            try laptop.store.updateReminder(id: reminderID, ReminderChanges(title: "Oat milk", priority: .high, isFlagged: true))
            cloud.later()
            try desktop.store.updateReminder(id: reminderID, ReminderChanges(title: "Buy milk", dueDate: DueDate("2026-03-04T18:00"),
                                                                            priority: .medium))
            try laptop.syncOnce()
            try desktop.syncOnce()
        }

        /// The desktop's conflicts screen, with live sync as its controls.
        func viewModel() -> (ConflictsViewModel, LiveSync) {
            let live = LiveSync(engine: desktop.engine, server: .directory(cloud.serverDirectory))
            let model = ConflictsViewModel(environment: cloud.environment(desktop, live: live))
            model.refresh()
            return (model, live)
        }
    }

    @Test func listsEachConflictWithBothSidesAndTheWinner() throws {
        let scenario = try Scenario()
        let (model, _) = scenario.viewModel()
        defer { model.stop() }
        let state = model.state
        #expect(state.isAvailable)
        #expect(state.newCount == 2)
        #expect(state.items.map(\.fieldName).sorted() == ["Priority", "Title"])

        let title = try #require(state.items.first { $0.fieldName == "Title" })
        #expect(title.subject == "Reminder “Buy milk”")
        #expect(title.listTitle == "Groceries")
        #expect(title.ancestor == "Milk")
        #expect(title.thisDevice.value == "Buy milk")
        #expect(title.thisDevice.device == "desktop")
        #expect(title.otherDevice.value == "Oat milk")
        #expect(title.otherDevice.device == "laptop")
        #expect(title.winner == .thisDevice)
        #expect(title.reason == "this device's edit is the later one")
        #expect(title.losingSide?.value == "Oat milk")
        #expect(title.canKeepOther)
        let thisTime = try #require(title.thisDevice.time)
        let otherTime = try #require(title.otherDevice.time)
        #expect(thisTime > otherTime)
        #expect(abs(thisTime.timeIntervalSinceNow) < 60)

        let priority = try #require(state.items.first { $0.fieldName == "Priority" })
        #expect(priority.ancestor == "low")
        #expect(priority.thisDevice.value == "medium")
        #expect(priority.otherDevice.value == "high")
    }

    @Test func entriesAreNewestFirst() throws {
        let scenario = try Scenario()
        // A second round of conflicts, later.
        try scenario.laptop.syncOnce()
        try scenario.laptop.store.updateReminder(id: scenario.reminderID, ReminderChanges(notes: "oat, 2 cartons"))
        scenario.cloud.later()
        try scenario.desktop.store.updateReminder(id: scenario.reminderID, ReminderChanges(notes: "the barista kind"))
        scenario.cloud.later()
        try scenario.laptop.syncOnce()
        try scenario.desktop.syncOnce()
        let (model, _) = scenario.viewModel()
        defer { model.stop() }
        let items = model.state.items
        #expect(items.first?.fieldName == "Notes")
        #expect(items.map(\.resolvedAt) == items.map(\.resolvedAt).sorted(by: >))
    }

    @Test func keepingTheOtherValueIsAnEditThatSyncs() async throws {
        let scenario = try Scenario()
        let (model, live) = scenario.viewModel()
        defer { model.stop() }
        let title = try #require(model.state.items.first { $0.fieldName == "Title" })
        let result = model.keepOtherValue(id: title.id)
        #expect(result.errorMessage == nil)
        #expect(result.message == "Title of Reminder “Buy milk” is “Oat milk” again; syncing")
        #expect(try scenario.desktop.reminderTitle(scenario.reminderID) == "Oat milk")
        try await model.waitFor { state in
            state.items.first { $0.id == title.id }?.isDismissed == true && state.newCount == 1
        }
        // It is a new edit: it goes to the server and wins on the laptop.
        #expect(try scenario.desktop.engine.pendingCount() == 1)
        _ = live
        try scenario.desktop.syncOnce()
        try scenario.laptop.syncOnce()
        #expect(try scenario.laptop.reminderTitle(scenario.reminderID) == "Oat milk")
        #expect(try scenario.laptop.reminderField(scenario.reminderID, "dueDate") == "2026-03-04T18:00".databaseValue)
    }

    @Test func dismissingMarksTheEntryAndClearsTheBadge() async throws {
        let scenario = try Scenario()
        let (model, live) = scenario.viewModel()
        defer { model.stop() }
        let statusBar = StatusBarViewModel(environment: model.environment)
        defer { statusBar.stop() }
        live.refreshStatus()
        try await statusBar.waitFor { $0.sync.conflictsCount == 2 }
        let first = try #require(model.state.items.first)
        #expect(model.dismiss(id: first.id).message == "Dismissed")
        try await model.waitFor { $0.newCount == 1 && $0.items.count == 2 }
        try await statusBar.waitFor { $0.sync.conflictsCount == 1 }
        #expect(model.dismissAll().message == "Dismissed 1 conflict")
        try await model.waitFor { $0.newCount == 0 }
        try await statusBar.waitFor { $0.sync.conflictsCount == 0 }
        #expect(model.dismissAll().message == "Nothing to dismiss")
    }

    @Test func aDeletedReminderCannotGetItsValueBack() async throws {
        let scenario = try Scenario()
        let (model, _) = scenario.viewModel()
        defer { model.stop() }
        _ = try scenario.desktop.store.deleteReminder(id: scenario.reminderID)
        try await model.waitFor { $0.items.allSatisfy(\.isGone) }
        // Named by the title its title conflict kept; the priority's entry
        // knows none.
        let title = try #require(model.state.items.first { $0.fieldName == "Title" })
        #expect(title.subject == "Reminder “Buy milk” (deleted)")
        #expect(!title.canKeepOther)
        #expect(model.keepOtherValue(id: title.id).errorMessage == "Reminder “Buy milk” (deleted) no longer exists")
        let priority = try #require(model.state.items.first { $0.fieldName == "Priority" })
        #expect(priority.subject == "Reminder \(scenario.reminderID.prefix(8)) (deleted)")
    }

    @Test func aDeleteThatBeatAnEditSaysWhy() throws {
        let cloud = DeviceWorld()
        let (laptop, desktop, reminderID) = try cloud.milkOnLaptopAndDesktop()
        _ = try laptop.store.deleteReminder(id: reminderID)
        try desktop.store.updateReminder(id: reminderID, ReminderChanges(title: "Buy milk"))
        try laptop.syncOnce()
        try desktop.syncOnce()
        let model = ConflictsViewModel(environment: cloud.environment(desktop, live: LiveSync(engine: desktop.engine, server: .directory(cloud.serverDirectory))))
        defer { model.stop() }
        model.refresh()
        let item = try #require(model.state.items.first)
        #expect(item.winner == .delete)
        #expect(item.fieldName == "Whole reminder")
        #expect(item.reason == "the other device deleted it, and a delete wins over a concurrent edit")
        #expect(!item.canKeepOther)
        // The laptop, which deleted, reads the desktop's entry from its own
        // side: the server told the desktop who deleted it.
        try laptop.syncOnce()
        let onLaptop = ConflictsViewModel(environment: cloud.environment(laptop, live: LiveSync(engine: laptop.engine, server: .directory(cloud.serverDirectory))))
        defer { onLaptop.stop() }
        onLaptop.refresh()
        let seen = try #require(onLaptop.state.items.first)
        #expect(seen.id == item.id)
        #expect(seen.reason == "this device deleted it, and a delete wins over a concurrent edit")
        #expect(seen.thisDevice.value == "deleted" && seen.otherDevice.device == "desktop")
    }

    /// A reminder made on one device in a list another device deleted
    /// goes with the list; its entry keeps it whole, and "put back" brings
    /// it back, in the default list, on every device.
    @Test func aReminderThatWentWithADeletedListCanBePutBack() throws {
        let cloud = DeviceWorld()
        let (laptop, desktop, reminderID) = try cloud.milkOnLaptopAndDesktop()
        let groceries = try #require(try laptop.reminder(reminderID)).remindersListID
        let home = try laptop.store.createList(title: "Home")
        try laptop.syncOnce()
        try desktop.syncOnce()
        _ = try desktop.store.deleteList(id: groceries)
        let note = try laptop.store.createReminder(ReminderDraft(
            listID: groceries, title: "Wifi", notes: "the password is hunter2", dueDate: DueDate("2026-03-05T09:00"),
            priority: .high, isFlagged: true, alertBefore: 15))
        try desktop.syncOnce()
        try laptop.syncOnce()
        #expect(try laptop.reminder(note.id) == nil)

        let live = LiveSync(engine: laptop.engine, server: .directory(cloud.serverDirectory))
        let model = ConflictsViewModel(environment: cloud.environment(laptop, live: live))
        defer { model.stop() }
        model.refresh()
        let item = try #require(model.state.items.first { $0.entry.recordID == note.id })
        #expect(item.reason == "it went with what it was in (its list, or the reminder it was a subtask of), deleted on desktop")
        #expect(item.lostReminderValues != nil)
        #expect(item.thisDevice.value?.contains("Priority high") == true)
        #expect(item.thisDevice.value?.contains("Position") == false)
        let result = model.restoreLost(id: item.id)
        #expect(result.message == "“Wifi” is back, in Home; syncing", "\(result)")
        let back = try #require(try laptop.reminder(note.id))
        #expect(back.remindersListID == home.id)
        #expect(back.title == "Wifi" && back.notes == "the password is hunter2" && back.dueDate == DueDate("2026-03-05T09:00"))
        #expect(back.priority == .high && back.isFlagged && back.alertBefore == 15)
        model.refresh()
        #expect(model.state.items.first { $0.id == item.id }?.isDismissed == true)
        // Once back, there is nothing more to put back.
        #expect(model.restoreLost(id: item.id).errorMessage == "Reminder “Wifi” is here: there is nothing to put back")

        try laptop.syncOnce()
        try desktop.syncOnce()
        #expect(try desktop.reminder(note.id)?.title == "Wifi")
        #expect(try desktop.reminder(note.id)?.remindersListID == home.id)
    }

    /// A reminder deleted on one device while edited on another comes
    /// back in the list it was in, when that list is still here, with its
    /// tags (made again where a tag is gone meanwhile).
    @Test func aReminderADeleteTookComesBackInItsOwnList() throws {
        let cloud = DeviceWorld()
        let (laptop, desktop, _) = try cloud.milkOnLaptopAndDesktop()
        let errands = try laptop.store.createList(title: "Errands")
        let stamps = try laptop.store.createReminder(ReminderDraft(listID: errands.id, title: "Stamps", dueDate: DueDate("2026-03-05T09:00"),
                                                                   priority: .high, isFlagged: true, tags: ["post", "Town"]))
        try laptop.syncOnce()
        try desktop.syncOnce()
        _ = try desktop.store.deleteReminder(id: stamps.id)
        try laptop.store.updateReminder(id: stamps.id, ReminderChanges(notes: "first class"))
        try desktop.syncOnce()
        try laptop.syncOnce()
        #expect(try laptop.reminder(stamps.id) == nil)

        let live = LiveSync(engine: laptop.engine, server: .directory(cloud.serverDirectory))
        let model = ConflictsViewModel(environment: cloud.environment(laptop, live: live))
        defer { model.stop() }
        model.refresh()
        let item = try #require(model.state.items.first { $0.entry.recordID == stamps.id })
        #expect(item.lostReminderListID == errands.id)
        #expect(item.thisDevice.value?.contains("Tags #Town #post") == true, "\(String(describing: item.thisDevice.value))")
        try laptop.store.deleteTag("town")
        #expect(model.restoreLost(id: item.id).message == "“Stamps” is back, in Errands; syncing")
        let back = try #require(try laptop.reminder(stamps.id))
        #expect(back.remindersListID == errands.id && back.notes == "first class")
        // What was not edited comes back too.
        #expect(back.dueDate == DueDate("2026-03-05T09:00") && back.priority == .high && back.isFlagged)
        func tags(_ device: DeviceSession) throws -> [String] {
            try device.store.writer.read { db in
                try String.fetchAll(db, sql: """
                    SELECT tags.title FROM remindersTags JOIN tags ON tags.id = remindersTags.tagID
                    WHERE remindersTags.reminderID = ? ORDER BY tags.title
                    """, arguments: [stamps.id])
            }
        }
        #expect(try tags(laptop) == ["Town", "post"])
        try laptop.syncOnce()
        try desktop.syncOnce()
        #expect(try desktop.reminder(stamps.id)?.notes == "first class")
        #expect(try tags(desktop) == ["Town", "post"])
        // A put-back that finds it here at its write (a sync brought it
        // between the look and the write) says where it is.
        let values = try #require(item.putBackValues)
        #expect(try ConflictsViewModel.putBack(laptop.store, id: stamps.id, values: values, listID: errands.id)
                == .hereAlready("“Stamps” was put back already, in Errands"))
    }

    @Test func withoutSyncThereIsNoLog() throws {
        let world = try World()
        let model = ConflictsViewModel(environment: world.environment)
        defer { model.stop() }
        model.refresh()
        #expect(model.state.isLoaded)
        #expect(!model.state.isAvailable)
        #expect(model.state.items.isEmpty)
        #expect(model.dismissAll().errorMessage == "Sync is not set up on this device")
    }
}

@Suite struct KeptValuesTests {
    /// What a dropped edit kept reads as a person writes it, not as columns.
    @Test func keptValuesReadAsAPersonWritesThem() throws {
        let db = try AppDatabase.inMemory()
        let text = #"[["title","Milk (oat)"],["priority","3"],["isFlagged","1"],["dueDate","2026-03-02T09:00"]]"#
        let shown = try db.read { db in try ConflictText.kept(text, table: "reminders", db) }
        #expect(shown == "Title “Milk (oat)”, Priority high, Flag flagged, Due date 2026-03-02 09:00")
        // Text logged plainly (older entries) stays as it was.
        #expect(try db.read { db in try ConflictText.kept("edited", table: "reminders", db) } == "edited")
        // A tick refused while it was still taking reads as done.
        let ticked = #"[["title","Milk"],["status","completing"]]"#
        #expect(try db.read { db in try ConflictText.kept(ticked, table: "reminders", db) } == "Title “Milk”, Status completed")
    }
}
