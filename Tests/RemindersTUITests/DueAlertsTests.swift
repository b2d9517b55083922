import Foundation
import GRDB
import Testing
@testable import RemindersTUI
import RemindersCore
import RemindersViewModels

/// The app with due alerts on, at the pinned Wednesday 10:00 UTC: the
/// sample "Milk" (due today, no time) fell due at 09:00 and alerts on
/// start; "Renew passport" and "Expense receipts" are past due.
@Suite("Due alerts in the app")
struct DueAlertsTests {
    func world(width: Int = 100, height: Int = 30) throws -> TestWorld {
        let world = try TestWorld(width: width, height: height, options: TUIOptions(dueAlerts: DueAlertSettings()))
        world.advance(0)
        return world
    }

    @Test func anAlertShowsAToastDueNowOnHomeAndThePastDueCount() throws {
        let world = try world()
        let text = world.text
        #expect(text.contains("Due: “Milk” · ! done, open, snooze"))
        let lines = world.screen.textLines()
        let heading = try #require(lines.firstIndex { $0.contains("DUE NOW") })
        #expect(lines[heading + 1].contains("Milk"))
        #expect(lines[heading + 1].contains("Groceries"))
        #expect(lines[heading + 1].contains("Today"))
        #expect(lines.firstIndex { $0.contains("SMART LISTS") } ?? 0 > heading)
        #expect(lines.last?.contains("2 past due · me@laptop") == true)
    }

    @Test func theAlertsBoxSnoozesThroughTheKeyTable() throws {
        let world = try world()
        world.press(.character("!"))
        #expect(world.app.overlays.last is DueAlertsOverlay)
        let box = world.text
        #expect(box.contains("Due now"))
        #expect(box.contains("x done  o open  s +10m  h +1h  t tomorrow  d dismiss"))
        world.press(.character("s"))
        #expect(world.text.contains("Snoozed “Milk” until 10:10"))
        #expect(try world.reminder(titled: "Milk")?.reminder.dueDate?.description == "2026-03-04T10:10")
        #expect(!world.text.contains("DUE NOW"))
        world.press(.escape)
        #expect(world.app.overlays.isEmpty)

        // u sets the old time back, and Milk is due now again.
        #expect(world.text.contains("· u undo"))
        world.press(.character("u"))
        #expect(try world.reminder(titled: "Milk")?.reminder.dueDate?.description == "2026-03-04")
        #expect(world.text.contains("DUE NOW"))
    }

    @Test func completingFromTheAlertCanBeUndone() throws {
        let world = try world()
        world.press(.character("!"), .character("x"))
        #expect(world.text.contains("Completed “Milk” · u undo"))
        #expect(try world.reminder(titled: "Milk")?.reminder.status == .completing)
        world.press(.escape, .character("u"))
        #expect(try world.reminder(titled: "Milk")?.reminder.status == .incomplete)
    }

    @Test func openingTheAlertOpensTheReminder() throws {
        let world = try world()
        world.press(.character("!"), .character("o"))
        #expect(world.app.overlays.isEmpty)
        #expect(world.app.top is ReminderFormScreen)
        #expect(world.text.contains("Milk"))
    }

    @Test func tomorrowMorningAndDismissFromTheBox() throws {
        let world = try world()
        world.press(.character("!"), .character("d"))
        #expect(!world.text.contains("DUE NOW"))
        #expect(try world.reminder(titled: "Milk")?.reminder.dueDate?.description == "2026-03-04")
        world.press(.escape)
        // Nothing left to act on.
        world.press(.character("!"))
        #expect(world.text.contains("Nothing is due now."))
        world.press(.character("t"))
        #expect(world.text.contains("Nothing is due now"))
    }

