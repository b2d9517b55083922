import ArgumentParser
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels

/// What `reminders undo` can take back, newest last: the deletes and edits
/// made with the command line on this device, kept in the device's own
/// settings (`local_settings`, never synced), at most `depth` of them.
enum UndoJournal {
    static let key = "cli.undo"
    static let depth = 20

    struct Entry: Codable, Equatable {
        /// What the undo does, in words: "put back “Milk”".
        var what: String
        var change: Change
    }

    /// The changes kept, each the undo of one command.
    enum Change: Codable, Equatable {
        /// `delete`: the reminder with its tags and subtasks.
        case restoreReminder(DeletedReminder)
        /// `list delete`: the list with its cover, reminders and tags.
        case restoreList(DeletedList)
        /// `edit`: the fields it changed as they were, refused if they
        /// changed since (`expecting`: as the edit left them).
        case restoreFields(id: String, fields: ReminderChanges, expecting: ReminderChanges)
        /// `tag delete`: the tag, on the reminders it was on.
        case restoreTag(TagLinks)
        /// `tag rename`: the old tag again, and the new one off the
        /// reminders it was not on before.
        case undoRename(TagRename)
        /// `list edit`: the list's title and colour as they were, refused
        /// if either changed since (`expecting…`: as the edit left them).
        case restoreListFields(id: String, title: String, color: String, expectingTitle: String, expectingColor: String)

        var action: UndoAction {
            switch self {
            case .restoreReminder(let deleted): .restoreReminder(deleted)
            case .restoreList(let deleted): .restoreList(deleted)
            case .restoreFields(let id, let fields, let expecting): .restoreFields(id: id, fields, expecting: expecting)
            case .restoreTag(let links): .restoreTag(links)
            case .undoRename(let rename): .undoRename(rename)
            case .restoreListFields(let id, let title, let color, let expectingTitle, let expectingColor):
                .restoreListFields(id: id, title: title, color: color, expectingTitle: expectingTitle, expectingColor: expectingColor)
            }
        }
    }

    /// Keeps `entry` as the next to take back, dropping the oldest past
    /// `depth`.
    static func push(_ entry: Entry, on writer: any DatabaseWriter) throws {
        try writer.write { db in
            var entries = try read(db)
            entries.append(entry)
            try write(Array(entries.suffix(depth)), db)
        }
    }

    /// Takes the newest entry off the journal; nil when it is empty.
    static func pop(on writer: any DatabaseWriter) throws -> Entry? {
        try writer.write { db in
            var entries = try read(db)
            guard let last = entries.popLast() else { return nil }
            try write(entries, db)
            return last
        }
    }

    private static func read(_ db: Database) throws -> [Entry] {
        guard let text = try DeviceSettings.value(db, key) else { return [] }
        // A journal this version cannot read (written by a newer one) is
        // no reason to refuse a delete: it starts again.
        return (try? JSONDecoder().decode([Entry].self, from: Data(text.utf8))) ?? []
    }

    private static func write(_ entries: [Entry], _ db: Database) throws {
        try DeviceSettings.set(db, key, String(decoding: try JSONEncoder().encode(entries), as: UTF8.self))
    }
}

/// `reminders undo`: takes back the last delete, edit, or tag rename or
/// delete made with the command line on this device.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back the last delete or edit made with this command line on this device.",
        discussion: """
            Puts back a deleted reminder (with its tags and subtasks) or list (with its cover, \
            reminders and tags) under the same ids, an edited reminder's fields as they were, \
            a list's title and colour as they were, or a deleted or renamed tag on the reminders \
            it was on. \
            Each run takes back one more, up to \(UndoJournal.depth) back. An edit whose fields \
            changed since, here or on another device, is not taken back: the later edit stays. \
            Completing is taken back by 'reminders uncomplete'.
            """)

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        guard let entry = try UndoJournal.pop(on: context.store.writer) else {
            throw CLIFailure("nothing to undo: 'reminders undo' takes back a delete or an edit made with the command line on this device")
        }
        do {
            try entry.change.action.apply(to: context.store)
        } catch {
            throw CLIFailure("cannot \(entry.what): \(Self.describe(error))")
        }
        print(TerminalText.clean("Undone: \(entry.what)."))
    }

    private static func describe(_ error: any Error) -> String {
        (error as? CoreError)?.description ?? "\(error)"
    }
}
