import CloudServer
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import Testing
import TestSupport
@testable import SyncEngine

/// Subtasks and repeating reminders edited on two devices at once, each
/// scenario with the outcome the docs define.
@Suite struct SubtaskAndRepeatSyncTests {
    /// Two synced devices with a list; returns them and the list's id.
    private func start(_ directory: TemporaryDirectory) throws -> (Device, Device, String) {
        let (a, b) = try twoDevices(directory)
        let list = try a.store.createList(title: "Home")
        try a.sync()
        try b.sync()
        return (a, b, list.id)
    }

    private func add(_ device: Device, _ title: String, in list: String, parent: String? = nil, due: String? = nil,
                     rule: String? = nil) throws -> String {
        try device.store.createReminder(ReminderDraft(
            listID: list, title: title, dueDate: due.flatMap(DueDate.init), parentID: parent, repeatRule: rule)).id
    }

    /// Fetches on `device`, which takes `step` away with its parent's
    /// delete, and returns the log's entry for it.
    private func fetchLosingToParentsDelete(_ device: Device, _ step: String,
                                            sourceLocation: SourceLocation = #_sourceLocation) throws -> ConflictEntry {
        _ = try device.engine.fetchChanges()
        #expect(try device.reminder(step) == nil, sourceLocation: sourceLocation)
        let entry = try #require(try device.engine.conflicts().first { $0.recordID == step }, sourceLocation: sourceLocation)
        #expect(entry.remote == "deleted with its parent", sourceLocation: sourceLocation)
        return entry
    }

    /// A parent made on A and synced; B adds a subtask under it and sends
    /// it; A, which has not fetched it, deletes the parent (not sent yet).
    /// Returns the devices and the subtask's id.
    private func subtaskSentWhileItsParentIsDeleted(_ directory: TemporaryDirectory) throws -> (Device, Device, String) {
        let (a, b, list) = try start(directory)
        let parent = try add(a, "Paint the fence", in: list)
        try syncAll(a, b)
        let step = try add(b, "Buy paint", in: list, parent: parent)
        try b.sync()
        _ = try a.store.deleteReminder(id: parent)
        return (a, b, step)
    }

    private func syncAll(_ devices: Device...) throws {
        for _ in 0..<3 { for device in devices { try device.sync() } }
    }

    // MARK: Subtasks

