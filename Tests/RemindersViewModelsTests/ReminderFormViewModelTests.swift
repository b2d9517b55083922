import Foundation
import RemindersCore
import Testing
@testable import RemindersViewModels

@Suite struct ReminderFormViewModelTests {
    @Test func emptyTitleBadDateAndBadTimeAreFieldErrors() throws {
        let world = try World()
        let listID = try world.list("Personal")
        let form = ReminderFormViewModel(environment: world.environment, context: .list(listID))
        form.title = "   "
        form.dueDate = "2026-13-01"
        form.dueTime = "25:00"
        let errors = form.validate()
        #expect(errors[.title] == "title must not be empty")
        #expect(errors[.dueDate] == "2026-13-01: there is no month 13 (months are 1–12)")
        #expect(errors[.dueTime] == "25:00: the hour must be 0–23")
        #expect(form.state.fieldErrors == errors)
        #expect(form.save() == .invalid(errors))
        #expect(try world.environment.writer.read { db in try Reminder.fetchCount(db) } == 0)

        form.title = "Buy milk"
        #expect(form.state.fieldErrors[.title] == nil)
        form.dueDate = "2026-02-30"
        form.dueTime = "9:5"
        let more = form.validate()
        #expect(more[.dueDate] == "2026-02-30: February 2026 has 28 days")
        #expect(more[.dueTime] == "'9:5' is not a time (e.g. 9:30, 21:00, 9pm or noon)")
    }

    /// A repeat the form cannot read says why without repeating what the
    /// field shows, so the example fits.
    @Test func aRepeatNotUnderstoodSaysWhyWithoutEchoingTheField() throws {
        let world = try World()
        let form = ReminderFormViewModel(environment: world.environment, context: .list(try world.list("L")))
        form.title = "Water"
        form.repeatText = "every 3 dayz"
        #expect(form.validate()[.repeatRule] == "'dayz' is not a day, week, month or year (e.g. every 2 weeks on mon,thu)")
    }

    /// A repeat that ends with a time ("every tue at 19:00", as
    /// `--repeat` takes it) gives the due date its time: with no date the
    /// rule's first day, with a date that day; a date with a time of its
    /// own and a repeat with another is refused, naming both.
    @Test func aRepeatWithATimeGivesTheDueDateItsTime() throws {
        let world = try World()
        let listID = try world.list("Home")
        let form = ReminderFormViewModel(environment: world.environment, context: .list(listID))
        form.title = "Bins"
        form.repeatText = "every tue at 19:00"
        #expect(form.validate().isEmpty)
        // Sunday 1 March: the first Tuesday is the 3rd.
        #expect(form.repeatPreview().map(\.description) == ["2026-03-03T19:00", "2026-03-10T19:00", "2026-03-17T19:00"])
        form.dueDate = "2026-03-10"
        #expect(try form.resolvedDue().get()?.description == "2026-03-10T19:00")
        form.dueTime = "08:00"
        #expect(form.validate() == [.repeatRule: "the repeat says 19:00 and the due date says 08:00: keep one time"])
        form.dueTime = "7pm"
        #expect(form.validate().isEmpty)
        form.dueDate = ""
        form.dueTime = ""
        form.repeatText = "daily 7am"
        guard case .saved(let id) = form.save() else { Issue.record("not saved: \(form.state.fieldErrors)"); return }
        let saved = try #require(try world.environment.writer.read { db in try Reminder.fetchOne(db, key: id) })
        // 10:00 now: 7am comes next tomorrow.
        #expect(saved.dueDate?.description == "2026-03-02T07:00")
        #expect(saved.repeatRule == "FREQ=DAILY")
    }

    @Test func aTimeNeedsADate() throws {
        let world = try World()
        let form = ReminderFormViewModel(environment: world.environment, context: .list(try world.list("L")))
        form.title = "Call"
        form.dueTime = "09:30"
        #expect(form.validate() == [.dueDate: "enter a date for the time 09:30"])
    }

