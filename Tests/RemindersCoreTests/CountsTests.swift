import Foundation
import GRDB
import Testing
import TestSupport
@testable import RemindersCore

/// The counts the home screen reads are kept by triggers (migration v2).
/// Each test edits the database and checks that they equal the counts
/// computed from scratch.
@Suite("Counts kept by triggers")
struct CountsTests {
    @Test func countsFollowEveryKindOfEdit() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        let work = try store.createList(title: "Work")
        try expectExactCounts(store)

        let paint = try store.add("Paint", to: home, due: "2026-03-01", flagged: true, tags: ["diy", "Weekend"])
        let call = try store.add("Call", to: work, due: "2026-02-20T09:00", tags: ["phone"])
        let read = try store.add("Read", to: home, tags: ["weekend"])
        try expectExactCounts(store)

        try store.toggleCompletion(id: paint.id)  // completing: still open
        try expectExactCounts(store)
        try store.finishCompleting()
        try expectExactCounts(store)
        try store.uncomplete(id: paint.id)
        try store.complete(id: call.id)
        try expectExactCounts(store)

        try store.updateReminder(id: read.id, ReminderChanges(dueDate: .some(try due("2026-03-04")), isFlagged: true,
                                                              listID: work.id, tags: ["phone", "diy"]))
        try store.updateReminder(id: paint.id, ReminderChanges(dueDate: .some(nil), isFlagged: false))
        try expectExactCounts(store)

        try store.renameTag("diy", to: "DIY")         // same key, new spelling
        try store.renameTag("phone", to: "calls")     // a new key
        try store.renameTag("weekend", to: "calls")   // merged into another tag
        try expectExactCounts(store)
        try store.deleteTag("calls")
        try expectExactCounts(store)

