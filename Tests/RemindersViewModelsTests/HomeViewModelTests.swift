import Foundation
import GRDB
import RemindersCore
import Testing
@testable import RemindersViewModels

@Suite struct HomeViewModelTests {
    @Test func creatingAListShowsUpThroughTheObservation() async throws {
        let world = try World()
        let home = HomeViewModel(environment: world.environment)
        try await home.waitFor { $0.isLoaded }
        #expect(home.state.lists.isEmpty)

        let result = home.createList(title: "Groceries", color: "#5CC15A")
        #expect(result.succeeded)
        let state = try await home.waitFor { $0.lists.count == 1 }
        #expect(state.lists[0].list.title == "Groceries")
        #expect(state.lists[0].list.color == "#5cc15a")
        #expect(state.lists[0].id == result.createdID)
        #expect(state.lists[0].summary.openCount == 0)
    }

    @Test func countsFollowRemindersAddedElsewhere() async throws {
        let world = try World()
        let home = HomeViewModel(environment: world.environment)
        let listID = try world.list("Personal")
        try world.reminder("Pay rent", in: listID, due: "2026-02-27", flagged: true, tags: ["bills"])
        try world.reminder("Call mom", in: listID, due: "2026-03-01T18:00")
        try world.reminder("Plan trip", in: listID, due: "2026-03-09")
        let done = try world.reminder("Old task", in: listID)
        try world.store.complete(id: done)

        let state = try await home.waitFor { $0.counts.all == 3 && $0.counts.completed == 1 }
        #expect(state.smartLists.map(\.kind) == [.today, .scheduled, .all, .flagged, .completed])
        #expect(state.smartLists.map(\.count) == [2, 3, 3, 1, 1])
        #expect(state.pastDueCount == 1)
        #expect(state.lists.map(\.summary.openCount) == [3])
        #expect(state.tags.map(\.title) == ["bills"])
    }

    @Test func onChangeIsCalledOnTheViewModelsQueueNotTheMainThread() async throws {
        let world = try World()
        let home = HomeViewModel(environment: world.environment)
        try await home.waitFor { $0.isLoaded }
        let calls = Counter()
        let offMain = Counter()
        let queue = home.queue
        home.onChange = {
            dispatchPrecondition(condition: .onQueue(queue))
            calls.increment()
            if !Thread.isMainThread { offMain.increment() }
        }
        try world.list("Work")
        try await home.waitFor { $0.lists.count == 1 }
        home.queue.sync {}  // the calls queued so far have run
        #expect(calls.value >= 1)
        #expect(offMain.value == calls.value)
    }

    @Test func refreshReadsStateSynchronously() throws {
        let world = try World()
        try world.list("Work")
        let home = HomeViewModel(environment: world.environment)
        home.refresh()
        #expect(home.state.isLoaded)
        #expect(home.state.lists.map(\.list.title) == ["Work"])
    }

    @Test func deletingAListAsksWithItsReminderCount() async throws {
        let world = try World()
        let home = HomeViewModel(environment: world.environment)
        let work = try world.list("Work")
        try world.list("Home")
        try world.reminder("One", in: work)
        let done = try world.reminder("Two", in: work)
        try world.store.complete(id: done)

        let summary = try #require(home.deletionSummary(listID: work))
        #expect(summary.reminderCount == 2)
        #expect(summary.question == "Delete “Work” and its 2 reminders?")
        #expect(summary.consequence == "u undoes it afterwards.")
        let result = home.deleteList(id: work)
        #expect(result.message == "Deleted “Work”")
        let state = try await home.waitFor { $0.lists.count == 1 }
        #expect(state.lists[0].list.title == "Home")
        #expect(home.deletionSummary(listID: work) == nil)
        #expect(home.deleteList(id: work).errorMessage == "list \(work) not found")

        // The undo puts the list back where it was, with both reminders.
        let undo = try #require(result.undo)
        try undo.apply(to: world.store)
        #expect(undo.doneMessage() == "Restored “Work”")
        let back = try await home.waitFor { $0.lists.count == 2 }
        #expect(back.lists.map(\.list.title) == ["Work", "Home"])
        #expect(home.deletionSummary(listID: work)?.reminderCount == 2)
        #expect(try world.status(of: done) == .completed)
    }