    @Test func aTagTypedInAnotherCaseOrAccentEncodingIsTheExistingTag() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.store.createTag("Café")
        let form = ReminderFormViewModel(environment: world.environment, context: .list(listID))
        try await form.waitFor { $0.tagChoices == ["Café"] }
        #expect(form.addTag("CAFE\u{301}") == nil)
        #expect(form.addTag("café") == nil)
        #expect(form.tags == ["Café"])
        #expect(form.hasTag("CAFÉ"))
        form.toggleTag("cafe\u{301}")
        #expect(form.tags.isEmpty)
    }

    @Test func savingANewReminderCreatesItWithNewAndExistingTags() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.store.createTag("Errands")
        let form = ReminderFormViewModel(environment: world.environment, context: .list(listID))
        try await form.waitFor { $0.tagChoices == ["Errands"] }
        #expect(form.state.isNew)
        form.title = "  Renew passport "
        form.notes = "Photos in the drawer\nForm DS-82"
        form.dueDate = "2026-03-05"
        form.dueTime = "09:30"
        form.priority = .high
        form.isFlagged = true
        #expect(form.addTag("#errands") == nil)
        #expect(form.addTag("travel") == nil)
        #expect(form.addTag("a,b") == "tag must not contain commas or control characters")
        #expect(form.tags == ["Errands", "travel"])

        let result = form.save()
        let id = try #require(result.savedID)
        let row = try #require(try world.row(id))
        #expect(row.reminder.title == "Renew passport")
        #expect(row.reminder.notes == "Photos in the drawer\nForm DS-82")
        #expect(row.reminder.dueDate?.description == "2026-03-05T09:30")
        #expect(row.reminder.priority == .high)
        #expect(row.reminder.isFlagged)
        #expect(row.reminder.remindersListID == listID)
        #expect(row.tags == ["Errands", "travel"])
        #expect(form.state.reminderID == id)
        try await form.waitFor { $0.tagChoices == ["Errands", "travel"] }
        #expect(form.tagSuggestions(for: "tr") == ["travel"])
        #expect(form.tagSuggestions(for: "r") == ["Errands", "travel"])
    }

    @Test func editingThroughTheFormChangesOnlyWhatChanged() throws {
        let world = try World()
        let personal = try world.list("Personal")
        let work = try world.list("Work")
        let id = try world.reminder("Draft", in: personal, notes: "keep", due: "2026-03-02T08:00", priority: .low, tags: ["a", "b"])

        let form = try ReminderFormViewModel(environment: world.environment, reminderID: id)
        #expect(!form.state.isNew)
        #expect(form.fields == ReminderFields(title: "Draft", notes: "keep", dueDate: "2026-03-02", dueTime: "08:00",
                                              priority: .low, isFlagged: false, listID: personal, tags: ["a", "b"]))
        #expect(form.state.lists.map(\.title) == ["Personal", "Work"])
        form.title = "Final"
        form.dueDate = ""
        form.dueTime = ""
        form.listID = work
        form.removeTag("A")
        form.toggleTag("c")
        #expect(form.save() == .saved(id: id))

        let row = try #require(try world.row(id))
        #expect(row.reminder.title == "Final")
        #expect(row.reminder.notes == "keep")
        #expect(row.reminder.dueDate == nil)
        #expect(row.reminder.priority == .low)
        #expect(row.reminder.remindersListID == work)
        #expect(row.tags == ["b", "c"])
    }

    /// A save writes only the fields the user changed: what changed
    /// meanwhile elsewhere (here a command's edit; in the app, as often
    /// another device's, synced in while the form is open) to the others
    /// stays. It overwrote every field with what the form had read.
    @Test func anEditMadeElsewhereWhileTheFormIsOpenStays() throws {
        let world = try World()
        let personal = try world.list("Personal")
        let id = try world.reminder("Omega", in: personal, notes: "old notes", due: "2026-03-02T08:00", priority: .low)
        let form = try ReminderFormViewModel(environment: world.environment, reminderID: id)
        form.title = "Omega v2"
        form.priority = .high
        // Elsewhere, meanwhile: the notes, the flag, the due date, the
        // priority (which the form changed too: the form's wins).
        try world.environment.store.updateReminder(id: id, ReminderChanges(
            notes: "phone notes", dueDate: .some(DueDate("2026-12-25")), priority: .medium, isFlagged: true))
        #expect(form.save() == .saved(id: id))
        var row = try #require(try world.row(id))
        #expect(row.reminder.title == "Omega v2")
        #expect(row.reminder.notes == "phone notes")
        #expect(row.reminder.isFlagged)
        #expect(row.reminder.dueDate == (DueDate("2026-12-25")))
        #expect(row.reminder.priority == .high)
        // Saved again after another edit elsewhere: what the form saved is
        // its new starting point.
        try world.environment.store.updateReminder(id: id, ReminderChanges(title: "Omega from the phone"))
        form.notes = "form notes"
        #expect(form.save() == .saved(id: id))
        row = try #require(try world.row(id))
        #expect(row.reminder.title == "Omega from the phone")
        #expect(row.reminder.notes == "form notes")
    }

    /// Clearing the date of a repeating reminder, its repeat kept: the
    /// repeat stays and takes its first day from the rule (as before the
    /// form saved only what changed).
    @Test func clearingARepeatingReminderssDateKeepsItsRepeat() throws {
        let world = try World()
        let personal = try world.list("Personal")
        let id = try world.reminder("Bins", in: personal, due: "2026-03-02T08:00")
        try world.environment.store.updateReminder(id: id, ReminderChanges(repeatRule: .some("FREQ=WEEKLY;BYDAY=MO")))
        let form = try ReminderFormViewModel(environment: world.environment, reminderID: id)
        form.dueDate = ""
        form.dueTime = ""
        #expect(form.save() == .saved(id: id))
        let row = try #require(try world.row(id))
        #expect(row.reminder.repeatRule == "FREQ=WEEKLY;BYDAY=MO")
        #expect(row.reminder.dueDate != nil)
    }

    /// Monday's bins moved to Saturday in the form: the preview shows
    /// what saving leaves, the Mondays after the one it stands for.
    @Test func theRepeatPreviewOfAMovedOccurrenceFollowsItsSchedule() throws {
        let world = try World()
        let personal = try world.list("Personal")
        let id = try world.reminder("Bins", in: personal, due: "2026-03-02T08:00")
        try world.environment.store.updateReminder(id: id, ReminderChanges(repeatRule: .some("FREQ=WEEKLY;BYDAY=MO")))
        let form = try ReminderFormViewModel(environment: world.environment, reminderID: id)
        let mondays = ["2026-03-09T08:00", "2026-03-16T08:00", "2026-03-23T08:00"]
        form.dueDate = "2026-02-28"
        #expect(form.repeatPreview().map(\.description) == mondays)
        #expect(form.save() == .saved(id: id))
        #expect(try world.row(id)?.reminder.occurrence?.description == "2026-03-02T08:00")
        let again = try ReminderFormViewModel(environment: world.environment, reminderID: id)
        #expect(again.repeatPreview().map(\.description) == mondays)
        // A new rule is a new series, counted from the date as it stands.
        again.repeatText = "daily"
        #expect(again.repeatPreview().first?.description == "2026-03-01T08:00")
    }

    /// `u` after a form's save puts back only what the save changed.
    @Test func undoingASavePutsBackOnlyWhatItChanged() throws {
        let world = try World()
        let personal = try world.list("Personal")
        let id = try world.reminder("Draft", in: personal, notes: "old")
        let store = world.environment.store
        let before = try UndoAction.fields(of: id, in: store)
        try store.updateReminder(id: id, ReminderChanges(title: "Final"))
        let undo = UndoAction.restoreFields(id: id, UndoAction.restoring(before, after: try UndoAction.fields(of: id, in: store)))
        try store.updateReminder(id: id, ReminderChanges(notes: "from the phone"))
        let redo = try #require(undo.perform(in: world.environment).undo)
        var row = try #require(try world.row(id))
        #expect(row.reminder.title == "Draft" && row.reminder.notes == "from the phone")
        _ = redo.perform(in: world.environment)
        row = try #require(try world.row(id))
        #expect(row.reminder.title == "Final" && row.reminder.notes == "from the phone")
    }

    /// `u` after a save finds the field changed again since (another
    /// person renamed it): it refuses, and the later edit stays.
    @Test func undoingASaveOverALaterEditElsewhereIsRefused() throws {
        let world = try World()
        let personal = try world.list("Personal")
        let id = try world.reminder("Pears", in: personal, notes: "")
        let store = world.environment.store
        let before = try UndoAction.fields(of: id, in: store)
        try store.updateReminder(id: id, ReminderChanges(title: "Pears green"))
        let after = try UndoAction.fields(of: id, in: store)
        let undo = UndoAction.restoreFields(id: id, UndoAction.restoring(before, after: after), expecting: after)
        try store.updateReminder(id: id, ReminderChanges(title: "Pears (bob renamed)"))
        let result = undo.perform(in: world.environment)
        #expect(result.errorMessage == "it was changed since, here or on another device; the later edit stays")
        #expect(try world.row(id)?.reminder.title == "Pears (bob renamed)")
        // Unchanged since, it goes back, and the redo expects it back.
        try store.updateReminder(id: id, ReminderChanges(title: "Pears green"))
        let redo = try #require(undo.perform(in: world.environment).undo)
        #expect(try world.row(id)?.reminder.title == "Pears")
        #expect(redo.perform(in: world.environment).succeeded)
        #expect(try world.row(id)?.reminder.title == "Pears green")
    }

    /// A save that gives a moved series a new rule clears the occurrence
    /// its due date stood for; `u` puts the rule back with that occurrence,
    /// so the series goes on as it was scheduled, and a redo clears it again.
    @Test func undoingANewRuleOfAMovedSeriesPutsItsOccurrenceBack() throws {
        let world = try World()
        let id = try world.reminder("Bins", in: try world.list("Home"), due: "2026-03-02T08:00")
        let store = world.environment.store
        try store.updateReminder(id: id, ReminderChanges(repeatRule: .some("FREQ=WEEKLY;BYDAY=MO")))
        try store.updateReminder(id: id, ReminderChanges(dueDate: .some(DueDate("2026-03-04T08:00"))))
        #expect(try world.row(id)?.reminder.occurrence?.description == "2026-03-02T08:00")
        let before = try UndoAction.fields(of: id, in: store)
        let form = try ReminderFormViewModel(environment: world.environment, reminderID: id)
        form.repeatText = "daily"
        #expect(form.save() == .saved(id: id))
        #expect(try world.row(id)?.reminder.occurrence == nil)
        let undo = UndoAction.restoreFields(id: id, UndoAction.restoring(before, after: try UndoAction.fields(of: id, in: store)))
        let undone = undo.perform(in: world.environment)
        // The title did not change; the toast names the reminder all the same.
        #expect(undone.message == "Put back “Bins” as it was")
        let redo = try #require(undone.undo)
        var series = try #require(try world.row(id)?.reminder)
        #expect(series.repeatRule == "FREQ=WEEKLY;BYDAY=MO")
        #expect(series.occurrence?.description == "2026-03-02T08:00")
        #expect(Repeats.nextOccurrences(series, count: 1).map(\.description) == ["2026-03-09T08:00"])
        #expect(redo.perform(in: world.environment, redoing: true).message == "Edited “Bins” again")
        series = try #require(try world.row(id)?.reminder)
        #expect(UndoAction.setFlag(id: id, true).perform(in: world.environment).message == "Flagged “Bins”")
        #expect(UndoAction.setPriority(id: id, .high).perform(in: world.environment).message == "“Bins”: priority high again")
        #expect(series.repeatRule == "FREQ=DAILY" && series.occurrence == nil)
    }

    /// A save that moves a snoozed series' due date to another day keeps
    /// its occurrence; `u` puts the due date back with that occurrence, not
    /// the due date alone (on the occurrence's day, it would have become
    /// the series' new time).
    @Test func undoingAMoveOfASnoozedSeriesKeepsItsOccurrence() throws {
        let world = try World()
        let id = try world.reminder("Pills", in: try world.list("Home"), due: "2026-03-01T21:00")
        let store = world.environment.store
        try store.updateReminder(id: id, ReminderChanges(repeatRule: .some("FREQ=DAILY")))
        try store.moveOccurrence(id: id, to: DueDate("2026-03-01T21:30"))
        let before = try UndoAction.fields(of: id, in: store)
        try store.updateReminder(id: id, ReminderChanges(dueDate: .some(DueDate("2026-03-02T10:00"))))
        let undo = UndoAction.restoreFields(id: id, UndoAction.restoring(before, after: try UndoAction.fields(of: id, in: store)))
        #expect(undo.perform(in: world.environment).succeeded)
        let series = try #require(try world.row(id)?.reminder)
        #expect(series.dueDate?.description == "2026-03-01T21:30" && series.occurrence?.description == "2026-03-01T21:00")
        #expect(Repeats.nextOccurrences(series, count: 1).map(\.description) == ["2026-03-02T21:00"])
    }

    /// A save that moved a reminder to another list, undone, puts it back
    /// where it was in its list, not at the end.
    @Test func undoingAMoveToAnotherListPutsItBackInItsPlace() throws {
        let world = try World()
        let home = try world.list("Home"), work = try world.list("Work")
        let ids = try ["Milk", "Vitamins", "Bread"].map { try world.reminder($0, in: home) }
        let store = world.environment.store
        let before = try UndoAction.fields(of: ids[1], in: store)
        try store.updateReminder(id: ids[1], ReminderChanges(listID: work))
        let undo = UndoAction.restoreFields(id: ids[1], UndoAction.restoring(before, after: try UndoAction.fields(of: ids[1], in: store)))
        #expect(undo.perform(in: world.environment).succeeded)
        let order = try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT title FROM reminders WHERE remindersListID = ? ORDER BY position, id", arguments: [home])
        }
        #expect(order == ["Milk", "Vitamins", "Bread"])
    }

    @Test func editingAMissingReminderThrows() throws {
        let world = try World()
        #expect(throws: CoreError.notFound("reminder nope not found")) {
            try ReminderFormViewModel(environment: world.environment, reminderID: "nope")
        }
    }

    @Test func contextPrefillsTheForm() throws {
        let world = try World()
        let first = try world.list("First")
        try world.list("Second")
        let today = ReminderFormViewModel(environment: world.environment, context: .today)
        #expect(today.dueDate == "2026-03-01")
        #expect(today.listID == first)
        #expect(ReminderFormViewModel(environment: world.environment, context: .flagged).isFlagged)
        #expect(ReminderFormViewModel(environment: world.environment, context: .tag("home")).tags == ["home"])
    }

    @Test func aListDeletedMeanwhileFailsTheSave() async throws {
        let world = try World()
        let listID = try world.list("Gone")
        let form = ReminderFormViewModel(environment: world.environment, context: .list(listID))
        form.title = "Orphan"
        try world.store.deleteList(id: listID)
        try await form.waitFor { $0.lists.isEmpty }
        #expect(form.save() == .invalid([.list: "the chosen list is gone (deleted, or no longer shared with you): pick another"]))
    }
}

