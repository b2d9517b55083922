import Foundation
import Testing
import TestSupport

/// Repeats, subtasks and early alerts through the built binary: two
/// devices of one user on one server directory, and a device and a server
/// written by the release before them. The clock: Friday 20 November 2026.
@Suite("Repeats, subtasks and early alerts, end to end")
struct RepeatsAndSubtasksTests {
    static let now = "2026-11-20T10:00:00Z"
    let laptop = ["REMINDERS_DEVICE": "laptop"]
    let desktop = ["REMINDERS_DEVICE": "desktop"]

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    func ok(_ runner: CommandRunner, _ device: [String: String], _ arguments: String...) throws -> String {
        let result = try runner.run(arguments, environment: device)
        #expect(result.status == 0, "reminders \(arguments.joined(separator: " ")): \(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The reminders of `export --json`, by id.
    func reminders(_ runner: CommandRunner, _ device: [String: String]) throws -> [String: [String: Any]] {
        let export = try #require(try json(ok(runner, device, "export", "--json")) as? [String: Any])
        let rows = try #require(export["reminders"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? String ?? "", $0) })
    }

    /// Monday's mowing done early, on Saturday: the series is due the
    /// Monday after, not the Monday the Saturday stood for. And the
    /// desktop, which had not seen it, moving that Monday to Tuesday is a
    /// move of an occurrence done: both devices end due the Monday after.
    @Test func aChoreDoneEarlyIsDueTheWeekAfterOnEveryDevice() throws {
        let runner = try CommandRunner(now: Self.now)
        defer { runner.cleanUp() }
        _ = try ok(runner, laptop, "list", "add", "Home")
        let mow = try ok(runner, laptop, "add", "Mow lawn every monday")
        _ = try ok(runner, laptop, "sync")
        _ = try ok(runner, desktop, "sync")
        #expect(try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-11-21")
                .hasSuffix("due Sat 2026-11-21 (moved from Mon 2026-11-23; the series stays)."))
        // Back to Monday, and on: the confirmation says which kind of edit it was.
        #expect(try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-11-23").hasSuffix("due Mon 2026-11-23 (back on its schedule)."))
        // Put off past the next Monday, or three: the ones passed over are named.
        #expect(try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-12-01")
                .hasSuffix("due Tue 2026-12-01 (moved from Mon 2026-11-23; the series stays, and skips Mon 2026-11-30)."))
        #expect(try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-12-15").hasSuffix(
            "due Tue 2026-12-15 (moved from Mon 2026-11-23; the series stays, and skips 3 occurrences, Mon 2026-11-30 to Mon 2026-12-14)."))
        _ = try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-11-23")
        // A rule whose days the due date is not on: the due date is the
        // first, and the confirmation says when the series goes on.
        _ = try ok(runner, laptop, "add", "Bins", "--due", "2026-11-23")
        #expect(try ok(runner, laptop, "edit", "Bins", "--repeat", "every friday")
                .hasSuffix("↻ Weekly on Fri (then Fri 2026-11-27)."))
        #expect(try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-11-23 10:00")
                .hasSuffix("due Mon 2026-11-23 10:00 (the series' time from now on)."))
        #expect(try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-11-23").hasSuffix("due Mon 2026-11-23 (the series' time from now on)."))
        // Moved, then a new time on the occurrence's own day: the series' time.
        _ = try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-11-21")
        #expect(try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-11-23 08:00")
                .hasSuffix("due Mon 2026-11-23 08:00 (the series' time from now on)."))
        _ = try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-11-23")
        _ = try ok(runner, laptop, "edit", "Mow lawn", "--due", "2026-11-21")
        let moved = try #require(try json(ok(runner, laptop, "show", "Home", "--json")) as? [[String: Any]])
        let row = try #require(moved.first { $0["id"] as? String == mow })
        #expect(row["dueDate"] as? String == "2026-11-21")
        #expect(row["occurrence"] as? String == "2026-11-23")
        #expect(row["nextOccurrences"] as? [String] == ["2026-11-30", "2026-12-07", "2026-12-14"])
        #expect(try ok(runner, laptop, "complete", "Mow lawn").contains("next due Mon 2026-11-30"))
        _ = try ok(runner, desktop, "edit", "Mow lawn", "--due", "2026-11-24")
        for _ in 0..<2 {
            _ = try ok(runner, laptop, "sync")
            _ = try ok(runner, desktop, "sync")
        }
        #expect(try ok(runner, laptop, "export", "--json") == (try ok(runner, desktop, "export", "--json")))
        let rows = try reminders(runner, desktop)
        let series = try #require(rows[mow])
        #expect(series["dueDate"] as? String == "2026-11-30")
        #expect(series["occurrence"] is NSNull)
        let copies = rows.values.filter { $0["repeatOf"] as? String == mow }
        #expect(copies.count == 1)
        #expect(copies.first?["dueDate"] as? String == "2026-11-21")
        #expect(copies.first?["occurrence"] as? String == "2026-11-23")
    }

    @Test func bothDevicesCompletingTheSameOccurrenceEndWithOneCopy() throws {
        let runner = try CommandRunner(now: Self.now)
        defer { runner.cleanUp() }
        _ = try ok(runner, laptop, "list", "add", "Home")
        let bins = try ok(runner, laptop, "add", "Bins", "--due", "2026-11-23 19:00", "--repeat", "every week on mon",
                          "--alert-before", "1h")
        _ = try ok(runner, laptop, "sync")
        _ = try ok(runner, desktop, "sync")
        // Both complete Monday's bins while apart, then sync.
        #expect(try ok(runner, laptop, "complete", "Bins").contains("next due Mon 2026-11-30 19:00"))
        _ = try ok(runner, desktop, "complete", bins)
        // A series' last occurrence says it was the last.
        _ = try ok(runner, laptop, "add", "Vitamins", "--due", "2026-11-23", "--repeat-rule", "FREQ=DAILY;COUNT=1")
        #expect(try ok(runner, laptop, "complete", "Vitamins").hasSuffix(": the last of its repeats."))
        for _ in 0..<2 {
            _ = try ok(runner, laptop, "sync")
            _ = try ok(runner, desktop, "sync")
        }
        let a = try reminders(runner, laptop)
        #expect(try ok(runner, laptop, "export", "--json") == (try ok(runner, desktop, "export", "--json")))
        let series = try #require(a[bins])
        #expect(series["dueDate"] as? String == "2026-11-30T19:00")
        #expect(series["repeatRule"] as? String == "FREQ=WEEKLY;BYDAY=MO")
        #expect(series["alertBefore"] as? Int == 3600)
        #expect(series["status"] as? String == "incomplete")
        let copies = a.values.filter { $0["repeatOf"] as? String == bins }
        #expect(copies.count == 1)
        #expect(copies.first?["dueDate"] as? String == "2026-11-23T19:00")
        #expect(copies.first?["status"] as? String == "completed")
        // show --json carries the next three occurrences.
        let shown = try #require(try json(ok(runner, laptop, "show", "Home", "--json")) as? [[String: Any]])
        let row = try #require(shown.first { $0["id"] as? String == bins })
        #expect(row["nextOccurrences"] as? [String] == ["2026-12-07T19:00", "2026-12-14T19:00", "2026-12-21T19:00"])
        // Reopening the copy takes that completion back, and says so; the
        // series has nothing more to take back then.
        let copy = try #require(copies.first?["id"] as? String)
        #expect(try ok(runner, laptop, "uncomplete", copy)
                == "Took back the last completion of “Bins” (\(bins.prefix(8))): due Mon 2026-11-23 19:00 again.")
        #expect(try ok(runner, laptop, "uncomplete", bins).hasPrefix("Already open “Bins”"))
    }

    @Test func aSubtaskMadeOnOneDeviceShowsUnderItsParentOnTheOther() throws {
        let runner = try CommandRunner(now: Self.now)
        defer { runner.cleanUp() }
        _ = try ok(runner, laptop, "list", "add", "Home")
        _ = try ok(runner, laptop, "list", "add", "Garden")
        let trip = try ok(runner, laptop, "add", "Trip", "--list", "Home")
        let passport = try ok(runner, laptop, "add", "Passport", "--parent", "Trip")
        _ = try ok(runner, laptop, "sync")
        _ = try ok(runner, desktop, "sync")
        let table = try ok(runner, desktop, "show", "Home")
        #expect(table.contains("Trip [0/1]"), "\(table)")
        #expect(table.contains("↳ Passport"), "\(table)")
        // Moving the parent moves its subtask; the other device follows.
        _ = try ok(runner, desktop, "edit", "Trip", "--list", "Garden")
        _ = try ok(runner, desktop, "sync")
        _ = try ok(runner, laptop, "sync")
        let a = try reminders(runner, laptop)
        #expect(a[passport]?["parentID"] as? String == trip)
        #expect(a[passport]?["listID"] as? String == a[trip]?["listID"] as? String)
        // Completing the parent leaves its open subtask, and says so.
        let completed = try runner.run(["complete", "Trip"], environment: laptop)
        #expect(completed.status == 0)
        #expect(completed.stderr.contains("its 1 subtask is still open; `complete --subtasks` completes them too"))
        _ = try ok(runner, laptop, "uncomplete", "Trip")
        _ = try ok(runner, laptop, "complete", "Trip", "--subtasks")
        #expect(try reminders(runner, laptop)[passport]?["status"] as? String == "completed")
        // Deleting the parent deletes its subtask everywhere.
        _ = try ok(runner, laptop, "delete", "Trip")
        _ = try ok(runner, laptop, "sync")
        _ = try ok(runner, desktop, "sync")
        #expect(try reminders(runner, desktop)[passport] == nil)
    }

    @Test func badRulesAndNestingAreRefusedWithOneLineAndNothingWritten() throws {
        let runner = try CommandRunner(now: Self.now)
        defer { runner.cleanUp() }
        _ = try ok(runner, laptop, "list", "add", "Home")
        _ = try ok(runner, laptop, "add", "Trip")
        _ = try ok(runner, laptop, "add", "Passport", "--parent", "Trip")
        let before = try ok(runner, laptop, "export", "--json")
        let cases: [[String]] = [
            ["add", "Bins", "--repeat", "every fortnight"],
            ["add", "Bins", "--repeat-rule", "FREQ=HOURLY"],
            ["add", "Bins", "--repeat", "daily", "--repeat-rule", "FREQ=DAILY"],
            ["add", "Bins", "--alert-before", "soon"],
            ["add", "Bins", "--no-repeat"],
            ["add", "Visa", "--parent", "Passport"],
            ["edit", "Trip", "--parent", "Passport"],
            ["edit", "Trip", "--parent", "Trip"],
            ["edit", "Trip", "--parent", "Passport", "--no-parent"],
        ]
        for arguments in cases {
            let result = try runner.run(arguments, environment: laptop)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.split(separator: "\n").count <= 3, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result)")
        }
        #expect(try ok(runner, laptop, "export", "--json") == before)
    }

    /// A device database and a server directory written by the release
    /// before these fields (Tests/Fixtures/before-repeats) open, migrate
    /// and sync: old records read as no repeat, no parent, no early alert.
    @Test func aDeviceAndAServerFromTheReleaseBeforeUpgradeAndSync() throws {
        let runner = try CommandRunner(now: Self.now)
        defer { runner.cleanUp() }
        let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/before-repeats")
        for name in ["server", "laptop.sqlite", "bob.sqlite"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: runner.home.appendingPathComponent(name))
        }
        let server = runner.home.appendingPathComponent("server").path
        let me = ["REMINDERS_SERVER": server, "REMINDERS_DEVICE": "laptop",
                  "REMINDERS_DB": runner.home.appendingPathComponent("laptop.sqlite").path]
        let bob = ["REMINDERS_SERVER": server, "REMINDERS_USER": "bob", "REMINDERS_DEVICE": "phone",
                   "REMINDERS_DB": runner.home.appendingPathComponent("bob.sqlite").path]
        let status = try ok(runner, me, "status")
        #expect(status.contains("Pending: 1 save,"), "the edit the old release had not sent is still pending: \(status)")
        let sent = try ok(runner, me, "sync")
        #expect(sent.hasPrefix("Sent 1 save and"), "the upgrade re-sent more than the pending edit: \(sent)")
        for (id, row) in try reminders(runner, me) {
            #expect(row["repeatRule"] is NSNull && row["parentID"] is NSNull && row["alertBefore"] is NSNull
                    && row["repeatOf"] is NSNull && row["occurrence"] is NSNull, "\(id): \(row)")
        }
        // The new fields travel to the old-release device of another user
        // through the shared list, after it too upgrades.
        let milk = try ok(runner, me, "add", "Milk run", "--list", "Groceries", "--repeat", "weekly", "--alert-before", "15m")
        _ = try ok(runner, me, "sync")
        _ = try ok(runner, bob, "sync")
        let bobs = try reminders(runner, bob)
        #expect(bobs[milk]?["repeatRule"] as? String == "FREQ=WEEKLY")
        #expect(bobs[milk]?["alertBefore"] as? Int == 900)
        #expect(bobs.values.contains { $0["title"] as? String == "Oat milk" })
    }
}
