import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport

/// What the commands print, for people and for scripts.
@Suite("Command line output", .serialized)
struct OutputTests {
    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func seedThenReadEverySmartList() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        #expect(try cli.ok("seed").hasPrefix("Added sample data"))
        #expect(try cli.ok("seed").contains("nothing added"))

        let lists = try #require(try json(cli.ok("lists", "--json")) as? [[String: Any]])
        #expect(lists.map { $0["title"] as? String } == ["Personal", "Work", "Groceries"])
        #expect(lists.allSatisfy { Set($0.keys) == ["id", "title", "color", "position", "openCount"] })

        let human = try cli.ok("lists")
        #expect(human.hasPrefix("Today "))
        #expect(human.contains("past due"))

        for flag in ["--today", "--scheduled", "--all", "--flagged", "--completed"] {
            let rows = try #require(try json(cli.ok("show", flag, "--json")) as? [[String: Any]], "\(flag)")
            #expect(!rows.isEmpty, "\(flag) is empty")
            #expect(rows.allSatisfy {
                Set($0.keys) == ["id", "listID", "title", "notes", "dueDate", "priority", "isFlagged", "status",
                                 "position", "tags", "listTitle", "isPastDue", "repeatRule", "parentID", "alertBefore",
                                 "repeatOf", "occurrence"]
            })
        }
        // Completed counts what it shows, as the others count the open ones.
        let completed = try #require(try json(cli.ok("show", "--completed", "--json")) as? [[String: Any]])
        #expect(try cli.ok("show", "--completed").hasPrefix("Completed (\(completed.count))\n"))
        let today = try #require(try json(cli.ok("show", "--today", "--json")) as? [[String: Any]])
        #expect(today.contains { $0["isPastDue"] as? Bool == true })

        let work = try #require(try json(cli.ok("show", "Work", "--sort", "due", "--json")) as? [[String: Any]])
        let dues = work.map { $0["dueDate"] as? String ?? "~" }
        #expect(dues == dues.sorted())
        #expect(work.allSatisfy { $0["listTitle"] as? String == "Work" })

        let tagged = try #require(try json(cli.ok("show", "--tag", "work", "--json")) as? [[String: Any]])
        #expect(tagged.count == 3)

        let tags = try #require(try json(cli.ok("tags", "--json")) as? [[String: Any]])
        #expect(tags.contains { $0["title"] as? String == "work" && $0["openCount"] as? Int == 3 })
        #expect(tags.allSatisfy { Set($0.keys) == ["title", "openCount"] })
    }

    @Test func aTagIsOneTagWhateverItsSpelling() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Home")
        let espresso = try cli.ok("add", "Espresso", "--list", "Home", "--tag", "Café")
        try cli.ok("add", "Latte", "--list", "Home", "--tag", "CAFÉ", "--tag", "cafe\u{301}")
        try cli.ok("edit", espresso, "--tags", "café,Work,WORK")
        #expect(try cli.ok("show", "--tag", "CAFE\u{301}").hasPrefix("#Café (2 open)"))
        // A tag no reminder ever had is a mistyped name, as a list's is,
        // and the nearest one is suggested.
        let unknown = try cli.run("show", "--tag", "cafes")
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "reminders: no tag matches 'cafes'; did you mean 'Café'? 'reminders tags' lists them\n")
        #expect(try cli.run("show", "--tag", "gardening").stderr == "reminders: no tag matches 'gardening'; 'reminders tags' lists them\n")
        let tags = try #require(try json(cli.ok("tags", "--json")) as? [[String: Any]])
        #expect(tags.map { $0["title"] as? String } == ["Café", "Work"])
        let export = try #require(try json(cli.ok("export", "--json")) as? [String: Any])
        let reminders = try #require(export["reminders"] as? [[String: Any]])
        #expect(Set(reminders.map { ($0["tags"] as? [String]) ?? [] }) == [["Café", "Work"], ["Café"]])
    }

    /// Piped, a long title goes out whole and pushes only its own row: the
    /// other rows are aligned for titles up to 60 columns.
    @Test func pipedRowsKeepLongTitlesWholeWithoutWideningTheOthers() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Home")
        let long = String(repeating: "very long title ", count: 20).trimmingCharacters(in: .whitespaces)
        try cli.ok("add", long, "--list", "Home", "--literal", "--tag", "x")
        try cli.ok("add", "Milk", "--list", "Home", "--tag", "shop")
        let lines = try cli.ok("show", "Home").split(separator: "\n").map(String.init)
        let longRow = try #require(lines.first { $0.contains("very long") })
        let milkRow = try #require(lines.first { $0.contains("Milk") })
        #expect(longRow.contains(long + "  #x"))
        #expect(milkRow.count <= 8 + 2 + 3 + 2 + 60 + 2 + 5, "\(milkRow.count): \(milkRow)")
        #expect(milkRow.hasSuffix("#shop"))
    }

    @Test func searchPrintsResultsAndTheCompletedCount() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Home")
        try cli.ok("add", "Renew passport", "--list", "Home", "--notes", "Photos in the desk drawer")
        let old = try cli.ok("add", "Old passport", "--list", "Home")
        try cli.ok("complete", old)

        let human = try cli.ok("search", "passport")
        #expect(human.contains("Renew passport"))
        #expect(!human.contains("Old passport"))
        #expect(human.hasSuffix("1 completed reminder matches too (--show-completed to see it)"))
        #expect(try cli.ok("search", "passport", "--show-completed").hasSuffix("(1 completed reminder matches, shown above)"))
        // No completed match, no line about them.
        #expect(try !cli.ok("search", "drawer").contains("completed"))

        let found = try #require(try json(cli.ok("search", "drawer", "--json")) as? [String: Any])
        #expect(found["completedCount"] as? Int == 0)
        let results = try #require(found["results"] as? [[String: Any]])
        #expect(results.first?["snippet"] as? String == "Photos in the desk drawer")
        #expect(results.first.map { Set($0.keys) } == ["id", "listID", "title", "notes", "dueDate", "priority",
                                                       "isFlagged", "status", "position", "tags", "snippet",
                                                       "repeatRule", "parentID", "alertBefore", "repeatOf",
                                                       "occurrence"])

        let all = try #require(try json(cli.ok("search", "pa", "--show-completed", "--json")) as? [String: Any])
        #expect((all["results"] as? [Any])?.count == 2)
        #expect(all["completedCount"] as? Int == 1)
    }

    /// A reminder ticked in the app and still completing shows `[~]`, and
    /// the listing says once what that means; without one, nothing more.
    @Test func aCompletingReminderIsExplained() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let list = try cli.ok("list", "add", "Home")
        let id = try cli.ok("add", "Water plants", "--list", list)
        let legend = "[~] ticked in the app: completes when its undo delay ends, or at the app's next start"
        #expect(!(try cli.ok("show", list)).contains("[~]"))
        do {
            let pool = try AppDatabase.open(path: cli.defaultDatabase.path)
            try pool.write { db in
                // As a tick in the app leaves it (the capture triggers skip
                // a write made as the engine's).
                db.add(function: DatabaseFunction("sync_is_applying", argumentCount: 0, pure: false) { _ in true })
                db.add(function: DatabaseFunction("sync_now", argumentCount: 0, pure: false) { _ in 0 })
                try db.execute(sql: "UPDATE reminders SET status = 'completing' WHERE id = ?", arguments: [id])
            }
            try pool.close()
        }
        for arguments in [["show", list], ["show", "--all"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            let shown = result.stdout
            #expect(shown.contains("[~]  ") && shown.contains("Water plants"), "\(shown)")
            #expect(shown.contains(legend), "\(shown)")
        }
    }

    @Test func humanOutputNeverCarriesTerminalEscapes() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let list = try cli.ok("list", "add", "Shared")
        // Data that came from elsewhere (a shared list) may hold anything.
        do {
            let pool = try AppDatabase.open(path: cli.defaultDatabase.path)
            try pool.write { db in
                // Written as the sync engine writes what it fetched: the
                // change-capture triggers call these functions and skip such writes.
                db.add(function: DatabaseFunction("sync_is_applying", argumentCount: 0, pure: false) { _ in true })
                db.add(function: DatabaseFunction("sync_now", argumentCount: 0, pure: false) { _ in 0 })
                try db.execute(sql: """
                    INSERT INTO reminders (remindersListID, title, notes) VALUES (?, ?, ?)
                    """, arguments: [list, "Evil \u{1B}[31mred\u{1B}[0m \u{202E}txt.exe", "bell\u{7} \u{1B}]0;title\u{7}"])
                try db.execute(sql: "UPDATE remindersLists SET title = ? WHERE id = ?", arguments: ["Sha\u{1B}[2Jred", list])
            }
            try pool.close()
        }
        for arguments in [["show", list], ["show", "--all"], ["lists"], ["search", "evil"], ["search", "title"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E },
                    "\(arguments) printed a control character: \(result.stdout.debugDescription)")
        }
        #expect(try cli.ok("show", list).contains("Evil [31mred[0m txt.exe"))
        // JSON keeps the data as it is, escaped.
        #expect(try cli.ok("show", list, "--json").contains("\\u001b[31m"))
    }

    @Test func optionsAndEnvironmentChooseTheDatabase() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Default")
        #expect(FileManager.default.fileExists(atPath: cli.defaultDatabase.path))

        try cli.ok("list", "add", "Phone", "--user", "alice", "--device", "phone")
        let phone = cli.home.appendingPathComponent("data/reminders/devices/alice-phone.sqlite")
        #expect(FileManager.default.fileExists(atPath: phone.path))

        let custom = cli.home.appendingPathComponent("elsewhere/custom.sqlite").path
        try cli.ok("list", "add", "Custom", "--db", custom)
        let fromEnvironment = try cli.run(["lists", "--json"], environment: ["REMINDERS_DB": custom])
        #expect(fromEnvironment.stdout.contains("Custom") && !fromEnvironment.stdout.contains("Default"))
        let userFromEnvironment = try cli.run(["lists", "--json"], environment: ["REMINDERS_USER": "alice", "REMINDERS_DEVICE": "phone"])
        #expect(userFromEnvironment.stdout.contains("Phone"))
        // An option beats its environment variable.
        let optionWins = try cli.run(["lists", "--json", "--db", cli.defaultDatabase.path], environment: ["REMINDERS_DB": custom])
        #expect(optionWins.stdout.contains("Default"))
    }

    @Test func helpAndVersionSucceed() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let help = try cli.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: reminders") && help.stderr.isEmpty)
        let addHelp = try cli.run(["add", "--help"])
        #expect(addHelp.status == 0 && addHelp.stdout.contains("--priority"))
        #expect(try cli.run(["--version"]).status == 0)
    }

    @Test func clearCompletedByPeriod() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Home")
        let old = try cli.ok("add", "Old", "--list", "Home")
        try cli.run(["complete", old], environment: ["REMINDERS_NOW": "2025-12-01T10:00:00Z"])
        let recent = try cli.ok("add", "Recent", "--list", "Home")
        try cli.ok("complete", recent)
        #expect(try cli.ok("clear-completed", "--older-than", "month") == "Cleared 1 completed reminder older than a month.")
        #expect(try cli.ok("clear-completed", "--list", "Home") == "Cleared 1 completed reminder.")
        #expect(try cli.ok("show", "--completed", "--json") == "[]")
    }
}