@Suite struct DueDateInputTests {
    /// Sunday 1 March 2026, 10:00 UTC, as in `World`.
    let dates = NaturalDate(now: AppClock.parseMoment("2026-03-01T10:00:00Z") ?? Date(), timeZone: World.utc, order: .dayFirst)

    func parse(_ date: String, _ time: String) -> Result<DueDate?, DueDateInputError> {
        DueDateInput.parse(date: date, time: time, dates: dates)
    }

    @Test func emptyFieldsMeanNoDueDate() throws {
        #expect(try parse(" ", "").get() == nil)
    }

    @Test func dateAndTimeMakeAFloatingDueDate() throws {
        #expect(try parse("2026-03-01", "").get()?.description == "2026-03-01")
        #expect(try parse("2026-3-1", "7:05").get()?.description == "2026-03-01T07:05")
        #expect(try parse("2024-02-29", "23:59").get()?.description == "2024-02-29T23:59")
    }

    @Test func bothFieldsTakeWhatPeopleType() throws {
        #expect(try parse("tomorrow", "").get()?.description == "2026-03-02")
        #expect(try parse("fri", "9am").get()?.description == "2026-03-06T09:00")
        #expect(try parse("fri 9am", "").get()?.description == "2026-03-06T09:00")
        #expect(try parse("in 3 days", "noon").get()?.description == "2026-03-04T12:00")
        #expect(try parse("14/3", "9:30pm").get()?.description == "2026-03-14T21:30")
        #expect(try parse("in 2h", "").get()?.description == "2026-03-01T12:00")
    }

