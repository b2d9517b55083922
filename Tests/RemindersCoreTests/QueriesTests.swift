import Foundation
import GRDB
import Testing
@testable import RemindersCore

/// Smart lists, counts, sorting and filters, on a clock pinned to
/// 2026-03-01 10:00 UTC.
@Suite("Queries")
struct QueriesTests {
    @Test func smartCountsLeaveOutCompletedAndKnowWhatIsPastDue() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("Yesterday", to: list, due: "2026-02-28")              // past due
        try store.add("Today, no time", to: list, due: "2026-03-01")         // due today, not past due
        try store.add("Today 09:00", to: list, due: "2026-03-01T09:00")      // past due since 09:00
        try store.add("Today 10:00", to: list, due: "2026-03-01T10:00")      // due this minute: not yet past
        try store.add("Today 18:00", to: list, due: "2026-03-01T18:00")
        try store.add("Tomorrow", to: list, due: "2026-03-02", flagged: true)
        try store.add("Someday", to: list, flagged: true)
        let done = try store.add("Done last week", to: list, due: "2026-02-20", flagged: true)
        try store.complete(id: done.id)

        let counts = try store.read { try Queries.smartCounts($0, clock: store.clock) }
        #expect(counts.today == 5)
        #expect(counts.scheduled == 6)
        #expect(counts.all == 7)
        #expect(counts.flagged == 2)
        #expect(counts.completed == 1)
        #expect(counts.pastDue == 2)

