import Foundation
import Testing
import TestSupport

/// `reminders undo`: the deletes and edits made with the command line on
/// this device, taken back newest first.
@Suite("Undo on the command line, end to end")
struct UndoCommandTests {
    /// Runs a command on a device that must succeed; its output as printed.
    static func run(_ cli: CommandRunner, _ arguments: [String], on device: [String: String],
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try cli.run(arguments, environment: device)
        #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
        return result.stdout
    }

    @Test func withNothingToUndoItSaysSo() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let result = try cli.run("undo")
        #expect(result.status == 1)
        #expect(result.stderr == "reminders: nothing to undo: 'reminders undo' takes back a delete or an edit made with the command line on this device\n")
    }

    /// A reminder deleted with its tag and subtask comes back whole, under
    /// its id, here and, once synced, on the other device; a list deleted
    /// with its reminders too. Each undo takes back one more.
    @Test func deletesComeBackWholeAndReachTheOtherDevice() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let laptop = ["REMINDERS_DEVICE": "laptop"], desktop = ["REMINDERS_DEVICE": "desktop"]
        func ok(_ arguments: String..., on device: [String: String] = laptop) throws -> String {
            try Self.run(cli, arguments, on: device)
        }
        _ = try ok("list", "add", "Home")
        _ = try ok("list", "add", "Work")
        let fence = try ok("add", "Paint the fence", "--list", "Home", "--tag", "diy", "--due", "2026-03-07T10:00")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try ok("add", "Buy paint", "--parent", String(fence.prefix(8)))
        _ = try ok("add", "Report", "--list", "Work", "--priority", "high")
        _ = try ok("sync")
        _ = try ok("sync", on: desktop)
        let before = try ok("export", "--json")

        #expect(try ok("delete", "Paint the fence").hasPrefix("Deleted “Paint the fence”"))
        _ = try ok("list", "delete", "Work")
        _ = try ok("sync")
        _ = try ok("sync", on: desktop)
        #expect(try ok("export", "--json", on: desktop) != before)

        #expect(try ok("undo") == "Undone: put back the list “Work”.\n")
        #expect(try ok("undo") == "Undone: put back “Paint the fence”.\n")
        #expect(try ok("export", "--json") == before)
        _ = try ok("sync")
        _ = try ok("sync", on: desktop)
        #expect(try ok("export", "--json", on: desktop) == before)
        #expect(try cli.run(["undo"], environment: laptop).status == 1)
        // The other device has nothing of this device's to undo.
        #expect(try cli.run(["undo"], environment: desktop).status == 1)
    }

    /// An edit is taken back field by field, newest first; one whose fields
    /// changed since on another device is not, and the later edit stays.
    @Test func editsAreTakenBackUnlessChangedSince() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let laptop = ["REMINDERS_DEVICE": "laptop"], desktop = ["REMINDERS_DEVICE": "desktop"]
        func run(_ arguments: String..., on device: [String: String] = laptop) throws -> ProcessResult {
            try cli.run(arguments, environment: device)
        }
        #expect(try run("list", "add", "Home").status == 0)
        #expect(try run("add", "Milk", "--list", "Home", "--notes", "oat").status == 0)
        #expect(try run("edit", "Milk", "--title", "Oat milk", "--flag").status == 0)
        #expect(try run("edit", "Oat milk", "--due", "2026-03-02", "--priority", "low").status == 0)
        #expect(try run("undo").stdout == "Undone: take back the edit of “Oat milk”.\n")
        let shown = try run("show", "Oat milk").stdout
        #expect(shown.contains("Due       none"), "\(shown)")
        #expect(shown.contains("Priority  no priority"), "\(shown)")
        #expect(try run("undo").status == 0)
        let back = try run("show", "Milk").stdout
        #expect(back.hasPrefix("“Milk”") && !back.contains("Flag"), "\(back)")

        // Notes edited here, then again on the desktop, which syncs first.
        #expect(try run("edit", "Milk", "--notes", "whole").status == 0)
        #expect(try run("sync").status == 0)
        #expect(try run("sync", on: desktop).status == 0)
        #expect(try run("edit", "Milk", "--notes", "skimmed", on: desktop).status == 0)
        #expect(try run("sync", on: desktop).status == 0)
        #expect(try run("sync").status == 0)
        let refused = try run("undo")
        #expect(refused.status == 1)
        #expect(refused.stderr == "reminders: cannot take back the edit of “Milk”: it was changed since, here or on another device; the later edit stays\n")
        #expect(try run("show", "Milk").stdout.contains("skimmed"))
        // Refused, it is gone from the journal: the next undo is older.
        #expect(try run("undo").status == 1)
    }

    /// A tag renamed, merged into another, or deleted on the command line:
    /// every reminder follows, the other device too once synced, and
    /// `undo` takes each back; a mistyped tag is refused with the nearest.
    @Test func tagsAreRenamedMergedAndDeletedAndTakenBack() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let laptop = ["REMINDERS_DEVICE": "laptop"], desktop = ["REMINDERS_DEVICE": "desktop"]
        func ok(_ arguments: String..., on device: [String: String] = laptop) throws -> String {
            try Self.run(cli, arguments, on: device)
        }
        _ = try ok("list", "add", "Home")
        _ = try ok("add", "Paint the fence", "--list", "Home", "--tag", "diy", "--tag", "garden")
        _ = try ok("add", "Fix the gate", "--list", "Home", "--tag", "diy")
        _ = try ok("add", "Mow", "--list", "Home", "--tag", "Garden")
        let before = try ok("export", "--json")

        #expect(try ok("tag", "rename", "DIY", "Repairs") == "Renamed #diy to #Repairs (on 2 reminders).\n")
        #expect(try ok("tag", "rename", "repairs", "GARDEN") == "Merged #Repairs into #garden (on 2 reminders).\n")
        #expect(try ok("tags") == "#garden  3 open\n")
        _ = try ok("sync")
        _ = try ok("sync", on: desktop)
        #expect(try ok("tags", on: desktop) == "#garden  3 open\n")
        #expect(try ok("tag", "delete", "Garden") == "Deleted #garden (from 3 reminders).\n")
        #expect(try ok("tag") == "No tags yet. Add one with 'reminders add TITLE --list LIST --tag NAME'.\n")

        #expect(try ok("undo") == "Undone: put back #garden.\n")
        #expect(try ok("undo") == "Undone: take #Repairs back out of #garden.\n")
        #expect(try ok("undo") == "Undone: rename #Repairs back to #diy.\n")
        #expect(try ok("export", "--json") == before)
        _ = try ok("sync")
        _ = try ok("sync", on: desktop)
        #expect(try ok("export", "--json", on: desktop) == before)

        let typo = try cli.run(["tag", "delete", "gardn"], environment: laptop)
        #expect(typo.status == 2)
        #expect(typo.stderr == "reminders: no tag matches 'gardn'; did you mean 'garden'? 'reminders tags' lists them\n")
        let word = try cli.run(["tag", "garden"], environment: laptop)
        #expect(word.status == 2 && word.stderr.contains("'garden' is not a tag command (rename, delete)"))
    }

    /// `list edit` says what it changed and files its undo, which puts the
    /// title and colour back unless they changed since; an edit that
    /// changes nothing says so and files none.
    @Test func aListEditIsTakenBack() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let id = try cli.ok("list", "add", "Garden", "--color", "green").trimmingCharacters(in: .whitespacesAndNewlines)
        let short = String(id.prefix(8))
        #expect(try cli.ok("list", "edit", "Garden", "--color", "purple")
                == "Updated list “Garden” (\(short)): colour #a86fe0, was #5cc15a.")
        #expect(try cli.ok("list", "edit", "Garden", "--color", "#A86FE0") == "List “Garden” (\(short)): nothing changed, it is so already.")
        #expect(try cli.ok("list", "edit", "Garden", "--title", "Yard") == "Updated list “Yard” (\(short)): title was “Garden”.")
        #expect(try cli.ok("undo") == "Undone: put back the title of “Garden”.")
        #expect(try cli.ok("undo") == "Undone: put back the colour of “Garden”.")
        #expect(try cli.ok("lists", "--json").contains(##""color" : "#5cc15a""##))
        // Changed since, on another device: the later edit stays.
        _ = try cli.ok("list", "edit", "Garden", "--color", "red")
        _ = try cli.ok("sync")
        let desktop = ["REMINDERS_DEVICE": "desktop"]
        #expect(try cli.run(["sync"], environment: desktop).status == 0)
        #expect(try cli.run(["list", "edit", "Garden", "--color", "blue"], environment: desktop).status == 0)
        #expect(try cli.run(["sync"], environment: desktop).status == 0)
        _ = try cli.ok("sync")
        let refused = try cli.run(["undo"])
        #expect(refused.status == 1 && refused.stderr.contains("changed since (title or colour); the later edit stays"), "\(refused)")
        #expect(try cli.ok("lists", "--json").contains(##""color" : "#4a99ef""##))
    }
}