    @Test func eachMistakeHasItsOwnMessage() {
        func errors(_ date: String, _ time: String) -> DueDateInputError? {
            if case .failure(let error) = parse(date, time) { return error }
            return nil
        }
        #expect(errors("frday", "")?.date == "'frday' is not a date or time (e.g. tomorrow 9am, fri, in 3 days, 2 mar or 2026-03-02)")
        #expect(errors("0999-01-01", "")?.date == "year 999 is out of range (1900–9999)")
        #expect(errors("2025-02-29", "")?.date == "2025-02-29: February 2025 has 28 days")
        #expect(errors("2026-04-31", "")?.date == "2026-04-31: April 2026 has 30 days")
        #expect(errors("2026-04-01", "12:60")?.time == "12:60: minutes must be 00–59")
        #expect(errors("2026-04-01", "soon")?.time == "'soon' is not a time (e.g. 9:30, 21:00, 9pm or noon)")
        #expect(errors("fri 9am", "10am")?.time == "the date already says 09:00: keep one")
        #expect(errors("in 2h", "10am")?.time == "the date already says 12:00: keep one")
        #expect(errors("", "9am")?.date == "enter a date for the time 9am")
    }

    @Test func fieldsRoundTrip() {
        #expect(DueDateInput.fields(for: DueDate("2026-03-01T09:30")) == ("2026-03-01", "09:30"))
        #expect(DueDateInput.fields(for: DueDate("2026-03-01")) == ("2026-03-01", ""))
        #expect(DueDateInput.fields(for: nil) == ("", ""))
    }
}

