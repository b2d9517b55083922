import Foundation
import GRDB
import Testing
import TestSupport
@testable import RemindersCore

/// A bulk load suspends the triggers that keep the search index and the
/// counts (`DerivedData`): whatever is written meanwhile, resuming leaves
/// them exactly as the triggers would have, and a process stopped in
/// between has them put right by the next open.
@Suite("Search index and counts suspended for a bulk load")
struct DerivedDataTests {
    @Test func resumingBuildsWhatTheTriggersWouldHaveKept() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        let work = try store.createList(title: "Work")
        let paint = try store.add("Paint the fence", to: home, due: "2026-03-01", flagged: true, tags: ["diy", "Weekend"])
        try store.add("Call the plumber", to: work, tags: ["phone"])
        let triggers = try triggerNames(store.writer)
        #expect(triggers.count == 16 + 14)

        try store.writer.write { db in try DerivedData.suspend(db) }
        #expect(try store.read { try DerivedData.isSuspended($0) })
        #expect(try triggerNames(store.writer).isEmpty)
        // Suspending again keeps the SQL it kept the first time.
        try store.writer.write { db in try DerivedData.suspend(db) }

        // Every kind of write, none of it seen by the index or the counts.
        let invoice = try store.add("Send the invoice", to: work, due: "2026-02-20T09:00", tags: ["Büro", "phone"])
        try store.add("Read the manual", to: home, notes: "the dishwasher one", tags: ["weekend"])
        try store.updateReminder(id: paint.id, ReminderChanges(title: "Paint the gate", isFlagged: false, listID: work.id))
        try store.complete(id: invoice.id)
        try store.renameTag("diy", to: "DIY")
        try store.renameTag("phone", to: "calls")
        try store.deleteList(id: home.id)
        #expect(try store.search("manual").hits.isEmpty, "the index is stale while suspended")

        try store.writer.write { db in try DerivedData.resume(db) }
        #expect(try !store.read { try DerivedData.isSuspended($0) })
        #expect(try triggerNames(store.writer) == triggers)
        try CountsTests().expectExactCounts(store, "after resuming")
        #expect(try store.search("gate").hits.map(\.row.reminder.title) == ["Paint the gate"])
        #expect(try Set(store.search("calls", showCompleted: true).hits.map(\.row.reminder.title)) == ["Call the plumber", "Send the invoice"])
        #expect(try store.search("manual").hits.isEmpty, "deleted with its list")
        try expectIndexMatchesRows(store)

        // The triggers are back: edits after the load are kept row by row.
        try store.add("Water the plants", to: work, tags: ["DIY"])
        try CountsTests().expectExactCounts(store, "after an edit")
        try expectIndexMatchesRows(store)
    }

    @Test func aLoadStoppedBeforeItResumedIsFinishedByTheNextOpen() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("device.sqlite").path
        do {
            let pool = try AppDatabase.open(path: path)
            let store = RemindersStore(writer: pool, clock: try clock())
            let list = try store.createList(title: "Groceries")
            try store.add("Milk", to: list, tags: ["dairy"])
            try pool.write { db in try DerivedData.suspend(db) }
            for number in 1...50 {
                try store.add("Item \(number)", to: list, flagged: number % 3 == 0, tags: number % 2 == 0 ? ["even"] : [])
            }
            try pool.close()
        }
        let pool = try AppDatabase.open(path: path)
        let store = RemindersStore(writer: pool, clock: try clock())
        #expect(try !store.read { try DerivedData.isSuspended($0) })
        #expect(try triggerNames(pool).count == 16 + 14)
        try CountsTests().expectExactCounts(store, "after reopening")
        try expectIndexMatchesRows(store)
        #expect(try store.search("Item 4").hits.count == 11)
    }

    @Test func aRolledBackSuspensionLeavesTheTriggersInPlace() throws {
        let store = try makeStore()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.writer.write { db in
                try DerivedData.suspend(db)
                throw Stop()
            }
        }
        #expect(try triggerNames(store.writer).count == 16 + 14)
        #expect(try !store.read { try DerivedData.isSuspended($0) })
    }

    @Test func onlyABigLoadIntoASmallerDatabaseIsWorthIt() {
        #expect(DerivedData.isWorthSuspending(incoming: 2000, existing: 0))
        #expect(DerivedData.isWorthSuspending(incoming: 2000, existing: 1999))
        #expect(!DerivedData.isWorthSuspending(incoming: 2000, existing: 2000))
        #expect(!DerivedData.isWorthSuspending(incoming: 999, existing: 0))
    }

    // MARK: Helpers

    /// The derived triggers, and the synced tables' secondary indexes, with
    /// their SQL.
    func triggerNames(_ writer: some DatabaseReader) throws -> [String] {
        try writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT type || ' ' || name || ': ' || sql FROM sqlite_master
                WHERE (type = 'trigger' AND \(DerivedData.derivedTriggers))
                   OR (type = 'index' AND sql IS NOT NULL AND tbl_name IN ('remindersLists', 'remindersListCovers', 'reminders', 'tags', 'remindersTags'))
                ORDER BY type, name
                """)
        }
    }

    /// Every reminder in the index once, with its title, notes and tags'
    /// titles, and nothing else.
    func expectIndexMatchesRows(_ store: RemindersStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try store.read { db in
            let indexed = try Row.fetchAll(db, sql: "SELECT rowid, title, notes, tags FROM reminderSearch ORDER BY rowid")
            let expected = try Row.fetchAll(db, sql: """
                SELECT rowid, reminders_fold(title) AS title, reminders_fold(notes) AS notes, \(Schema.foldedSearchTags(ofReminder: "reminders.id")) AS tags
                FROM reminders ORDER BY rowid
                """)
            #expect(indexed == expected, sourceLocation: sourceLocation)
        }
    }
}
