import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport

/// What a person or another device could feed the command line: it refuses
/// what users may not type, prints what is in the database without letting
/// it reach the terminal as control characters, escapes it in JSON, and
/// never crashes.
@Suite("Hostile input", .serialized)
struct HostileInputTests {
    @Test func theCommandLineRefusesControlCharactersImpossibleDatesAndBadNames() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let list = try fleet.ok("a", "list", "add", "Home")
        let reminder = try fleet.ok("a", "add", "Milk", "--list", list)
        let before = try fleet.exportText("a")
        let refused: [[String]] = [
            ["add", "\u{1B}[31mred", "--list", list],
            ["add", "bell\u{7}", "--list", list],
            ["add", "c1 \u{9B}2J", "--list", list],
            ["add", "ok", "--list", list, "--notes", "a\u{1B}[2Jb"],
            ["add", "ok", "--list", list, "--notes", "\u{1B}]0;title\u{7}"],
            ["add", "ok", "--list", list, "--tag", "t\u{7}"],
            ["add", "ok", "--list", list, "--tag", "\u{1B}[1mbold"],
            ["add", String(repeating: "x", count: 1_001), "--list", list],
            ["list", "add", "\u{9B}x"],
            ["list", "add", "ok", "--color", "\u{1B}[31m"],
            ["edit", reminder, "--title", "\u{1B}]0;x\u{7}"],
            ["edit", reminder, "--tags", "a,\u{1B}b"],
            ["share", list, "--with", "evil\u{1B}[2J"],
            ["show", "--all", "--user", "../../etc"],
            ["show", "--all", "--device", "a/b"],
            ["show", "--tag", "\u{1B}x"],
        ] + ["0000-01-01", "10000-01-01", "2026-13-01", "1899-12-31", "2026-02-29", "2026-01-01T24:00", "2026-01-01T12:60",
             "-001-01-01", "２０２６-０１-０１", "9999-12-31T23:59:59", "in 9999 years", "in 99999999999999999999 days",
             "fri \u{1B}[2J"].map { ["add", "ok", "--list", list, "--due", $0] }
        for arguments in refused {
            let result = try fleet.run("a", arguments)
            #expect(result.status == 2, "\(arguments.map { $0.debugDescription }): \(result)")
            #expect(result.errorLine != nil, "not one line: \(result)")
            #expect(!Self.hasControlCharacters(result.stderr, allowingNewLines: true), "\(arguments): \(result.stderr.debugDescription)")
        }
        #expect(try fleet.exportText("a") == before, "a refused command wrote something")
        // The boundaries that are allowed.
        try fleet.ok("a", "add", "Edge", "--list", list, "--due", "9999-12-31T23:59")
        try fleet.ok("a", "add", "Edge", "--list", list, "--due", "1900-01-01")
        try fleet.ok("a", "add", String(repeating: "x", count: 1_000), "--list", list)
        #expect(try fleet.run("a", ["add", "Short form", "--list", list, "--due", "2026-1-1"]).status == 0)
    }

    @Test func rightToLeftCombiningAndWideTextRoundTripsThroughSyncUnchanged() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let texts = [
            "עברית ومرحبا", "e\u{301} and é (composed and not)", "Z\u{301}\u{302}\u{303}\u{304}\u{305}algo",
            "漢字かなカナ", "👨‍👩‍👧‍👦 family 🏳️‍🌈", "Ⅻ ﬁ ǅ Å Å", "\u{200D}zero width joiner", "tab\there",
        ]
        let list = try fleet.ok("a", "list", "add", texts[0])
        for (index, text) in texts.enumerated() {
            let title = text.replacingOccurrences(of: "\t", with: " ")
            try fleet.ok("a", "add", title, "--list", list, "--notes", text + "\n" + text, "--tag", "tag\(index) \(texts[index % 4])")
        }
        // 100 KB of notes (an argument holds no more than 128 KB).
        let long = String(repeating: "ملاحظة طويلة ", count: 4_000)
        try fleet.ok("a", "add", "Long notes", "--list", list, "--notes", long)
        try fleet.syncUntilQuiet([("a", "me"), ("b", "me")])
        let a = try fleet.exportText("a")
        #expect(a == (try fleet.exportText("b")))
        let dump = try JSONDecoder().decode(ExportDump.self, from: Data(a.utf8))
        for text in texts {
            #expect(dump.reminders.contains { $0.notes.unicodeScalars.elementsEqual((text + "\n" + text).unicodeScalars) },
                    "\(text.debugDescription) did not arrive unchanged")
        }
        #expect(dump.reminders.contains { $0.notes == long })
        let shown = try fleet.run("b", ["show", list])
        #expect(shown.status == 0 && !Self.hasControlCharacters(shown.stdout, allowingNewLines: true))
    }

    /// Rows written straight into the database (as a buggy or malicious
    /// device's sync could leave them), then synced to a second device.
    @Test func hostileDataInTheDatabaseIsPrintedSafelyAndSyncsWithoutHarm() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let list = try fleet.ok("a", "list", "add", "Home")
        try fleet.sync("a")
        let hostile = [
            "\u{1B}[31mred\u{1B}[0m \u{1B}]0;window title\u{7} \u{1B}[2J\u{1B}[H cleared",
            "\u{9B}31m C1 \u{9D}0;osc\u{9C} \u{85}next",
            "\u{202E}gnp.exe\u{202C} \u{2066}isolate\u{2069}",
            "del\u{7F} bs\u{8}\u{8} nul\u{0}after",
        ]
        // Through the app's configuration: the search index's triggers call
        // `reminders_fold`, which it registers.
        let queue = try DatabaseQueue(path: fleet.databaseURL("a").path, configuration: AppDatabase.configuration())
        // The engine's trigger functions, as a sync of another device's
        // edits would run them: captured as pending, so they sync.
        queue.inDatabase { db in
            db.add(function: DatabaseFunction("sync_is_applying", argumentCount: 0, pure: false) { _ in false })
            db.add(function: DatabaseFunction("sync_now", argumentCount: 0, pure: false) { _ in Int64(Date().timeIntervalSince1970 * 1000) })
        }
        try queue.write { db in
            for (index, text) in hostile.enumerated() {
                try db.execute(sql: "INSERT INTO reminders (id, remindersListID, title, notes, dueDate, position) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: ["hostile-\(index)", list, text, text + "\n" + text, ["0000-00-00", "abcdefghij", "9999-99-99T99:99", nil][index], index])
                try db.execute(sql: "INSERT INTO tags (id, title) VALUES (?, ?)", arguments: [TagKey.of(text), text])
                try db.execute(sql: "INSERT INTO remindersTags (reminderID, tagID) VALUES (?, ?)", arguments: ["hostile-\(index)", TagKey.of(text)])
            }
            // A plain tag on a hostile reminder, for `show --tag red`.
            try db.execute(sql: "INSERT INTO tags (id, title) VALUES (?, 'red')", arguments: [TagKey.of("red")])
            try db.execute(sql: "INSERT INTO remindersTags (reminderID, tagID) VALUES ('hostile-0', ?)", arguments: [TagKey.of("red")])
            try db.execute(sql: """
                INSERT INTO reminders (id, remindersListID, title, notes) VALUES
                  ('hostile-bytes', ?, CAST(X'1b5d303b78079b324aff41' AS TEXT), CAST(X'c0afe080af0a1b5b324aedb080' AS TEXT))
                """, arguments: [list])
            try db.execute(sql: "INSERT INTO reminders (id, remindersListID, title, notes) VALUES ('hostile-huge', ?, ?, ?)",
                           arguments: [list, String(repeating: "\u{1B}[5m", count: 20_000),
                                       String(repeating: "\u{1B}[2J line\n", count: 100_000)])
            try db.execute(sql: "UPDATE remindersLists SET title = ? WHERE id = ?", arguments: [hostile[0], list])
        }
        try queue.close()

        for device in ["a", "b"] {
            if device == "b" { try fleet.syncUntilQuiet([("a", "me"), ("b", "me")]) }
            let commands: [[String]] = [
                ["show", "--all"], ["show", list], ["show", "--all", "--sort", "title"], ["show", "--all", "--sort", "due"],
                ["show", "--tag", "red"], ["show", "--scheduled"], ["show", "--today"], ["lists"], ["tags"], ["search", "red"],
                ["search", "gnp"], ["conflicts"], ["status"], ["edit", "hostile-0", "--priority", "high"], ["complete", "hostile-1"],
            ]
            for arguments in commands {
                let result = try fleet.run(device, arguments)
                #expect(result.status == 0 && result.stderr.isEmpty, "\(device) \(arguments): \(result.status) \(result.stderr)")
                #expect(!Self.hasControlCharacters(result.stdout, allowingNewLines: true),
                        "\(device) \(arguments) printed control characters: \(result.stdout.prefix(300).debugDescription)")
            }
            for arguments in [["export", "--json"], ["show", "--all", "--json"], ["search", "red", "--json"], ["lists", "--json"], ["tags", "--json"]] {
                let result = try fleet.run(device, arguments)
                #expect(result.status == 0, "\(device) \(arguments): \(result.stderr)")
                #expect(!Self.hasControlCharacters(result.stdout, allowingNewLines: true), "\(device) \(arguments): raw control characters in JSON")
                #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) != nil, "\(device) \(arguments): not JSON")
            }
            // A title that does not match is named safely in the error.
            let missing = try fleet.run(device, ["edit", "\u{1B}[2Jnothing", "--flag"])
            #expect(missing.status == 2 && !Self.hasControlCharacters(missing.stderr, allowingNewLines: true))
        }
        // Both devices agree; what no calendar has reads as no due date.
        let a = try fleet.export("a")
        #expect(try fleet.exportText("a") == fleet.exportText("b"))
        #expect(a.reminders.filter { $0.id.hasPrefix("hostile") }.count == 6)
        #expect(a.reminders.allSatisfy { $0.dueDate == nil })
        #expect(a.reminders.first { $0.id == "hostile-0" }?.title == hostile[0], "JSON keeps the text as it is, escaped")
        // And the user can clean it up.
        try fleet.ok("b", "edit", "hostile-0", "--title", "Clean")
        try fleet.ok("b", "delete", "hostile-huge")
        try fleet.syncUntilQuiet([("b", "me"), ("a", "me")])
        #expect(try fleet.export("a").reminders.first { $0.id == "hostile-0" }?.title == "Clean")
    }

    static func hasControlCharacters(_ text: String, allowingNewLines: Bool) -> Bool {
        text.unicodeScalars.contains { scalar in
            if allowingNewLines && scalar == "\n" { return false }
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
    }
}