    @Test func aSharedListsDeleteCannotBeUndone() throws {
        struct Shared: SharingInfoProvider {
            func shareStatus(_ db: Database, listID: String) throws -> ListShareStatus? {
                .sharedWith([SharedPerson(name: "bob", isInvited: false)])
            }
            func isReadOnly(_ db: Database, listID: String) throws -> Bool { false }
        }
        let world = try World(sharing: Shared())
        let home = HomeViewModel(environment: world.environment)
        let family = try world.list("Family")
        try world.reminder("Picnic", in: family)
        let summary = try #require(home.deletionSummary(listID: family))
        #expect(!summary.canUndo)
        #expect(summary.consequence == "It is shared: this cannot be undone.")
        let result = home.deleteList(id: family)
        #expect(result.message == "Deleted “Family”")
        #expect(result.undo == nil)
    }

    @Test func movingListsReordersMyLists() async throws {
        let world = try World()
        let home = HomeViewModel(environment: world.environment)
        try world.list("A")
        let b = try world.list("B")
        try world.list("C")
        try await home.waitFor { $0.lists.map(\.list.title) == ["A", "B", "C"] }
        #expect(home.moveList(id: b, by: -1).succeeded)
        try await home.waitFor { $0.lists.map(\.list.title) == ["B", "A", "C"] }
        #expect(home.moveList(id: b, by: 5).succeeded)
        try await home.waitFor { $0.lists.map(\.list.title) == ["A", "C", "B"] }
    }

    @Test func badListInputIsReportedNotThrown() throws {
        let world = try World()
        let home = HomeViewModel(environment: world.environment)
        #expect(home.createList(title: "  ").errorMessage == "list title must not be empty")
        #expect(home.createList(title: "X", color: "crimson").errorMessage?.hasPrefix("color 'crimson' is not one of blue, red") == true)
        #expect(home.createList(title: "X", color: "blue").errorMessage == nil)
    }

    @Test func observationErrorsLandInTheState() async throws {
        struct Broken: SharingInfoProvider {
            func shareStatus(_ db: Database, listID: String) throws -> ListShareStatus? {
                try String.fetchOne(db, sql: "SELECT owner FROM shares WHERE listID = ?", arguments: [listID])
                    .map { .sharedBy(owner: $0, isReadOnly: false) }
            }
            func isReadOnly(_ db: Database, listID: String) throws -> Bool { false }
        }
        let world = try World(sharing: Broken())
        try world.list("Work")
        let home = HomeViewModel(environment: world.environment)
        let state = try await home.waitFor { $0.errorMessage != nil }
        #expect(state.errorMessage?.contains("no such table: shares") == true)
        home.refresh()
        #expect(home.state.errorMessage?.contains("no such table: shares") == true)
    }

    @Test func sharingHooksFillTheListLines() async throws {
        struct Shared: SharingInfoProvider {
            func shareStatus(_ db: Database, listID: String) throws -> ListShareStatus? {
                try RemindersList.fetchOne(db, key: listID)?.title == "Family" ? .sharedBy(owner: "bob", isReadOnly: true) : nil
            }
            func isReadOnly(_ db: Database, listID: String) throws -> Bool {
                try RemindersList.fetchOne(db, key: listID)?.title == "Family"
            }
        }
        let world = try World(sharing: Shared())
        let home = HomeViewModel(environment: world.environment)
        let family = try world.list("Family")
        try world.list("Mine")
        let state = try await home.waitFor { $0.lists.count == 2 }
        #expect(state.lists.map(\.share) == [.sharedBy(owner: "bob", isReadOnly: true), nil])
        #expect(state.lists.map(\.isReadOnly) == [true, false])
        #expect(world.environment.shareStatus(listID: family) == .sharedBy(owner: "bob", isReadOnly: true))
        #expect(world.environment.isReadOnly(listID: family))
    }
}
