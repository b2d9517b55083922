import ArgumentParser
import Foundation
import RemindersCore

/// `reminders export`: the canonical JSON dump of everything this device
/// shows (two devices that agree print identical bytes), or iCalendar: one
/// VCALENDAR per list, or a vdir folder per list.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print everything as JSON, or write lists as iCalendar (.ics) or vdir folders.",
        discussion: """
            --json prints {"lists", "reminders", "tags"}, sorted by id.

            --ics prints one VCALENDAR per list (or the one LIST names) with a VTODO per reminder.

            --vdir DIR writes a folder per list (displayname, color, one .ics per reminder), as \
            vdirsyncer and todoman read them; only files whose content changed are written.
            """)

    @Flag(help: "The canonical JSON dump.")
    var json = false

    @Flag(help: "iCalendar: one VCALENDAR per list, or for LIST.")
    var ics = false

    @Option(help: ArgumentHelp("Write a vdir folder per list into this folder.", valueName: "dir"))
    var vdir: String?

    @Option(name: .customLong("output"), help: ArgumentHelp("Write the .ics to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Argument(help: ArgumentHelp("The list to export with --ics (default: every list).", valueName: "list"))
    var list: String?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        let formats = [json, ics, vdir != nil].filter { $0 }.count
        guard formats == 1 else {
            throw ValidationError("choose one format: 'reminders export --json', '--ics [LIST]' or '--vdir DIR'")
        }
        if list != nil, !ics { throw ValidationError("a LIST is exported with --ics only") }
        if output != nil, !ics { throw ValidationError("--output is for --ics") }
        if let vdir, vdir.isEmpty { throw ValidationError("--vdir needs a folder") }
    }

    func run() throws {
        if json {
            let context = try ReadingContext(common)
            let dump = try context.read { db in
                try ExportDump.read(db, owner: { context.owner(db, ofList: $0) })
            }
            print(try dump.json())
        } else if ics {
            let context = try ReadingContext(common)
            let listID = try list.map { try context.list($0) }
            let calendars = try context.read { db in
                try ICalendarExport.calendars(db, listID: listID, timeZone: context.clock.timeZone, now: context.clock.now)
            }
            let text = ICalendarExport.text(calendars)
            if let output {
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    throw CoreError.invalidInput("\(output): cannot write the file")
                }
                let count = calendars.reduce(0) { $0 + $1.components.count }
                FileHandle.standardError.write(Data("Wrote \(calendars.count) \(calendars.count == 1 ? "list" : "lists") (\(count) to-dos) to \(output)\n".utf8))
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        } else if let vdir {
            let context = try RemindersContext(common)
            let summary = try ICalendarExport.writeVdir(vdir, store: context.store)
            print("Wrote \(summary.folders.count) \(summary.folders.count == 1 ? "list" : "lists") to \(TerminalText.clean(vdir)): "
                  + "\(summary.written) written, \(summary.unchanged) unchanged, \(summary.deleted) deleted")
            if !summary.changedThere.isEmpty {
                FileHandle.standardError.write(Data((
                    "Left \(summary.changedThere.count) \(summary.changedThere.count == 1 ? "file" : "files") changed there since this device last read them "
                    + "(run 'reminders import \(vdir)' first): \(summary.changedThere.prefix(3).map { TerminalText.clean($0) }.joined(separator: ", "))"
                    + (summary.changedThere.count > 3 ? ", …" : "") + "\n").utf8))
                throw ExitCode(1)
            }
        }
    }
}

/// `reminders import`: iCalendar to-dos from a file, a vdir folder or a
/// folder of them, in one transaction.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import to-dos from an .ics file, a vdir folder, or a folder of vdir folders.",
        discussion: """
            Each calendar becomes a list (by its X-WR-RELCALID, its name, or the file's name), or \
            goes into --list. The UID is the key: importing the same files again changes nothing, \
            and a file edited elsewhere (a later SEQUENCE or LAST-MODIFIED, or other text) updates \
            its reminder. Properties the app does not model are kept with the reminder, sync with \
            it, and are written back by export. All of it is imported, or nothing.
            """)

    @Argument(help: ArgumentHelp("An .ics file, a vdir folder, or a folder of vdir folders.", valueName: "path"),
              completion: .file())
    var path: String

    @Option(help: ArgumentHelp("Import everything into this list (created if no list has this title).", valueName: "list"),
            completion: ShellCompletion.lists)
    var list: String?

    @Flag(help: "Delete reminders of the imported lists whose to-do is no longer in the import.")
    var deleteMissing = false

    @Flag(help: "Print what the import would do, and change nothing.")
    var dryRun = false

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        let collections = try ICalendarFiles.read(path, timeZone: context.clock.timeZone, now: context.clock.now)
        let summary = try ICalendarImport.run(
            collections, options: .init(list: list, deleteMissing: deleteMissing, dryRun: dryRun), store: context.store)
        if dryRun {
            for change in summary.changes {
                print("would be \(change.kind.rawValue): \(TerminalText.clean(change.list)) › \(TerminalText.clean(change.title))")
            }
        }
        print(Self.sentence(summary, dryRun: dryRun))
    }

    /// "Imported 3 new, 1 updated, 10 unchanged, 0 deleted into 2 lists (1 new)."
    static func sentence(_ summary: ICalendarImport.Summary, dryRun: Bool) -> String {
        var text = dryRun ? "Dry run, nothing changed: would import " : "Imported "
        text += "\(summary.count(.added)) new, \(summary.count(.updated)) updated, \(summary.unchanged) unchanged"
        if summary.count(.deleted) > 0 || dryRun { text += ", \(summary.count(.deleted)) deleted" }
        if !summary.listsCreated.isEmpty {
            text += "; new \(summary.listsCreated.count == 1 ? "list" : "lists"): "
                + summary.listsCreated.map { TerminalText.clean($0) }.joined(separator: ", ")
        }
        let unfollowed = summary.unfollowedRules
        if !unfollowed.isEmpty {
            text += "; \(unfollowed.count == 1 ? "1 to-do repeats" : "\(unfollowed.count) to-dos repeat") by a rule "
                + "this version cannot follow: kept, and written back by export, but not repeating here"
        }
        if summary.skippedComponents > 0 {
            text += "; skipped \(summary.skippedComponents) \(summary.skippedComponents == 1 ? "component that is" : "components that are") not a to-do"
        }
        // Named, each with what is wrong with its rule, the first five: the
        // user has to know which ones will not come round again, and why.
        for rule in unfollowed.prefix(5) {
            text += "\n  “\(TerminalText.clean(rule.title))”: \(TerminalText.clean(rule.problem))"
        }
        if unfollowed.count > 5 { text += "\n  and \(unfollowed.count - 5) more" }
        return text
    }
}
