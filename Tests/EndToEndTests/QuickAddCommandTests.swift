import Foundation
import Testing
import TestSupport

/// `reminders add` reading a quick-add line and natural due dates, through
/// the built binary. The clock: Wednesday 25 November 2026, 10:17 UTC.
@Suite("Quick add and natural dates, end to end", .serialized)
struct QuickAddCommandTests {
    static let now = "2026-11-25T10:17:30Z"

    func cli() throws -> CommandRunner {
        let cli = try CommandRunner(now: Self.now)
        try cli.ok("list", "add", "Home")
        try cli.ok("list", "add", "Work")
        return cli
    }

    /// The reminders as `export --json` has them, by title.
    func reminders(_ cli: CommandRunner) throws -> [String: [String: Any]] {
        let export = try #require(try JSONSerialization.jsonObject(with: Data(cli.ok("export", "--json").utf8)) as? [String: Any])
        let rows = try #require(export["reminders"] as? [[String: Any]])
        return Dictionary(rows.map { ($0["title"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    func listID(_ cli: CommandRunner, _ title: String) throws -> String {
        let lists = try #require(try JSONSerialization.jsonObject(with: Data(cli.ok("lists", "--json").utf8)) as? [[String: Any]])
        return try #require(lists.first { $0["title"] as? String == title }?["id"] as? String)
    }

    @Test func theTextIsReadAndWhatWasReadIsSaid() throws {
        let cli = try cli()
        defer { cli.cleanUp() }
        let result = try cli.run("add", "Pay rent tomorrow 9am #bills !! ^home *")
        #expect(result.status == 0)
        #expect(result.stderr == "Added “Pay rent” to Home · due Thu 2026-11-26 09:00 · !! medium · #bills · flagged\n")
        // Standard output stays the id alone, for scripts.
        let id = result.stdout.trimmingCharacters(in: .newlines)
        #expect(UUID(uuidString: id) != nil)
        let rent = try #require(try reminders(cli)["Pay rent"])
        #expect(rent["id"] as? String == id)
        // A subtask says whose.
        let receipt = try cli.run("add", "Keep the receipt", "--parent", id)
        #expect(receipt.status == 0 && receipt.stderr == "Added “Keep the receipt” to Home, under “Pay rent”\n", "\(receipt)")
        #expect(rent["listID"] as? String == (try listID(cli, "Home")))
        #expect(rent["dueDate"] as? String == "2026-11-26T09:00")
        #expect(rent["priority"] as? String == "medium")
        #expect(rent["isFlagged"] as? Bool == true)
        #expect(rent["tags"] as? [String] == ["bills"])
    }

    /// A repeat in the text: the rule, due on its first day.
    @Test func aRepeatInTheTextIsRead() throws {
        let cli = try cli()
        defer { cli.cleanUp() }
        let result = try cli.run("add", "Mow lawn every monday ^Home")
        #expect(result.status == 0)
        #expect(result.stderr == "Added “Mow lawn” to Home · due Mon 2026-11-30 · ↻ Weekly on Mon\n")
        let mow = try #require(try reminders(cli)["Mow lawn"])
        #expect(mow["dueDate"] as? String == "2026-11-30")
        // With --repeat the option gives the repeat, and the text's words are title.
        let standup = try cli.run("add", "Daily standup notes daily", "--repeat", "every weekday", "--list", "Home")
        #expect(standup.stderr == "Added “Daily standup notes daily” to Home · due Wed 2026-11-25 · ↻ Every weekday\n", "\(standup)")
        // A time at the end of --repeat is the due date's: on the rule's first
        // day, or on the day --due gives; with a time of its own, a mistake.
        let gym = try cli.run("add", "Gym", "--repeat", "every friday at 7pm", "--list", "Home")
        #expect(gym.stderr == "Added “Gym” to Home · due Fri 2026-11-27 19:00 · ↻ Weekly on Fri\n", "\(gym)")
        let bins = try cli.run("add", "Bins", "--due", "mon", "--repeat", "weekly at 7", "--list", "Home")
        #expect(bins.stderr == "Added “Bins” to Home · due Mon 2026-11-30 07:00 · ↻ Weekly\n", "\(bins)")
        let both = try cli.run("add", "Bins", "--due", "mon 8am", "--repeat", "weekly at 7pm", "--list", "Home")
        #expect(both.status != 0 && both.stderr == "reminders: --repeat says 19:00 and the due date says 08:00: keep one time\n", "\(both)")
        let wrong = try cli.run("add", "Bins", "--repeat", "weekly at teatime", "--list", "Home")
        #expect(wrong.status != 0 && wrong.stderr.contains("'at' is not understood"), "\(wrong)")
        // A due date already past is said so: given by mistake more often than not.
        let past = try cli.run("add", "Meet this morning", "--list", "Home")
        #expect(past.stderr == "Added “Meet” to Home · due Wed 2026-11-25 09:00 (past)\n", "\(past)")
        let today = try cli.run("add", "Call today", "--list", "Home")
        #expect(today.stderr == "Added “Call” to Home · due Wed 2026-11-25\n", "\(today)")
        // A monthly repeat from the 29th on skips the months without that day, as iCalendar has it: said so.
        let bill = try cli.run("add", "Bill", "--due", "2027-01-31", "--repeat", "monthly", "--list", "Home")
        #expect(bill.stderr == "Added “Bill” to Home · due Sun 2027-01-31 · ↻ Monthly (skips months without a 31st; "
                + "'every month on the last day' for month ends)\n", "\(bill)")
        let leap = try cli.run("add", "Leap", "--due", "2028-02-29", "--repeat", "yearly", "--list", "Home")
        #expect(leap.stderr == "Added “Leap” to Home · due Tue 2028-02-29 · ↻ Yearly (in leap years only)\n", "\(leap)")
        let moved = try cli.run("edit", "Gym", "--repeat", "every thursday at 18:00")
        #expect(moved.stderr == "", "\(moved)")
        #expect(moved.stdout.contains("due Fri 2026-11-27 18:00 · ↻ Weekly on Thu"), "\(moved)")
        let undated = try cli.run("edit", "Gym", "--no-due", "--repeat", "every fri at 9")
        #expect(undated.status != 0 && undated.stderr == "reminders: --no-due and a time in --repeat: keep one\n", "\(undated)")
    }

    @Test func optionsWinOverTheText() throws {
        let cli = try cli()
        defer { cli.cleanUp() }
        let result = try cli.run("add", "Pay rent fri ! ^Home", "--list", "Work", "--due", "2026-12-24",
                                 "--priority", "high", "--tag", "money")
        #expect(result.status == 0)
        // With --due, the text's date is title; its other marks give way.
        #expect(result.stderr == "Added “Pay rent fri” to Work · due Thu 2026-12-24 · !!! high · #money\n")
        let rent = try #require(try reminders(cli)["Pay rent fri"])
        #expect(rent["listID"] as? String == (try listID(cli, "Work")))
        #expect(rent["dueDate"] as? String == "2026-12-24")
        #expect(rent["priority"] as? String == "high")
    }

    @Test func literalKeepsTheTextAndPlainTitlesStayQuiet() throws {
        let cli = try cli()
        defer { cli.cleanUp() }
        try cli.ok("add", "Pay rent fri #bills !!", "--literal", "--list", "Home")
        try cli.ok("add", "Plant tomatoes", "--list", "Home", "--due", "2026-12-01T09:00")
        let all = try reminders(cli)
        #expect(all["Pay rent fri #bills !!"]?["dueDate"] is NSNull)
        #expect(all["Pay rent fri #bills !!"]?["tags"] as? [String] == [])
        #expect(all["Plant tomatoes"]?["dueDate"] as? String == "2026-12-01T09:00")
    }

    @Test func naturalDueDatesAndTheListThatWasChosenAreSaid() throws {
        let cli = try cli()
        defer { cli.cleanUp() }
        let result = try cli.run("add", "Call the plumber", "--due", "next mon 14:30")
        #expect(result.status == 0)
        #expect(result.stderr == "Added “Call the plumber” to Home · due Mon 2026-11-30 14:30\n")
        #expect(try reminders(cli)["Call the plumber"]?["dueDate"] as? String == "2026-11-30T14:30")
        #expect(try cli.run("add", "Stretch in 2h", "--list", "Work").stderr == "Added “Stretch” to Work · due Wed 2026-11-25 12:17\n")
    }

    @Test func numericDatesFollowTheLocaleOfTheEnvironment() throws {
        let cli = try cli()
        defer { cli.cleanUp() }
        let us = try cli.run(["add", "Tickets", "--list", "Home", "--due", "3/14"], environment: ["LANG": "en_US.UTF-8"])
        #expect(us.status == 0)
        #expect(try reminders(cli)["Tickets"]?["dueDate"] as? String == "2027-03-14")
        let uk = try cli.run(["add", "Visa", "--list", "Home", "--due", "3/14"], environment: ["LC_ALL": "en_GB.UTF-8"])
        #expect(uk.status == 2)
        #expect(uk.stderr == "reminders: --due: 3/14: there is no month 14 (dates with / are day/month here, e.g. 26/11)\n")
        #expect(try reminders(cli)["Visa"] == nil)
    }

    @Test func editSaysTheDateItSet() throws {
        let cli = try cli()
        defer { cli.cleanUp() }
        let id = try cli.ok("add", "Plant tomatoes", "--list", "Home")
        #expect(try cli.ok("edit", id, "--due", "fri 9am") == "Updated “Plant tomatoes” (\(id.prefix(8))): due Fri 2026-11-27 09:00.")
        #expect(try cli.ok("edit", id, "--no-due") == "Updated “Plant tomatoes” (\(id.prefix(8))): no due date.")
        let bad = try cli.run("edit", id, "--due", "someday")
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("reminders: --due: 'someday' is not a date or time (e.g. tomorrow 9am"))
    }

    /// The line names what changed, read from the reminder before and
    /// after: what the store changed along with the options too, and
    /// nothing when nothing did.
    @Test func editSaysWhatItChanged() throws {
        let cli = try cli()
        defer { cli.cleanUp() }
        let id = try cli.ok("add", "Milk", "--list", "Home")
        let short = id.prefix(8)
        #expect(try cli.ok("edit", id, "--notes", "oat") == "Updated “Milk” (\(short)): notes updated.")
        #expect(try cli.ok("edit", id, "--notes", "oat") == "Unchanged “Milk” (\(short)): it already was so.")
        #expect(try cli.ok("edit", id, "--priority", "high", "--flag", "--tags", "fridge,dairy")
                == "Updated “Milk” (\(short)): !!! high · #dairy #fridge · flagged.")
        #expect(try cli.ok("edit", id, "--due", "2026-12-01", "--repeat", "weekly", "--alert-before", "15m")
                == "Updated “Milk” (\(short)): due Tue 2026-12-01 · ↻ Weekly · alert 15 minutes before.")
        // A repeat and an alert end with the due date they count from.
        #expect(try cli.ok("edit", id, "--no-due") == "Updated “Milk” (\(short)): no due date · no repeat · no alert.")
        #expect(try cli.ok("edit", id, "--notes", "", "--unflag", "--priority", "none", "--tags", "")
                == "Updated “Milk” (\(short)): notes cleared · no priority · no tags · not flagged.")
        #expect(try cli.ok("edit", id, "--title", "Oat milk") == "Updated “Oat milk” (\(short)): renamed from “Milk”.")
    }

