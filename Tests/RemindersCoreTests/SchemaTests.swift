import Foundation
import GRDB
import Testing
@testable import RemindersCore

@Suite("Schema")
struct SchemaTests {
    @Test func everyTableIsStrict() throws {
        let store = try makeStore()
        let strict = try store.read { db in
            try Row.fetchAll(db, sql: "PRAGMA table_list").reduce(into: [String: Int]()) { $0[$1["name"]] = $1["strict"] }
        }
        for table in Schema.syncedTables {
            #expect(strict[table] == 1, "\(table) is not STRICT")
        }
    }

    @Test func noUniqueConstraintBesidesPrimaryKeys() throws {
        let store = try makeStore()
        try store.read { db in
            for table in Schema.syncedTables {
                for index in try Row.fetchAll(db, sql: "PRAGMA index_list(\(table))") {
                    let origin: String = index["origin"]
                    let unique: Bool = index["unique"]
                    #expect(origin != "u", "\(table) has a UNIQUE constraint: \(index)")
                    #expect(!unique || origin == "pk", "\(table) has a unique index: \(index)")
                }
            }
        }
    }

    @Test func everyForeignKeyCascadesAndIsIndexed() throws {
        let store = try makeStore()
        try store.read { db in
            for table in Schema.syncedTables {
                let firstIndexedColumns = try Set(Row.fetchAll(db, sql: "PRAGMA index_list(\(table))").compactMap { index -> String? in
                    let name: String = index["name"]
                    return try Row.fetchOne(db, sql: "PRAGMA index_info(\(name))")?["name"]
                })
                for key in try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(table))") {
                    let column: String = key["from"]
                    #expect((key["on_delete"] as String) == "CASCADE", "\(table).\(column) does not cascade deletes")
                    #expect(firstIndexedColumns.contains(column), "\(table).\(column) has no index")
                }
            }
            // Its list, and a subtask's parent reminder.
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(reminders)").count == 2)
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(remindersTags)").count == 2)
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(remindersListCovers)").count == 1)
        }
    }

    @Test func deletingAListDeletesItsRemindersLinksAndCover() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        let work = try store.createList(title: "Work")
        try store.add("Paint fence", to: home, tags: ["diy"])
        try store.add("Report", to: work, tags: ["diy"])
        try store.setCover(listID: home.id, png: try #require(SampleCovers.png(named: "forest")))

        try store.deleteList(id: home.id)

        let (titles, counts) = try store.read { db in
            (try String.fetchAll(db, sql: "SELECT title FROM reminders"),
             try ["remindersTags", "remindersListCovers", "reminderSearch"].map {
                 try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? -1
             })
        }
        #expect(titles == ["Report"])
        #expect(counts == [1, 0, 1])
    }

    @Test func deletingAReminderOrATagDeletesItsLinks() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list, tags: ["one", "two"])
        try store.add("B", to: list, tags: ["two"])
        try store.deleteReminder(id: a.id)
        #expect(try store.read { try String.fetchAll($0, sql: "SELECT tagID FROM remindersTags") } == ["two"])
        try store.deleteTag("two")
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM remindersTags") } == 0)
        #expect(try store.search("two").hits.isEmpty)
    }

    @Test func aNullIDBecomesALowerCaseUUID() throws {
        let store = try makeStore()
        let ids = try store.writer.write { db -> [String] in
            try db.execute(sql: "INSERT INTO remindersLists (id, title) VALUES (NULL, 'List')")
            let listID = try #require(try String.fetchOne(db, sql: "SELECT id FROM remindersLists"))
            try db.execute(sql: "INSERT INTO reminders (id, remindersListID, title) VALUES (NULL, ?, 'Reminder')", arguments: [listID])
            let reminderID = try #require(try String.fetchOne(db, sql: "SELECT id FROM reminders"))
            try db.execute(sql: "INSERT INTO tags (id, title) VALUES ('tag', 'Tag')")
            try db.execute(sql: "INSERT INTO remindersTags (id, reminderID, tagID) VALUES (NULL, ?, 'tag')", arguments: [reminderID])
            let linkID = try #require(try String.fetchOne(db, sql: "SELECT id FROM remindersTags"))
            return [listID, reminderID, linkID]
        }
        let uuid = #/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/#
        for id in ids {
            #expect(id.wholeMatch(of: uuid) != nil, "\(id) is not a lower-case v4 UUID")
        }
        #expect(Set(ids).count == 3)
    }

    @Test func tagsAreKeyedByTitleWhateverTheCase() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("A", to: list, tags: ["Work"])
        try store.add("B", to: list, tags: ["work", "WORK"])
        try store.add("C", to: list, tags: ["Überweisung", "日本", "ÜBERWEISUNG", "Café"])
        try store.add("D", to: list, tags: ["CAFÉ", "cafe\u{301}"])
        let tags = try store.read { try String.fetchAll($0, sql: "SELECT title FROM tags ORDER BY title") }
        #expect(tags == ["Café", "Work", "Überweisung", "日本"])
    }

    @Test func checksRefuseValuesOutsideTheirDomain() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let bad = [
            "UPDATE remindersLists SET color = 'red'",
            "UPDATE remindersLists SET color = '#FFFFFF'",
            "INSERT INTO reminders (remindersListID, title, priority) VALUES ('\(list.id)', 'x', 4)",
            "INSERT INTO reminders (remindersListID, title, status) VALUES ('\(list.id)', 'x', 'done')",
            "INSERT INTO reminders (remindersListID, title, dueDate) VALUES ('\(list.id)', 'x', '2026-3-1')",
            "INSERT INTO reminders (remindersListID, title) VALUES ('no such list', 'x')",
        ]
        for sql in bad {
            #expect(throws: DatabaseError.self, "\(sql)") {
                try store.writer.write { try $0.execute(sql: sql) }
            }
        }
    }
}
