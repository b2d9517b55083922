import Foundation
@testable import RemindersTUI
import RemindersCore
import RemindersViewModels
import Testing

/// Typing due dates as people do, in the form and in the quick-add line,
/// drawn off screen. The clock: Wednesday 4 March 2026, 10:00 UTC.
@Suite("Due dates as typed", .serialized)
struct DueDateEntryTests {
    @Test func theDueFieldShowsTheDateItReadsWhileTyping() throws {
        let world = try TestWorld(width: 100, height: 30)
        world.openList("Groceries")
        world.press(.character("a"))
        world.type("Call the plumber")
        world.press(.tab, .tab)
        world.type("fri 9am")
        #expect(world.text.contains("date fri 9am"))
        #expect(world.text.contains("→ Fri 09:00"))
        world.press(.tab)
        world.type("6pm")
        #expect(world.text.contains("the date already says 09:00: keep one"))
        world.press(.backspace, .backspace, .backspace)
        world.press(.control("s"))
        #expect(try world.reminder(titled: "Call the plumber")?.reminder.dueDate?.description == "2026-03-06T09:00")
    }

    /// At 60 columns what the fields give does not fit beside them: it
    /// goes under them, whole, where a hint or an error would be.
    @Test func atSixtyColumnsTheReadDateGoesUnderTheFields() throws {
        let world = try TestWorld(width: 60, height: 20)
        world.openList("Groceries")
        world.press(.character("a"))
        world.type("Call the plumber")
        world.press(.tab, .tab)
        world.type("fri 9am")
        let lines = world.text.components(separatedBy: "\n")
        let due = try #require(lines.firstIndex { $0.contains("date fri 9am") })
        #expect(!lines[due].contains("→"))
        #expect(lines[due + 1].trimmingCharacters(in: .whitespaces) == "→ Fri 09:00", "\(lines)")
        world.press(.tab)
        world.type("6pm")
        #expect(world.text.contains("the date already says 09:00"))
        #expect(!world.text.contains("→ Fri"))
    }

    /// The user was in the notes, saved, and the due date was bad: the
    /// line says where the focus went, and the keys they meant for the
    /// notes erase nothing there, nor, silently, in the date.
    @Test func aRefusedSaveSaysWhereTheFocusWentAndTypingErasesNothingSilently() throws {
        let world = try TestWorld(width: 140, height: 30)
        world.openList("Groceries")
        world.press(.character("a"))
        world.type("Kefir")
        world.press(.tab)
        world.type("two litres, semi-skimmed")
        world.press(.tab)
        world.type("frday")
        world.press(.up)  // back to the notes
        world.press(.control("s"))
        let form = try #require(world.app.top as? ReminderFormScreen)
        #expect(form.focus == .dueDate)
        #expect(world.app.toast?.message ==
                "Due: 'frday' is not a date or time (e.g. tomorrow 9am, fri, in 3 days, 5 mar or 2026-03-05) · focus moved to Due")
        #expect(world.text.contains("focus moved to Due"))

        // Meant for the notes: delete the last word.
        world.press(.control("w"))
        #expect(form.viewModel.fields.notes == "two litres, semi-skimmed")
        #expect(form.viewModel.fields.dueDate == "frday")
        #expect(world.text.contains("Due has the focus since the refused save: press the key again to delete there"))

        // Pressed again, knowingly: it deletes in the date.
        world.press(.control("w"))
        #expect(form.viewModel.fields.dueDate == "")
        world.type("fri")
        world.press(.enter)
        let kefir = try #require(try world.reminder(titled: "Kefir"))
        #expect(kefir.reminder.notes == "two litres, semi-skimmed")
        #expect(kefir.reminder.dueDate?.description == "2026-03-06")
    }

    @Test func theQuickAddLineShowsWhatItWillAddAndAddsIt() throws {
        let world = try TestWorld(width: 100, height: 30)
        world.openList("Groceries")
        world.press(.character("n"))
        world.type("Quail eggs fri 9am #dairy !! *")
        #expect(world.text.contains("→ Quail eggs · ● Groceries · Fri 09:00 · !! · #dairy · ⚑"))
        world.press(.enter)
        let quail = try #require(try world.reminder(titled: "Quail eggs"))
        #expect(quail.reminder.dueDate?.description == "2026-03-06T09:00")
        #expect(quail.reminder.priority == .medium)
        #expect(quail.reminder.isFlagged)
        #expect(quail.tags == ["dairy"])
        #expect(quail.listTitle == "Groceries")
        #expect(world.text.contains("✓ Added “Quail eggs” to Groceries"))

        // The line stays open for the next; a list that does not exist adds nothing.
        world.type("Sourdough ^Bakery")
        #expect(world.text.contains("⚠ no list is titled 'Bakery' (from ^Bakery)"))
        world.press(.enter)
        #expect(try world.reminder(titled: "Sourdough") == nil)
        world.press(.escape)
        #expect(world.text.contains("!! Quail eggs"))
        #expect(!world.text.contains("Quick add"))
    }

    /// At 60 columns a long title gives way to what was read from the
    /// line, and the hint keeps its keys.
    @Test func atSixtyColumnsTheQuickAddLineShowsTheDateBeforeTheWholeTitle() throws {
        let world = try TestWorld(width: 60, height: 20)
        world.openList("Groceries")
        world.press(.character("n"))
        #expect(world.text.contains("Enter add · Esc close"), "\(world.text)")
        world.type("Rent for the flat and the garage fri 9am")
        var preview = try #require(world.text.components(separatedBy: "\n").first { $0.contains("→ ") })
        #expect(preview.contains("→ Rent for the flat and the… · ● Groceries · Fri 09:00 │"), "\(preview)")
        // With more after it, the title keeps a dozen columns and the line is cut at its end.
        world.type(" every friday")
        preview = try #require(world.text.components(separatedBy: "\n").first { $0.contains("→ ") })
        #expect(preview.contains("→ Rent for th… · ● Groceries · Fri 09:00 · ↻"), "\(preview)")
    }

    @Test func quickAddInTodayIsDueToday() throws {
        let world = try TestWorld(width: 100, height: 30)
        world.press(.enter)  // Today
        world.press(.character("n"))
        world.type("Water the plants")
        #expect(world.text.contains("→ Water the plants · ● Personal · Today"))
        world.press(.enter)
        #expect(try world.reminder(titled: "Water the plants")?.reminder.dueDate?.description == "2026-03-04")
    }
}
