import Foundation
import RemindersCore
import Testing
@testable import RemindersViewModels

@Suite struct QuickAddViewModelTests {
    @Test func thePreviewFollowsTheLineAndEnterAddsIt() throws {
        let world = try World()
        let home = try world.list("Home")
        let work = try world.list("Work")
        let quick = QuickAddViewModel(environment: world.environment, context: .list(home))
        quick.refresh()
        quick.text = "Pay rent tomorrow 9am #bills !! ^work *"
        let preview = try #require(quick.state.preview)
        #expect(preview.title == "Pay rent")
        #expect(preview.list.id == work)
        #expect(preview.due?.description == "2026-03-02T09:00")
        #expect(preview.priority == .medium)
        #expect(preview.isFlagged)
        #expect(preview.tags == ["bills"])
        #expect(quick.state.problem == nil)

        let result = quick.add()
        let id = try #require(result.createdID)
        #expect(result.message == "Added “Pay rent” to Work")
        let row = try #require(try world.row(id))
        #expect(row.reminder.title == "Pay rent")
        #expect(row.reminder.remindersListID == work)
        #expect(row.reminder.dueDate?.description == "2026-03-02T09:00")
        #expect(row.reminder.priority == .medium && row.reminder.isFlagged)
        #expect(row.tags == ["bills"])
        // The line is empty for the next one.
        #expect(quick.state.text.isEmpty && quick.state.preview == nil)

        quick.text = "Water plants"
        #expect(quick.state.preview?.list.id == home)
        #expect(quick.state.preview?.due == nil)
    }

    /// A repeat in the line shows in the preview, due on the rule's first
    /// day (in Today too), and Enter adds a repeating reminder.
    @Test func aRepeatInTheLineIsPreviewedAndAdded() throws {
        let world = try World()
        let home = try world.list("Home")
        for context: ReminderFilter in [.list(home), .today] {
            let quick = QuickAddViewModel(environment: world.environment, context: context)
            quick.refresh()
            quick.text = "Mow lawn every monday"
            let preview = try #require(quick.state.preview)
            #expect(preview.title == "Mow lawn" && preview.repeatRule?.description == "Weekly on Mon")
            #expect(preview.due?.description == "2026-03-02")
            let id = try #require(quick.add().createdID)
            let row = try #require(try world.row(id))
            #expect(row.reminder.rule?.description == "Weekly on Mon" && row.reminder.dueDate?.description == "2026-03-02")
        }
    }

    @Test func whereTheUserWasFillsWhatTheLineLeavesOut() throws {
        let world = try World()
        let first = try world.list("First")
        func preview(_ text: String, in context: ReminderFilter) -> QuickAddPreview? {
            let quick = QuickAddViewModel(environment: world.environment, context: context)
            quick.refresh()
            quick.text = text
            return quick.state.preview
        }
        #expect(preview("Milk", in: .today)?.due?.description == "2026-03-01")
        #expect(preview("Milk fri", in: .today)?.due?.description == "2026-03-06")
        #expect(preview("Milk", in: .flagged)?.isFlagged == true)
        #expect(preview("Milk #dairy", in: .tag("shop"))?.tags == ["dairy", "shop"])
        #expect(preview("Milk", in: .all)?.list.id == first)
    }

    @Test func inASmartListTheDefaultListTakesWhatNamesNone() throws {
        let world = try World(defaultList: "errands")
        let home = try world.list("Home")
        let errands = try world.list("Errands")
        func preview(_ text: String, in context: ReminderFilter) -> QuickAddPreview? {
            let quick = QuickAddViewModel(environment: world.environment, context: context)
            quick.refresh()
            quick.text = text
            return quick.state.preview
        }
        #expect(preview("Stamps", in: .today)?.list.id == errands)
        #expect(preview("Stamps", in: .list(home))?.list.id == home)
        #expect(preview("Stamps ^home", in: .today)?.list.id == home)
    }

    @Test func aLineThatCannotBeReadAddsNothing() throws {
        let world = try World()
        let home = try world.list("Home")
        let quick = QuickAddViewModel(environment: world.environment, context: .list(home))
        quick.refresh()
        quick.text = "Pay rent ^Nope"
        #expect(quick.state.preview == nil)
        #expect(quick.state.problem == "no list is titled 'Nope' (from ^Nope)")
        #expect(quick.add().errorMessage == "no list is titled 'Nope' (from ^Nope)")
        quick.text = "!! #bills"
        #expect(quick.state.problem == "'!! #bills' leaves no title once the date, #tags, !priority, ^list and * are read")
        quick.text = "  "
        #expect(quick.state.problem == nil && quick.state.preview == nil)
        #expect(!quick.add().succeeded)
        #expect(try world.environment.writer.read { db in try Reminder.fetchCount(db) } == 0)
        #expect(quick.state.text == "  ")
    }

    @Test func withoutAListThereIsNothingToAddTo() throws {
        let world = try World()
        let quick = QuickAddViewModel(environment: world.environment, context: .all)
        quick.refresh()
        quick.text = "Milk"
        #expect(quick.state.problem == "there is no list to add to: make one on Home first")
    }
}
