import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport

/// A new device's first download of many records is a bulk load: the
/// search index and the counts are built once at its end (docs/SYNC.md).
/// Here the real binary is killed right before each of the download's
/// first writes commits; whatever was committed, the next command that
/// opens the database leaves the index and counts exactly as the rows say,
/// and the next sync ends with what the other device has.
@Suite("A first download killed midway", .serialized)
struct BulkLoadCrashTests {
    /// 2,500 to-dos, a third tagged, some done, some with notes: two pages.
    func manyTodos() -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Reminders tests//EN", "X-WR-CALNAME:Many"]
        for index in 1...2500 {
            lines += ["BEGIN:VTODO", "UID:bulk-\(index)", "DTSTAMP:20261101T000000Z", "SUMMARY:Reminder \(index)"]
            if index % 7 == 0 { lines.append("DESCRIPTION:send the invoice") }
            if index % 3 == 0 { lines.append("CATEGORIES:Errands") }
            if index % 4 == 0 { lines += ["STATUS:COMPLETED", "COMPLETED:20261102T090000Z"] }
            lines.append("END:VTODO")
        }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The search index and counts as the rows say, read straight from the
    /// file; also whether a load is still suspended there.
    func derivedState(_ path: String) throws -> (suspended: Int, indexMatches: Bool, countsMatch: Bool) {
        let queue = try DatabaseQueue(path: path, configuration: AppDatabase.configuration())
        defer { try? queue.close() }
        return try queue.read { db in
            let suspended = try Int.fetchOne(db, sql: "SELECT count(*) FROM local_suspendedSchema") ?? 0
            let indexed = try Row.fetchAll(db, sql: "SELECT rowid, title, notes, tags FROM reminderSearch ORDER BY rowid")
            let expected = try Row.fetchAll(db, sql: """
                SELECT rowid, reminders_fold(title) AS title, reminders_fold(notes) AS notes,
                  reminders_fold((SELECT ifnull(group_concat('#' || tags.title, ' '), '') FROM remindersTags
                  JOIN tags ON tags.id = remindersTags.tagID WHERE remindersTags.reminderID = reminders.id)) AS tags
                FROM reminders ORDER BY rowid
                """)
            let lists = try Row.fetchAll(db, sql: "SELECT remindersListID, openCount, completedCount FROM listReminderCounts WHERE openCount + completedCount > 0 ORDER BY 1")
            let expectedLists = try Row.fetchAll(db, sql: """
                SELECT remindersListID, sum(status != 'completed') AS openCount, sum(status = 'completed') AS completedCount
                FROM reminders GROUP BY remindersListID ORDER BY 1
                """)
            let tags = try Row.fetchAll(db, sql: "SELECT tagID, linkCount, openCount FROM tagReminderCounts ORDER BY 1")
            let expectedTags = try Row.fetchAll(db, sql: """
                SELECT remindersTags.tagID, count(*) AS linkCount, count(reminders.id) AS openCount FROM remindersTags
                LEFT JOIN reminders ON reminders.id = remindersTags.reminderID AND reminders.status != 'completed'
                GROUP BY remindersTags.tagID ORDER BY 1
                """)
            return (suspended, indexed == expected, lists == expectedLists && tags == expectedTags)
        }
    }

    @Test func aFirstDownloadKilledBetweenItsWritesLeavesSearchAndCountsRight() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let file = fleet.world.directory.appendingPathComponent("many.ics")
        try manyTodos().write(to: file, atomically: true, encoding: .utf8)
        try fleet.ok("A", "import", file.path)
        try fleet.sync("A")
        let searchOnA = try fleet.ok("A", "search", "invoice", "--show-completed")
        let listsOnA = try fleet.ok("A", "lists")

        let database = fleet.databaseURL("B")
        var killedSuspended = 0
        for write in 1...5 {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: database.path + suffix)
            }
            let killed = try fleet.run("B", ["sync"], environment: [
                "REMINDERS_FAULT_AFTER_WRITES": String(write), "REMINDERS_FAULT_SCOPE": "device",
            ])
            guard killed.stderr.contains("fault injected before") else {
                #expect(killed.status == 0, "write \(write): \(killed)")
                continue
            }
            if try derivedState(database.path).suspended > 0 { killedSuspended += 1 }
            // Any command that opens the database finishes the load first.
            try fleet.ok("B", "lists")
            // With rows received, status says no sync finished, not that
            // none was tried.
            let status = try fleet.ok("B", "status")
            let received = try !fleet.export("B").reminders.isEmpty
            #expect(!received || status.contains("Last sync: none finished yet ('reminders sync' goes on from where the last one stopped)."),
                    "write \(write): \(status)")
            let reopened = try derivedState(database.path)
            #expect(reopened.suspended == 0, "write \(write)")
            #expect(reopened.indexMatches, "the search index after a kill before write \(write)")
            #expect(reopened.countsMatch, "the counts after a kill before write \(write)")

            try fleet.sync("B")
            let synced = try derivedState(database.path)
            #expect(synced.suspended == 0 && synced.indexMatches && synced.countsMatch, "write \(write)")
            #expect(try fleet.exportText("B") == fleet.exportText("A"), "write \(write)")
            #expect(try fleet.ok("B", "search", "invoice", "--show-completed") == searchOnA, "write \(write)")
            #expect(try fleet.ok("B", "lists") == listsOnA, "write \(write)")
        }
        #expect(killedSuspended > 0, "no kill landed between the download's first page and its last")
    }
}
