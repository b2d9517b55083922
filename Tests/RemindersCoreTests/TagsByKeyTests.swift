import Foundation
import GRDB
import Testing
@testable import RemindersCore

@Suite("Tags by key")
struct TagsByKeyTests {
    func tagRows(_ store: RemindersStore) throws -> [[String]] {
        try store.read { db in
            try Row.fetchAll(db, sql: "SELECT id, title FROM tags ORDER BY id").map { [$0["id"], $0["title"]] }
        }
    }

    func linkRows(_ store: RemindersStore) throws -> [[String]] {
        try store.read { db in
            try Row.fetchAll(db, sql: "SELECT id, reminderID, tagID FROM remindersTags ORDER BY reminderID, tagID")
                .map { [$0["id"], $0["reminderID"], $0["tagID"]] }
        }
    }

    @Test func taggingWithAnotherSpellingUsesTheTagAsItIsSpelled() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list, tags: ["Café", "Work"])
        let b = try store.add("B", to: list, tags: ["CAFÉ", "cafe\u{301}", "work"])
        #expect(try tagRows(store) == [["café", "Café"], ["work", "Work"]])
        #expect(try store.read { try Queries.tags($0, reminderID: b.id) } == ["Café", "Work"])
        #expect(try linkRows(store) == [a.id, b.id].sorted().flatMap { id in
            ["café", "work"].map { [ReminderTag.linkID(reminderID: id, tagKey: $0), id, $0] }
        })
        #expect(try store.read { try Queries.allTags($0) }
                == [TagSummary(id: "café", title: "Café", openCount: 2), TagSummary(id: "work", title: "Work", openCount: 2)])
        try CountsTests().expectExactCounts(store)
    }

    @Test func aLinkIDDependsOnTheReminderAndTheKeyOnly() {
        let id = ReminderTag.linkID(reminderID: "r1", tagKey: TagKey.of("WORK"))
        // The id a link from r1 to "work" had before tags had keys, so
        // links to such tags keep their server records.
        #expect(id == "9589eeaf-27c9-fad0-2b92-d7845879e1f6")
        #expect(ReminderTag(reminderID: "r1", tagID: "work").id == id)
        #expect(ReminderTag.linkID(reminderID: "r2", tagKey: "work") != id)
        #expect(id.wholeMatch(of: #/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/#) != nil)
    }

    @Test func aTagIsFoundDeletedAndRenamedUnderAnySpelling() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("A", to: list, tags: ["Café"])
        try store.add("B", to: list, tags: ["Work"])
        #expect(try store.titles(.tag("CAFE\u{301}")) == ["A"])
        #expect(try store.read { try Queries.tagTitle($0, "cAFÉ") } == "Café")
        #expect(try store.read { try Queries.tagTitle($0, "nothing") } == nil)
        try store.renameTag("WORK", to: "Job")
        #expect(try tagRows(store) == [["café", "Café"], ["job", "Job"]])
        try store.deleteTag("CAFÉ")
        #expect(try tagRows(store) == [["job", "Job"]])
        expectErrorKind(.notFound("")) { try store.deleteTag("café") }
    }

    @Test func renamingToTheSameKeyChangesOnlyTheTitle() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list, tags: ["cafe"])
        let b = try store.add("B", to: list, tags: ["Café"])
        let links = try linkRows(store)
        try store.renameTag("café", to: "CAFÉ")
        #expect(try tagRows(store) == [["cafe", "cafe"], ["café", "CAFÉ"]])
        #expect(try linkRows(store) == links)
        #expect(try store.rows(.tag("Café")).map(\.tags) == [["CAFÉ"]])
        // The search index holds the new spelling; search ignores accents,
        // so it finds both tags.
        #expect(try store.read {
            try String.fetchOne($0, sql: "SELECT tags FROM reminderSearch WHERE rowid = (SELECT rowid FROM reminders WHERE id = ?)", arguments: [b.id])
        } == "#CAFE")
        #expect(try Set(store.search("CAFÉ").hits.map(\.id)) == [a.id, b.id])
    }

    @Test func renamingToAnotherKeyMakesANewTagAndNewLinks() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list, tags: ["Home", "Garden"])
        let b = try store.add("B", to: list, tags: ["home"])
        try store.complete(id: b.id)
        try store.renameTag("HOME", to: "House")
        #expect(try tagRows(store) == [["garden", "Garden"], ["house", "House"]])
        #expect(try linkRows(store) == [
            [ReminderTag.linkID(reminderID: a.id, tagKey: "garden"), a.id, "garden"],
            [ReminderTag.linkID(reminderID: a.id, tagKey: "house"), a.id, "house"],
            [ReminderTag.linkID(reminderID: b.id, tagKey: "house"), b.id, "house"],
        ].sorted { ($0[1], $0[2]) < ($1[1], $1[2]) })
        #expect(try store.search("Home").hits.isEmpty)
        #expect(try store.search("House").hits.map(\.id) == [a.id])
        try CountsTests().expectExactCounts(store)

        // Onto a tag that exists: the two merge, under its spelling.
        try store.renameTag("garden", to: "HOUSE")
        #expect(try tagRows(store) == [["house", "House"]])
        #expect(try store.read { try Queries.tags($0, reminderID: a.id) } == ["House"])
        #expect(try linkRows(store).count == 2)
        try CountsTests().expectExactCounts(store)
    }

    /// The index holds a tag's spelling, case kept and diacritics taken
    /// out (search ignores both); a respelling replaces it.
    @Test func searchHoldsTheTitlesAsTheyAreSpelledWithoutDiacritics() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list, tags: ["Überweisung", "日本語"])
        func indexed() throws -> String? {
            try store.read { try String.fetchOne($0, sql: "SELECT tags FROM reminderSearch WHERE rowid = (SELECT rowid FROM reminders WHERE id = ?)", arguments: [a.id]) }
        }
        #expect(try indexed().map { Set($0.split(separator: " ")) } == ["#Uberweisung", "#日本語"])
        #expect(try store.search("Überweisung").hits.map(\.id) == [a.id])
        #expect(try store.search("uberweisung").hits.map(\.id) == [a.id])
        // Another device's respelling arrives as an update of the title.
        try store.writer.write { try $0.execute(sql: "UPDATE tags SET title = 'ÜBERWEISUNG' WHERE id = ?", arguments: [TagKey.of("Überweisung")]) }
        #expect(try indexed().map { Set($0.split(separator: " ")) } == ["#UBERWEISUNG", "#日本語"])
    }

    @Test func aLinkWrittenBeforeItsTagIsSearchableWhenTheTagArrives() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list)
        try store.writer.write { db in
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            try ReminderTag(reminderID: a.id, tagID: "errands").insert(db)
            try Tag(title: "Errands").insert(db)
        }
        #expect(try store.search("Errands").hits.map(\.id) == [a.id])
        try CountsTests().expectExactCounts(store)
    }

    @Test func exportListsTitlesSortedByKey() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("A", to: list, tags: ["zeta", "Café", "alpha", "Beta"])
        try store.createTag("CAFÉ")
        let dump = try store.read { try ExportDump.read($0, owner: { _ in "me" }) }
        #expect(dump.reminders.map(\.tags) == [["alpha", "Beta", "Café", "zeta"]])
        #expect(dump.tags.map(\.title) == ["alpha", "Beta", "Café", "zeta"])
    }

    @Test func undoingADeletePutsTagsBackAsTheyWereSpelled() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list, tags: ["Café", "Work"])
        let deleted = try store.deleteReminder(id: a.id)
        #expect(deleted.tags == ["Café", "Work"])
        try store.deleteTag("café")
        try store.restore(deleted)
        #expect(try tagRows(store) == [["café", "Café"], ["work", "Work"]])
        let deletedList = try store.deleteList(id: list.id)
        #expect(deletedList.reminders.map(\.tags) == [["Café", "Work"]])
        try store.restore(deletedList)
        #expect(try store.read { try Queries.tags($0, reminderID: a.id) } == ["Café", "Work"])
        try CountsTests().expectExactCounts(store)
    }
}
