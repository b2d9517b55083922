import ArgumentParser
import Foundation
import GRDB
import RemindersCore
import SyncEngine

/// `reminders lists [--json]`: the smart lists' counts and every list.
struct ListsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists",
        abstract: "Show your lists with their open reminders, and the smart lists' counts.")

    @Flag(help: "Print an array of {id, title, color, position, openCount}.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try ReadingContext(common)
        let (lists, counts) = try context.read { db in
            (try Queries.lists(db), try Queries.smartCounts(db, clock: context.clock))
        }
        if json {
            try JSONOutput.print(lists.map(ListJSON.init))
            return
        }
        var smart = "Today \(counts.today)   Scheduled \(counts.scheduled)   All \(counts.all)   "
            + "Flagged \(counts.flagged)   Completed \(counts.completed)"
        if counts.pastDue > 0 { smart += "   (\(counts.pastDue) past due)" }
        print(smart)
        print("")
        guard !lists.isEmpty else {
            // An invitation waiting (as of the last sync) is the next step.
            let me = context.location.user
            let invited = try context.read { db in
                try SyncEngine.localShares(db).filter { $0.ownerName != me && $0.participant(me)?.status == .pending }
            }
            if let first = invited.first {
                let title = first.rootPreview["title"].map { "“\(TerminalText.clean($0))”" } ?? "a list"
                let more = invited.count > 1 ? " (and \(invited.count - 1) more: 'reminders shares')" : ""
                print("No lists yet. \(first.ownerName) invites you to \(title)\(more): 'reminders accept \(first.id.prefix(8))' takes it.")
                return
            }
            print("No lists yet. 'reminders add TEXT' makes one as it adds, 'reminders list add TITLE' makes one, 'reminders seed' makes samples.")
            return
        }
        var table = TextTable([.left, .left, .right, .left, .left])
        for summary in lists {
            table.add([
                String(summary.list.id.prefix(8)),
                TerminalText.truncate(TerminalText.clean(summary.list.title), to: ReminderTable.maxTitleColumns),
                "\(summary.openCount) open",
                summary.list.color,
                summary.hasCover ? "cover" : "",
            ])
        }
        print(table.render())
    }
}