        _ = try store.deleteReminder(id: paint.id)
        try expectExactCounts(store)
        _ = try store.clearCompleted(.all)
        try expectExactCounts(store)
        try store.deleteList(id: work.id)
        try expectExactCounts(store)
        let summaries = try store.read { try Queries.lists($0) }
        #expect(summaries.map(\.openCount) == [0])
    }

    @Test func aLongRandomSequenceOfEditsKeepsEveryCountExact() throws {
        let store = try makeStore()
        var random = SeededGenerator(seed: 7)
        // A renamed tag stays in the pool: tagging with its old title
        // again makes a new tag, and links under the old key were made
        // again under the new one, so nothing collides.
        let tags = ["a", "B", "c", "Été", "d", "été", "b"]
        var lists = [try store.createList(title: "One"), try store.createList(title: "Two")]
        var reminders: [String] = []
        for step in 0..<400 {
            switch random.next() % 10 {
            case 0 where lists.count < 5:
                lists.append(try store.createList(title: "List \(step)"))
            case 1 where lists.count > 1 && random.next() % 4 == 0:
                let list = lists.remove(at: Int(random.next() % UInt64(lists.count)))
                try store.deleteList(id: list.id)
                let remaining = try store.read { try String.fetchAll($0, sql: "SELECT id FROM reminders") }
                reminders = reminders.filter(remaining.contains)
            case 2, 3, 4:
                let list = lists[Int(random.next() % UInt64(lists.count))]
                let chosen = tags.filter { _ in random.next() % 3 == 0 }
                let due = random.next() % 2 == 0 ? nil : "2026-0\(2 + random.next() % 2)-1\(random.next() % 9)"
                reminders.append(try store.add("R\(step)", to: list, due: due, flagged: random.next() % 4 == 0, tags: chosen).id)
            case 5 where !reminders.isEmpty:
                _ = try store.toggleCompletion(id: reminders[Int(random.next() % UInt64(reminders.count))])
            case 6 where !reminders.isEmpty:
                try store.finishCompleting()
            case 7 where !reminders.isEmpty:
                let id = reminders[Int(random.next() % UInt64(reminders.count))]
                try store.updateReminder(id: id, ReminderChanges(
                    dueDate: .some(random.next() % 2 == 0 ? nil : try due("2026-03-0\(1 + random.next() % 5)")),
                    isFlagged: random.next() % 2 == 0, listID: lists[Int(random.next() % UInt64(lists.count))].id,
                    tags: tags.filter { _ in random.next() % 3 == 0 }))
            case 8 where !reminders.isEmpty:
                let id = reminders.remove(at: Int(random.next() % UInt64(reminders.count)))
                _ = try store.deleteReminder(id: id)
            case 9:
                let index = Int(random.next() % UInt64(tags.count))
                let exists = try store.read { try Tag.exists($0, key: TagKey.of(tags[index])) }
                guard exists else { break }
                if random.next() % 2 == 0 {
                    let target = random.next() % 2 == 0 ? "T\(step)" : tags[Int(random.next() % UInt64(tags.count))]
                    try store.renameTag(tags[index], to: target)
                } else {
                    try store.deleteTag(tags[index])
                }
            default:
                break
            }
            try expectExactCounts(store, "after step \(step)")
        }
    }

    @Test func linksWrittenBeforeTheirReminderAreCountedWhenItArrives() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.writer.write { db in
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            try db.execute(sql: "INSERT INTO tags (id, title) VALUES ('early', 'Early')")
            try db.execute(sql: "INSERT INTO remindersTags (id, reminderID, tagID) VALUES ('link', 'r1', 'early')")
            try db.execute(sql: "INSERT INTO reminders (id, remindersListID, title) VALUES ('r1', ?, 'Late')", arguments: [list.id])
        }
        try expectExactCounts(store)
        #expect(try store.read { try Queries.tagsInUse($0) } == [TagSummary(title: "Early", openCount: 1)])
    }

    @Test func aVersion1DatabaseGetsItsCountsWhenMigrated() throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
        try Schema.migrator.migrate(queue, upTo: "v1: lists, reminders, tags, search")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO remindersLists (id, title) VALUES ('l1', 'Home'), ('l2', 'Empty');
                INSERT INTO reminders (id, remindersListID, title, status, isFlagged, dueDate) VALUES
                  ('a', 'l1', 'A', 'incomplete', 1, '2026-03-01'), ('b', 'l1', 'B', 'completed', 0, NULL),
                  ('c', 'l1', 'C', 'completing', 0, '2026-02-01T08:00');
                INSERT INTO tags (title) VALUES ('x'), ('y');
                INSERT INTO remindersTags (id, reminderID, tagID) VALUES ('1', 'a', 'x'), ('2', 'b', 'x'), ('3', 'b', 'y');
                """)
        }
        try Schema.migrator.migrate(queue)
        let store = RemindersStore(writer: queue, clock: try clock())
        try expectExactCounts(store)
        #expect(try store.read { try Queries.tagsInUse($0) }
                == [TagSummary(title: "x", openCount: 1), TagSummary(title: "y", openCount: 0)])
    }

    @Test func smartCountsMatchTheirDefinitionAtEveryMomentOfTheDay() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        for dueDate in ["2026-02-28", "2026-03-01", "2026-03-01T09:59", "2026-03-01T10:00", "2026-03-01T10:01",
                        "2026-03-01T23:59", "2026-03-02", "2026-03-02T00:00"] {
            try store.add(dueDate, to: list, due: dueDate)
        }
        for moment in ["2026-03-01T00:00:00Z", "2026-03-01T10:00:00Z", "2026-03-01T10:00:30Z", "2026-03-01T23:59:00Z"] {
            let later = try RemindersCoreTests.store(store, at: moment)
            try expectExactCounts(later, "at \(moment)")
        }
    }

    // MARK: Helpers

    /// Every count the screens read, against the same counted from scratch.
    func expectExactCounts(_ store: RemindersStore, _ context: String = "",
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let clock = store.clock
        try store.read { db in
            let smart = try Queries.smartCounts(db, clock: clock)
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT count(*) FILTER (WHERE status != 'completed') AS allCount,
                  count(*) FILTER (WHERE status != 'completed' AND dueDate IS NOT NULL AND substr(dueDate, 1, 10) <= ?1) AS today,
                  count(*) FILTER (WHERE status != 'completed' AND dueDate IS NOT NULL) AS scheduled,
                  count(*) FILTER (WHERE status != 'completed' AND isFlagged) AS flagged,
                  count(*) FILTER (WHERE status = 'completed') AS completed,
                  count(*) FILTER (WHERE status != 'completed' AND dueDate IS NOT NULL
                    AND ((length(dueDate) = 10 AND dueDate < ?1) OR (length(dueDate) = 16 AND dueDate < ?2))) AS pastDue
                FROM reminders
                """, arguments: [clock.today, clock.nowDue.description]))
            var expected = SmartCounts()
            expected.all = row["allCount"]
            expected.today = row["today"]
            expected.scheduled = row["scheduled"]
            expected.flagged = row["flagged"]
            expected.completed = row["completed"]
            expected.pastDue = row["pastDue"]
            #expect(smart == expected, "smart counts \(context)", sourceLocation: sourceLocation)

            let lists = try Queries.lists(db).map { [$0.list.id: $0.openCount] }
            let expectedLists = try Row.fetchAll(db, sql: """
                SELECT id, (SELECT count(*) FROM reminders WHERE remindersListID = remindersLists.id AND status != 'completed') AS open
                FROM remindersLists ORDER BY position, title COLLATE reminders_title, id
                """).map { [$0["id"] as String: $0["open"] as Int] }
            #expect(lists == expectedLists, "list counts \(context)", sourceLocation: sourceLocation)

            let tags = try Queries.allTags(db)
            let expectedTags = try Row.fetchAll(db, sql: """
                SELECT id, title, (SELECT count(*) FROM remindersTags JOIN reminders ON reminders.id = remindersTags.reminderID
                                   WHERE remindersTags.tagID = tags.id AND reminders.status != 'completed') AS open
                FROM tags ORDER BY title COLLATE reminders_title, id
                """).map { TagSummary(id: $0["id"], title: $0["title"], openCount: $0["open"]) }
            #expect(tags == expectedTags, "tag counts \(context)", sourceLocation: sourceLocation)
            let inUse = try Queries.tagsInUse(db).map(\.title)
            let expectedInUse = try String.fetchAll(db, sql: """
                SELECT title FROM tags WHERE EXISTS (SELECT 1 FROM remindersTags WHERE tagID = tags.id)
                ORDER BY title COLLATE reminders_title, id
                """)
            #expect(inUse == expectedInUse, "tags in use \(context)", sourceLocation: sourceLocation)
            // No counts left behind for lists and tags that are gone.
            #expect(try Int.fetchOne(db, sql: """
                SELECT count(*) FROM listReminderCounts WHERE remindersListID NOT IN (SELECT id FROM remindersLists)
                """) == 0, "stale list counts \(context)", sourceLocation: sourceLocation)
        }
    }
}