    @Test func aSubtaskAddedUnderAParentDeletedElsewhereGoesWithIt() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let parent = try add(a, "Paint the fence", in: list)
        try syncAll(a, b)
        try a.store.deleteReminder(id: parent)
        let step = try add(b, "Buy paint", in: list, parent: parent)
        try a.sync()
        try b.sync()
        try syncAll(a, b)
        #expect(try b.reminder(step) == nil)
        #expect(try a.reminder(step) == nil)
        #expect(try a.export() == b.export())
    }

    /// A subtask still waiting to be sent when its parent's delete comes
    /// in goes with the parent, and the log keeps what it was (it said
    /// only "edited"), so the user can see what the delete took.
    @Test func aSubtaskNotSentYetWhenItsParentsDeleteArrivesIsLoggedWithItsTitle() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let parent = try add(a, "Paint the fence", in: list)
        try syncAll(a, b)
        try a.store.deleteReminder(id: parent)
        try a.sync()
        let step = try add(b, "Buy paint", in: list, parent: parent)
        let entry = try fetchLosingToParentsDelete(b, step)
        #expect(ConflictEntry.keptValues(entry.local)?.first?.column == "title")
        #expect(ConflictEntry.keptValues(entry.local)?.first?.value == "Buy paint")
        try syncAll(a, b)
        #expect(try a.reminder(step) == nil)
        #expect(try a.export() == b.export())
    }

    /// A subtask the server had confirmed, edited here and not sent when
    /// its parent's delete comes in from a device that never had it: the
    /// log keeps the values edited here, numbers as text, and not the ones
    /// it was confirmed with.
    @Test func aConfirmedSubtaskEditedHereWhenItsParentsDeleteArrivesIsLoggedWithItsEdits() throws {
        let directory = TemporaryDirectory()
        let (a, b, step) = try subtaskSentWhileItsParentIsDeleted(directory)
        try a.engine.sendChanges()
        try b.store.updateReminder(id: step, ReminderChanges(notes: "the green one", priority: .high))
        let entry = try fetchLosingToParentsDelete(b, step)
        // The edit, and the title the entry is named by once the row is gone.
        #expect(ConflictEntry.keptValues(entry.local)?.map { "\($0.column)=\($0.value)" }
                == ["title=Buy paint", "notes=the green one", "priority=3"])
    }

    /// The same edit when the deleting device had the subtask: its delete
    /// names it, and comes first (`childrenFirst`), so the log says the
    /// delete beat the edit, with the values edited here.
    @Test func aSubtaskEditedHereThatTheDeletingDeviceHadIsLoggedAsADelete() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let parent = try add(a, "Paint the fence", in: list)
        let step = try add(a, "Buy paint", in: list, parent: parent)
        try syncAll(a, b)
        try a.store.deleteReminder(id: parent)
        try a.sync()
        try b.store.updateReminder(id: step, ReminderChanges(notes: "the green one", priority: .high))
        _ = try b.engine.fetchChanges()
        #expect(try b.reminder(step) == nil)
        let entry = try #require(try b.engine.conflicts().first { $0.recordID == step })
        #expect(entry.remote == "deleted")
        #expect(ConflictEntry.keptValues(entry.local)?.map { "\($0.column)=\($0.value)" }
                == ["remindersListID=\(list)", "title=Buy paint", "notes=the green one", "priority=3"])
    }

    /// A subtask the server confirmed before its parent's delete came from
    /// a device that never had it: it goes with the parent, and the
    /// device that made it logs what went (the deleting device cannot: it
    /// never knew of it). One entry, synced to the other device.
    @Test func aSubtaskSentBeforeItsParentsDeleteIsLoggedWhereItWasMade() throws {
        let directory = TemporaryDirectory()
        let (a, b, step) = try subtaskSentWhileItsParentIsDeleted(directory)
        // Sent before any fetch: A never has the subtask.
        try a.engine.sendChanges()
        let entry = try fetchLosingToParentsDelete(b, step)
        #expect(ConflictEntry.keptValues(entry.local)?.first?.value == "Buy paint")
        try syncAll(a, b)
        #expect(try a.reminder(step) == nil)
        #expect(try a.engine.conflicts().filter { $0.recordID == step }.count == 1)
        #expect(try b.engine.conflicts().count == 1)
        #expect(try a.export() == b.export())
    }

    /// The same subtask when the deleting device fetches it before its
    /// maker fetches the delete (as a sync does: send, then fetch): that
    /// device drops the orphan and logs it from the maker's side, and the
    /// maker, which then receives both deletes, adds no entry of its own.
    @Test func aSubtaskFetchedAsAnOrphanIsLoggedOnceForItsMaker() throws {
        let directory = TemporaryDirectory()
        let (a, b, step) = try subtaskSentWhileItsParentIsDeleted(directory)
        try a.sync()
        let logged = try a.engine.conflicts().filter { $0.recordID == step }
        #expect(logged.count == 1)
        #expect(logged.first?.localDevice == "B")
        #expect(logged.first?.remote == "deleted with its parent")
        #expect(ConflictEntry.keptValues(logged.first?.local)?.first?.value == "Buy paint")
        try b.sync()
        #expect(try b.reminder(step) == nil)
        try syncAll(a, b)
        #expect(try a.engine.conflicts().count == 1)
        #expect(try b.engine.conflicts().count == 1)
        #expect(try a.export() == b.export())
    }

    /// Both devices log the loss under one id; the maker dismisses its
    /// entry before the other device's arrives, and it stays dismissed
    /// (the entries are stamped at the start of time, the dismissal now).
    @Test func aDismissalOfALossBothDevicesLoggedStands() throws {
        let directory = TemporaryDirectory()
        let (a, b, step) = try subtaskSentWhileItsParentIsDeleted(directory)
        try a.engine.sendChanges()
        let entry = try fetchLosingToParentsDelete(b, step)
        try b.engine.dismissConflict(id: entry.id)
        // A, whose clock is an hour ahead, fetches the subtask as an orphan
        // and logs it too.
        a.clock.advance(3_600_000)
        _ = try a.engine.fetchChanges()
        #expect(try a.engine.conflicts().first { $0.recordID == step }?.isDismissed == false)
        try syncAll(a, b)
        for device in [a, b] {
            let entries = try device.engine.conflicts()
            #expect(entries.count == 1)
            #expect(entries.first?.isDismissed == true, "\(device.name)")
        }
    }

    /// A parent deleted with its subtasks sends their deletes first, so
    /// the server records them first and a device fetching a page at a
    /// time meets a subtask's delete before its parent's.
    @Test func aParentsDeleteGoesAfterItsSubtasks() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let parent = try add(a, "Paint the fence", in: list)
        let steps = try ["Buy paint", "Sand it", "Two coats"].map { try add(a, $0, in: list, parent: parent) }
        let other = try add(a, "Call mom", in: list)
        try syncAll(a, b)
        _ = try a.store.deleteReminder(id: other)
        _ = try a.store.deleteReminder(id: parent)
        let batch = try a.db.read { db in try a.engine.outgoingBatch(db, limit: 400) }
        let order = batch.compactMap { $0.deleteID == nil ? nil : $0.key }
        #expect(Set(order) == Set(steps + [parent, other]))
        let parentAt = try #require(order.firstIndex(of: parent))
        for step in steps { #expect(try #require(order.firstIndex(of: step)) < parentAt) }
        try syncAll(a, b)
        #expect(try b.engine.conflicts().isEmpty)
        #expect(try a.export() == b.export())
    }

    /// A subtask fetched while its parent's delete waits here to be sent:
    /// dropped, and logged for the device that made it.
    @Test func aSubtaskFetchedUnderAParentDeletedHereIsLoggedForItsMaker() throws {
        let directory = TemporaryDirectory()
        let (a, b, step) = try subtaskSentWhileItsParentIsDeleted(directory)
        _ = try a.engine.fetchChanges()
        #expect(try a.reminder(step) == nil)
        #expect(try a.engine.conflicts().map(\.recordID) == [step])
        try syncAll(a, b)
        #expect(try b.reminder(step) == nil)
        #expect(try a.engine.conflicts().count == 1)
        #expect(try b.engine.conflicts().count == 1)
        #expect(try a.export() == b.export())
    }

    /// A reminder added to a list whose delete comes from a device that
    /// never had it is logged where it was made; one the deleting device
    /// had goes with the list unlogged, as the delete named it.
    @Test func aReminderSentBeforeItsListsDeleteIsLoggedWhereItWasMade() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let known = try add(b, "Water the plants", in: list)
        try syncAll(a, b)
        let added = try add(b, "Call the plumber", in: list)
        try b.sync()
        _ = try a.store.deleteList(id: list)
        try a.engine.sendChanges()
        let entry = try fetchLosingToParentsDelete(b, added)
        #expect(ConflictEntry.keptValues(entry.local)?.first?.value == "Call the plumber")
        #expect(try b.reminder(known) == nil)
        #expect(try b.engine.conflicts().map(\.recordID) == [added])
        try syncAll(a, b)
        #expect(try a.export() == b.export())
    }

    /// A subtask the deleting device had goes with its parent, and no
    /// device logs it: the delete named it.
    @Test func aSubtaskTheDeletingDeviceHadGoesUnlogged() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let parent = try add(a, "Paint the fence", in: list)
        try syncAll(a, b)
        let step = try add(b, "Buy paint", in: list, parent: parent)
        try syncAll(a, b)
        _ = try a.store.deleteReminder(id: parent)
        try a.sync()
        _ = try b.engine.fetchChanges()
        #expect(try b.reminder(step) == nil)
        #expect(try b.engine.conflicts().isEmpty)
        try syncAll(a, b)
        #expect(try a.engine.conflicts().isEmpty)
    }

    /// The function behind the delete triggers' log, by its rule.
    @Test func lostValuesKeepWrittenTextOfANewRowAndEditsOfAConfirmedOne() {
        let arguments: (Bool, String?) -> [DatabaseValue] = { confirmed, editTimes in
            [confirmed.databaseValue, editTimes.databaseValue, DatabaseValue.null,
             "title".databaseValue, "Cake".databaseValue, 0.databaseValue,
             "notes".databaseValue, "".databaseValue, 0.databaseValue,
             "priority".databaseValue, 2.databaseValue, 1.databaseValue,
             "dueDate".databaseValue, DatabaseValue.null, 0.databaseValue]
        }
        // A new row: its text and its numbers other than 0 (to put it back whole).
        #expect(SyncFunctions.lostValues(arguments(false, "{}")) == #"[["title","Cake"],["priority","2"]]"#)
        // A confirmed row: its edits, and its name (the first text column).
        #expect(SyncFunctions.lostValues(arguments(true, #"{"notes":5,"priority":7,"dueDate":9}"#))
                == #"[["title","Cake"],["notes",""],["priority","2"]]"#)
        #expect(SyncFunctions.lostValues(arguments(true, "{}")) == #"[["title","Cake"]]"#)
        // A wide table's second call goes on from the first's.
        var second = arguments(false, "{}")
        second[2] = #"[["name","Ann"]]"#.databaseValue
        #expect(SyncFunctions.lostValues(second) == #"[["name","Ann"],["title","Cake"],["priority","2"]]"#)
    }

    /// The function behind the log of a confirmed row that went with its
    /// parent: only while deletes from elsewhere apply, only for a row they
    /// do not name, and only for a version this device saved.
    @Test func lostWithParentNeedsDeletesFromElsewhereThatDoNotNameARowSavedHere() throws {
        let functions = SyncFunctions(wallClock: { 0 }, userName: "me", deviceName: "laptop")
        let zone = ZoneID(name: "Reminders", ownerName: "me")
        func arguments(savedBy device: String) throws -> [DatabaseValue] {
            let record = ServerRecord(id: RecordID(recordName: "reminders/r1", zoneID: zone), recordType: "reminders",
                                      changeTag: "1", modifiedByUser: "me", modifiedByDevice: device)
            return ["reminders".databaseValue, "r1".databaseValue, try RecordCoder.encode(record).databaseValue]
        }
        let here = try arguments(savedBy: "laptop")
        #expect(!functions.lostWithParent(here))
        // A table whose rows hold no text a person wrote: never.
        functions.applyingDeletes(of: ["reminders/p1"]) { #expect(!functions.lostWithParent(here)) }
        functions.writtenTextTables = ["reminders"]
        functions.applyingDeletes(of: ["reminders/p1"]) {
            #expect(functions.lostWithParent(here))
            #expect(!functions.lostWithParent((try? arguments(savedBy: "phone")) ?? []))
        }
        functions.applyingDeletes(of: ["reminders/p1", "reminders/r1"]) {
            #expect(!functions.lostWithParent(here))
        }
        #expect(!functions.lostWithParent(here))
    }

    /// A table too wide for one call (SQLite takes 127 arguments) gets its
    /// delete trigger in several, and keeps every column's value. (The
    /// capture triggers' `json_object` of every column limits a synced
    /// table to 62 columns anyway.)
    @Test func aWideTablesDeleteTriggerKeepsEveryColumn() throws {
        let db = try DatabaseQueue()
        let count = ChangeCapture.lostValuesPerCall + 10
        let columns = (0..<count).map { "c\($0) TEXT" }.joined(separator: ", ")
        try db.write { db in try db.execute(sql: "CREATE TABLE wide (id TEXT PRIMARY KEY NOT NULL, \(columns))") }
        let engine = try SyncEngine(writer: db, userName: "me", deviceName: "laptop", tables: [SyncedTable("wide")])
        let values = (0..<count).map { "'v\($0)'" }.joined(separator: ", ")
        try db.write { db in try db.execute(sql: "INSERT INTO wide VALUES ('w1', \(values))") }
        try engine.functions.applying {
            try db.write { db in try db.execute(sql: "DELETE FROM wide") }
        }
        let local = try db.read { db in try String.fetchOne(db, sql: "SELECT local FROM sync_conflicts WHERE recordName = 'w1'") }
        let kept = try #require(ConflictEntry.keptValues(local))
        #expect(kept.count == count)
        #expect(kept.last?.value == "v\(count - 1)")
    }

    @Test func aSubtaskAddedWhileItsParentMovedToAnotherListEndsInTheNewList() throws {
        let directory = TemporaryDirectory()
        let (a, b, home) = try start(directory)
        let garden = try a.store.createList(title: "Garden").id
        let parent = try add(a, "Paint the fence", in: home)
        try syncAll(a, b)
        try a.store.updateReminder(id: parent, ReminderChanges(listID: garden))
        let step = try add(b, "Buy paint", in: home, parent: parent)
        try syncAll(b, a)
        #expect(try a.reminder(step)?.remindersListID == garden)
        #expect(try b.reminder(step)?.remindersListID == garden)
        #expect(try a.reminder(step)?.parentID == parent)
        #expect(try a.export() == b.export())
    }

    @Test func movingTwoRemindersUnderEachOtherAtOnceLeavesBothAtTheTop() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let first = try add(a, "A", in: list)
        let second = try add(a, "B", in: list)
        try syncAll(a, b)
        try a.store.setParent(id: first, parentID: second)
        try b.store.setParent(id: second, parentID: first)
        try syncAll(a, b)
        for device in [a, b] {
            #expect(try device.reminder(first)?.parentID == nil)
            #expect(try device.reminder(second)?.parentID == nil)
            #expect(try device.pending() == 0)
        }
        #expect(try a.export() == b.export())
    }

    @Test func aChainMadeByConcurrentMovesKeepsTheLowerLink() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let x = try add(a, "X", in: list)
        let y = try add(a, "Y", in: list)
        let z = try add(a, "Z", in: list)
        try syncAll(a, b)
        try a.store.setParent(id: x, parentID: y)
        try b.store.setParent(id: y, parentID: z)
        try syncAll(a, b)
        // Y stays under Z; X, whose parent became a subtask, goes to the top.
        #expect(try a.reminder(y)?.parentID == z)
        #expect(try a.reminder(x)?.parentID == nil)
        #expect(try a.export() == b.export())
    }

    @Test func aSubtaskIsSentAfterItsNewParentSoNoDeviceHoldsIt() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let parent = try add(a, "Trip", in: list)
        let steps = try (0..<5).map { try add(a, "Step \($0)", in: list, parent: parent) }
        let batch = try a.db.read { db in try a.engine.outgoingBatch(db, limit: 400) }
        let names = batch.compactMap { $0.record?.id.recordName }
        #expect(names.contains("reminders/\(parent)"))
        #expect(steps.allSatisfy { !names.contains("reminders/\($0)") }, "a subtask went in the same request as its new parent")
        try a.sync()
        try b.sync()
        #expect(try b.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_held_records") } == 0)
        #expect(try b.reminder(steps[4])?.parentID == parent)
    }

    @Test func deletingAParentDeletesItsSubtasksEverywhereAndUndoPutsThemBack() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let parent = try add(a, "Trip", in: list)
        let step = try add(a, "Passport", in: list, parent: parent)
        try syncAll(a, b)
        let deleted = try a.store.deleteReminder(id: parent)
        #expect(deleted.subtasks.map(\.reminder.id) == [step])
        try syncAll(a, b)
        #expect(try b.reminder(step) == nil)
        try a.store.restore(deleted)
        try syncAll(a, b)
        #expect(try b.reminder(step)?.parentID == parent)
        #expect(try a.export() == b.export())
    }

    // MARK: Repeats

    private let weekly = "FREQ=WEEKLY"

    @Test func twoDevicesCompletingTheSameOccurrenceEndWithOneCopyAndOneAdvance() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: weekly)
        try syncAll(a, b)
        try a.store.complete(id: bins)
        try b.store.complete(id: bins)
        try syncAll(a, b)
        for device in [a, b] {
            let copies = try device.db.read { try Reminder.filter(Column("repeatOf") == bins).fetchAll($0) }
            #expect(copies.map(\.dueDate?.description) == ["2027-01-11T19:00"])
            #expect(try device.reminder(bins)?.dueDate?.description == "2027-01-18T19:00")
        }
        #expect(try a.export() == b.export())
    }

    @Test func completingTwoOccurrencesAgainstOneEndsPastBoth() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: weekly)
        try syncAll(a, b)
        try b.store.complete(id: bins)
        try b.store.complete(id: bins)
        try b.sync()
        // A completes the first occurrence later, so its due date is the
        // newer edit: the merge keeps it, and the repair moves it on.
        a.clock.advance(60_000)
        try a.store.complete(id: bins)
        try syncAll(a, b)
        for device in [a, b] {
            #expect(try device.reminder(bins)?.dueDate?.description == "2027-01-25T19:00")
            #expect(try device.db.read { try Reminder.filter(Column("repeatOf") == bins).fetchCount($0) } == 2)
        }
        #expect(try a.export() == b.export())
    }

    @Test func completingWhileTheSeriesIsDeletedElsewhereKeepsTheCopy() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: weekly)
        try syncAll(a, b)
        try a.store.complete(id: bins)
        try b.store.deleteReminder(id: bins)
        try syncAll(a, b)
        for device in [a, b] {
            #expect(try device.reminder(bins) == nil)
            let copy = try device.reminder(Repeats.occurrenceID(series: bins, due: try #require(DueDate("2027-01-11T19:00"))))
            #expect(copy?.status == .completed)
        }
        #expect(try a.export() == b.export())
    }

    @Test func aRuleEditedWhileAnOccurrenceIsCompletedKeepsBoth() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: weekly)
        try syncAll(a, b)
        try a.store.complete(id: bins)
        b.clock.advance(60_000)
        try b.store.updateReminder(id: bins, ReminderChanges(repeatRule: .some("FREQ=WEEKLY;INTERVAL=2")))
        try syncAll(a, b)
        for device in [a, b] {
            // The advance (by the old rule) stands; the new rule applies from the next completion.
            #expect(try device.reminder(bins)?.dueDate?.description == "2027-01-18T19:00")
            #expect(try device.reminder(bins)?.repeatRule == "FREQ=WEEKLY;INTERVAL=2")
        }
        try a.store.complete(id: bins)
        try syncAll(a, b)
        #expect(try b.reminder(bins)?.dueDate?.description == "2027-02-01T19:00")
        #expect(try a.export() == b.export())
    }

    @Test func undoingACompletionPutsTheDueDateBackAndRemovesTheCopyEverywhere() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: "FREQ=WEEKLY;COUNT=3")
        try syncAll(a, b)
        try a.store.complete(id: bins)
        #expect(try a.reminder(bins)?.repeatRule == "FREQ=WEEKLY;COUNT=2")
        try syncAll(a, b)
        try b.store.uncomplete(id: bins)
        try syncAll(a, b)
        for device in [a, b] {
            #expect(try device.reminder(bins)?.dueDate?.description == "2027-01-11T19:00")
            #expect(try device.reminder(bins)?.repeatRule == "FREQ=WEEKLY;COUNT=3")
            #expect(try device.db.read { try Reminder.filter(Column("repeatOf") == bins).fetchCount($0) } == 0)
        }
    }

    /// The weekly bins of Jan 11, completed once, end due Jan 18 with one
    /// copy and no occurrence on both devices, which agree.
    private func expectMovedOn(_ bins: String, _ a: Device, _ b: Device,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        for device in [a, b] {
            let series = try #require(try device.reminder(bins), sourceLocation: sourceLocation)
            #expect(series.dueDate?.description == "2027-01-18T19:00", "\(device.name)", sourceLocation: sourceLocation)
            #expect(series.occurrence == nil, "\(device.name)", sourceLocation: sourceLocation)
            #expect(try device.db.read { try Reminder.filter(Column("repeatOf") == bins).fetchCount($0) } == 1,
                    sourceLocation: sourceLocation)
        }
        #expect(try a.export() == b.export(), sourceLocation: sourceLocation)
    }

    /// A moves this week's bins to Tuesday; B, which has not fetched the
    /// move, puts them out on Monday (completes the occurrence). The move
    /// is of an occurrence done: whichever edit is later, the series ends
    /// due the Monday after, with one copy, on both devices.
    @Test(arguments: [true, false])
    func aMoveOfAnOccurrenceCompletedElsewhereIsStale(moveIsLater: Bool) throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: weekly)
        try syncAll(a, b)
        if moveIsLater { a.clock.advance(60_000) } else { b.clock.advance(60_000) }
        try a.store.updateReminder(id: bins, ReminderChanges(dueDate: .some(DueDate("2027-01-12T19:00"))))
        try b.store.complete(id: bins)
        try syncAll(a, b)
        try expectMovedOn(bins, a, b)
        // The log's due-date entry keeps the merge's words; what the series
        // is due at now, after the repair, shows beside them.
        for device in [a, b] {
            let entry = try #require(try device.engine.conflicts().first { $0.recordID == bins && $0.field == "dueDate" })
            let item = try device.db.read { db in try ConflictsViewModel.item(entry, db, device: device.name) }
            // (The completion, when it is the later edit, is the value kept.)
            #expect(item.now == (moveIsLater ? "2027-01-18 19:00" : nil), "\(device.name): \(item)")
            // The series holds the completion's date again: putting it back
            // would change nothing, and is not offered.
            #expect(item.canKeepOther == !moveIsLater, "\(device.name)")
            if moveIsLater { #expect(item.whyNoOtherValue.hasSuffix("already: there is nothing to put back")) }
        }
    }

    /// Moved to Tuesday on both devices; A completes it, B moves it again
    /// to Wednesday: B's second move leaves the occurrence as it was, and
    /// is still a move of the occurrence A completed.
    @Test(arguments: [true, false])
    func aSecondMoveOfAnOccurrenceCompletedElsewhereIsStale(moveIsLater: Bool) throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: weekly)
        try a.store.updateReminder(id: bins, ReminderChanges(dueDate: .some(DueDate("2027-01-12T19:00"))))
        try syncAll(a, b)
        if moveIsLater { b.clock.advance(60_000) } else { a.clock.advance(60_000) }
        try a.store.complete(id: bins)
        try b.store.updateReminder(id: bins, ReminderChanges(dueDate: .some(DueDate("2027-01-13T19:00"))))
        try syncAll(a, b)
        try expectMovedOn(bins, a, b)
    }

    /// B completes; A moves the same occurrence later and syncs first.
    /// B's one sync merges A's move when the server refuses B's save, and
    /// puts the series right in that sync: the fetch after it receives
    /// nothing new to set the repair off.
    @Test func aStaleMoveMergedInASendIsPutRightInThatSync() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: weekly)
        try syncAll(a, b)
        try b.store.complete(id: bins)
        a.clock.advance(60_000)
        try a.store.updateReminder(id: bins, ReminderChanges(dueDate: .some(DueDate("2027-01-10T19:00"))))
        try a.sync()
        try b.sync()
        let series = try #require(try b.reminder(bins))
        #expect(series.dueDate?.description == "2027-01-18T19:00")
        #expect(series.occurrence == nil)
        try a.sync()
        try expectMovedOn(bins, a, b)
    }

    /// The same move made after the completion arrived is of the next
    /// occurrence, and stays.
    @Test func aMoveMadeAfterTheCompletionArrivedStays() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: "FREQ=WEEKLY;BYDAY=MO")
        try syncAll(a, b)
        try b.store.complete(id: bins)
        try syncAll(a, b)
        try a.store.updateReminder(id: bins, ReminderChanges(dueDate: .some(DueDate("2027-01-19T19:00"))))
        try syncAll(a, b)
        for device in [a, b] {
            let series = try #require(try device.reminder(bins))
            #expect(series.dueDate?.description == "2027-01-19T19:00")
            #expect(series.occurrence?.description == "2027-01-18T19:00")
        }
        // Done on Tuesday, it is due the Monday after.
        try b.store.complete(id: bins)
        try syncAll(a, b)
        for device in [a, b] {
            let due = try device.reminder(bins)?.dueDate?.description
            #expect(due == "2027-01-25T19:00", "\(device.name)")
        }
        #expect(try a.export() == b.export())
    }

    /// Moved to Tuesday on both; then A moves it on to Wednesday while B,
    /// later, moves it back to Monday (its own occurrence again). Keeping
    /// A's losing due date puts back the occurrence it stood for with it:
    /// Wednesday stands for Monday's occurrence, not for a series moved.
    @Test func keepingTheOtherDueDatePutsItsOccurrenceBack() throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: weekly)
        try a.store.updateReminder(id: bins, ReminderChanges(dueDate: .some(DueDate("2027-01-12T19:00"))))
        try syncAll(a, b)
        try a.store.updateReminder(id: bins, ReminderChanges(dueDate: .some(DueDate("2027-01-13T19:00"))))
        b.clock.advance(60_000)
        try b.store.updateReminder(id: bins, ReminderChanges(dueDate: .some(DueDate("2027-01-11T19:00"))))
        try b.sync()
        try a.sync()
        let moved = try #require(try a.reminder(bins))
        #expect(moved.dueDate?.description == "2027-01-11T19:00")
        #expect(moved.occurrence == nil)
        let entries = try a.engine.conflicts().filter { $0.recordID == bins }
        #expect(Set(entries.map(\.field)) == ["dueDate", "occurrence"])
        let due = try #require(entries.first { $0.field == "dueDate" })
        #expect(try a.engine.restoreLosingValue(conflictID: due.id))
        try syncAll(a, b)
        for device in [a, b] {
            let series = try #require(try device.reminder(bins))
            #expect(series.dueDate?.description == "2027-01-13T19:00", "\(device.name)")
            #expect(series.occurrence?.description == "2027-01-11T19:00", "\(device.name)")
        }
        // Both entries are seen: the occurrence went back with the due date.
        #expect(try a.engine.conflicts().filter { $0.recordID == bins && !$0.isDismissed }.isEmpty)
        // Done on Wednesday, it is due the Monday after, as scheduled.
        try b.store.complete(id: bins)
        try syncAll(a, b)
        #expect(try a.reminder(bins)?.dueDate?.description == "2027-01-18T19:00")
    }

    /// A stops the repeat while B, later, moves this week's occurrence: the
    /// merge keeps A's "no repeat" and B's occurrence, which nothing
    /// repeats any more. Both devices end with the due date and no
    /// occurrence, whichever order they sync in.
    @Test(arguments: [true, false])
    func aMoveOfASeriesStoppedElsewhereLeavesNoOccurrence(moverSyncsFirst: Bool) throws {
        let directory = TemporaryDirectory()
        let (a, b, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11T19:00", rule: weekly)
        try syncAll(a, b)
        try a.store.updateReminder(id: bins, ReminderChanges(repeatRule: .some(nil)))
        b.clock.advance(60_000)
        try b.store.updateReminder(id: bins, ReminderChanges(dueDate: .some(DueDate("2027-01-12T19:00"))))
        if moverSyncsFirst { try b.sync() }
        try syncAll(a, b)
        for device in [a, b] {
            let row = try #require(try device.reminder(bins))
            #expect(row.repeatRule == nil && row.occurrence == nil, "\(device.name): \(row)")
            #expect(row.dueDate?.description == "2027-01-12T19:00", "\(device.name)")
        }
        #expect(try a.export() == b.export())
    }

    @Test func theLastOccurrenceCompletesTheReminderForGood() throws {
        let directory = TemporaryDirectory()
        let (a, _, list) = try start(directory)
        let bins = try add(a, "Bins", in: list, due: "2027-01-11", rule: "FREQ=DAILY;COUNT=2")
        try a.store.complete(id: bins)
        #expect(try a.reminder(bins)?.status == .incomplete)
        try a.store.complete(id: bins)
        #expect(try a.reminder(bins)?.status == .completed)
        #expect(try a.reminder(bins)?.dueDate?.description == "2027-01-12")
        #expect(try a.db.read { try Reminder.filter(Column("repeatOf") == bins).fetchCount($0) } == 1)
    }
}

