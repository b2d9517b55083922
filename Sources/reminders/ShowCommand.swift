import ArgumentParser
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels

/// `reminders show [LIST | --today | --scheduled | --all | --flagged |
/// --completed | --tag T] [--sort ...] [--show-completed] [--json]`.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the reminders of a list or a smart list (all open reminders by default).")

    @Argument(help: ArgumentHelp("A list: id, id prefix or title (Today, Scheduled, All, Flagged and Completed too, as 'lists' shows them); or a reminder, shown whole with its notes.", valueName: "list"),
              completion: ShellCompletion.lists)
    var list: String?

    @Flag(help: "Due today or earlier.")
    var today = false

    @Flag(help: "Everything with a due date.")
    var scheduled = false

    @Flag(help: "Every list.")
    var all = false

    @Flag(help: "Flagged reminders.")
    var flagged = false

    @Flag(help: "Completed reminders.")
    var completed = false

    @Option(help: ArgumentHelp("Reminders with this tag, in any case.", valueName: "tag"), completion: ShellCompletion.tags)
    var tag: String?

    @Option(help: ArgumentHelp("manual, due, priority or title (default: due for --today and --scheduled, else manual).",
                               valueName: "order"))
    var sort: String?

    @Flag(name: .customLong("show-completed"), help: "Include completed reminders.")
    var showCompleted = false

    @Flag(help: "Print an array of reminders (the export shape plus listTitle and isPastDue).")
    var json = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
        let chosen = [list != nil, today, scheduled, all, flagged, completed, tag != nil].filter { $0 }.count
        guard chosen <= 1 else {
            throw ValidationError("choose one of LIST, --today, --scheduled, --all, --flagged, --completed, --tag")
        }
        if let sort, SortOrder(rawValue: sort) == nil {
            throw ValidationError("sort order '\(sort)' is not one of manual, due, priority, title")
        }
        if let tag { try usage { _ = try Validation.tag(tag) } }
    }

    func run() throws {
        let context = try ReadingContext(common)
        let filter: ReminderFilter
        let heading: String
        if let list {
            let id: String
            do {
                id = try context.list(list)
            } catch CoreError.notFound(let why) {
                // The smart lists `lists` shows first, by name, when no list
                // of the user's has it.
                let name = list.trimmingWhitespace().lowercased()
                if let smart = SmartList.allCases.first(where: { $0.title.lowercased() == name }) {
                    try show(smart.filter, heading: smart.title, context: context)
                    return
                }
                // Not a list: one reminder, whole, when the words name one;
                // words that name several say so, as for any reminder.
                let reminderID: String
                do {
                    reminderID = try context.reminder(list)
                } catch CoreError.notFound {
                    throw CoreError.notFound(why.replacingOccurrences(of: "no list matches", with: "no list or reminder matches")
                        .replacingOccurrences(of: "'reminders lists' shows them", with: "'reminders lists' shows the lists, 'reminders search WORDS' finds reminders"))
                }
                try showReminder(reminderID, context: context)
                return
            }
            filter = .list(id)
            heading = try context.read { try Queries.list($0, id: id)?.title } ?? list
        } else if today {
            (filter, heading) = (.today, "Today")
        } else if scheduled {
            (filter, heading) = (.scheduled, "Scheduled")
        } else if flagged {
            (filter, heading) = (.flagged, "Flagged")
        } else if completed {
            (filter, heading) = (.completed, "Completed")
        } else if let tag {
            // Any spelling finds the tag; the heading shows the one it has.
            // A tag no reminder ever had is a mistyped name, as a list is.
            let shown = try context.tag(tag)
            (filter, heading) = (.tag(shown), "#" + shown)
        } else {
            (filter, heading) = (.all, "All")
        }
        try show(filter, heading: heading, context: context)
    }

    private func show(_ filter: ReminderFilter, heading: String, context: ReadingContext) throws {
        let order = sort.flatMap(SortOrder.init(rawValue:)) ?? ViewSettings.standard(for: filter).sort
        let rows = try context.read { db in
            try Queries.reminders(db, filter: filter, sort: order, showCompleted: showCompleted, clock: context.clock)
        }
        if json {
            try JSONOutput.print(rows.map(ReminderJSON.init))
            return
        }
        let open = rows.filter { $0.reminder.status != .completed }.count
        var title = TerminalText.clean(heading)
        title += filter == .completed ? " (\(rows.count))" : " (\(open) open)"
        print(title)
        if rows.isEmpty {
            // Completed ones left out are said, not hidden without a word.
            let completed = showCompleted || filter == .completed ? 0 : try context.read { db in
                try Queries.reminders(db, filter: filter, sort: order, showCompleted: true, clock: context.clock).count
            }
            print(completed == 0 ? "  No reminders."
                  : "  No open reminders; \(TerminalText.count(completed, "completed one")) (--show-completed shows \(completed == 1 ? "it" : "them")).")
            return
        }
        if case .list = filter {
            print(ReminderTable.render(rows, showList: false, grouped: true))
        } else {
            print(ReminderTable.render(rows, showList: true))
        }
        if rows.contains(where: { $0.reminder.status == .completing }) {
            print("  [~] ticked in the app: completes when its undo delay ends, or at the app's next start")
        }
    }

    /// One reminder with everything it holds, notes whole: what `show`
    /// gives for words that name a reminder rather than a list.
    private func showReminder(_ id: String, context: some DeviceReading) throws {
        let row = try context.reminderRow(id: id)
        if json {
            try JSONOutput.print(ReminderJSON(row))
            return
        }
        let reminder = row.reminder
        let (parent, subtasks) = try context.read { db in
            (try reminder.parentID.flatMap { try Reminder.fetchOne(db, key: $0) },
             try Reminder.filter(Column("parentID") == id).order(Column("position"), Column("id")).fetchAll(db))
        }
        func quoted(_ text: String) -> String { "“\(TerminalText.clean(text))”" }
        var lines = ["\(quoted(reminder.title)) (\(reminder.id.prefix(8))) in \(TerminalText.clean(row.listTitle))"]
        func field(_ name: String, _ value: String) { lines.append(name.padding(toLength: 10, withPad: " ", startingAt: 0) + value) }
        let status = switch reminder.status {
        case .incomplete: "open"
        case .completing: "ticked in the app (completes when its undo delay ends)"
        case .completed: "completed" + (reminder.completedAt.map { " " + $0.replacingOccurrences(of: "T", with: " ") } ?? "")
        }
        field("Status", status)
        field("Due", reminder.dueDate.map { ReminderTable.formatWithWeekday($0) + (row.isPastDue ? " (past due)" : "") } ?? "none")
        if reminder.alertBefore != nil { field("Alert", AlertBefore.describe(reminder.alertBefore).lowercased()) }
        if let rule = reminder.repeatRule {
            field("Repeats", (try? RepeatRule(rrule: rule)).map { $0.description } ?? rule)
        }
        field("Priority", ReminderWords.priority(reminder.priority))
        if reminder.isFlagged { field("Flag", "flagged") }
        field("Tags", ReminderWords.tags(row.tags))
        if let parent { field("Subtask of", "\(quoted(parent.title)) (\(parent.id.prefix(8)))") }
        if !subtasks.isEmpty {
            field("Subtasks", subtasks.map { "[\($0.isCompleted ? "✓" : " ")] \(quoted($0.title))" }.joined(separator: ", "))
        }
        if reminder.notes.isEmpty {
            field("Notes", "none")
        } else {
            lines.append("Notes")
            lines += reminder.notes.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + TerminalText.clean(String($0)) }
        }
        print(lines.joined(separator: "\n"))
    }
}
