import CSQLiteSetup
import Foundation
import GRDB
import Testing
import TestSupport
@testable import RemindersCore

/// Titles sort by their letters, accents and case aside ("Éclair" by
/// "eclair", not after "zebra"), in SQL (the `reminders_title` collation,
/// and the index that keeps its order) and in Swift (search's hits) alike.
@Suite("Title order")
struct TitleOrderTests {
    static func compare(_ a: String, _ b: String) -> Int {
        let x = Array(a.utf8), y = Array(b.utf8)
        return Int(reminders_title_compare(x, x.count, y, y.count))
    }

    @Test func accentsAndCaseSortWithTheirLetters() {
        let titles = ["zebra", "Zürich", "Ärger", "Éclair", "ångström", "éclair small", "apple", "Eclair", "eclair", "banana",
                      "Ørsted", "Straße", "strasse", "ω omega", "Ωmega", "🍕 pizza", "中文", "", "a", "Äa"]
        let sorted = titles.sorted { Self.compare($0, $1) < 0 }
        // Same letters: as NOCASE orders them (ASCII's case aside, then
        // the bytes), so the accented after the plain.
        #expect(sorted == ["", "a", "Äa", "ångström", "apple", "Ärger", "banana", "Eclair", "eclair", "Éclair", "éclair small",
                           "Ørsted", "strasse", "Straße", "zebra", "Zürich", "ω omega", "Ωmega", "中文", "🍕 pizza"], "\(sorted)")
    }

    /// A total order: only equal texts compare equal, both ways agree, and
    /// it is transitive (checked on triples of random titles, seeded).
    @Test func itIsATotalOrder() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SeededGenerator(seed: seed)
        let pieces = ["e", "E", "é", "É", "e\u{301}", "ss", "ß", "ø", "o", "a", "Å", "z", " ", "-", "1", "ω", "Ω", "中", "😀",
                      "\u{301}", "æ", "ae", "ǅ", "İ", "ﬁ", "fi"]
        func title() -> String {
            (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        for _ in 0..<3000 {
            let (a, b, c) = (title(), title(), title())
            let ab = Self.compare(a, b), ba = Self.compare(b, a)
            #expect(ab == -ba, "seed \(seed): \(a.debugDescription) \(b.debugDescription)")
            #expect((ab == 0) == (Array(a.utf8) == Array(b.utf8)), "seed \(seed): \(a.debugDescription) \(b.debugDescription)")
            if ab <= 0, Self.compare(b, c) <= 0 {
                #expect(Self.compare(a, c) <= 0, "seed \(seed): \(a.debugDescription) \(b.debugDescription) \(c.debugDescription)")
            }
        }
    }

    /// A list sorted by title, through the open reminders' title index
    /// (which a window of a long list is read from) and past it.
    @Test func aListSortedByTitleSortsAccentsWithTheirLetters() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        for title in ["zebra", "Éclair", "apple", "Ärger", "eclair", "banana"] {
            try store.add(title, to: list)
        }
        let done = try store.add("Ångström", to: list)
        try store.complete(id: done.id)
        let open = try store.read { db in
            try Queries.reminders(db, filter: .list(list.id), sort: .title, showCompleted: false, clock: store.clock, limit: 4)
        }
        #expect(open.map(\.reminder.title) == ["apple", "Ärger", "banana", "eclair"])
        let all = try store.read { db in
            try Queries.reminders(db, filter: .all, sort: .title, showCompleted: true, clock: store.clock)
        }
        #expect(all.map(\.reminder.title) == ["apple", "Ärger", "banana", "eclair", "Éclair", "zebra", "Ångström"])
        let plan = try store.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT id FROM reminders WHERE status != 'completed'
                ORDER BY title COLLATE reminders_title, id LIMIT 3
                """).map { $0["detail"] as String }
        }
        #expect(plan.joined().contains("reminders_open_title"), "\(plan)")
    }

    /// A reminder's own tags come in the order the tag lists show them
    /// ("#élan #zoo", as the sidebar lists them), not in their keys' order.
    @Test func aRemindersTagsSortAsTheTagListsDo() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let reminder = try store.add("Trip", to: list, tags: ["zoo", "Élan", "apple"])
        let row = try #require(try store.read { db in
            try Queries.reminders(db, filter: .list(list.id), sort: .title, showCompleted: false, clock: store.clock)
        }.first)
        #expect(row.tags == ["apple", "Élan", "zoo"])
        #expect(try store.read { db in try Queries.tags(db, reminderID: reminder.id) } == ["apple", "Élan", "zoo"])
        #expect(try store.read { db in try Queries.tagTitles(db) } == ["apple", "Élan", "zoo"])
    }

    /// A database from before the collation gets the index in the new
    /// order when it is migrated, also with a bulk load stopped midway
    /// (the index was aside then).
    @Test func aDatabaseFromBeforeIsMigratedToTheNewOrder() throws {
        for suspended in [false, true] {
            let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
            try Schema.migrator.migrate(queue, upTo: "v12: search without diacritics")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO remindersLists (id, title) VALUES ('l1', 'Home')")
                if suspended { try DerivedData.suspend(db) }
                try db.execute(sql: """
                    INSERT INTO reminders (id, remindersListID, title) VALUES ('z', 'l1', 'zebra'), ('e', 'l1', 'Éclair'), ('a', 'l1', 'apple')
                    """)
            }
            try Schema.migrator.migrate(queue)
            try queue.read { db in
                let index = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'reminders_open_title'")
                #expect(index?.contains("COLLATE reminders_title") == true, "\(index ?? "none")")
                #expect(try String.fetchAll(db, sql: """
                    SELECT title FROM reminders INDEXED BY reminders_open_title WHERE status != 'completed'
                    ORDER BY title COLLATE reminders_title, id
                    """) == ["apple", "Éclair", "zebra"])
                #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            }
        }
    }
}
