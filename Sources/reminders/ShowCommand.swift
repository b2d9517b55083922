import ArgumentParser
import Foundation
import RemindersCore

/// `reminders show [LIST | --today | --scheduled | --all | --flagged |
/// --completed | --tag T] [--sort ...] [--show-completed] [--json]`.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the reminders of a list or a smart list (all open reminders by default).")

    @Argument(help: ArgumentHelp("A list: id, id prefix or title.", valueName: "list"), completion: ShellCompletion.lists)
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
            let id = try context.list(list)
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
            let title = try Validation.tag(tag)
            guard let shown = try context.read({ try Queries.tagTitle($0, title) }) else {
                throw CoreError.notFound("no tag matches '\(TerminalText.clean(tag))'; 'reminders tags' lists them")
            }
            (filter, heading) = (.tag(title), "#" + shown)
        } else {
            (filter, heading) = (.all, "All")
        }
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
            print("  No reminders.")
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
}