        let pastDue = try store.rows(.all, showCompleted: true).filter(\.isPastDue).map(\.reminder.title)
        #expect(pastDue == ["Yesterday", "Today 09:00"])
    }

    @Test func pastDueFollowsTheClock() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("Lunch", to: list, due: "2026-03-01T12:00")
        func pastDue(at moment: String) throws -> Int {
            let later = try RemindersCoreTests.store(store, at: moment)
            return try later.read { try Queries.smartCounts($0, clock: later.clock) }.pastDue
        }
        #expect(try pastDue(at: "2026-03-01T11:59:00Z") == 0)
        #expect(try pastDue(at: "2026-03-01T12:01:00Z") == 1)
    }

    @Test func todayIncludesPastDueAndNotTheFuture() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("Last year", to: list, due: "2025-03-01")
        try store.add("Now", to: list, due: "2026-03-01T10:00")
        try store.add("Tomorrow", to: list, due: "2026-03-02T00:00")
        try store.add("Undated", to: list)
        #expect(try store.titles(.today) == ["Last year", "Now"])
        #expect(try store.titles(.scheduled) == ["Last year", "Now", "Tomorrow"])
    }

    @Test func listsCountOnlyOpenReminders() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        let work = try store.createList(title: "Work", color: "#E8524A")
        // Without a colour, the first the other lists do not use.
        let errands = try store.createList(title: "Errands")
        #expect(errands.color == "#f0a030")
        try store.deleteList(id: errands.id)
        try store.add("A", to: home)
        let b = try store.add("B", to: home)
        let c = try store.add("C", to: home)
        try store.complete(id: b.id)
        try store.toggleCompletion(id: c.id)  // completing still counts as open
        let lists = try store.read { try Queries.lists($0) }
        #expect(lists.map(\.list.title) == ["Home", "Work"])
        #expect(lists.map(\.openCount) == [2, 0])
        #expect(lists.map(\.list.color) == ["#4a99ef", "#e8524a"])
        #expect(lists.map(\.list.position) == [0, 1])
        _ = work
    }

    @Test func tagsInUseCountOpenRemindersAndSkipUnusedTags() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("A", to: list, tags: ["errands", "home"])
        let done = try store.add("B", to: list, tags: ["errands"])
        try store.complete(id: done.id)
        let dropped = try store.add("C", to: list, tags: ["later"])
        try store.updateReminder(id: dropped.id, ReminderChanges(tags: []))
        let inUse = try store.read { try Queries.tagsInUse($0) }
        #expect(inUse == [TagSummary(title: "errands", openCount: 1), TagSummary(title: "home", openCount: 1)])
        let all = try store.read { try Queries.allTags($0) }
        #expect(all.map(\.title) == ["errands", "home", "later"])
        #expect(all.last?.openCount == 0)
    }

    /// Four reminders whose orders differ under every sort.
    func sortingFixture() throws -> RemindersStore {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("banana", to: list, due: "2026-03-05", priority: .low)
        try store.add("Apple", to: list, priority: .high)
        try store.add("cherry", to: list, due: "2026-03-02T08:00", priority: .none)
        try store.add("date", to: list, due: "2026-03-02", priority: .high)
        return store
    }

    @Test func manualOrderFollowsPositions() throws {
        #expect(try sortingFixture().titles(.all, sort: .manual) == ["banana", "Apple", "cherry", "date"])
    }

    @Test func dueOrderPutsUndatedLast() throws {
        #expect(try sortingFixture().titles(.all, sort: .due) == ["date", "cherry", "banana", "Apple"])
    }

    @Test func priorityOrderIsHighestFirstThenDue() throws {
        #expect(try sortingFixture().titles(.all, sort: .priority) == ["date", "Apple", "banana", "cherry"])
    }

    @Test func titleOrderIgnoresCase() throws {
        #expect(try sortingFixture().titles(.all, sort: .title) == ["Apple", "banana", "cherry", "date"])
    }

    @Test func completedAreHiddenOrShownLast() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let a = try store.add("A", to: list)
        try store.add("B", to: list)
        let c = try store.add("C", to: list)
        try store.complete(id: a.id)
        try store.toggleCompletion(id: c.id)
        #expect(try store.titles(.list(list.id)) == ["B", "C"])
        #expect(try store.titles(.list(list.id), showCompleted: true) == ["B", "C", "A"])
        for sort in RemindersCore.SortOrder.allCases {
            #expect(try store.titles(.all, sort: sort, showCompleted: true).last == "A")
        }
        #expect(try store.titles(.completed) == ["A"])
    }

    @Test func flaggedAndTagFilters() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        let work = try store.createList(title: "Work")
        try store.add("Flagged at home", to: home, flagged: true, tags: ["Urgent"])
        try store.add("Flagged at work", to: work, flagged: true)
        try store.add("Tagged at work", to: work, tags: ["urgent", "deep"])
        #expect(try store.titles(.flagged) == ["Flagged at home", "Flagged at work"])
        #expect(try store.titles(.tag("URGENT")) == ["Flagged at home", "Tagged at work"])
        let row = try #require(try store.rows(.tag("deep")).first)
        #expect(row.tags == ["deep", "Urgent"])
        #expect(row.listTitle == "Work")
    }

    @Test func sampleDataSeedsOnceWithCovers() throws {
        let store = try makeStore()
        #expect(try SampleData.seed(store))
        #expect(try SampleData.seed(store) == false)
        let lists = try store.read { try Queries.lists($0) }
        #expect(lists.count == 3)
        #expect(lists.filter(\.hasCover).count == 3)
        let counts = try store.read { try Queries.smartCounts($0, clock: store.clock) }
        #expect(counts.all >= 10)
        #expect(counts.today > 0 && counts.pastDue > 0 && counts.flagged > 0 && counts.completed > 0)
    }

    @Test func exportIsSortedByIDWithSortedTags() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        for title in ["One", "Two", "Three"] {
            try store.add(title, to: list, tags: ["b", "A", "c"])
        }
        let dump = try store.read { try ExportDump.read($0, owner: { _ in "me" }) }
        #expect(dump.reminders.map(\.id) == dump.reminders.map(\.id).sorted())
        #expect(dump.reminders.map(\.tags) == Array(repeating: ["A", "b", "c"], count: 3))
        #expect(dump.tags.map(\.title) == ["A", "b", "c"])
        #expect(dump.lists.first?.owner == "me")
        #expect(dump.lists.first?.coverImageSHA256 == nil)
    }
}
