import Foundation
import GRDB
import Testing
@testable import RemindersCore

@Suite("Due reminders and durations")
struct DueQueriesTests {
    func moment(_ text: String) throws -> Date {
        try #require(AppClock.parseMoment(text, timeZone: utc))
    }

    func due(_ store: RemindersStore, within: String, hour: Int = DueQueries.defaultHour) throws -> [DueReminder] {
        let span = try TimeSpan(parsing: within)
        return try store.read { try DueQueries.due($0, within: span, clock: store.clock, defaultHour: hour) }
    }

    @Test func pastDueAndUpcomingWithinTheWindowEarliestFirst() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("Later today", to: list, due: "2026-03-01T13:00")
        try store.add("Soon", to: list, due: "2026-03-01T11:30")
        try store.add("Yesterday", to: list, due: "2026-02-28")
        try store.add("This morning", to: list, due: "2026-03-01T08:15")
        try store.add("No date", to: list)
        try store.add("Tomorrow", to: list, due: "2026-03-02T08:00")
        let done = try store.add("Done", to: list, due: "2026-03-01T09:00")
        try store.complete(id: done.id)

        let within2h = try due(store, within: "2h")
        #expect(within2h.map(\.reminder.title) == ["Yesterday", "This morning", "Soon"])
        #expect(within2h.map(\.isPastDue) == [true, true, false])
        #expect(within2h[0].dueAt == (try moment("2026-02-28T09:00:00Z")))
        #expect(try due(store, within: "1d").map(\.reminder.title)
                == ["Yesterday", "This morning", "Soon", "Later today", "Tomorrow"])
        #expect(try due(store, within: "0m").map(\.reminder.title) == ["Yesterday", "This morning"])
    }

    @Test func aDateWithoutATimeFallsDueAtTheDefaultHour() throws {
        let store = try makeStore(now: "2026-03-01T08:30:00Z")
        let list = try store.createList(title: "Home")
        try store.add("Milk", to: list, due: "2026-03-01")
        #expect(try due(store, within: "29m").isEmpty)
        let at9 = try due(store, within: "30m")
        #expect(at9.map(\.reminder.title) == ["Milk"])
        #expect(at9[0].dueAt == (try moment("2026-03-01T09:00:00Z")))
        #expect(at9[0].isPastDue == false)
        // A due hour of 8 makes it due already.
        #expect(try due(store, within: "0m", hour: 8).map(\.reminder.title) == ["Milk"])
    }

    @Test func dueTimesAreFloatingWallClockTimesOfTheClocksZone() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let store = RemindersStore(writer: try AppDatabase.inMemory(),
                                   clock: AppClock(pinned: try moment("2026-03-01T10:00:00Z"), timeZone: paris))
        let list = try store.createList(title: "Home")
        try store.add("Lunch", to: list, due: "2026-03-01T12:00")
        let found = try due(store, within: "1h")
        // 12:00 in Paris is 11:00 UTC, an hour from now.
        #expect(found.map(\.reminder.title) == ["Lunch"])
        #expect(found[0].dueAt == (try moment("2026-03-01T11:00:00Z")))
    }

    @Test func durationsParseInMinutesHoursDaysAndWeeks() throws {
        #expect(try TimeSpan(parsing: "90m").minutes == 90)
        #expect(try TimeSpan(parsing: "2h").minutes == 120)
        #expect(try TimeSpan(parsing: "1d").minutes == 1440)
        #expect(try TimeSpan(parsing: "1h30m").minutes == 90)
        #expect(try TimeSpan(parsing: "1w 2d").minutes == 9 * 1440)
        #expect(try TimeSpan(parsing: "2H").minutes == 120)
        #expect(try TimeSpan(parsing: "0m").minutes == 0)
        #expect(try TimeSpan(parsing: "90m").description == "1h30m")
        #expect(TimeSpan(minutes: 1440 + 5).description == "1d5m")
    }

    @Test func badDurationsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("", "duration must not be empty (e.g. 90m, 2h, 1d or 1h30m)"),
            ("90", "duration '90' needs a unit after 90: m, h, d or w (e.g. 90m, 2h, 1d or 1h30m)"),
            ("2x", "duration '2x' has an unknown unit 'x' (use m, h, d or w; e.g. 90m, 2h, 1d or 1h30m)"),
            ("-2h", "duration '-2h' has an unknown unit '-' (use m, h, d or w; e.g. 90m, 2h, 1d or 1h30m)"),
            ("h", "duration 'h' has 'h' without a number before it (e.g. 90m, 2h, 1d or 1h30m)"),
            ("1h2h", "duration '1h2h' gives hours twice (e.g. 90m, 2h, 1d or 1h30m)"),
            ("367d", "duration '367d' is longer than 366 days"),
            ("99999999999999999999m", "duration '99999999999999999999m' is longer than 366 days"),
        ]
        for (text, message) in cases {
            expectError(.invalidInput(message)) { _ = try TimeSpan(parsing: text) }
        }
    }

    @Test func theDueHourIsAWholeHour() throws {
        #expect(try DueQueries.parseHour("9") == 9)
        #expect(try DueQueries.parseHour("07:00") == 7)
        #expect(try DueQueries.parseHour("0") == 0)
        for bad in ["24", "9:30", "nine", "", "-1", "123"] {
            expectErrorKind(.invalidInput("")) { _ = try DueQueries.parseHour(bad) }
        }
    }

    @Test func aRunningClockStartsAtItsMomentAndMoves() throws {
        let start = try moment("2026-03-01T09:59:59Z")
        let clock = AppClock.running(from: start, timeZone: utc)
        #expect(clock.now >= start && clock.now < start.addingTimeInterval(5))
        #expect(clock.isPinned == false)
        let fromEnvironment = try AppClock.fromEnvironment(["REMINDERS_NOW": "2026-03-01T09:59:59Z", "REMINDERS_CLOCK": "running"])
        #expect(abs(fromEnvironment.now.timeIntervalSince(start)) < 5)
        expectErrorKind(.invalidInput("")) { _ = try AppClock.fromEnvironment(["REMINDERS_CLOCK": "fast"]) }
    }
}