/// `reminders list add|edit|delete|cover`; `reminders list` alone shows
/// the lists, as `reminders lists` does.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Create, rename, recolour or delete a list, or set its cover image (alone: show the lists).",
        subcommands: [Add.self, Edit.self, Delete.self, Cover.self, Show.self],
        defaultSubcommand: Show.self)

    /// `reminders list` alone: the lists, as `reminders lists` shows them.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show your lists, as 'reminders lists' does.", shouldDisplay: false)

        @OptionGroup var lists: ListsCommand

        /// A word after `list` that is no subcommand: said so, with the
        /// command that shows a list.
        @Argument(help: .hidden) var word: String?

        func validate() throws {
            if let word {
                throw ValidationError("'\(word)' is not a list command (add, edit, delete, cover); 'reminders show \(word)' shows a list's reminders")
            }
        }

        func run() throws { try lists.run() }
    }

    /// `reminders list add TITLE [--color COLOUR]`: prints the new list's id.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Create a list and print its id.")

        @Argument(help: "The list's title.")
        var title: String

        @Option(help: ArgumentHelp("The list's colour: blue, red, orange, yellow, green, purple, brown, gray, or #RRGGBB (default: the first of these no list uses).", valueName: "colour"))
        var color: String?

        @OptionGroup var common: CommonOptions

        func validate() throws {
            try usage { _ = try Validation.title(title, of: "list title") }
            if let color { try usage { _ = try Validation.color(color) } }
        }

        func run() throws {
            let context = try RemindersContext(common)
            let list = try context.store.createList(title: title, color: color)
            if try context.read({ db in try Queries.isListTitleShared(db, title: list.title, by: list.id) }) {
                FileHandle.standardError.write(Data((TerminalText.clean(
                    "reminders: note: another list is titled '\(list.title)' too; commands that take a list will need an id for either") + "\n").utf8))
            }
            print(list.id)
        }
    }

    /// `reminders list edit LIST [--title T] [--color C]`.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Rename or recolour a list.")

        @Argument(help: ArgumentHelp("The list: id, id prefix or title.", valueName: "list"), completion: ShellCompletion.lists)
        var list: String

        @Option(help: "A new title.")
        var title: String?

        @Option(help: ArgumentHelp("A new colour: one of the app's by name (blue, red, …, gray), or #RRGGBB.", valueName: "colour"))
        var color: String?

        @OptionGroup var common: CommonOptions

        func validate() throws {
            if let title { try usage { _ = try Validation.title(title, of: "list title") } }
            if let color { try usage { _ = try Validation.color(color) } }
        }

        func run() throws {
            // Here rather than in validate(), which runs before a mistyped
            // option is reported: "--colour red" is then named as such.
            guard title != nil || color != nil else {
                throw ValidationError("nothing to change: give --title or --color")
            }
            let context = try RemindersContext(common)
            let id = try context.list(list)
            // Before and after in the write itself: a sync landing between
            // reads would make another device's change look like this one's.
            let (before, after) = try context.store.updateList(id: id, title: title, color: color)
            var changes: [String] = []
            if after.title != before.title { changes.append("title was \(quoted(before.title))") }
            if after.color != before.color { changes.append("colour \(after.color), was \(before.color)") }
            guard !changes.isEmpty else {
                print(confirmation("List", after.title, id: id, detail: "nothing changed, it is so already"))
                return
            }
            let fields = changes.count == 2 ? "title and colour" : (after.title != before.title ? "title" : "colour")
            try UndoJournal.push(UndoJournal.Entry(what: "put back the \(fields) of \(quoted(before.title))",
                                                   change: .restoreListFields(id: id, title: before.title, color: before.color,
                                                                              expectingTitle: after.title, expectingColor: after.color)),
                                 on: context.store.writer)
            print(confirmation("Updated list", after.title, id: id, detail: changes.joined(separator: "; ")))
        }
    }

    /// `reminders list delete LIST`: the list and all its reminders.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a list with all its reminders.")

        @Argument(help: ArgumentHelp("The list: id, id prefix or title.", valueName: "list"), completion: ShellCompletion.lists)
        var list: String

        @Flag(name: .shortAndLong, help: "Do not ask first (on a terminal, a list that holds reminders is deleted only once you agree).")
        var yes = false

        @OptionGroup var common: CommonOptions

        func run() throws {
            let context = try RemindersContext(common)
            let id = try context.list(list)
            let (title, count, owner) = try context.read { db in
                (try Queries.list(db, id: id)?.title ?? list,
                 try Queries.reminderCount(db, listID: id),
                 context.owner(db, ofList: id))
            }
            // Before the question: only the owner deletes a list.
            if owner != context.location.user {
                throw CoreError.readOnly("list \(quoted(title)) is \(owner)'s, shared with you: only \(owner) can delete it; "
                                         + "'reminders leave \(TerminalText.clean(title))' takes it off your devices")
            }
            // A person at a terminal is asked, as the app asks: the delete
            // reaches every device ('reminders undo' puts it back, on this
            // one). Scripts (no terminal) and --yes are not.
            if !yes, count > 0, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
                let reminders = count == 1 ? "its reminder" : "its \(count) reminders"
                FileHandle.standardError.write(Data("Delete list \(quoted(title)) and \(reminders), on every device? [y/N] ".utf8))
                let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
                guard answer == "y" || answer == "yes" else {
                    print("Kept list \(quoted(title)).")
                    return
                }
            }
            let deleted = try context.store.deleteList(id: id)
            try UndoJournal.push(UndoJournal.Entry(what: "put back the list \(quoted(title))", change: .restoreList(deleted)),
                                 on: context.store.writer)
            print("Deleted list \(quoted(title)) and its \(count) \(count == 1 ? "reminder" : "reminders").")
        }
    }

    /// `reminders list cover LIST (PATH | --clear)`.
    struct Cover: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cover", abstract: "Set a list's cover image (a PNG file) or remove it.")

        @Argument(help: ArgumentHelp("The list: id, id prefix or title.", valueName: "list"), completion: ShellCompletion.lists)
        var list: String

        @Argument(help: ArgumentHelp("A PNG image, at most 8 MB and 4096x4096 pixels.", valueName: "path"))
        var path: String?

        @Flag(help: "Remove the list's cover image.")
        var clear = false

        @OptionGroup var common: CommonOptions

        func validate() throws {
            switch (path, clear) {
            case (nil, false): throw ValidationError("give an image PATH or --clear")
            case (.some, true): throw ValidationError("give an image PATH or --clear, not both")
            case (let path?, false): try usage { _ = try CoverImage.load(path: path) }
            case (nil, true): break
            }
        }

        func run() throws {
            let context = try RemindersContext(common)
            let id = try context.list(list)
            let png = try path.map { try CoverImage.load(path: $0) }
            try context.store.setCover(listID: id, png: png)
            let title = try context.read { try Queries.list($0, id: id)?.title } ?? list
            print(png == nil ? "Removed the cover of \(quoted(title))." : "Set the cover of \(quoted(title)).")
        }
    }
}

/// Runs a check from `Validation` and reports its failure as bad usage, so
/// that ArgumentParser counts it as a validation error.
func usage(_ check: () throws -> Void) throws {
    do {
        try check()
    } catch let error as CommandLineError where error.exitCode == 2 {
        throw ValidationError(error.message)
    }
}

/// A title in curly quotes, cleaned for the terminal and kept short.
func quoted(_ title: String) -> String {
    "“" + TerminalText.truncate(TerminalText.clean(title), to: ReminderTable.maxTitleColumns) + "”"
}

/// The line a change prints: what was done, to which title, and the first
/// eight characters of the id, enough to name the same item again; then
/// what became of it, when that is worth saying ("due Fri 2026-11-27").
func confirmation(_ done: String, _ title: String, id: String, detail: String? = nil) -> String {
    "\(done) \(quoted(title)) (\(id.prefix(8)))" + (detail.map { ": \($0)" } ?? "") + "."
}
