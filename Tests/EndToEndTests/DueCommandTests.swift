import Foundation
import Testing
import TestSupport

/// `reminders due` and the full-screen app's due alerts, through the built
/// binary.
@Suite("Due reminders, end to end", .serialized)
struct DueCommandTests {
    @Test func dueJSONListsPastDueAndUpcomingWithTheirMoments() throws {
        let cli = try CommandRunner(now: "2026-03-01T10:00:00Z")
        defer { cli.cleanUp() }
        let home = try cli.ok("list", "add", "Home")
        let rent = try cli.ok("add", "Pay rent", "--list", "Home", "--due", "2026-02-28T18:00")
        let milk = try cli.ok("add", "Milk", "--list", "Home", "--due", "2026-03-01")
        let call = try cli.ok("add", "Call mom", "--list", "Home", "--due", "2026-03-01T11:30")
        try cli.ok("add", "Tonight", "--list", "Home", "--due", "2026-03-01T20:00")
        try cli.ok("add", "Someday", "--list", "Home")
        let done = try cli.ok("add", "Done", "--list", "Home", "--due", "2026-03-01T09:00")
        try cli.ok("complete", done)

        let json = try cli.ok("due", "--within", "2h", "--json")
        #expect(json == """
            [
              {
                "alertAt" : "2026-02-28T18:00:00Z",
                "dueAt" : "2026-02-28T18:00:00Z",
                "dueDate" : "2026-02-28T18:00",
                "id" : "\(rent)",
                "isPastDue" : true,
                "listID" : "\(home)",
                "listTitle" : "Home",
                "title" : "Pay rent"
              },
              {
                "alertAt" : "2026-03-01T09:00:00Z",
                "dueAt" : "2026-03-01T09:00:00Z",
                "dueDate" : "2026-03-01",
                "id" : "\(milk)",
                "isPastDue" : false,
                "listID" : "\(home)",
                "listTitle" : "Home",
                "title" : "Milk"
              },
              {
                "alertAt" : "2026-03-01T11:30:00Z",
                "dueAt" : "2026-03-01T11:30:00Z",
                "dueDate" : "2026-03-01T11:30",
                "id" : "\(call)",
                "isPastDue" : false,
                "listID" : "\(home)",
                "listTitle" : "Home",
                "title" : "Call mom"
              }
            ]
            """)
        // The due hour moves Milk out of the window; a floating time follows the zone.
        let later = try cli.run("due", "--within", "0m", "--due-hour", "11", "--json")
        #expect(later.status == 0)
        #expect(!later.stdout.contains("Milk"))
        let paris = try cli.run(["due", "--within", "2h", "--json"], environment: ["TZ": "Europe/Paris"])
        #expect(paris.stdout.contains(#""dueAt" : "2026-03-01T09:00:00+01:00""#))
        #expect(paris.stdout.contains(#""dueAt" : "2026-03-01T11:30:00+01:00""#))
    }

    @Test func dueJSONGivesWhenEachReminderAlertsInTheDevicesZone() throws {
        // The night clocks go forward in Paris: 03:30 CEST less an hour is
        // 01:30 CET; a day before 09:00 the next morning is 09:00 CET.
        let cli = try CommandRunner(now: "2026-03-28T20:00:00Z")
        defer { cli.cleanUp() }
        let paris = ["TZ": "Europe/Paris"]
        try cli.ok("list", "add", "Travel")
        for arguments in [["Train", "--due", "2026-03-29T03:30", "--alert-before", "1h"],
                          ["Brunch", "--due", "2026-03-29T09:00", "--alert-before", "1d"],
                          ["Museum", "--due", "2026-03-29", "--alert-before", "none"]] {
            let added = try cli.run(["add"] + arguments + ["--list", "Travel"], environment: paris)
            #expect(added.status == 0, "\(added)")
        }
        let result = try cli.run(["due", "--within", "1d", "--json"], environment: paris)
        #expect(result.status == 0, "\(result)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let moments = entries.map { "\($0["title"] ?? "") \($0["dueAt"] ?? "") \($0["alertAt"] ?? "")" }
        #expect(moments == [
            "Train 2026-03-29T03:30:00+02:00 2026-03-29T01:30:00+01:00",
            "Brunch 2026-03-29T09:00:00+02:00 2026-03-28T09:00:00+01:00",
            "Museum 2026-03-29T09:00:00+02:00 2026-03-29T09:00:00+02:00",
        ])
    }

    /// `TZ` in the forms the C library reads and Foundation does not (a
    /// leading colon, a POSIX rule) gives the same days and moments as the
    /// zone's name: the app reads the local zone from one source.
    @Test func everyFormOfTZGivesTheSameMoments() throws {
        let cli = try CommandRunner(now: "2026-03-28T20:00:00Z")
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Travel")
        for arguments in [["Train", "--due", "2026-03-29T03:30", "--alert-before", "1h"],
                          ["Gap", "--due", "2026-03-29T02:30"],
                          ["Brunch", "--due", "2026-03-29T09:00", "--alert-before", "1d"]] {
            let added = try cli.run(["add"] + arguments + ["--list", "Travel"], environment: ["TZ": "Europe/Paris"])
            #expect(added.status == 0, "\(added)")
        }
        func moments(_ tz: String) throws -> [String] {
            let result = try cli.run(["due", "--within", "1d", "--json"], environment: ["TZ": tz])
            #expect(result.status == 0, "\(result)")
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            let iso = ISO8601DateFormatter()
            return entries.map { entry -> String in
                let instant = { (key: String) in (entry[key] as? String).flatMap(iso.date).map { "\($0.timeIntervalSince1970)" } ?? "?" }
                return "\(entry["title"] ?? "") \(instant("dueAt")) \(instant("alertAt"))"
            }.sorted()
        }
        let named = try moments("Europe/Paris")
        // 02:30 does not exist that night: it reads as 03:30 summer time, 01:30 UTC.
        #expect(named == ["Brunch 1774767600.0 1774684800.0", "Gap 1774747800.0 1774747800.0",
                          "Train 1774747800.0 1774744200.0"])
        #expect(try moments(":Europe/Paris") == named)
        #expect(try moments("CET-1CEST,M3.5.0,M10.5.0/3") == named)
        // And the same text: the offsets shown are the zone's on each day.
        let text = try cli.run(["due", "--within", "1d", "--json"], environment: ["TZ": "Europe/Paris"]).stdout
        #expect(text.contains("+02:00"))
        for tz in [":Europe/Paris", "CET-1CEST,M3.5.0,M10.5.0/3"] {
            #expect(try cli.run(["due", "--within", "1d", "--json"], environment: ["TZ": tz]).stdout == text, "\(tz)")
        }
        // Today is the zone's: 2026-03-28T23:30Z is already the 29th in Paris.
        let late = try CommandRunner(now: "2026-03-28T23:30:00Z")
        defer { late.cleanUp() }
        try late.ok("list", "add", "Home")
        for tz in ["Europe/Paris", ":Europe/Paris", "CET-1CEST,M3.5.0,M10.5.0/3"] {
            let added = try late.run(["add", "Bins \(tz)", "--list", "Home", "--due", "2026-03-29"], environment: ["TZ": tz])
            #expect(added.status == 0, "\(added)")
            let today = try late.run(["show", "--today"], environment: ["TZ": tz])
            #expect(today.stdout.contains("Bins \(tz)"), "\(tz): \(today)")
        }
    }

    @Test func dueForPeopleMarksPastDueFirst() throws {
        let cli = try CommandRunner(now: "2026-03-01T10:00:00Z")
        defer { cli.cleanUp() }
        #expect(try cli.ok("due") == "Nothing due within 1d.")
        try cli.ok("list", "add", "Home")
        try cli.ok("add", "Pay rent", "--list", "Home", "--due", "2026-02-28T18:00")
        try cli.ok("add", "Milk", "--list", "Home", "--due", "2026-03-01")
        try cli.ok("add", "Call mom", "--list", "Home", "--due", "2026-03-01T11:30")
        let lines = try cli.ok("due", "--within", "90m").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 8)
        #expect(lines[0] == "Past due (1)")
        #expect(lines[1].contains("Pay rent") && lines[1].contains("2026-02-28 18:00 past due"))
        #expect(lines[3] == "Due now (1)")
        #expect(lines[4].contains("Milk"))
        #expect(lines[6] == "Due within 1h30m (1)")
        #expect(lines[7].contains("Call mom") && lines[7].contains("2026-03-01 11:30"))
    }

    @Test func badDurationsAndHoursAreBadUsage() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let cases: [([String], [String: String], String)] = [
            (["due", "--within", "soon"], [:], "duration 'soon' has an unknown unit 's'"),
            (["due", "--within", "90"], [:], "duration '90' needs a unit after 90"),
            (["due", "--due-hour", "25"], [:], "due hour '25' must be a whole hour from 0 to 23"),
            (["due"], ["REMINDERS_DUE_HOUR": "noon"], "REMINDERS_DUE_HOUR: due hour 'noon' must be a whole hour"),
            (["tui", "--notify-command", "notify-send 'unclosed"], [:], "notify command 'notify-send 'unclosed' has an unterminated ' quote"),
        ]
        for (arguments, environment, message) in cases {
            let result = try cli.run(arguments, environment: environment)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.errorLine?.contains(message) == true, "\(arguments): \(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// A reminder due three seconds after the app opens raises its toast,
    /// runs the notify command with the title as one argument, and can be
    /// snoozed from the keyboard; the snooze is an ordinary edit.
    @Test(.enabled(if: TmuxServer.isAvailable, "needs tmux"), .timeLimit(.minutes(1)))
    func aReminderDueInAFewSecondsRaisesItsToast() throws {
        var cli = try CommandRunner(now: "2026-03-01T10:29:00Z")
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Home")
        let canary = cli.home.appendingPathComponent("pwned")
        let title = "Pay rent $(touch \(canary.path)); `touch \(canary.path)`"
        let id = try cli.ok("add", title, "--list", "Home", "--due", "2026-03-01T10:30")

        let argv = cli.home.appendingPathComponent("notify-argv")
        let script = cli.home.appendingPathComponent("notify me")
        // Written aside and renamed, so the file appears whole.
        try Data("#!/bin/sh\nprintf '%s\\0' \"$@\" > '\(argv.path).part' && mv '\(argv.path).part' '\(argv.path)'\n".utf8)
            .write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)

        // The app's clock starts three seconds before the reminder is due and runs.
        cli.environment["REMINDERS_NOW"] = "2026-03-01T10:29:57Z"
        cli.environment["REMINDERS_CLOCK"] = "running"
        cli.environment["REMINDERS_NOTIFY_COMMAND"] = "'\(script.path)' --app reminders"
        let session = try TmuxSession([cli.binary.path, "tui", "--no-mouse"], environment: cli.environment, in: cli.home)
        defer { session.stop() }
        let before = try session.waitFor("SMART LISTS")
        #expect(!before.contains("DUE NOW"))
        #expect(!before.contains("Due: “Pay rent"))

        let screen = try session.waitFor("Due: “Pay rent", timeout: 15)
        #expect(screen.contains("! done, open, snooze"))
        #expect(screen.contains("DUE NOW"))

        // The notify command got the title as one argument, and ran nothing.
        try eventually(timeout: 5, every: 0.05, "the notify command to run") { FileManager.default.fileExists(atPath: argv.path) }
        let arguments = String(decoding: try Data(contentsOf: argv), as: UTF8.self).split(separator: "\0").map(String.init)
        #expect(arguments == ["--app", "reminders", title, "2026-03-01 10:30"])
        #expect(!FileManager.default.fileExists(atPath: canary.path))

        // Snooze ten minutes from the alerts box, then quit.
        try session.send("!")
        try session.waitFor("s +10m")
        try session.send("s")
        try session.waitFor("until 10:40")
        // q closes the box, then quits (Escape then q would be read as Alt-q).
        try session.send("q")
        try eventually(timeout: 5, every: 0.1, "the alerts box to close") { try !session.capture().contains("s +10m") }
        try session.send("q")
        try eventually(timeout: 10, every: 0.1, "the app to quit") { !session.isRunning }

        cli.environment["REMINDERS_CLOCK"] = nil
        let export = try cli.ok("export", "--json")
        #expect(export.contains(#""dueDate" : "2026-03-01T10:40""#))
        #expect(export.contains(id))
    }
}
