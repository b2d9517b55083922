import Foundation
import RemindersCore
import RemindersViewModels
import Testing
@testable import RemindersTUI

/// Subtasks under their parents, repeating rows and the form's Repeat and
/// Alert fields, rendered off-screen (the clock: Wednesday 4 March 2026).
@Suite struct SubtaskAndRepeatScreenTests {
    /// A list "Trip" with a parent and two subtasks, a repeating reminder
    /// with an early alert, and a plain one.
    static func trip(_ store: RemindersStore) throws {
        let list = try store.createList(title: "Trip")
        let pack = try store.createReminder(ReminderDraft(listID: list.id, title: "Pack", dueDate: DueDate("2026-03-06")))
        _ = try store.createReminder(ReminderDraft(listID: list.id, title: "Passport", parentID: pack.id))
        let charger = try store.createReminder(ReminderDraft(listID: list.id, title: "Charger", parentID: pack.id))
        try store.complete(id: charger.id)
        _ = try store.createReminder(ReminderDraft(listID: list.id, title: "Water the plants", dueDate: DueDate("2026-03-05T08:00"),
                                                   repeatRule: "FREQ=DAILY;INTERVAL=3;FROM=COMPLETION", alertBefore: 900))
        _ = try store.createReminder(ReminderDraft(listID: list.id, title: "Book the taxi"))
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func aListShowsSubtasksUnderTheirParent(width: Int, height: Int) throws {
        let world = try TestWorld(width: width, height: height, data: Self.trip)
        world.openList("Trip")
        let text = world.text
        let lines = text.components(separatedBy: "\n")
        let pack = try #require(lines.firstIndex { $0.contains("Pack") })
        #expect(lines[pack].contains("▾ [ ] Pack  1 open"), "\(text)")
        #expect(lines[pack + 1].contains("    [ ] Passport"), "\(text)")
        #expect(!text.contains("Charger"), "a completed subtask shows only with completed: \(text)")
        let plants = try #require(lines.first { $0.contains("Water the plants") })
        #expect(plants.contains("↻"), "\(text)")
        #expect(lines.first { $0.contains("Book the taxi") }?.contains("  [ ] Book the taxi") == true, "rows line up in the gutter: \(text)")
        // z folds the parent; the subtask goes, the mark turns.
        world.moveDown(1)
        world.press(.character("z"))
        #expect(world.text.contains("▸ [ ] Pack  1 open"), "\(world.text)")
        #expect(!world.text.contains("Passport"), "\(world.text)")
        world.press(.character("z"))
        #expect(world.text.contains("Passport"), "\(world.text)")
    }

    @Test func indentAndOutdentMoveAReminderInAndOutWithUndo() throws {
        let world = try TestWorld(width: 80, height: 24, data: Self.trip)
        world.openList("Trip")
        world.press(.character("G"))
        world.press(.character(">"))
        let taxi = try #require(try world.reminder(titled: "Book the taxi"))
        let plants = try #require(try world.reminder(titled: "Water the plants"))
        #expect(taxi.reminder.parentID == plants.id)
        #expect(world.text.contains("is a subtask of “Water the plants”"), "\(world.text)")
        world.press(.character("<"))
        #expect(try world.reminder(titled: "Book the taxi")?.reminder.parentID == nil)
        world.press(.character("u"))
        #expect(try world.reminder(titled: "Book the taxi")?.reminder.parentID == plants.id)
    }

    @Test func tickingAParentAsksAboutItsOpenSubtasks() throws {
        let world = try TestWorld(width: 80, height: 24, data: Self.trip)
        world.openList("Trip")
        world.press(.character("x"))
        #expect(world.text.contains("“Pack” has 1 open subtask. Complete it too?"), "\(world.text)")
        world.press(.escape)
        #expect(try world.reminder(titled: "Pack")?.reminder.status == .incomplete)
        world.press(.character("x"))
        world.press(.character("y"))
        #expect(try world.reminder(titled: "Pack")?.reminder.status == .completing)
        #expect(try world.reminder(titled: "Passport")?.reminder.status == .completing)
        world.press(.character("u"))
        #expect(try world.reminder(titled: "Passport")?.reminder.status == .incomplete)
        world.press(.character("x"))
        world.press(.character("n"))
        #expect(try world.reminder(titled: "Pack")?.reminder.status == .completing)
        #expect(try world.reminder(titled: "Passport")?.reminder.status == .incomplete)
    }

    @Test func smartListsNameASubtasksParent() throws {
        let world = try TestWorld(width: 80, height: 24, data: { store in
            try Self.trip(store)
            let trip = try #require(try store.writer.read { try RemindersList.fetchOne($0) })
            let pack = try #require(try store.writer.read { try Reminder.filter(sql: "title = 'Pack'").fetchOne($0) })
            _ = try store.createReminder(ReminderDraft(listID: trip.id, title: "Visa", isFlagged: true, parentID: pack.id))
        })
        // Home: Today, Scheduled, All, Flagged.
        world.press(.character("j"), .character("j"), .character("j"), .enter)
        #expect(world.text.contains("● Trip › Pack"), "\(world.text)")
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func theFormPreviewsTheRepeatAndOffersTheAlert(width: Int, height: Int) throws {
        let world = try TestWorld(width: width, height: height, data: Self.trip)
        world.openList("Trip")
        world.press(.character("a"))
        world.type("Bins")
        for _ in 0..<4 { world.press(.tab) }
        world.type("every week on mon,thu")
        let text = world.text
        #expect(text.contains("Repeat      every week on mon,thu"), "\(text)")
        // Due on the rule's first day from today (Wednesday 4 March).
        #expect(text.contains("Weekly on Mon, Thu · due Thu 5 Mar, Mon 9 Mar, Thu 12 Mar"), "\(text)")
        world.press(.tab)
        world.press(.right)
        world.press(.right)
        #expect(world.text.contains("alert ‹ 15 minutes before ›"), "\(world.text)")
        world.press(.control("s"))
        let bins = try #require(try world.reminder(titled: "Bins")?.reminder)
        #expect(bins.repeatRule == "FREQ=WEEKLY;BYDAY=MO,TH")
        #expect(bins.alertBefore == 900)
        #expect(bins.dueDate?.description == "2026-03-05")
    }

    @Test func aBadRepeatIsNamedAndNotSaved() throws {
        let world = try TestWorld(width: 80, height: 24, data: Self.trip)
        world.openList("Trip")
        world.press(.character("a"))
        world.type("Bins")
        for _ in 0..<4 { world.press(.tab) }
        world.type("every fortnight")
        world.press(.control("s"))
        #expect(world.text.contains("Repeat:"), "\(world.text)")
        #expect(try world.reminder(titled: "Bins") == nil)
    }
}

/// The first-run question when another device's lists arrive meanwhile.
@Suite struct FirstRunWithdrawalTests {
    @Test func theOfferGoesWhenListsArriveWhileItIsOpen() throws {
        var options = TUIOptions()
        options.firstRun = FirstRunOffer { _ in .startedEmpty }
        let world = try TestWorld(width: 80, height: 24, seeded: false, options: options)
        #expect(world.text.contains("Welcome to Reminders"), "\(world.text)")
        // Another device's lists arrive by sync.
        _ = try world.store.createList(title: "Groceries")
        world.press(.character("j"))
        _ = world.app.tick()
        let text = world.text
        #expect(!text.contains("Welcome to Reminders"), "\(text)")
        #expect(text.contains("Your lists arrived from another device"), "\(text)")
    }
}
