import ArgumentParser
import DeviceRuntime
import Foundation
import RemindersCore
import RemindersViewModels

/// `reminders add TEXT [--list LIST] ...`: prints the new reminder's id.
/// Unless `--literal`, the text is a quick-add line (`QuickAdd`): its due
/// date, tags, priority, list and flag are read out of it, and options
/// given beside it win. What was read is said on standard error, so that
/// standard output stays the id alone for scripts.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a reminder and print its id.",
        discussion: """
            Unless --literal, the text is read like a line typed in a hurry: \
            'Pay rent tomorrow 9am #bills !! ^Home' is "Pay rent", due tomorrow at 09:00, \
            tagged bills, priority medium, in the list Home. The marks: a due date (at the end, \
            or where it cannot be part of the title), a repeat ('every monday', 'every 2 weeks', \
            or daily, weekly, monthly, yearly at the end or before the date; with --repeat, they are title), \
            #tag, ! !! !!! (low, medium, high), \
            ^List (by title), * (flagged). Options win over the text; with --due, a date in the text is title. Without a list in either, \
            the reminder goes to the default list (default-list in the config file), else the first list; with no list yet, to a new list Reminders. Use single quotes: in double quotes, \
            interactive shells expand !!.
            """)

    @Argument(help: ArgumentHelp("The reminder's title, with a due date, a repeat, #tags, ! !! !!!, ^List and * in it.",
                                 valueName: "text"))
    var text: String

    @Option(help: ArgumentHelp(
        "The list to add to: id, id prefix or title (default: ^List in the text, else default-list from the config file or REMINDERS_DEFAULT_LIST, else the first list, else a new list Reminders).",
        valueName: "list"), completion: ShellCompletion.lists)
    var list: String?

    @Flag(help: "Keep the text as the title: read no date, tags, priority, list or flag out of it.")
    var literal = false

    @Option(help: "Notes (new lines allowed).")
    var notes: String?

    @Option(help: ArgumentHelp("When it is due: today, tomorrow 9am, fri, next mon 14:30, in 3 days, +2h, 14 mar, 14/3, 2026-12-01 14:30…",
                               valueName: "date"))
    var due: String?

    @Option(help: ArgumentHelp("none, low, medium or high.", valueName: "priority"))
    var priority: String?

    @Flag(help: "Flag the reminder.")
    var flag = false

    @Option(name: .customLong("tag"), help: ArgumentHelp("A tag; repeat for several.", valueName: "tag"),
            completion: ShellCompletion.tags)
    var tags: [String] = []

    @OptionGroup var schedule: ScheduleOptions

    @OptionGroup var common: CommonOptions

    /// An option gives the repeat: the text's repeat words are title.
    private var repeatIsGiven: Bool { schedule.repeatText != nil || schedule.repeatRule != nil }

    func validate() throws {
        if schedule.noRepeat { throw ValidationError("--no-repeat is for edit: a new reminder repeats only when given --repeat") }
        if schedule.noParent { throw ValidationError("--no-parent is for edit: a new reminder is a subtask only when given --parent") }
        try usage {
            let dates = try NaturalDate.forCommandLine()
            if literal {
                _ = try Validation.title(text)
            } else {
                _ = try QuickAdd(parsing: text, dates: dates, readingRepeats: !repeatIsGiven, readingDates: due == nil)
            }
            if let notes { _ = try Validation.notes(notes) }
            if let due { _ = try dates.parse(due) }
            if let priority { _ = try Validation.priority(priority) }
            for tag in tags { _ = try Validation.tag(tag) }
        }
    }

    func run() throws {
        let settings = try EffectiveSettings(common: common)
        let context = try RemindersContext(common)
        let dates = context.naturalDates
        let lists = try context.read { try Queries.listsInOrder($0) }
        let line = literal
            ? QuickAdd(literal: try Validation.title(text))
            : try QuickAdd(parsing: text, dates: dates, listTitles: lists.map(\.title), readingRepeats: !repeatIsGiven,
                             readingDates: due == nil)
        let parent = try schedule.parent.map { try context.reminderRow(id: try context.reminder($0)).reminder }
        let parentID = parent?.id
        let listID: String
        if let list {
            listID = try context.list(list)
        } else if let parent {
            listID = parent.remindersListID
        } else if let named = try line.list(in: lists) {
            listID = named.id
        } else {
            listID = try context.defaultListID(settings, lists: lists)
        }
        let dueDate = try schedule.due(try due.map { try dates.parse($0) } ?? line.due, dates: dates)
        let draft = ReminderDraft(
            listID: listID, title: line.title, notes: notes ?? "", dueDate: dueDate,
            priority: try priority.map(Validation.priority) ?? line.priority ?? .none,
            isFlagged: flag || line.isFlagged, tags: line.tags + tags,
            parentID: parentID, repeatRule: try schedule.rule(dates: dates) ?? line.repeatRule?.rrule,
            alertBefore: try schedule.alert() ?? nil)
        if let parent, list != nil, parent.remindersListID != listID {
            throw CoreError.invalidInput("a subtask is in its parent's list: drop --list, or give the parent's list")
        }
        let reminder = try context.store.createReminder(draft)
        let dueWasRead = due.map { DueDate($0.trimmingCharacters(in: .whitespaces)) == nil } ?? false
        if line.hasMarks || dueWasRead || (list == nil && line.listName == nil) || !schedule.isEmpty {
            let title = try lists.first { $0.id == listID }?.title
                ?? context.read { db in try RemindersList.fetchOne(db, key: listID)?.title } ?? listID
            var shown = draft
            shown.dueDate = reminder.dueDate
            // As stored: a tag that exists keeps its spelling ("#WORK" is "#Work").
            shown.tags = try context.read { db in try Queries.tags(db, reminderID: reminder.id) }
            FileHandle.standardError.write(Data((Self.summary(shown, listTitle: title, parentTitle: parent?.title,
                                                              then: Repeats.nextOffSchedule(reminder)) + "\n").utf8))
        }
        print(reminder.id)
    }

    /// `Added “Pay rent” to Home · due Fri 2026-11-27 09:00 · !! medium · #bills · flagged`;
    /// a subtask `Added “Socks” to Home, under “Pack”`. `then` is the
    /// series' next due date when the first is off its days
    /// (`Repeats.nextOffSchedule`).
    static func summary(_ draft: ReminderDraft, listTitle: String, parentTitle: String? = nil, then: DueDate? = nil) -> String {
        var parts = ["Added \(quoted(draft.title)) to \(TerminalText.clean(listTitle))"
                     + (parentTitle.map { ", under \(quoted($0))" } ?? "")]
        if draft.dueDate != nil { parts.append(ReminderWords.due(draft.dueDate)) }
        if draft.priority != .none { parts.append(ReminderWords.priority(draft.priority)) }
        if !draft.tags.isEmpty { parts.append(ReminderWords.tags(draft.tags)) }
        if draft.isFlagged { parts.append(ReminderWords.flag(true)) }
        if let rule = draft.repeatRule.flatMap({ try? RepeatRule(rrule: $0) }) { parts.append(ReminderWords.repeats(rule, then: then, due: draft.dueDate)) }
        if draft.alertBefore != nil { parts.append(ReminderWords.alert(draft.alertBefore)) }
        return parts.joined(separator: " · ")
    }
}