/// A refused save moves the focus to the first field in error; keys the
/// user meant for the field they were in must not erase another's text.
@Suite struct ReminderFormFocusTests {
    func form(_ world: World) throws -> ReminderFormViewModel {
        ReminderFormViewModel(environment: world.environment, context: .list(try world.list("Personal")))
    }

    @Test func theDueFieldsSaveWhatPeopleType() throws {
        let world = try World()
        let form = try form(world)
        form.title = "Call mom"
        form.dueDate = "next fri"
        form.dueTime = "6pm"
        #expect(try form.resolvedDue().get()?.description == "2026-03-06T18:00")
        let id = try #require(form.save().savedID)
        #expect(try world.row(id)?.reminder.dueDate?.description == "2026-03-06T18:00")
    }

    @Test func numericDatesReadInTheEnvironmentsOrder() throws {
        let us = try World(dayMonthOrder: .monthFirst)
        let form = try form(us)
        form.dueDate = "3/14"
        #expect(try form.resolvedDue().get()?.description == "2026-03-14")
        form.dueDate = "14/3"
        #expect(throws: DueDateInputError.self) { try form.resolvedDue().get() }
    }

    @Test func aRefusedSaveSaysWhereTheFocusWentFrom() throws {
        let world = try World()
        let form = try form(world)
        form.title = "Call mom"
        form.focus(.notes)
        form.notes = "Ask about the weekend"
        form.dueDate = "frday"
        #expect(form.save().savedID == nil)
        #expect(form.state.fieldErrors.keys.sorted { $0.rawValue < $1.rawValue } == [.dueDate])
        #expect(form.state.focus == .dueDate)
        #expect(form.state.focusMove == FocusMove(from: .notes, to: .dueDate))
    }

