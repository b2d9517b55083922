import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport

/// Drives the built `reminders` binary the way a person would, then checks
/// the whole database through `export --json`.
@Suite("Command line, end to end", .serialized)
struct ScriptedSessionTests {
    @Test func aScriptedSessionEndsInTheExpectedExport() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }

        // Lists.
        let groceries = try cli.ok("list", "add", "Groceries", "--color", "#5CC15A")
        let work = try cli.ok("list", "add", "Work")
        #expect(groceries.wholeMatch(of: #/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/#) != nil)
        #expect(FileManager.default.fileExists(atPath: cli.defaultDatabase.path))

        // Reminders, with every option add takes.
        let milk = try cli.ok("add", "Buy milk", "--list", "groceries", "--notes", "Oat, 2 cartons", "--due", "2026-03-02",
                              "--priority", "high", "--flag", "--tag", "dairy", "--tag", "Errands")
        let report = try cli.ok("add", "Write report", "--list", String(work.prefix(6)), "--due", "2026-02-27T09:30", "--tag", "work")
        let bread = try cli.ok("add", "Bread", "--list", groceries)

        // Edits, completion, a cover, a delete.
        try cli.ok("edit", "bread", "--title", "Sourdough bread", "--priority", "low", "--tags", "bakery, errands")
        try cli.ok("edit", String(report.prefix(8)), "--due", "2026-03-05T17:00", "--notes", "Q1 numbers\nfrom the benchmark",
                   "--priority", "medium", "--flag")
        try cli.ok("edit", "Write report", "--unflag")
        #expect(try cli.ok("complete", "Buy milk").contains("Buy milk"))
        #expect(try cli.ok("complete", "Buy milk").hasPrefix("Already completed “Buy milk”"))
        #expect(try cli.ok("uncomplete", "buy MILK").hasPrefix("Reopened “Buy milk”"))
        #expect(try cli.ok("uncomplete", "buy MILK").hasPrefix("Already open “Buy milk”"))
        try cli.ok("complete", bread)
        try cli.ok("list", "cover", "Groceries", packageRoot.appendingPathComponent("Assets/covers/forest.png").path)
        try cli.ok("list", "cover", "Work", packageRoot.appendingPathComponent("Assets/covers/ocean.png").path)
        try cli.ok("list", "cover", "Work", "--clear")
        let temporary = try cli.ok("add", "Temporary", "--list", "Work")
        try cli.ok("delete", temporary)
        let twin1 = try cli.ok("add", "Twin", "--list", "Work")
        let twin2 = try cli.ok("add", "Twin", "--list", "Work", "--due", "2026-03-01")
        try cli.ok("edit", twin1, "--list", "Groceries")
        try cli.ok("list", "edit", "Work", "--title", "Office", "--color", "#123ABC")

        // A title typed without its accents still names it.
        let rolls = try cli.ok("add", "Brötchen kaufen", "--list", "Groceries")
        #expect(try cli.ok("complete", "brotchen KAUFEN").contains("Brötchen kaufen"))
        try cli.ok("delete", rolls)

        // With --due, a date in the text is title.
        let tickets = try cli.ok("add", "Pick up tickets sat", "--list", "Groceries", "--due", "2026-03-06")
        #expect(try cli.ok("show", tickets).hasPrefix("“Pick up tickets sat”"))
        try cli.ok("delete", tickets)

        // A list whose reminders are all completed says so, rather than "No reminders".
        try cli.ok("list", "add", "Done soon")
        let last = try cli.ok("add", "Last one", "--list", "Done soon")
        try cli.ok("complete", last)
        #expect(try cli.ok("show", "Done soon") == "Done soon (0 open)\n  No open reminders; 1 completed one (--show-completed shows it).")
        try cli.ok("list", "delete", "Done soon", "--yes")

        // Words that name a reminder rather than a list show it whole.
        let shown = try cli.ok("show", "write report").split(separator: "\n").map(String.init)
        #expect(shown.first == "“Write report” (\(report.prefix(8))) in Office", "\(shown)")
        #expect(shown.contains("Due       Thu 2026-03-05 17:00") && shown.contains("Priority  !! medium"), "\(shown)")
        #expect(shown.suffix(3) == ["Notes", "  Q1 numbers", "  from the benchmark"], "\(shown)")

        // Bad input: exit 2 (1 for a file that is not a database), one line on
        // stderr, nothing on stdout, and the database untouched.
        let before = try cli.ok("export", "--json")
        let notes = cli.home.appendingPathComponent("notes.txt")
        try Data("not a picture\n".utf8).write(to: notes)
        let truncated = cli.home.appendingPathComponent("truncated.png")
        let forest = try Data(contentsOf: packageRoot.appendingPathComponent("Assets/covers/forest.png"))
        try forest.prefix(forest.count / 2).write(to: truncated)
        let badInputs: [(arguments: [String], status: Int32, message: String)] = [
            (["add", "--list", "Groceries"], 2, "missing expected argument '<text>'"),
            (["add", "", "--list", "Groceries"], 2, "title must not be empty"),
            (["add", "   ", "--list", "Groceries"], 2, "title must not be empty"),
            (["add", String(repeating: "x", count: 1_001), "--list", "Groceries"], 2, "title is 1001 characters long; the limit is 1000"),
            (["add", "Eggs", "--list", "Nowhere"], 2, "no list matches 'Nowhere'"),
            (["add", "Eggs", "--list", "grocries"], 2, "no list matches 'grocries'; did you mean 'Groceries'? 'reminders lists' shows them"),
            (["add", "Eggs", "--list", "Groceries", "--due", "2026-02-30"], 2, "--due: 2026-02-30: February 2026 has 28 days"),
            (["add", "Eggs", "--list", "Groceries", "--due", "next weak"], 2, "--due: 'next weak': 'weak' is not a date or time"),
            (["add", "Eggs ^Nowhere"], 2, "no list is titled 'Nowhere' (from ^Nowhere)"),
            (["add", "Eggs", "--list", "Groceries", "--priority", "urgent"], 2, "priority 'urgent' is not one of none, low, medium, high"),
            (["add", "Eggs", "--list", "Groceries", "--bogus"], 2, "unknown option '--bogus'"),
            (["list", "add", "Home", "--color", "crimson"], 2, "color 'crimson' is not one of blue, red, orange"),
            (["list", "add", ""], 2, "list title must not be empty"),
            (["list", "edit", "Office", "--title", ""], 2, "list title must not be empty"),
            (["list", "edit", "Office"], 2, "nothing to change"),
            // A mistyped option alone is named, not taken for no option.
            (["list", "edit", "Office", "--colour", "#ff0000"], 2, "unknown option '--colour'"),
            (["edit", "Buy milk", "--tag", "urgent"], 2, "unknown option '--tag'"),
            (["edit", "Buy milk"], 2, "nothing to change"),
            (["list", "delete", "Nowhere"], 2, "no list matches 'Nowhere'"),
            (["list", "cover", "Groceries", notes.path], 2, "not a PNG or JPEG image"),
            (["list", "cover", "Groceries", truncated.path], 2, "damaged or truncated"),
            (["list", "cover", "Groceries", cli.home.appendingPathComponent("missing.png").path], 2, "does not exist"),
            (["list", "cover", "Groceries"], 2, "give an image PATH or --clear"),
            (["edit", "Twin", "--title", "Triplet"], 2, "reminder 'Twin' is ambiguous"),
            (["edit", "Nothing", "--title", "Something"], 2, "no reminder matches 'Nothing'"),
            (["edit", "Buy milk", "--due", "2026-03-01", "--no-due"], 2, "give --due or --no-due, not both"),
            (["edit", "Buy milk", "--flag", "--unflag"], 2, "give --flag or --unflag, not both"),
            (["edit", "Buy milk", "--tags", "a,,b\u{7}"], 2, "tag must not contain commas or control characters"),
            (["edit", "Buy milk", "--list", "Nowhere"], 2, "no list matches 'Nowhere'"),
            (["complete", "Nothing"], 2, "no reminder matches 'Nothing'"),
            (["complete", "Buy mlik"], 2, "no reminder matches 'Buy mlik'; did you mean 'Buy milk'? 'reminders search WORDS'"),
            (["complete", "abc"], 2, "no reminder is titled 'abc', and an id prefix needs at least 4 characters"),
            (["uncomplete", "Twin"], 2, "is ambiguous"),
            (["delete", "Nothing"], 2, "no reminder matches 'Nothing'; 'reminders search WORDS' finds one by the words in it"),
            (["show", "--today", "--all"], 2, "choose one of LIST"),
            (["show", "--sort", "random"], 2, "sort order 'random' is not one of manual, due, priority, title"),
            (["show", "Nowhere"], 2, "no list or reminder matches 'Nowhere'; 'reminders lists' shows the lists, 'reminders search WORDS' finds reminders"),
            (["show", "Grocries"], 2, "no list or reminder matches 'Grocries'; did you mean 'Groceries'? 'reminders lists' shows the lists"),
            (["show", "Twin"], 2, "reminder 'Twin' is ambiguous"),
            (["list", "Groceries"], 2, "'Groceries' is not a list command (add, edit, delete, cover); 'reminders show Groceries' shows a list's reminders"),
            (["clear-completed", "--older-than", "week"], 2, "period 'week' is not one of"),
            (["export"], 2, "choose one format: 'reminders export --json'"),
            (["frobnicate"], 2, "'frobnicate' is not a command (see 'reminders --help')"),
            (["tui", "frobnicate"], 2, "unexpected argument 'frobnicate' (see 'reminders tui --help')"),
            (["serch", "milk"], 2, "'serch' is not a command: did you mean 'search'? (see 'reminders --help')"),
            (["lsit"], 2, "'lsit' is not a command: did you mean 'list'? (see 'reminders --help')"),
            (["help", "ad"], 2, "'ad' is not a command: did you mean 'add'? (see 'reminders --help')"),
            (["comp", "Milk"], 2, "'comp' is not a command: did you mean 'complete'? (see 'reminders --help')"),
            (["conflict"], 2, "'conflict' is not a command: did you mean 'conflicts'? (see 'reminders --help')"),
            (["add", "Eggs", "--lst", "Groceries"], 2, "unknown option '--lst': did you mean '--list'? (see 'reminders add --help')"),
            (["show", "--list", "Groceries"], 2, "'show' takes the list itself, not --list: 'reminders show LIST' (see 'reminders show --help')"),
            (["show", "--tag", "bakrey"], 2, "no tag matches 'bakrey'; did you mean 'bakery'? 'reminders tags' lists them"),
            (["--versoin"], 2, "unknown option '--versoin': did you mean '--version'? (see 'reminders --help')"),
            (["--due", "tomorrow", "add", "x"], 2, "'--due' comes before the command 'add': options go after it (see 'reminders add --help')"),
            (["add", "Call mom", "--due", "-1d"], 2,
             "--due has no value ('-1d' reads as an option); a value that starts with '-' is written --due='-1d'"),
            (["lists", "--user", "a/b"], 2, "user name 'a/b' may not contain"),
            (["lists", "--db", notes.path], 1, "is not a reminders database"),
            (["lists", "--db", cli.home.appendingPathComponent("nowhere/typo.sqlite").path], 1,
             "does not exist, and a command that only reads does not make one"),
        ]
        // `done` is `complete`; `list` alone shows the lists, as `lists` does.
        #expect(try cli.run(["done", "--help"]).stdout.contains("Mark a reminder completed"))
        #expect(try cli.ok("list") == cli.ok("lists"))
        // The smart lists `lists` shows are shown by name too.
        #expect(try cli.ok("show", "completed") == cli.ok("show", "--completed"))
        #expect(try cli.ok("show", "Flagged", "--json") == cli.ok("show", "--flagged", "--json"))
        #expect(try cli.ok("list", "--json") == cli.ok("lists", "--json"))
        for bad in badInputs {
            let result = try cli.run(bad.arguments)
            let command = "reminders " + bad.arguments.joined(separator: " ").prefix(60)
            #expect(result.status == bad.status, "\(command): \(result)")
            #expect(result.stdout.isEmpty, "\(command): \(result)")
            #expect(result.errorLine?.contains(bad.message) == true, "\(command): \(result)")
        }
        #expect(try Data(contentsOf: notes) == Data("not a picture\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("nowhere").path), "a mistyped --db is not made")
        #expect(try cli.run(["lists"], environment: ["REMINDERS_NOW": "soon"]).status == 2)
        #expect(try cli.ok("export", "--json") == before)

        // The whole database, ids replaced by names.
        let names = [groceries: "list-groceries", work: "list-work", milk: "milk", report: "report", bread: "bread",
                     twin1: "twin-1", twin2: "twin-2"]
        let export = try cli.ok("export", "--json")
        let dump = try JSONDecoder().decode(ExportDump.self, from: Data(export.utf8))
        #expect(dump.lists.map(\.id) == dump.lists.map(\.id).sorted())
        #expect(dump.reminders.map(\.id) == dump.reminders.map(\.id).sorted())
        #expect(try dump.json() == export, "export is not in canonical form")
        #expect(try renamed(dump, names).json() == expectedExport)
    }

    /// The dump with ids replaced by names, sorted again by the names.
    func renamed(_ dump: ExportDump, _ names: [String: String]) -> ExportDump {
        var dump = dump
        for index in dump.lists.indices {
            dump.lists[index].id = names[dump.lists[index].id] ?? "unexpected list \(dump.lists[index].id)"
        }
        for index in dump.reminders.indices {
            dump.reminders[index].id = names[dump.reminders[index].id] ?? "unexpected reminder \(dump.reminders[index].id)"
            dump.reminders[index].listID = names[dump.reminders[index].listID] ?? "unexpected list"
        }
        dump.lists.sort { $0.id < $1.id }
        dump.reminders.sort { $0.id < $1.id }
        return dump
    }

    let expectedExport = """
        {
          "lists" : [
            {
              "color" : "#5cc15a",
              "coverImageSHA256" : "1797d9325d0b4a4ec18da3f31a4f38514d8f6afb0d524c85c77d49f5e5b4f821",
              "id" : "list-groceries",
              "owner" : "me",
              "position" : 0,
              "title" : "Groceries"
            },
            {
              "color" : "#123abc",
              "coverImageSHA256" : null,
              "id" : "list-work",
              "owner" : "me",
              "position" : 1,
              "title" : "Office"
            }
          ],
          "reminders" : [
            {
              "alertBefore" : null,
              "dueDate" : null,
              "id" : "bread",
              "isFlagged" : false,
              "listID" : "list-groceries",
              "notes" : "",
              "occurrence" : null,
              "parentID" : null,
              "position" : 1,
              "priority" : "low",
              "repeatOf" : null,
              "repeatRule" : null,
              "status" : "completed",
              "tags" : [
                "bakery",
                "Errands"
              ],
              "title" : "Sourdough bread"
            },
            {
              "alertBefore" : null,
              "dueDate" : "2026-03-02",
              "id" : "milk",
              "isFlagged" : true,
              "listID" : "list-groceries",
              "notes" : "Oat, 2 cartons",
              "occurrence" : null,
              "parentID" : null,
              "position" : 0,
              "priority" : "high",
              "repeatOf" : null,
              "repeatRule" : null,
              "status" : "incomplete",
              "tags" : [
                "dairy",
                "Errands"
              ],
              "title" : "Buy milk"
            },
            {
              "alertBefore" : null,
              "dueDate" : "2026-03-05T17:00",
              "id" : "report",
              "isFlagged" : false,
              "listID" : "list-work",
              "notes" : "Q1 numbers\\nfrom the benchmark",
              "occurrence" : null,
              "parentID" : null,
              "position" : 0,
              "priority" : "medium",
              "repeatOf" : null,
              "repeatRule" : null,
              "status" : "incomplete",
              "tags" : [
                "work"
              ],
              "title" : "Write report"
            },
            {
              "alertBefore" : null,
              "dueDate" : null,
              "id" : "twin-1",
              "isFlagged" : false,
              "listID" : "list-groceries",
              "notes" : "",
              "occurrence" : null,
              "parentID" : null,
              "position" : 2,
              "priority" : "none",
              "repeatOf" : null,
              "repeatRule" : null,
              "status" : "incomplete",
              "tags" : [],
              "title" : "Twin"
            },
            {
              "alertBefore" : null,
              "dueDate" : "2026-03-01",
              "id" : "twin-2",
              "isFlagged" : false,
              "listID" : "list-work",
              "notes" : "",
              "occurrence" : null,
              "parentID" : null,
              "position" : 2,
              "priority" : "none",
              "repeatOf" : null,
              "repeatRule" : null,
              "status" : "incomplete",
              "tags" : [],
              "title" : "Twin"
            }
          ],
          "tags" : [
            {
              "title" : "bakery"
            },
            {
              "title" : "dairy"
            },
            {
              "title" : "Errands"
            },
            {
              "title" : "work"
            }
          ]
        }
        """
}