/// A reminder's parts in the words `add` and `edit` say them in, each
/// also for its absence: `due Fri 2026-11-27 09:00`, `!! medium`, `#bills`,
/// `flagged`, `↻ Weekly`, `alert 15 minutes before`.
enum ReminderWords {
    /// `due Fri 2026-11-27 09:00`, with `(past)` for a date already past
    /// on the command's clock, which a new reminder may be given by mistake.
    static func due(_ date: DueDate?) -> String {
        guard let date else { return "no due date" }
        let isPast = (try? AppClock.fromEnvironment()).map { Queries.isPastDue(date, clock: $0) } ?? false
        return "due \(ReminderTable.formatWithWeekday(date))" + (isPast ? " (past)" : "")
    }

    static func priority(_ priority: Priority) -> String {
        priority == .none ? "no priority" : "\(priority.marks) \(priority.name)"
    }

    static func tags(_ tags: [String]) -> String {
        tags.isEmpty ? "no tags" : tags.map { "#" + TerminalText.clean($0) }.joined(separator: " ")
    }

    static func flag(_ isFlagged: Bool) -> String { isFlagged ? "flagged" : "not flagged" }

    /// `↻ Weekly on Fri`; with `then`, the due date is off the rule's days
    /// and the series goes on from there: `↻ Weekly on Fri (then Fri 2026-12-04)`.
    /// A monthly repeat from the 29th on, or a yearly one from Feb 29,
    /// skips the months (years) without that day, as iCalendar has it: said
    /// so, with the words for the month's end.
    static func repeats(_ rule: RepeatRule?, then: DueDate? = nil, due: DueDate? = nil) -> String {
        guard let rule else { return "no repeat" }
        var text = "↻ \(rule.description)" + (then.map { " (then \(ReminderTable.formatWithWeekday($0)))" } ?? "")
        let anchor = then ?? due
        if let anchor, rule.days.isEmpty, rule.monthDays.isEmpty, !rule.fromCompletion {
            if rule.frequency == .monthly, anchor.day > 28 {
                text += " (skips months without a \(anchor.day == 31 ? "31st" : "\(anchor.day)th"); 'every month on the last day' for month ends)"
            } else if rule.frequency == .yearly, rule.months.isEmpty, anchor.month == 2, anchor.day == 29 {
                text += " (in leap years only)"
            }
        }
        return text
    }