    @Test func theFirstDeletionAfterTheMoveIsHeldBackOnce() throws {
        let world = try World()
        let form = try form(world)
        form.title = "Call mom"
        form.focus(.notes)
        form.notes = "Ask about the weekend"
        form.dueDate = "frday"
        form.save()
        #expect(!form.mayDeleteText())
        #expect(form.state.focusMove?.heldDeletion == true)
        #expect(form.mayDeleteText())
        #expect(form.state.focusMove == nil)
        #expect(form.mayDeleteText())
    }

    @Test func movingTheFocusYourselfEndsTheHold() throws {
        let world = try World()
        let form = try form(world)
        form.focus(.tags)
        form.title = ""
        form.tags = ["work"]
        form.save()
        #expect(form.state.focus == .title)
        form.focus(.tags)
        #expect(form.state.focusMove == nil)
        #expect(form.mayDeleteText())
    }

    @Test func savingFromTheFieldInErrorMovesNothing() throws {
        let world = try World()
        let form = try form(world)
        form.title = "Call mom"
        form.focus(.dueDate)
        form.dueDate = "frday"
        form.save()
        #expect(form.state.focus == .dueDate)
        #expect(form.state.focusMove == nil)
        #expect(form.mayDeleteText())
    }

    @Test func anEmptyFieldHasNothingToLose() throws {
        let world = try World()
        let form = try form(world)
        form.focus(.notes)
        form.notes = "Ask about the weekend"
        form.save()
        #expect(form.state.focusMove == FocusMove(from: .notes, to: .title))
        #expect(form.mayDeleteText())
    }
}