    /// The sample data, with "Water plants" due as "Milk" is: two alerts.
    private func twoAlerts() throws -> TestWorld {
        try TestWorld(width: 100, height: 30, options: TUIOptions(dueAlerts: DueAlertSettings())) { store in
            try SampleData.seed(store)
            let groceries = try #require(try store.writer.read { db in
                try String.fetchOne(db, sql: "SELECT id FROM remindersLists WHERE title = 'Groceries'")
            })
            try store.createReminder(ReminderDraft(listID: groceries, title: "Water plants", dueDate: DueDate("2026-03-04T09:30")))
        }
    }

    /// With two alerts, the box starts on the first row it shows, so `s`
    /// snoozes the reminder the user read first; `u` works with the box
    /// open, as the toast says.
    @Test func theBoxStartsOnItsFirstRowAndUndoWorksInIt() throws {
        let world = try twoAlerts()
        world.advance(0)
        world.press(.character("!"))
        let lines = world.screen.textLines()
        let title = try #require(lines.firstIndex { $0.contains("Due now") && $0.contains("─") })
        let first = lines[title + 1]
        let firstTitle = first.contains("Milk") ? "Milk" : "Water plants"
        #expect(lines[title + 2].contains(firstTitle == "Milk" ? "Water plants" : "Milk"), "\(world.text)")
        let before = try world.reminder(titled: firstTitle)?.reminder.dueDate
        world.press(.character("s"))
        #expect(world.text.contains("Snoozed “\(firstTitle)” until 10:10"), "\(world.text)")
        #expect(try world.reminder(titled: firstTitle)?.reminder.dueDate?.description == "2026-03-04T10:10")
        world.press(.character("u"))
        #expect(world.app.overlays.last is DueAlertsOverlay)
        #expect(try world.reminder(titled: firstTitle)?.reminder.dueDate == before)
    }

    /// Undo in the box selects the row it brings back: the next key acts
    /// on it, not on the neighbour the box moved to.
    @Test func undoInTheBoxSelectsTheRowItBringsBack() throws {
        let world = try twoAlerts()
        world.advance(0)
        world.press(.character("!"))
        let overlay = try #require(world.app.overlays.last as? DueAlertsOverlay)
        let first = try #require(overlay.selectedID)
        world.press(.character("s"))
        #expect(overlay.selectedID != first)
        world.press(.character("u"))
        world.advance(0)
        #expect(overlay.selectedID == first)
        world.press(.character("x"))
        let acted = try #require(try world.reminder(titled: "Milk")?.reminder.id == first ? "Milk" : "Water plants")
        #expect(world.text.contains("Completed “\(acted)”"), "\(world.text)")
    }

    /// A toast has lines of its own above the status bar: it covers no row
    /// of the screen and no border of a box.
    @Test func aToastCoversNeitherARowNorABox() throws {
        let world = try world(width: 80, height: 24)
        let lines = world.screen.textLines()
        let toast = try #require(lines.firstIndex { $0.contains("Due: “Milk”") })
        #expect(toast == 22)
        #expect(lines[toast].trimmingCharacters(in: .whitespaces).hasPrefix("Due: “Milk”"), "\(world.text)")
        world.press(.character("?"))
        let help = world.screen.textLines()
        #expect(help[21].contains("╰") && help[21].contains("╯"), "\(world.text)")
        #expect(help[22].contains("Due: “Milk”"), "\(world.text)")
    }

    @Test func alertsAreOffUnlessTheOptionsTurnThemOn() throws {
        let world = try TestWorld()
        world.advance(0)
        #expect(!world.text.contains("DUE NOW"))
        #expect(!world.text.contains("past due ·"))
        world.press(.character("!"))
        #expect(world.app.overlays.isEmpty)
    }

    @Test func severalAlertsShareOneToast() {
        let alerts = ["A", "B", "C", "D"].map {
            DueAlert(reminderID: $0, title: $0, listTitle: "L", listColor: "#4a99ef",
                     dueDate: DueDate("2026-03-04T10:00") ?? DueDate(moment: pinnedNow), dueAt: pinnedNow, isPastDue: false)
        }
        #expect(AppController.alertMessage(alerts, actKey: "!") == "Due: “A”, “B” and 2 more · ! done, open, snooze")
        #expect(AppController.alertMessage(Array(alerts.prefix(1)), actKey: nil) == "Due: “A”")
    }

    @Test func anEarlyAlertsToastSaysHowLongIsLeft() {
        func alert(_ title: String, before lead: TimeInterval) -> DueAlert {
            DueAlert(reminderID: title, title: title, listTitle: "L", listColor: "#4a99ef",
                     dueDate: DueDate("2026-03-04T10:00") ?? DueDate(moment: pinnedNow), dueAt: pinnedNow,
                     alertAt: pinnedNow.addingTimeInterval(-lead), isPastDue: false)
        }
        #expect(AppController.alertMessage([alert("Standup", before: 15 * 60)], actKey: "!")
                == "Due: “Standup” in 15 min · ! done, open, snooze")
        #expect(AppController.alertMessage([alert("Train", before: 90 * 60), alert("Milk", before: 0)], actKey: nil)
                == "Due: “Train” in 1 h 30 min, “Milk”")
        // Shown later than it alerted (the app started after its time):
        // what is left, not the lead.
        let early = alert("Rent", before: 2 * 86_400)
        #expect(AppController.alertMessage([early], actKey: nil, now: pinnedNow.addingTimeInterval(-35 * 3600))
                == "Due: “Rent” in 1 day 11 h")
        #expect(AppController.alertMessage([early], actKey: nil, now: pinnedNow.addingTimeInterval(-3 * 86_400))
                == "Due: “Rent” in 2 days")
        #expect(AppController.leadText(3600) == "1 h")
        #expect(AppController.leadText(24 * 3600) == "1 day")
        #expect(AppController.leadText(50 * 3600) == "2 days 2 h")
    }
}