    static func alert(_ lead: Int?) -> String { "alert \(AlertBefore.describe(lead).lowercased())" }
}

extension NaturalDate {
    /// Reads due dates relative to the command's clock (`REMINDERS_NOW`),
    /// numeric ones in the order of the locale the environment names; for
    /// `validate()`, which runs before a `RemindersContext` is opened.
    static func forCommandLine() throws -> NaturalDate {
        NaturalDate(clock: try AppClock.fromEnvironment(), order: .fromEnvironment())
    }
}

/// `reminders edit REMINDER ...`: changes only what is given.
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a reminder's title, notes, due date, priority, flag, list or tags.")

    @Argument(help: ArgumentHelp("The reminder: id, id prefix or title.", valueName: "reminder"),
              completion: ShellCompletion.reminders)
    var reminder: String

    @Option(help: "A new title.")
    var title: String?

    @Option(help: "New notes (an empty string clears them).")
    var notes: String?

    @Flag(name: .customLong("notes-editor"), help: "Edit the notes in $EDITOR (else $VISUAL, else vi); an editor that fails or changes nothing changes nothing.")
    var notesEditor = false

    @Option(help: ArgumentHelp("A new due date: today, tomorrow 9am, fri, in 3 days, 14/3, 2026-12-01 14:30…",
                               valueName: "date"))
    var due: String?

    @Flag(name: .customLong("no-due"), help: "Remove the due date.")
    var noDue = false

    @Option(help: ArgumentHelp("none, low, medium or high.", valueName: "priority"))
    var priority: String?

    @Flag(help: "Flag the reminder.")
    var flag = false

    @Flag(help: "Remove the flag.")
    var unflag = false

    @Option(help: ArgumentHelp("Move it to this list: id, id prefix or title.", valueName: "list"),
            completion: ShellCompletion.lists)
    var list: String?

    @Option(help: ArgumentHelp("Replace its tags: a comma-separated list (\"\" removes them all).", valueName: "a,b"))
    var tags: String?

    @OptionGroup var schedule: ScheduleOptions

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if due != nil, noDue { throw ValidationError("give --due or --no-due, not both") }
        if flag, unflag { throw ValidationError("give --flag or --unflag, not both") }
        if notes != nil, notesEditor { throw ValidationError("give --notes or --notes-editor, not both") }
        try usage {
            if let title { _ = try Validation.title(title) }
            if let notes { _ = try Validation.notes(notes) }
            if let due { _ = try NaturalDate.forCommandLine().parse(due) }
            if let priority { _ = try Validation.priority(priority) }
            for tag in splitTags() { _ = try Validation.tag(tag) }
        }
    }

    private var changesMoreThanNotes: Bool {
        title != nil || due != nil || noDue || priority != nil || flag || unflag || list != nil || tags != nil || !schedule.isEmpty
    }

    func splitTags() -> [String] {
        (tags ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() throws {
        // Here rather than in validate(), which runs before a mistyped
        // option is reported: "--tag x" is then named as such.
        let changesSomething = title != nil || notes != nil || notesEditor || due != nil || noDue || priority != nil
            || flag || unflag || list != nil || tags != nil || !schedule.isEmpty
        guard changesSomething else {
            throw ValidationError("nothing to change: give --title, --notes, --notes-editor, --due, --no-due, --priority, --flag, --unflag, --list, --tags, --repeat, --no-repeat, --alert-before, --parent or --no-parent")
        }
        let context = try RemindersContext(common)
        let id = try context.reminder(reminder)
        let before = try context.reminderRow(id: id)
        var notes = self.notes
        if notesEditor {
            switch ExternalEditor().edit(before.reminder.notes) {
            case .edited(let text):
                notes = try Validation.notes(text)
            case .unchanged:
                // Nothing else to change: say so and leave the reminder be.
                if !changesMoreThanNotes {
                    print("Notes unchanged.")
                    return
                }
            case .failed(let reason):
                throw EditorFailure(message: "\(reason); the notes are unchanged")
            }
        }
        var dueDate = try due.map { try context.naturalDates.parse($0) }
        // A time in --repeat sets the due date's time ("every tue at 9"),
        // the one --due gives or the reminder's, whose own time it replaces.
        let day = dueDate ?? before.reminder.dueDate.flatMap { DueDate($0.dateString) }
        if noDue, try schedule.repeatTime(dates: context.naturalDates) != nil {
            throw CoreError.invalidInput("--no-due and a time in --repeat: keep one")
        }
        if !noDue, let timed = try schedule.due(day, dates: context.naturalDates), timed != day { dueDate = timed }
        var changes = ReminderChanges(title: title, notes: notes)
        if let dueDate { changes.dueDate = .some(dueDate) }
        if noDue { changes.dueDate = .some(nil) }
        changes.priority = try priority.map(Validation.priority)
        if flag { changes.isFlagged = true }
        if unflag { changes.isFlagged = false }
        if let list { changes.listID = try context.list(list) }
        if tags != nil { changes.tags = splitTags() }
        changes.repeatRule = try schedule.rule(dates: context.naturalDates)
        changes.alertBefore = try schedule.alert()
        if let parent = schedule.parent { changes.parentID = .some(try context.reminder(parent)) }
        if schedule.noParent { changes.parentID = .some(nil) }
        // As the edit finds it: the notes editor may have been open a while.
        let found = notesEditor ? try context.reminderRow(id: id) : before
        try context.store.updateReminder(id: id, changes)
        let after = try context.reminderRow(id: id)
        let fieldsAfter = UndoAction.fields(of: after)
        let restoring = UndoAction.restoring(UndoAction.fields(of: found), after: fieldsAfter)
        if restoring != ReminderChanges() {
            try UndoJournal.push(UndoJournal.Entry(what: "take back the edit of \(quoted(after.reminder.title))",
                                                   change: .restoreFields(id: id, fields: restoring, expecting: fieldsAfter)),
                                 on: context.store.writer)
        }
        let detail = Self.changes(from: before, to: after)
        if detail == nil {
            print(confirmation("Unchanged", after.reminder.title, id: id, detail: "it already was so"))
        } else {
            print(confirmation("Updated", after.reminder.title, id: id, detail: detail))
        }
    }

    /// What the edit changed, read from the reminder before and after it
    /// (so what the store changed along with the options shows too: a
    /// repeat ended with the due date, a subtask moved out of its parent),
    /// in the words and order of `add`'s summary: `due Fri 2026-11-27 09:00
    /// · !! medium · #bills · flagged`, after `renamed from “Old”` when the
    /// title changed. Nil when nothing did.
    static func changes(from before: ReminderRow, to after: ReminderRow) -> String? {
        let (old, new) = (before.reminder, after.reminder)
        var parts: [String] = []
        if new.title != old.title { parts.append("renamed from \(quoted(old.title))") }
        if new.notes != old.notes { parts.append(new.notes.isEmpty ? "notes cleared" : "notes updated") }
        if new.remindersListID != old.remindersListID { parts.append("in \(quoted(after.listTitle))") }
        if new.parentID != old.parentID {
            parts.append(after.parentTitle.map { "subtask of \(quoted($0))" } ?? "not a subtask")
        }
        if new.dueDate != old.dueDate {
            // A series' occurrence moved: which one, and that the series stays.
            if let occurrence = new.occurrence, new.repeatRule != nil {
                let skipped = Repeats.skippedWords(Repeats.skipped(new), format: ReminderTable.formatWithWeekday)
                parts.append(ReminderWords.due(new.dueDate) + " (moved from \(ReminderTable.formatWithWeekday(occurrence)); the series stays"
                             + (skipped.map { ", and skips \($0)" } ?? "") + ")")
            } else if new.repeatRule != nil, new.repeatRule == old.repeatRule, old.dueDate != nil {
                // Not a move of one occurrence: back on the schedule, or a
                // new time of day for every occurrence.
                parts.append(ReminderWords.due(new.dueDate)
                             + (old.occurrence != nil && new.dueDate == old.occurrence ? " (back on its schedule)" : " (the series' time from now on)"))
            } else {
                parts.append(ReminderWords.due(new.dueDate))
            }
        }
        if new.priority != old.priority { parts.append(ReminderWords.priority(new.priority)) }
        if after.tags != before.tags { parts.append(ReminderWords.tags(after.tags)) }
        if new.isFlagged != old.isFlagged { parts.append(ReminderWords.flag(new.isFlagged)) }
        if new.repeatRule != old.repeatRule {
            parts.append(ReminderWords.repeats(new.rule, then: Repeats.nextOffSchedule(new), due: new.dueDate))
        }
        if new.alertBefore != old.alertBefore {
            // Gone with the due date it counted from.
            parts.append(new.dueDate == nil ? "no alert" : ReminderWords.alert(new.alertBefore))
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

/// `reminders complete REMINDER [--subtasks]`: straight to completed (no
/// undo delay). A repeating reminder completes its occurrence and is due
/// at the next one; a parent's open subtasks stay open unless
/// `--subtasks`, and a note says so.
struct CompleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complete", abstract: "Mark a reminder completed (a repeating one moves on to its next occurrence).",
        aliases: ["done"])

    @Argument(help: ArgumentHelp("The reminder: id, id prefix or title.", valueName: "reminder"),
              completion: ShellCompletion.reminders)
    var reminder: String

    @Flag(help: "Complete its open subtasks too.")
    var subtasks = false

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        let id = try context.reminder(reminder)
        // Nothing to do, said as such: completing again would report a
        // change that did not happen.
        let before = try context.reminderRow(id: id).reminder
        if before.status == .completed {
            print(confirmation("Already completed", before.title, id: id))
            return
        }
        let open = try context.read { try Subtasks.openSubtaskIDs($0, of: id) }.count
        let line = try context.changeReminder(id, done: "Completed") { try context.store.complete(id: $0, subtasks: subtasks) }
        let after = try context.reminderRow(id: id).reminder
        if after.status != .completed, after.repeatRule != nil, let due = after.dueDate {
            print(confirmation("Completed this occurrence of", after.title, id: id,
                               detail: "next due \(ReminderTable.formatWithWeekday(due))"))
        } else if before.rule != nil, before.dueDate != nil, after.status == .completed {
            print(confirmation("Completed", after.title, id: id, detail: "the last of its repeats"))
        } else {
            print(line)
        }
        if open > 0, !subtasks {
            let noun = open == 1 ? "1 subtask is" : "\(open) subtasks are"
            FileHandle.standardError.write(Data("reminders: note: its \(noun) still open; `complete --subtasks` completes them too\n".utf8))
        } else if open > 0 {
            print("Completed \(open) open \(open == 1 ? "subtask" : "subtasks") with it.")
        }
    }
}

/// `reminders uncomplete REMINDER`.
struct UncompleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uncomplete", abstract: "Mark a completed reminder as not completed.")

    @Argument(help: ArgumentHelp("The reminder: id, id prefix or title.", valueName: "reminder"),
              completion: ShellCompletion.reminders)
    var reminder: String

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        let id = try context.reminder(reminder)
        // An open repeating reminder takes back its latest occurrence (so
        // does that occurrence's copy); any other open one has nothing to
        // reopen.
        let before = try context.reminderRow(id: id).reminder
        switch try context.store.uncomplete(id: id) {
        case .reopened: print(confirmation("Reopened", before.title, id: id))
        case .alreadyOpen: print(confirmation("Already open", before.title, id: id))
        case .tookBackOccurrence(let series):
            let row = try context.reminderRow(id: series)
            print(confirmation("Took back the last completion of", row.reminder.title, id: series,
                               detail: row.reminder.dueDate.map { "due \(ReminderTable.formatWithWeekday($0)) again" }))
        }
    }
}

