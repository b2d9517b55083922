import Foundation
import RemindersCore
import Testing
@testable import RemindersViewModels

@Suite struct ListDetailViewModelTests {
    @Test func showsTheListsTitleColorCoverAndRows() async throws {
        let world = try World()
        let listID = try world.list("Groceries", color: "#5cc15a")
        try world.store.setCover(listID: listID, png: SampleCovers.png(named: "forest"))
        try world.reminder("Milk", in: listID, tags: ["dairy"])
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(listID))
        let state = try await detail.waitFor { $0.isLoaded }
        #expect(state.title == "Groceries")
        #expect(state.color == "#5cc15a")
        #expect(state.coverPNG == SampleCovers.png(named: "forest"))
        #expect(state.titles == ["Milk"])
        #expect(state.rows[0].tags == ["dairy"])
        #expect(state.canReorder)

        try world.store.updateList(id: listID, title: "Food")
        try await detail.waitFor { $0.title == "Food" }
        try world.store.deleteList(id: listID)
        try await detail.waitFor { !$0.exists }
    }

    /// "Call mom" in Personal, shown by a list detail, with completions on a
    /// clock the test moves.
    static func callMom(completionDelay: TimeInterval) throws
        -> (World, ManualCompletionClock, String, String, ListDetailViewModel) {
        let clock = ManualCompletionClock()
        let world = try World(completionDelay: completionDelay, completionClock: clock)
        let listID = try world.list("Personal")
        let id = try world.reminder("Call mom", in: listID)
        return (world, clock, listID, id, ListDetailViewModel(environment: world.environment, filter: .list(listID)))
    }

    /// On a clock the test moves, so "still completing" is checked however
    /// long a loaded machine stalls the test; the real timer is exercised by
    /// the tests that only wait for the outcome.
    @Test func completingBecomesCompletedAfterTheDelay() async throws {
        let (world, clock, _, id, detail) = try Self.callMom(completionDelay: 0.5)

        let result = detail.toggleCompletion(id: id)
        #expect(result.message == "Completed “Call mom”")
        #expect(result.undo == .uncomplete(id: id))
        // Still shown while completing, so the tick can be taken back. The
        // refresh is read after the tick, and the observation's first value,
        // which may have been read before it, must not take the screen back.
        detail.refresh()
        #expect(detail.state.titles == ["Call mom"])
        #expect(detail.state.rows.first?.reminder.status == .completing)
        // A sleep on purpose: time for that first value to (wrongly) arrive;
        // a value that changes nothing leaves no trace to wait for.
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(detail.state.rows.first?.reminder.status == .completing)
        // Then it leaves the list (completed ones are hidden).
        clock.advance(by: 0.4)
        #expect(try world.status(of: id) == .completing)
        clock.advance(by: 0.1)
        let after = try await detail.waitFor { $0.rows.isEmpty }
        #expect(after.completedCount == 1)
        #expect(try world.status(of: id) == .completed)
    }

    /// Ticking a parent with its checklist says what happens to it: a
    /// series' checklist opens again for the next occurrence.
    @Test func completingAParentWithItsSubtasksSaysWhatBecomesOfThem() throws {
        let world = try World()
        let home = try world.list("Home")
        let plain = try world.reminder("Pack", in: home)
        _ = try world.store.createReminder(ReminderDraft(listID: home, title: "Socks", parentID: plain))
        let series = try world.store.createReminder(ReminderDraft(listID: home, title: "Mow lawn", dueDate: DueDate("2026-03-02"),
                                                                  repeatRule: "FREQ=WEEKLY;BYDAY=MO")).id
        for title in ["Edges", "Clippings"] {
            _ = try world.store.createReminder(ReminderDraft(listID: home, title: title, parentID: series))
        }
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(home))
        #expect(detail.toggleCompletion(id: plain, subtasks: true).message == "Completed “Pack” and its open subtask")
        #expect(detail.toggleCompletion(id: series, subtasks: true).message
                == "Completed this occurrence of “Mow lawn” and 2 open subtasks, open again for the next")
    }

    /// Ticking a series says when it is due next, or that it was the last.
    @Test func completingASeriesSaysWhatComesNext() throws {
        let world = try World()
        let home = try world.list("Home")
        let mow = try world.store.createReminder(ReminderDraft(listID: home, title: "Mow lawn", dueDate: DueDate("2026-03-02"),
                                                               repeatRule: "FREQ=WEEKLY;BYDAY=MO")).id
        let once = try world.store.createReminder(ReminderDraft(listID: home, title: "Vitamins", dueDate: DueDate("2026-03-02"),
                                                                repeatRule: "FREQ=DAILY;COUNT=1")).id
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(home))
        #expect(detail.toggleCompletion(id: mow).message == "Completed this occurrence of “Mow lawn”; next due Mon 2026-03-09")
        #expect(detail.toggleCompletion(id: once).message == "Completed “Vitamins”, the last of its repeats")
    }

    /// Deleting a parent says its subtasks went with it; undo brings all back.
    @Test func deletingAParentSaysItsSubtasksWentWithIt() throws {
        let world = try World()
        let home = try world.list("Home")
        let pack = try world.reminder("Pack", in: home)
        for title in ["Socks", "Passport"] {
            _ = try world.store.createReminder(ReminderDraft(listID: home, title: title, parentID: pack))
        }
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(home))
        let deleted = detail.delete(id: pack)
        #expect(deleted.message == "Deleted “Pack” and its 2 subtasks")
        #expect(detail.undo(try #require(deleted.undo)).message == "Restored “Pack”")
        #expect(try world.store.writer.read { try Reminder.fetchCount($0) } == 3)
    }

    /// Unticking a completed reminder says so and can be undone; unticking
    /// the latest completed copy of a series takes that completion back,
    /// and its undo completes the occurrence again.
    @Test func reopeningACompletedReminderOrCopySaysSoAndCanBeUndone() throws {
        let (world, _, listID, id, detail) = try Self.callMom(completionDelay: 0)
        try world.store.complete(id: id)
        let reopened = detail.toggleCompletion(id: id)
        #expect(reopened.message == "Reopened “Call mom”")
        #expect(reopened.undo == .complete(id: id))
        #expect(try world.status(of: id) == .incomplete)

        let series = try world.store.createReminder(ReminderDraft(listID: listID, title: "Stretch", dueDate: DueDate("2026-03-02"),
                                                                  repeatRule: "FREQ=DAILY"))
        try world.store.complete(id: series.id)
        let copyID = Repeats.occurrenceID(series: series.id, due: try #require(DueDate("2026-03-02")))
        let tookBack = detail.toggleCompletion(id: copyID)
        #expect(tookBack.message == "Took back the completion of “Stretch”, due 2026-03-02 again")
        #expect(tookBack.undo == .complete(id: series.id))
        #expect(try world.store.writer.read { try Reminder.fetchOne($0, key: series.id)?.dueDate } == DueDate("2026-03-02"))
        _ = detail.undo(try #require(tookBack.undo))
        #expect(try world.store.writer.read { try Reminder.fetchOne($0, key: series.id)?.dueDate } == DueDate("2026-03-03"))
    }

    @Test func togglingBackBeforeTheDelayKeepsItIncomplete() async throws {
        let (world, clock, _, id, detail) = try Self.callMom(completionDelay: 0.2)
        detail.toggleCompletion(id: id)
        #expect(try world.status(of: id) == .completing)
        #expect(detail.toggleCompletion(id: id).undo == nil)
        #expect(try world.status(of: id) == .incomplete)
        clock.advance(by: 1)
        #expect(try world.status(of: id) == .incomplete)
        #expect(world.environment.completions.pendingIDs.isEmpty)
    }

    /// On a clock the test moves: the batch is about which deadline comes
    /// first, and a loaded machine can stall the test between two ticks for
    /// longer than any real delay.
    @Test func eachTickExtendsTheBatchSoRowsLeaveTogether() async throws {
        let clock = ManualCompletionClock()
        let world = try World(completionDelay: 4, completionClock: clock)
        let listID = try world.list("Personal")
        let a = try world.reminder("A", in: listID)
        let b = try world.reminder("B", in: listID)
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(listID))
        _ = try await detail.waitFor { $0.rows.count == 2 }
        detail.toggleCompletion(id: a)
        clock.advance(by: 3)
        detail.toggleCompletion(id: b)
        // Past A's own deadline (4 s after its tick): B's tick moved it.
        clock.advance(by: 3)
        #expect(try world.status(of: a) == .completing)
        #expect(try world.status(of: b) == .completing)
        #expect(world.environment.completions.pendingIDs == [a, b])
        // 4 s after the last tick, both go, in one write.
        clock.advance(by: 1)
        #expect(try world.status(of: a) == .completed)
        #expect(try world.status(of: b) == .completed)
        let firstChange = try await detail.waitFor { $0.rows.count < 2 }
        #expect(firstChange.rows.isEmpty, "the two rows left one after the other")
    }

    @Test func undoingACompletionBringsItBack() async throws {
        let world = try World(completionDelay: 0.1)
        let listID = try world.list("Personal")
        let id = try world.reminder("Water plants", in: listID)
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(listID))
        let undo = try #require(detail.toggleCompletion(id: id).undo)
        try await detail.waitFor { $0.completedCount == 1 }
        #expect(detail.undo(undo).message == "“Water plants” marked incomplete")
        let state = try await detail.waitFor { $0.titles == ["Water plants"] }
        #expect(state.rows[0].reminder.status == .incomplete)
    }

    /// Deleted while completing and put back: it completes as it would
    /// have, instead of staying "completing" until the app ends.
    @Test func aCompletingReminderPutBackStillCompletes() throws {
        let (world, clock, listID, id, detail) = try Self.callMom(completionDelay: 3)
        detail.toggleCompletion(id: id)
        let undoDelete = try #require(detail.delete(id: id).undo)
        clock.advance(by: 5)
        #expect(detail.undo(undoDelete).succeeded)
        #expect(try world.status(of: id) == .completing)
        clock.advance(by: 3)
        #expect(try world.status(of: id) == .completed)

        // The same for a whole list.
        let other = try world.reminder("Water plants", in: listID)
        detail.toggleCompletion(id: other)
        let home = HomeViewModel(environment: world.environment)
        let undoList = try #require(home.deleteList(id: listID).undo)
        #expect(world.environment.completions.pendingIDs.isEmpty)
        #expect(undoList.perform(in: world.environment).succeeded)
        #expect(try world.status(of: other) == .completing)
        clock.advance(by: 3)
        #expect(try world.status(of: other) == .completed)
        #expect(try world.status(of: id) == .completed)
    }

    @Test func stoppingFinishesPendingCompletions() throws {
        let world = try World(completionDelay: 60)
        let listID = try world.list("Personal")
        let id = try world.reminder("Pending", in: listID)
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(listID))
        detail.toggleCompletion(id: id)
        detail.stop()
        #expect(try world.status(of: id) == .completed)
    }

    @Test func deleteAndUndoRestoresTheReminderWithItsTagsAndPlace() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.reminder("First", in: listID)
        let id = try world.reminder("Second", in: listID, notes: "n", due: "2026-03-03", tags: ["x", "y"])
        try world.reminder("Third", in: listID)
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(listID))
        try await detail.waitFor { $0.rows.count == 3 }

        let result = detail.delete(id: id)
        #expect(result.message == "Deleted “Second”")
        try await detail.waitFor { $0.titles == ["First", "Third"] }
        let undo = try #require(result.undo)
        #expect(detail.undo(undo).succeeded)
        let state = try await detail.waitFor { $0.titles == ["First", "Second", "Third"] }
        #expect(state.rows[1].tags == ["x", "y"])
        #expect(state.rows[1].reminder.dueDate?.description == "2026-03-03")
        #expect(detail.delete(id: "missing").errorMessage == "reminder missing not found")
    }

    @Test func sortOrders() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.reminder("banana", in: listID, due: "2026-03-05", priority: .low)
        try world.reminder("Apple", in: listID, priority: .high)
        try world.reminder("cherry", in: listID, due: "2026-03-02", priority: .medium)
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(listID))
        try await detail.waitFor { $0.titles == ["banana", "Apple", "cherry"] }
        detail.setSort(.due)
        try await detail.waitFor { $0.sort == .due && $0.titles == ["cherry", "banana", "Apple"] }
        #expect(!detail.state.canReorder)
        detail.setSort(.priority)
        try await detail.waitFor { $0.titles == ["Apple", "cherry", "banana"] }
        detail.setSort(.title)
        try await detail.waitFor { $0.titles == ["Apple", "banana", "cherry"] }
        #expect(detail.move(id: detail.state.rows[0].id, by: 1).errorMessage
                == "reminders can only be moved in a list sorted manually")
    }

    @Test func sortAndShowCompletedAreRememberedPerListOnTheDevice() async throws {
        let world = try World()
        let personal = try world.list("Personal")
        let work = try world.list("Work")
        try world.reminder("banana", in: personal, priority: .low)
        try world.reminder("Apple", in: personal, priority: .high)
        let first = ListDetailViewModel(environment: world.environment, filter: .list(personal))
        try await first.waitFor { $0.isLoaded }
        first.setSort(.priority)
        first.setShowCompleted(true)
        first.stop()

        // Opened again: as it was left.
        let again = ListDetailViewModel(environment: world.environment, filter: .list(personal))
        let state = try await again.waitFor { $0.isLoaded }
        #expect(state.sort == .priority)
        #expect(state.showCompleted)
        #expect(state.titles == ["Apple", "banana"])
        // Another list, and the smart lists, keep their own.
        let other = ListDetailViewModel(environment: world.environment, filter: .list(work))
        #expect(other.state.sort == .manual && !other.state.showCompleted)
        #expect(ListDetailViewModel(environment: world.environment, filter: .completed).state.showCompleted)
        let tag = ListDetailViewModel(environment: world.environment, filter: .tag("Café"))
        tag.setSort(.title)
        #expect(ListDetailViewModel(environment: world.environment, filter: .tag("CAFÉ")).state.sort == .title)
    }

    @Test func movingRowsInManualOrder() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.reminder("A", in: listID)
        try world.reminder("B", in: listID)
        let c = try world.reminder("C", in: listID)
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(listID))
        #expect(detail.move(id: c, by: -1).succeeded)
        try await detail.waitFor { $0.titles == ["A", "C", "B"] }
        #expect(detail.move(id: c, by: -9).succeeded)
        try await detail.waitFor { $0.titles == ["C", "A", "B"] }

        let all = ListDetailViewModel(environment: world.environment, filter: .all)
        #expect(!all.state.canReorder)
        #expect(!all.move(id: c, by: 1).succeeded)
    }

    @Test func showAndClearCompleted() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.reminder("Open", in: listID)
        let done = try world.reminder("Done", in: listID)
        try world.store.complete(id: done)
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(listID))
        let hidden = try await detail.waitFor { $0.isLoaded }
        #expect(hidden.titles == ["Open"])
        #expect(hidden.completedCount == 1)
        #expect(hidden.totalCount == 1)
        detail.toggleShowCompleted()
        let shown = try await detail.waitFor { $0.titles == ["Open", "Done"] }
        #expect(shown.showCompleted)
        #expect(shown.totalCount == 2)
        // Completed just now: not older than a month.
        #expect(detail.clearCompleted(.month).message == "Cleared 0 completed reminders")
        #expect(detail.clearCompleted(.all).message == "Cleared 1 completed reminder")
        try await detail.waitFor { $0.titles == ["Open"] && $0.completedCount == 0 }
    }

    @Test func smartListsAndTags() async throws {
        let world = try World()
        let home = try world.list("Home")
        let work = try world.list("Work")
        try world.reminder("Today at home", in: home, due: "2026-03-01", tags: ["urgent"])
        try world.reminder("Late at work", in: work, due: "2026-02-20", flagged: true)
        try world.reminder("Someday", in: work, tags: ["urgent"])

        let today = ListDetailViewModel(environment: world.environment, filter: .today)
        let state = try await today.waitFor { $0.isLoaded }
        #expect(state.title == "Today")
        // By due date, as Today starts: the past-due one first.
        #expect(state.sort == .due)
        #expect(state.titles == ["Late at work", "Today at home"])
        #expect(state.rows.map(\.isPastDue) == [true, false])
        #expect(state.coverPNG == nil)

        let flagged = ListDetailViewModel(environment: world.environment, filter: .flagged)
        #expect(try await flagged.waitFor { $0.isLoaded }.titles == ["Late at work"])

        let tag = ListDetailViewModel(environment: world.environment, filter: .tag("urgent"))
        let tagged = try await tag.waitFor { $0.isLoaded }
        #expect(tagged.title == "#urgent")
        #expect(tagged.titles == ["Today at home", "Someday"])
    }

    /// Today and Scheduled count from ranges of indexes (`datedCounts`):
    /// the same counts as the rows, completed ones, times and the last
    /// minute of today included.
    @Test func datedSmartListsCountWhatTheyShow() async throws {
        let world = try World()
        let home = try world.list("Home")
        let ids = [
            try world.reminder("Tonight", in: home, due: "2026-03-01T23:59"),
            try world.reminder("This morning", in: home, due: "2026-03-01T08:00"),
            try world.reminder("Today", in: home, due: "2026-03-01"),
            try world.reminder("Last week", in: home, due: "2026-02-22T09:30"),
            try world.reminder("Tomorrow", in: home, due: "2026-03-02"),
            try world.reminder("Next year", in: home, due: "2027-01-01T00:00"),
            try world.reminder("Undated", in: home),
        ]
        _ = try world.store.complete(id: ids[1])
        _ = try world.store.complete(id: ids[4])
        let clock = world.environment.clock
        for (filter, total, completed) in [(ReminderFilter.today, 4, 1), (.scheduled, 6, 2)] {
            let counts = try await world.environment.writer.read { db in try Queries.counts(db, filter: filter, clock: clock) }
            #expect(counts.total == total && counts.completed == completed, "\(filter)")
            let shown = ListDetailViewModel(environment: world.environment, filter: filter, showCompleted: true)
            let state = try await shown.waitFor { $0.isLoaded }
            #expect(state.rows.count == total && state.totalCount == total && state.completedCount == completed, "\(filter)")
            let open = ListDetailViewModel(environment: world.environment, filter: filter, showCompleted: false)
            #expect(try await open.waitFor { $0.isLoaded }.totalCount == total - completed, "\(filter)")
        }
    }

    /// A screen starting a view model waits for the value its observation
    /// is reading instead of reading it a second time.
    @Test func theFirstObservedValueCanBeAwaited() throws {
        let world = try World()
        let home = try world.list("Home")
        try world.reminder("Milk", in: home)
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(home))
        #expect(detail.core.awaitObservedValue(timeout: 5))
        #expect(detail.state.isLoaded && detail.state.titles == ["Milk"])
        // Stopped: no value is coming, and the wait says so at once.
        detail.stop()
        #expect(!detail.core.awaitObservedValue(timeout: 5))
    }

    @Test func aTagOpenedUnderAnySpellingShowsItsOwnAndFollowsARespelling() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.reminder("Espresso", in: listID, tags: ["Café"])
        let detail = ListDetailViewModel(environment: world.environment, filter: .tag("CAFE\u{301}"))
        let state = try await detail.waitFor { $0.isLoaded }
        #expect(state.title == "#Café")
        #expect(state.titles == ["Espresso"])
        #expect(state.totalCount == 1)
        try world.store.renameTag("café", to: "CAFÉ")
        try await detail.waitFor { $0.title == "#CAFÉ" }
    }

    @Test func aLimitReadsAWindowAndKeepsTheTotal() async throws {
        let world = try World()
        let listID = try world.list("Big")
        for index in 0..<30 { try world.reminder("R\(index)", in: listID) }
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(listID), limit: 10)
        let state = try await detail.waitFor { $0.isLoaded }
        #expect(state.rows.count == 10)
        #expect(state.totalCount == 30)
        detail.setLimit(nil)
        try await detail.waitFor { $0.rows.count == 30 }
    }

    @Test func flagAndUnflag() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        let id = try world.reminder("Flag me", in: listID)
        let detail = ListDetailViewModel(environment: world.environment, filter: .list(listID))
        try await detail.waitFor { $0.isLoaded }
        let result = detail.toggleFlag(id: id)
        #expect(result.undo == .setFlag(id: id, false))
        try await detail.waitFor { $0.rows.first?.reminder.isFlagged == true }
        #expect(detail.undo(try #require(result.undo)).succeeded)
        try await detail.waitFor { $0.rows.first?.reminder.isFlagged == false }
    }
}
