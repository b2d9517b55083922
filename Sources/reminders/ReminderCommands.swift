import ArgumentParser
import DeviceRuntime
import Foundation
import RemindersCore

/// `reminders add TITLE --list LIST ...`: prints the new reminder's id.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a reminder to a list and print its id.")

    @Argument(help: "The reminder's title.")
    var title: String

    @Option(help: ArgumentHelp(
        "The list to add to: id, id prefix or title (env REMINDERS_DEFAULT_LIST; config default-list).",
        valueName: "list"), completion: ShellCompletion.lists)
    var list: String?

    @Option(help: "Notes (new lines allowed).")
    var notes: String?

    @Option(help: ArgumentHelp("When it is due: YYYY-MM-DD or YYYY-MM-DDTHH:MM.", valueName: "date"))
    var due: String?

    @Option(help: ArgumentHelp("none, low, medium or high.", valueName: "priority"))
    var priority: String?

    @Flag(help: "Flag the reminder.")
    var flag = false

    @Option(name: .customLong("tag"), help: ArgumentHelp("A tag; repeat for several.", valueName: "tag"),
            completion: ShellCompletion.tags)
    var tags: [String] = []

    @OptionGroup var common: CommonOptions

    func validate() throws {
        try usage {
            _ = try Validation.title(title)
            if let notes { _ = try Validation.notes(notes) }
            if let due { _ = try Validation.dueDate(due) }
            if let priority { _ = try Validation.priority(priority) }
            for tag in tags { _ = try Validation.tag(tag) }
        }
    }

    func run() throws {
        let settings = try EffectiveSettings(common: common, list: list)
        guard !settings.defaultList.value.isEmpty else {
            throw ValidationError("give --list, or set default-list in \(settings.file.path)")
        }
        let context = try RemindersContext(common)
        let listID = try context.list(settings.defaultList.value)
        let draft = ReminderDraft(
            listID: listID, title: title, notes: notes ?? "",
            dueDate: try due.map(Validation.dueDate),
            priority: try priority.map(Validation.priority) ?? .none,
            isFlagged: flag, tags: tags)
        let reminder = try context.store.createReminder(draft)
        print(reminder.id)
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

    @Option(help: ArgumentHelp("A new due date: YYYY-MM-DD or YYYY-MM-DDTHH:MM.", valueName: "date"))
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

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if due != nil, noDue { throw ValidationError("give --due or --no-due, not both") }
        if flag, unflag { throw ValidationError("give --flag or --unflag, not both") }
        if notes != nil, notesEditor { throw ValidationError("give --notes or --notes-editor, not both") }
        let changesSomething = title != nil || notes != nil || notesEditor || due != nil || noDue || priority != nil
            || flag || unflag || list != nil || tags != nil
        guard changesSomething else {
            throw ValidationError("nothing to change: give --title, --notes, --notes-editor, --due, --no-due, --priority, --flag, --unflag, --list or --tags")
        }
        try usage {
            if let title { _ = try Validation.title(title) }
            if let notes { _ = try Validation.notes(notes) }
            if let due { _ = try Validation.dueDate(due) }
            if let priority { _ = try Validation.priority(priority) }
            for tag in splitTags() { _ = try Validation.tag(tag) }
        }
    }

    private var changesMoreThanNotes: Bool {
        title != nil || due != nil || noDue || priority != nil || flag || unflag || list != nil || tags != nil
    }

    func splitTags() -> [String] {
        (tags ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() throws {
        let context = try RemindersContext(common)
        var notes = self.notes
        if notesEditor {
            let id = try context.reminder(reminder)
            let current = try context.reminderRow(id: id).reminder.notes
            switch ExternalEditor().edit(current) {
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
        let line = try context.changeReminder(reminder, done: "Updated") { id in
            var changes = ReminderChanges(title: title, notes: notes)
            if let due { changes.dueDate = .some(try Validation.dueDate(due)) }
            if noDue { changes.dueDate = .some(nil) }
            changes.priority = try priority.map(Validation.priority)
            if flag { changes.isFlagged = true }
            if unflag { changes.isFlagged = false }
            if let list { changes.listID = try context.list(list) }
            if tags != nil { changes.tags = splitTags() }
            try context.store.updateReminder(id: id, changes)
        }
        print(line)
    }
}

/// `reminders complete REMINDER`: straight to completed (no undo delay).
struct CompleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complete", abstract: "Mark a reminder completed.")

    @Argument(help: ArgumentHelp("The reminder: id, id prefix or title.", valueName: "reminder"),
              completion: ShellCompletion.reminders)
    var reminder: String

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        print(try context.changeReminder(reminder, done: "Completed") { try context.store.complete(id: $0) })
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
        print(try context.changeReminder(reminder, done: "Reopened") { try context.store.uncomplete(id: $0) })
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
        print(confirmation("Deleted", deleted.reminder.title, id: id))
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
