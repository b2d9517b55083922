import ArgumentParser
import Foundation
import RemindersCore

/// `reminders tags [--json]`: every tag with its count of open reminders.
struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags", abstract: "Show your tags with how many open reminders carry each.")

    @Flag(help: "Print an array of {title, openCount}.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try ReadingContext(common)
        let tags = try context.read { try Queries.allTags($0) }
        if json {
            try JSONOutput.print(tags.map { TagJSON(title: $0.title, openCount: $0.openCount) })
            return
        }
        guard !tags.isEmpty else {
            print("No tags yet. Add one with 'reminders add TITLE --list LIST --tag NAME'.")
            return
        }
        var table = TextTable([.left, .right])
        for tag in tags {
            table.add(["#" + tag.title, "\(tag.openCount) open"])
        }
        print(table.render())
    }
}

/// `reminders tag rename|delete`: a tag's name on every reminder that
/// carries it (alone: the tags, as `reminders tags` shows them).
struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Rename or delete a tag on every reminder that carries it (alone: show the tags).",
        subcommands: [Rename.self, Delete.self, Show.self],
        defaultSubcommand: Show.self)

    /// `reminders tag` alone: the tags, as `reminders tags` shows them.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show your tags, as 'reminders tags' does.", shouldDisplay: false)

        @OptionGroup var tags: TagsCommand

        /// A word after `tag` that is no subcommand: said so, with the
        /// command that shows a tag's reminders.
        @Argument(help: .hidden) var word: String?

        func validate() throws {
            if let word {
                throw ValidationError("'\(word)' is not a tag command (rename, delete); 'reminders show --tag \(word)' shows its reminders")
            }
        }

        func run() throws { try tags.run() }
    }

    /// `reminders tag rename OLD NEW`.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: "Rename a tag on every reminder that carries it.",
            discussion: """
                OLD may be spelled in any case. A NEW that differs from it only in case \
                (or in how an accent is typed) changes its spelling; a NEW that is \
                another tag already merges the two, which keeps that tag's spelling. \
                'reminders undo' takes it back.
                """)

        @Argument(help: ArgumentHelp("The tag.", valueName: "old"), completion: ShellCompletion.tags)
        var old: String

        @Argument(help: ArgumentHelp("Its new name.", valueName: "new"))
        var new: String

        @OptionGroup var common: CommonOptions

        func run() throws {
            let context = try RemindersContext(common)
            let old = try context.tag(old)
            let new = try Validation.tag(new)
            // Named so already: nothing to do, and nothing for undo to take back.
            if new == old {
                print(TerminalText.clean("#\(old) is named so already."))
                return
            }
            let rename = try context.store.renameTag(old, to: new)
            let count = rename.old.reminderIDs.count
            let on = "\(count) \(count == 1 ? "reminder" : "reminders")"
            let what = TerminalText.clean(rename.merged ? "take #\(rename.old.title) back out of #\(rename.new)"
                                                        : "rename #\(rename.new) back to #\(rename.old.title)")
            try UndoJournal.push(UndoJournal.Entry(what: what, change: .undoRename(rename)), on: context.store.writer)
            print(TerminalText.clean(rename.merged ? "Merged #\(rename.old.title) into #\(rename.new) (on \(on))."
                                                   : "Renamed #\(rename.old.title) to #\(rename.new) (on \(on))."))
        }
    }

    /// `reminders tag delete TAG`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a tag; the reminders that carry it stay, without it.",
            discussion: "'reminders undo' puts it back on them.")

        @Argument(help: ArgumentHelp("The tag, in any case.", valueName: "tag"), completion: ShellCompletion.tags)
        var tag: String

        @OptionGroup var common: CommonOptions

        func run() throws {
            let context = try RemindersContext(common)
            let links = try context.store.deleteTag(try context.tag(tag))
            let count = links.reminderIDs.count
            try UndoJournal.push(UndoJournal.Entry(what: TerminalText.clean("put back #\(links.title)"), change: .restoreTag(links)),
                                 on: context.store.writer)
            print(TerminalText.clean("Deleted #\(links.title) (from \(count) \(count == 1 ? "reminder" : "reminders"))."))
        }
    }
}
