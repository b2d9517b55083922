import CloudServer
import Foundation
import GRDB
import RemindersCore
import Testing
@testable import SyncEngine
import TestSupport

/// The home screen's counts are kept by triggers (RemindersCore's v2
/// migration); they must follow the writes the engine applies too: rows
/// fetched in any order, merges, deletes that cascade.
@Suite struct CountsSyncTests {
    let directory = TemporaryDirectory()

    @Test func countsFollowWhatTheEngineApplies() throws {
        let (a, b) = try twoDevices(directory)
        let home = try a.store.createList(title: "Home")
        let work = try a.store.createList(title: "Work")
        var ids: [String] = []
        for index in 0..<30 {
            ids.append(try a.store.createReminder(ReminderDraft(
                listID: index % 3 == 0 ? work.id : home.id, title: "R\(index)",
                dueDate: index % 2 == 0 ? DueDate("2026-05-0\(1 + index % 9)") : nil, isFlagged: index % 5 == 0,
                tags: index % 4 == 0 ? ["errands", "Urgent"] : ["errands"])).id)
        }
        try a.sync()
        try b.sync()
        try expectCountsMatchRows(b)

        // Edits on both sides, a completion, a move, a tag change, deletes.
        try a.store.complete(id: ids[0])
        try a.store.updateReminder(id: ids[1], ReminderChanges(isFlagged: true, listID: work.id, tags: ["urgent"]))
        _ = try a.store.deleteReminder(id: ids[2])
        try b.store.complete(id: ids[3])
        try b.store.updateReminder(id: ids[0], ReminderChanges(dueDate: .some(nil)))
        try a.sync()
        try b.sync()
        try a.sync()
        try expectCountsMatchRows(a)
        try expectCountsMatchRows(b)

        // A list deleted on A cascades on B; a tag deleted on B follows on A.
        try a.store.deleteList(id: work.id)
        try b.store.deleteTag("urgent")
        try a.sync()
        try b.sync()
        try a.sync()
        try expectCountsMatchRows(a)
        try expectCountsMatchRows(b)
        #expect(try b.export() == a.export())
    }

    /// The counts the screens read equal the same counted from the rows.
    func expectCountsMatchRows(_ device: Device, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try device.db.read { db in
            let lists = try Queries.lists(db).map(\.openCount)
            let expectedLists = try Int.fetchAll(db, sql: """
                SELECT (SELECT count(*) FROM reminders WHERE remindersListID = remindersLists.id AND status != 'completed')
                FROM remindersLists ORDER BY position, title COLLATE NOCASE, id
                """)
            #expect(lists == expectedLists, "lists on \(device.name)", sourceLocation: sourceLocation)
            let tags = try Queries.allTags(db).map(\.openCount)
            let expectedTags = try Int.fetchAll(db, sql: """
                SELECT (SELECT count(*) FROM remindersTags JOIN reminders ON reminders.id = remindersTags.reminderID
                        WHERE remindersTags.tagID = tags.id AND reminders.status != 'completed')
                FROM tags ORDER BY id
                """)
            #expect(tags == expectedTags, "tags on \(device.name)", sourceLocation: sourceLocation)
            let counts = try Queries.smartCounts(db, clock: device.store.clock)
            let all = try Int.fetchOne(db, sql: "SELECT count(*) FROM reminders WHERE status != 'completed'")
            let flagged = try Int.fetchOne(db, sql: "SELECT count(*) FROM reminders WHERE status != 'completed' AND isFlagged")
            let completed = try Int.fetchOne(db, sql: "SELECT count(*) FROM reminders WHERE status = 'completed'")
            #expect([counts.all, counts.flagged, counts.completed] == [all, flagged, completed],
                    "smart counts on \(device.name)", sourceLocation: sourceLocation)
        }
    }
}
