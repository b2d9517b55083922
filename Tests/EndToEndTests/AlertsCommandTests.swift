import Foundation
import Testing
import TestSupport

/// `reminders alerts`: the alerts due now, and the background watcher that
/// raises them, through the built binary.
@Suite("Alerts command, end to end", .serialized)
struct AlertsCommandTests {
    @Test func withoutWatchItListsTheAlertsDueNowAndChangesNothing() throws {
        let cli = try CommandRunner(now: "2026-03-01T10:20:00Z")
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Home")
        // `add` confirms on stderr what it set beyond the title (the lead here).
        let added = try cli.run("add", "Standup", "--list", "Home", "--due", "2026-03-01T10:30", "--alert-before", "15m")
        #expect(added.status == 0, "\(added)")
        let standup = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try cli.ok("add", "Milk", "--list", "Home", "--due", "2026-03-01")
        try cli.ok("add", "Call", "--list", "Home", "--due", "2026-03-01T11:00")
        // An alert counts back from a due date: without one it is refused,
        // and removing the due date removes it.
        let dateless = try cli.run("add", "Someday", "--list", "Home", "--alert-before", "1h")
        #expect(dateless.status == 2 && dateless.errorLine == "an alert counts back from the due date, and the reminder has none: give it a due date too", "\(dateless)")
        #expect(try !cli.ok("show", "Home").contains("Someday"))
        #expect(try cli.run("add", "Dentist", "--list", "Home", "--due", "2026-03-09T10:00", "--alert-before", "1d").status == 0)
        #expect(try cli.ok("edit", "Dentist", "--no-due").hasSuffix("no due date · no alert."))
        try cli.ok("add", "Long ago", "--list", "Home", "--due", "2026-02-20T09:00")

        let lines = [
            "2026-03-01 09:00\tMilk\tHome\tdue 2026-03-01",
            "2026-03-01 10:15\tStandup\tHome\tdue 2026-03-01 10:30",
        ]
        #expect(try cli.ok("alerts") == lines.joined(separator: "\n"))
        // Listing claimed nothing: the same again.
        #expect(try cli.ok("alerts") == lines.joined(separator: "\n"))

        let json = try cli.ok("alerts", "--json")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["title"] as? String } == ["Milk", "Standup"])
        #expect(entries.last?["id"] as? String == standup)
        #expect(entries.last?["alertAt"] as? String == "2026-03-01T10:15:00Z")
        #expect(entries.last?["dueAt"] as? String == "2026-03-01T10:30:00Z")

        let early = try cli.run(["alerts"], environment: ["REMINDERS_NOW": "2026-03-01T08:00:00Z"])
        #expect(early.stdout == "Nothing alerts now; the next comes at 2026-03-01 09:00.\n", "\(early)")
    }

    @Test func mixingTheModesIsBadUsage() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let cases: [([String], String)] = [
            (["alerts", "--watch", "--json"], "--json lists the alerts due now; it does not go with --watch"),
            (["alerts", "--notify-command", "notify-send"], "--notify-command goes with --watch"),
            (["alerts", "--watch", "--notify-command", "say 'unclosed"], "has an unterminated ' quote"),
        ]
        for (arguments, message) in cases {
            let result = try cli.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.errorLine?.contains(message) == true, "\(arguments): \(result)")
        }
    }

    /// The watcher runs with no terminal and a clock that starts six
    /// seconds before 10:15 and runs; a phone (another device on the same
    /// server directory) adds a reminder due 10:30 that alerts 15 minutes
    /// before. The watcher, which syncs like the app, announces it once at
    /// 10:15, on stdout and through the notify command, then a second one
    /// that arrives already due, and ends cleanly on SIGTERM.
    @Test(.timeLimit(.minutes(2)))
    func theWatcherAnnouncesWhatAnotherDeviceAddedOnceAndEndsOnSIGTERM() async throws {
        let cli = try CommandRunner(now: "2026-03-01T10:00:00Z")
        defer { cli.cleanUp() }
        let phone = ["REMINDERS_DEVICE": "phone"]
        func onPhone(_ arguments: String...) throws -> String {
            let result = try cli.run(arguments, environment: phone)
            #expect(result.status == 0, "\(arguments): \(result)")
            return result.stdout
        }
        _ = try onPhone("list", "add", "Work")
        _ = try onPhone("sync")

        let log = cli.home.appendingPathComponent("notified")
        let script = cli.home.appendingPathComponent("notify")
        try Data("#!/bin/sh\nprintf '%s|%s\\n' \"$1\" \"$2\" >> '\(log.path)'\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        func notified() -> [String] {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map(String.init)
        }

        let started = Date()
        let watcher = try cli.start(["alerts", "--watch"], environment: [
            "REMINDERS_NOW": "2026-03-01T10:14:54Z", "REMINDERS_CLOCK": "running",
            "REMINDERS_NOTIFY_COMMAND": script.path,
        ])
        defer { if !watcher.hasEnded { watcher.kill() } }

        _ = try onPhone("add", "Standup", "--list", "Work", "--due", "2026-03-01T10:30", "--alert-before", "15m")
        _ = try onPhone("sync")
        try await eventuallyAsync(timeout: 30, every: 0.05, "the watcher to announce Standup") { !notified().isEmpty }
        // Not before 10:15 on the watcher's clock, six seconds after it started.
        #expect(Date().timeIntervalSince(started) >= 5.9)
        #expect(notified() == ["Standup|2026-03-01 10:30"])

        // Already due when it arrives: announced at once; Standup is not
        // announced again by the round this sync brings.
        _ = try onPhone("add", "Review", "--list", "Work", "--due", "2026-03-01T10:20", "--alert-before", "5m")
        _ = try onPhone("sync")
        try await eventuallyAsync(timeout: 30, every: 0.05, "the watcher to announce Review") { notified().count >= 2 }
        #expect(notified() == ["Standup|2026-03-01 10:30", "Review|2026-03-01 10:20"])

        watcher.signal(SIGTERM)
        try await eventuallyAsync(timeout: 20, every: 0.05, "the watcher to end") { watcher.hasEnded }
        let result = try watcher.wait(timeout: 20)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout == """
            2026-03-01 10:15\tStandup\tWork\tdue 2026-03-01 10:30
            2026-03-01 10:15\tReview\tWork\tdue 2026-03-01 10:20

            """)

        // The device's log says both were shown: the app (or a listing)
        // finds nothing left to raise.
        let after = try cli.run(["alerts"], environment: ["REMINDERS_NOW": "2026-03-01T10:16:00Z"])
        #expect(after.stdout == "Nothing alerts now.\n", "\(after)")
    }
}