    /// Each bad line: one line naming the problem, exit 2, nothing written.
    @Test(arguments: [
        (["add", "Pay rent ^Nope"], "reminders: no list is titled 'Nope' (from ^Nope)\n"),
        (["add", "Pay rent ! !!!"], "reminders: two priorities, '!' and '!!!': keep one (--literal keeps the text as the title)\n"),
        (["add", "#bills !!"],
         "reminders: '#bills !!' leaves no title once the date, #tags, !priority, ^list and * are read (--literal keeps the text as the title)\n"),
        (["add", "Pay rent", "--due", "frday"],
         "reminders: --due: 'frday' is not a date or time (e.g. tomorrow 9am, fri, in 3 days, 26 nov or 2026-11-26)\n"),
        (["add", "Pay rent", "--due", "2026-02-30"], "reminders: --due: 2026-02-30: February 2026 has 28 days\n"),
        (["add", "Pay rent 2026-02-30"], "reminders: 2026-02-30: February 2026 has 28 days (--literal keeps the text as the title)\n"),
        (["add", "Pay rent", "--repeat-rule", "FREQ=BOGUS"],
         "reminders: --repeat-rule: FREQ=BOGUS is not a frequency: use DAILY, WEEKLY, MONTHLY or YEARLY\n"),
        (["add", "Pay rent", "--due", "fri", "--alert-before", "5q"],
         "reminders: --alert-before: duration '5q' has an unknown unit 'q' (use m, h, d or w; e.g. 90m, 2h, 1d or 1h30m), or none\n"),
    ])
    func badInputIsOneLineAndNothingIsWritten(arguments: [String], message: String) throws {
        let cli = try cli()
        defer { cli.cleanUp() }
        let result = try cli.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message)
        #expect(result.stdout.isEmpty)
        #expect(try reminders(cli).isEmpty)
    }

    /// On a device with no list, the first `add` makes "Reminders" and
    /// says so, and the next goes there too. Two devices of one user that
    /// each make it before they sync end with one list holding everything,
    /// and no conflict.
    @Test func withoutAnyListTheFirstAddMakesOne() throws {
        let cli = try CommandRunner(now: Self.now)
        defer { cli.cleanUp() }
        let laptop = ["REMINDERS_DEVICE": "laptop"], desktop = ["REMINDERS_DEVICE": "desktop"]
        let first = try cli.run(["add", "Milk"], environment: laptop)
        #expect(first.status == 0)
        #expect(first.stderr == "No list to add to: made “Reminders”.\nAdded “Milk” to Reminders\n")
        let second = try cli.run(["add", "Eggs"], environment: laptop)
        #expect(second.stderr == "Added “Eggs” to Reminders\n")
        #expect(try cli.run(["add", "Bread"], environment: desktop).stderr == "No list to add to: made “Reminders”.\nAdded “Bread” to Reminders\n")
        for device in [laptop, desktop, laptop] {
            #expect(try cli.run(["sync"], environment: device).status == 0)
        }
        for device in [laptop, desktop] {
            let lists = try cli.run(["lists", "--json"], environment: device)
            let decoded = try JSONSerialization.jsonObject(with: Data(lists.stdout.utf8)) as? [[String: Any]]
            #expect(decoded?.map { $0["title"] as? String } == ["Reminders"])
            #expect(decoded?.first?["openCount"] as? Int == 3)
            #expect(try cli.run(["conflicts"], environment: device).stdout == "No conflicts.\n")
        }
    }

    /// Several words are one phrase, quoted or not, accents and case
    /// aside; a tag is found by its mark; a query that folds to nothing
    /// finds nothing.
    @Test func searchTakesSeveralWordsAsOnePhrase() throws {
        let cli = try cli()
        defer { cli.cleanUp() }
        let pho = try cli.ok("add", "Phở in Hà Nội", "--list", "Home", "--literal").prefix(8)
        let trip = try cli.ok("add", "Pack the bags", "--list", "Home", "--tag", "travel").prefix(8)
        #expect(try cli.ok("search", "ha", "noi").hasPrefix("\(pho)"))
        #expect(try cli.ok("search", "HA NOI", "--json").contains("\"title\" : \"Phở in Hà Nội\""))
        #expect(try cli.ok("search", "#travel").hasPrefix("\(trip)"))
        #expect(try cli.ok("search", "noi", "ha") == "No matches.")
        #expect(try cli.ok("search", "\u{301}") == "No matches.")
        let empty = try cli.run("search", " ")
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("search text must not be empty"))
    }
}
