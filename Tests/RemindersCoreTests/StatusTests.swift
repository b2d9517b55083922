import Foundation
import GRDB
import Testing
@testable import RemindersCore

@Suite("Status cycle")
struct StatusTests {
    @Test func toggleCompletesAfterADelayAndStaysVisibleMeanwhile() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let reminder = try store.add("Milk", to: list)

        #expect(try store.toggleCompletion(id: reminder.id) == .completing)
        #expect(try store.reminder(reminder.id)?.status == .completing)
        #expect(try store.titles(.list(list.id)) == ["Milk"])
        #expect(try store.reminder(reminder.id)?.completedAt == nil)

        try store.finishCompleting()
        let completed = try #require(try store.reminder(reminder.id))
        #expect(completed.status == .completed)
        #expect(completed.completedAt == "2026-03-01T10:00:00")
        #expect(try store.titles(.list(list.id)).isEmpty)
    }

    @Test func togglingAgainUndoes() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let reminder = try store.add("Milk", to: list)
        try store.toggleCompletion(id: reminder.id)
        #expect(try store.toggleCompletion(id: reminder.id) == .incomplete)
        try store.finishCompleting()
        #expect(try store.reminder(reminder.id)?.status == .incomplete)

        try store.complete(id: reminder.id)
        #expect(try store.toggleCompletion(id: reminder.id) == .incomplete)
        let reopened = try #require(try store.reminder(reminder.id))
        #expect(reopened.status == .incomplete && reopened.completedAt == nil)
    }

    @Test func finishCompletingOnlyTheGivenIDs() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list)
        let b = try store.add("B", to: list)
        try store.toggleCompletion(id: a.id)
        try store.toggleCompletion(id: b.id)
        try store.finishCompleting(ids: [a.id])
        #expect(try store.reminder(a.id)?.status == .completed)
        #expect(try store.reminder(b.id)?.status == .completing)
    }

    @Test func completeGoesStraightToCompletedAndUncompleteReopens() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let reminder = try store.add("Milk", to: list)
        try store.complete(id: reminder.id)
        #expect(try store.reminder(reminder.id)?.status == .completed)
        // Completing again keeps the first completion time.
        try RemindersCoreTests.store(store, at: "2026-03-02T10:00:00Z").complete(id: reminder.id)
        #expect(try store.reminder(reminder.id)?.completedAt == "2026-03-01T10:00:00")
        try store.uncomplete(id: reminder.id)
        let reopened = try #require(try store.reminder(reminder.id))
        #expect(reopened.status == .incomplete && reopened.completedAt == nil)
    }

    @Test func deleteCanBeUndone() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let reminder = try store.add("Milk", to: list, notes: "Oat", tags: ["dairy"])
        let deleted = try store.deleteReminder(id: reminder.id)
        #expect(try store.reminder(reminder.id) == nil)
        try store.restore(deleted)
        #expect(try store.rows(.all).first?.tags == ["dairy"])
        #expect(try store.search("oat").hits.map(\.id) == [reminder.id])
        #expect(try store.reminder(reminder.id) == reminder)
    }

    @Test func aListsDeleteCanBeUndoneWithItsCoverRemindersAndTags() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home", color: "#5cc15a")
        let work = try store.createList(title: "Work")
        try store.setCover(listID: home.id, png: SampleCovers.png(named: "forest"))
        let milk = try store.add("Milk", to: home, notes: "Oat", tags: ["dairy", "Errands"])
        _ = try store.add("Bread", to: home)
        try store.complete(id: try store.add("Eggs", to: home, tags: ["dairy"]).id)
        _ = try store.add("Report", to: work, tags: ["dairy"])
        let before = try store.read { try ExportDump.read($0, owner: { _ in "me" }) }

        let deleted = try store.deleteList(id: home.id)
        #expect(deleted.reminders.map(\.reminder.title) == ["Milk", "Bread", "Eggs"])
        #expect(deleted.reminders[0].tags == ["dairy", "Errands"])
        #expect(try store.read { try ExportDump.read($0, owner: { _ in "me" }) } != before)

        try store.restore(deleted)
        #expect(try store.read { try ExportDump.read($0, owner: { _ in "me" }) } == before)
        #expect(try store.search("oat").hits.map(\.id) == [milk.id])
        // Only once: the list is back, a second restore is refused whole.
        #expect(throws: CoreError.invalidInput("list 'Home' exists already")) { try store.restore(deleted) }
        #expect(try store.read { try ExportDump.read($0, owner: { _ in "me" }) } == before)
    }
}