/// `reminders delete REMINDER`.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a reminder.")

    @Argument(help: ArgumentHelp("The reminder: id, id prefix or title.", valueName: "reminder"),
              completion: ShellCompletion.reminders)
    var reminder: String

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        let id = try context.reminder(reminder)
        let deleted = try context.store.deleteReminder(id: id)
        let count = deleted.subtaskCount
        try UndoJournal.push(UndoJournal.Entry(what: "put back \(quoted(deleted.reminder.title))", change: .restoreReminder(deleted)),
                             on: context.store.writer)
        print(confirmation("Deleted", deleted.reminder.title, id: id,
                           detail: count == 0 ? nil : count == 1 ? "with its subtask" : "with its \(count) subtasks"))
    }
}

/// `reminders clear-completed [--older-than PERIOD] [--list LIST]`.
struct ClearCompletedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear-completed", abstract: "Delete completed reminders, all or those completed long ago.")

    @Option(name: .customLong("older-than"),
            help: ArgumentHelp("month, 6months, year or all: clear those completed before then.",
                               valueName: "period"))
    var olderThan: String = "all"

    @Option(help: ArgumentHelp("Only this list: id, id prefix or title.", valueName: "list"),
            completion: ShellCompletion.lists)
    var list: String?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard ClearPeriod(rawValue: olderThan) != nil else {
            throw ValidationError("period '\(olderThan)' is not one of month, 6months, year, all")
        }
    }

    func run() throws {
        let context = try RemindersContext(common)
        let listID = try list.map { try context.list($0) }
        let period = ClearPeriod(rawValue: olderThan) ?? .all
        let count = try context.store.clearCompleted(period, listID: listID)
        let scope = period == .all ? "" : " \(period.label)"
        print("Cleared \(count) completed \(count == 1 ? "reminder" : "reminders")\(scope).")
    }
}

/// The user's editor failed (not found, or exited non-zero): a runtime
/// error, exit 1, with nothing changed.
struct EditorFailure: CommandLineError {
    var message: String
    var exitCode: Int32 { 1 }
}