extension SubtaskAndRepeatSyncTests {
    @Test func aListDeletedElsewhereWhileASyncedReminderBecomesASubtaskOfANewOneGoesEverywhere() throws {
        let directory = TemporaryDirectory()
        let (a, b) = try twoDevices(directory)
        let list = try a.store.createList(title: "Home").id
        try a.sync()
        try b.sync()
        let synced = try a.store.createReminder(ReminderDraft(listID: list, title: "Synced")).id
        try a.sync()
        try b.store.deleteList(id: list)
        try b.sync()
        let new = try a.store.createReminder(ReminderDraft(listID: list, title: "New")).id
        try a.store.setParent(id: synced, parentID: new)
        for _ in 0..<3 {
            try a.sync()
            try b.sync()
        }
        #expect(try a.list(list) == nil)
        #expect(try b.list(list) == nil)
        #expect(try a.export() == b.export())
    }
}

extension SubtaskAndRepeatSyncTests {
    /// Fetched rows that break a rule, committed with the mark, and the
    /// process stopped before the repair: attaching again repairs them.
    @Test func aRepairCutShortByAStopRunsWhenTheEngineAttachesAgain() throws {
        let directory = TemporaryDirectory()
        let (a, _, list) = try start(directory)
        let x = try add(a, "X", in: list)
        let y = try add(a, "Y", in: list)
        try a.engine.applyWrite { db in
            // As a fetch would write them: not captured as local edits.
            try db.execute(sql: "UPDATE reminders SET parentID = ? WHERE id = ?", arguments: [y, x])
            try db.execute(sql: "UPDATE reminders SET parentID = ? WHERE id = ?", arguments: [x, y])
            try SyncState.set(db, SyncEngine.repairPendingKey, 1)
        }
        _ = try SyncEngine(writer: a.db, userName: "me", deviceName: "A", tables: RemindersTables.all,
                           repair: { db in try SyncedRules.repair(db) })
        #expect(try a.reminder(x)?.parentID == nil)
        #expect(try a.reminder(y)?.parentID == nil)
        #expect(try a.db.read { try SyncState.contains($0, SyncEngine.repairPendingKey) } == false)
        // Repairs are local edits: they wait to be sent.
        #expect(try a.pending() >= 2)
    }
}