@Suite("Tags")
struct TagTests {
    @Test func renameMovesEveryLink() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list, tags: ["home"])
        let b = try store.add("B", to: list, tags: ["home", "garden"])
        try store.renameTag("home", to: "house")
        #expect(try store.read { try Queries.tags($0, reminderID: a.id) } == ["house"])
        #expect(try store.read { try Queries.tags($0, reminderID: b.id) } == ["garden", "house"])
        #expect(try store.read { try Queries.allTags($0) }.map(\.title) == ["garden", "house"])
    }

    @Test func renameOntoAnExistingTagMerges() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let both = try store.add("Both", to: list, tags: ["home", "house"])
        let one = try store.add("One", to: list, tags: ["home"])
        try store.renameTag("home", to: "House")
        #expect(try store.read { try Queries.tags($0, reminderID: both.id) } == ["house"])
        #expect(try store.read { try Queries.tags($0, reminderID: one.id) } == ["house"])
        #expect(try store.read { try Queries.allTags($0) } == [TagSummary(title: "house", openCount: 2)])
    }

    @Test func renameChangingOnlyTheCaseKeepsTheLinks() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list, tags: ["work"])
        try store.renameTag("WORK", to: "Work")
        #expect(try store.read { try Queries.tags($0, reminderID: a.id) } == ["Work"])
    }

    @Test func renamingAnUnknownTagOrToABadTitleChangesNothing() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("A", to: list, tags: ["work"])
        let before = try store.snapshot()
        expectErrorKind(.notFound("")) { try store.renameTag("play", to: "fun") }
        expectErrorKind(.invalidInput("")) { try store.renameTag("work", to: "a,b") }
        expectErrorKind(.invalidInput("")) { try store.renameTag("work", to: "  ") }
        #expect(try store.snapshot() == before)
    }

    @Test func settingTagsTouchesOnlyChangedLinks() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list, tags: ["one", "two"])
        let linkOfTwo = try store.read { try String.fetchOne($0, sql: "SELECT id FROM remindersTags WHERE tagID = 'two'") }
        try store.updateReminder(id: a.id, ReminderChanges(tags: ["#Two", "three", "two"]))
        #expect(try store.read { try Queries.tags($0, reminderID: a.id) } == ["three", "two"])
        #expect(try store.read { try String.fetchOne($0, sql: "SELECT id FROM remindersTags WHERE tagID = 'two'") } == linkOfTwo)
    }
}

@Suite("Moving")
struct MoveTests {
    @Test func remindersMoveUpAndDownWithinTheirList() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list)
        try store.add("B", to: list)
        let c = try store.add("C", to: list)
        try store.moveReminder(id: c.id, by: -1)
        #expect(try store.titles(.list(list.id)) == ["A", "C", "B"])
        try store.moveReminder(id: a.id, by: 1)
        #expect(try store.titles(.list(list.id)) == ["C", "A", "B"])
        try store.moveReminder(id: a.id, by: 10)
        #expect(try store.titles(.list(list.id)) == ["C", "B", "A"])
        try store.moveReminder(id: a.id, by: -10)
        #expect(try store.titles(.list(list.id)) == ["A", "C", "B"])
        #expect(try store.rows(.list(list.id)).map(\.reminder.position) == [0, 1, 2])
    }

    @Test func listsMoveUpAndDown() throws {
        let store = try makeStore()
        let a = try store.createList(title: "A")
        try store.createList(title: "B")
        let c = try store.createList(title: "C")
        try store.moveList(id: c.id, by: -2)
        #expect(try store.read { try Queries.lists($0) }.map(\.list.title) == ["C", "A", "B"])
        try store.moveList(id: a.id, by: 1)
        #expect(try store.read { try Queries.lists($0) }.map(\.list.title) == ["C", "B", "A"])
    }

    @Test func movingToAnotherListPutsTheReminderLast() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        let work = try store.createList(title: "Work")
        try store.add("W1", to: work)
        let moving = try store.add("H1", to: home)
        try store.updateReminder(id: moving.id, ReminderChanges(listID: work.id))
        #expect(try store.titles(.list(work.id)) == ["W1", "H1"])
        #expect(try store.reminder(moving.id)?.position == 1)
    }
}
