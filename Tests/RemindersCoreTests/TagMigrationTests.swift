import Foundation
import GRDB
import Testing
@testable import RemindersCore

@Suite("Migrating tags to keys")
struct TagMigrationTests {
    static let version4 = "v4: lists in their order"

    /// A version-4 database as a synced device holds it: "Work" with a link
    /// another device spelled "work" (version 4 matched them without regard
    /// to ASCII case), "Café", "CAFÉ" and "cafe\u{301}" as three tags (it
    /// did not fold the rest), an unused tag, and the sync engine's
    /// triggers, which call functions only the engine registers.
    func version4Database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
        try Schema.migrator.migrate(queue, upTo: Self.version4)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO remindersLists (id, title) VALUES ('l1', 'Home');
                INSERT INTO reminders (id, remindersListID, title, status) VALUES
                  ('r1', 'l1', 'Pay rent', 'incomplete'), ('r2', 'l1', 'Old report', 'completed'),
                  ('r3', 'l1', 'Buy beans', 'incomplete');
                INSERT INTO tags (title) VALUES ('Work'), ('Café'), ('CAFÉ'), ('cafe\u{301}'), ('unused');
                INSERT INTO remindersTags (id, reminderID, tagID) VALUES
                  ('link-1', 'r1', 'Work'), ('link-2', 'r2', 'work'),
                  ('link-3', 'r1', 'Café'), ('link-4', 'r1', 'CAFÉ'), ('link-5', 'r3', 'CAFÉ'), ('link-6', 'r3', 'cafe\u{301}');
                """)
            for table in ["tags", "remindersTags", "reminders"] {
                for (suffix, event) in [("insert", "INSERT"), ("update", "UPDATE"), ("delete", "DELETE")] {
                    try db.execute(sql: """
                        CREATE TRIGGER sync_\(table)_\(suffix) AFTER \(event) ON \(table)
                        WHEN NOT sync_is_applying() BEGIN SELECT sync_now(); END
                        """)
                }
            }
        }
        return queue
    }

    @Test func rowsGetKeysAndCollidingTagsMerge() throws {
        let queue = try version4Database()
        try Schema.migrator.migrate(queue)
        let store = RemindersStore(writer: queue, clock: try clock())
        try store.read { db in
            // "CAFÉ" carried the most links, so its spelling is kept.
            #expect(try Row.fetchAll(db, sql: "SELECT id, title FROM tags ORDER BY id").map { [$0[0], $0[1]] as [String] }
                    == [["café", "CAFÉ"], ["unused", "unused"], ["work", "Work"]])
            let links = try String.fetchAll(db, sql: """
                SELECT id || ' ' || reminderID || ' ' || tagID FROM remindersTags ORDER BY reminderID, tagID
                """)
            #expect(links == [("r1", "café"), ("r1", "work"), ("r2", "work"), ("r3", "café")].map {
                "\(ReminderTag.linkID(reminderID: $0.0, tagKey: $0.1)) \($0.0) \($0.1)"
            })
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        }
        #expect(try store.read { try Queries.allTags($0) } == [
            TagSummary(title: "CAFÉ", openCount: 2), TagSummary(title: "unused", openCount: 0), TagSummary(title: "Work", openCount: 1),
        ])
        #expect(try store.read { try Queries.tags($0, reminderID: "r1") } == ["CAFÉ", "Work"])
        try CountsTests().expectExactCounts(store)
    }

    @Test func theSyncTriggersGoWithTheOldTablesUnfired() throws {
        let queue = try version4Database()
        try Schema.migrator.migrate(queue)
        let triggers = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync%' ORDER BY name")
        }
        #expect(triggers == ["sync_reminders_delete", "sync_reminders_insert", "sync_reminders_update"])
        let tables = try queue.read { db in
            try Row.fetchAll(db, sql: "PRAGMA table_list").reduce(into: [String: Int]()) { $0[$1["name"]] = $1["strict"] }
        }
        #expect(tables["tags"] == 1 && tables["remindersTags"] == 1)
        #expect(tables["v5_tags"] == nil && tables["v5_links"] == nil)
    }

    @Test func searchAndEditsWorkOnTheMigratedTables() throws {
        let queue = try version4Database()
        try queue.write { db in
            // Only the engine's triggers need these; the migrated tables
            // have none until the engine attaches again.
            db.add(function: DatabaseFunction("sync_is_applying", argumentCount: 0, pure: false) { _ in false })
            db.add(function: DatabaseFunction("sync_now", argumentCount: 0, pure: false) { _ in 0 })
        }
        try Schema.migrator.migrate(queue)
        let store = RemindersStore(writer: queue, clock: try clock())
        let indexed = try store.read { db in
            try Row.fetchAll(db, sql: """
                SELECT reminders.id, reminderSearch.tags FROM reminderSearch JOIN reminders ON reminders.rowid = reminderSearch.rowid
                ORDER BY reminders.id
                """).map { row -> String in
                let tags: String = row[1]
                return "\(row[0] as String): " + tags.split(separator: " ").sorted().joined(separator: " ")
            }
        }
        // The search index holds the tags' spelling, with their "#" and
        // without diacritics.
        #expect(indexed == ["r1: #CAFE #Work", "r2: #Work", "r3: #CAFE"])
        #expect(try store.search("CAFÉ").hits.map(\.row.reminder.title) == ["Buy beans", "Pay rent"])

        try store.updateReminder(id: "r3", ReminderChanges(tags: ["work", "Café"]))
        #expect(try store.read { try Queries.tags($0, reminderID: "r3") } == ["CAFÉ", "Work"])
        try store.renameTag("café", to: "Café")
        #expect(try store.titles(.tag("CAFE\u{301}")) == ["Pay rent", "Buy beans"])
        #expect(try store.search("Café").hits.count == 2)
        try CountsTests().expectExactCounts(store)
        let dump = try store.read { try ExportDump.read($0, owner: { _ in "me" }) }
        #expect(dump.tags.map(\.title) == ["Café", "unused", "Work"])
        #expect(dump.reminders.map(\.tags) == [["Café", "Work"], ["Work"], ["Café", "Work"]])
    }
}
