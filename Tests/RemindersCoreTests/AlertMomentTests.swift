import Foundation
import GRDB
import Testing
@testable import RemindersCore

/// When a reminder alerts (`AlertBefore.moment`), in the device's time
/// zone, across the changes to and from summer time; and the reads that
/// plan alerts, which must stay index searches with 100,000 reminders.
@Suite("Alert moments")
struct AlertMomentTests {
    static let paris = TimeZone(identifier: "Europe/Paris") ?? utc

    func alertAt(_ due: String, before seconds: Int?, in zone: TimeZone = paris, hour: Int = 9) throws -> Date? {
        AlertBefore.moment(of: try #require(DueDate(due)), before: seconds, in: zone, defaultHour: hour)
    }

    func moment(_ text: String) throws -> Date {
        try #require(AppClock.parseMoment(text, timeZone: utc))
    }

    @Test func withoutALeadTheAlertIsAtTheDueMoment() throws {
        #expect(try alertAt("2026-03-01T10:30", before: nil, in: utc) == moment("2026-03-01T10:30:00Z"))
        #expect(try alertAt("2026-03-01T10:30", before: 0, in: utc) == moment("2026-03-01T10:30:00Z"))
        #expect(try alertAt("2026-03-01", before: nil, in: utc) == moment("2026-03-01T09:00:00Z"))
        #expect(try alertAt("2026-03-01T10:30", before: 15 * 60, in: utc) == moment("2026-03-01T10:15:00Z"))
    }

    @Test func hoursAndMinutesBeforeAreElapsedTimeAcrossTheSpringChange() throws {
        // 2026-03-29 in Paris: 02:00 CET becomes 03:00 CEST. 03:30 CEST is
        // 01:30 UTC; an hour before is 00:30 UTC (01:30 CET on the wall).
        #expect(try alertAt("2026-03-29T03:30", before: 3600) == moment("2026-03-29T00:30:00Z"))
        #expect(try alertAt("2026-03-29T03:30", before: 30 * 60) == moment("2026-03-29T01:00:00Z"))
        // Autumn: 03:00 CEST becomes 02:00 CET on 2026-10-25; 04:00 CET is
        // 03:00 UTC, and three hours before it is 00:00 UTC (02:00 CEST).
        #expect(try alertAt("2026-10-25T04:00", before: 3 * 3600) == moment("2026-10-25T00:00:00Z"))
    }

    @Test func wholeDaysBeforeAreCalendarDays() throws {
        // 09:00 the morning after clocks went forward: 09:00 the day
        // before, 23 hours earlier; after they went back, 25 hours.
        #expect(try alertAt("2026-03-29T09:00", before: 24 * 3600) == moment("2026-03-28T08:00:00Z"))
        #expect(try alertAt("2026-10-25T09:00", before: 24 * 3600) == moment("2026-10-24T07:00:00Z"))
        // A day with no change in between is 24 hours.
        #expect(try alertAt("2026-03-30T09:00", before: 24 * 3600) == moment("2026-03-29T07:00:00Z"))
        // A day and two hours: the day on the calendar, then two hours.
        #expect(try alertAt("2026-03-29T09:00", before: 26 * 3600) == moment("2026-03-28T06:00:00Z"))
        // A date alone counts from the due hour: 09:00 (or 07:00) the day before.
        #expect(try alertAt("2026-03-29", before: 24 * 3600) == moment("2026-03-28T08:00:00Z"))
        #expect(try alertAt("2026-03-29", before: 24 * 3600, hour: 7) == moment("2026-03-28T06:00:00Z"))
    }

    @Test func aTimeInTheSpringGapReadsAsTheHourAfterAndARepeatedOneAsItsFirst() throws {
        // 02:30 does not exist on 2026-03-29 in Paris: read with the offset
        // from before the change, it is 01:30 UTC (03:30 CEST).
        let gap = try #require(DueDate("2026-03-29T02:30"))
        #expect(gap.moment(in: Self.paris) == (try moment("2026-03-29T01:30:00Z")))
        #expect(try alertAt("2026-03-29T02:30", before: 15 * 60) == moment("2026-03-29T01:15:00Z"))
        // A day's lead that lands in the gap: the same rule for the alert.
        #expect(try alertAt("2026-03-30T02:30", before: 24 * 3600) == moment("2026-03-29T01:30:00Z"))
        // 02:30 comes twice on 2026-10-25: the first, in summer time.
        let overlap = try #require(DueDate("2026-10-25T02:30"))
        #expect(overlap.moment(in: Self.paris) == (try moment("2026-10-25T00:30:00Z")))
        #expect(try alertAt("2026-10-25T02:30", before: 3600) == moment("2026-10-24T23:30:00Z"))
    }

    /// An alert counts back from the due date: one given without a due
    /// date is refused (a repeat's first day counts), and removing the due
    /// date removes the alert, as it ends the repeat.
    @Test func anAlertNeedsADueDate() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        #expect(throws: CoreError.self) {
            try store.createReminder(ReminderDraft(listID: list.id, title: "Call", alertBefore: 3600))
        }
        let repeating = try store.createReminder(ReminderDraft(listID: list.id, title: "Bins", repeatRule: "FREQ=WEEKLY;BYDAY=MO",
                                                               alertBefore: 3600))
        #expect(repeating.dueDate != nil && repeating.alertBefore == 3600)
        let plain = try store.createReminder(ReminderDraft(listID: list.id, title: "Call"))
        #expect(throws: CoreError.self) { try store.updateReminder(id: plain.id, ReminderChanges(alertBefore: .some(900))) }
        #expect(try store.read { try Reminder.fetchOne($0, key: plain.id) }?.alertBefore == nil)
        try store.updateReminder(id: repeating.id, ReminderChanges(dueDate: .some(nil)))
        let cleared = try #require(try store.read { try Reminder.fetchOne($0, key: repeating.id) })
        #expect(cleared.dueDate == nil && cleared.repeatRule == nil && cleared.alertBefore == nil)
    }

    @Test func dueQueriesCarryTheAlertMoment() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.createReminder(ReminderDraft(listID: list.id, title: "Standup", dueDate: try due("2026-03-01T10:30"),
                                               alertBefore: 15 * 60))
        try store.add("Call", to: list, due: "2026-03-01T11:00")
        let found = try store.read { try DueQueries.due($0, within: TimeSpan(minutes: 120), clock: store.clock) }
        #expect(found.map(\.reminder.title) == ["Standup", "Call"])
        #expect(found.map(\.alertAt) == [try moment("2026-03-01T10:15:00Z"), try moment("2026-03-01T11:00:00Z")])
    }

    @Test func theNextAlertAndPastDueAreTheEarliestWhateverOrderTheirTextsSortIn() throws {
        // A date alone sorts before the times of its day but falls due at
        // the due hour; the plan must look past it.
        let store = try makeStore(now: "2026-03-01T10:00:00Z")
        let list = try store.createList(title: "Home")
        try store.add("Tomorrow", to: list, due: "2026-03-02")
        try store.add("Tomorrow early", to: list, due: "2026-03-02T08:00")
        try store.add("Tomorrow late", to: list, due: "2026-03-02T20:00")
        func plan(hour: Int = 9) throws -> DueAlertPlan {
            try store.read { try DueAlertPlan.read($0, clock: store.clock, defaultHour: hour, catchUp: 12 * 3600) }
        }
        #expect(try plan().nextAlertAt == moment("2026-03-02T08:00:00Z"))
        #expect(try plan(hour: 7).nextAlertAt == moment("2026-03-02T07:00:00Z"))
        // Past due: 08:01 for the time; the date alone only the day after.
        #expect(try plan().nextPastDueAt == moment("2026-03-02T08:01:00Z"))

        // A date alone of today is past due tomorrow, before any later time.
        try store.add("Today", to: list, due: "2026-03-01")
        #expect(try plan().nextPastDueAt == moment("2026-03-02T00:00:00Z"))
        // An early alert comes before them all, from its own index.
        // (3 days 22 hours before 03-05 09:00: 03-02 09:00 less 22 hours.)
        try store.createReminder(ReminderDraft(listID: list.id, title: "Trip", dueDate: try due("2026-03-05T09:00"),
                                               alertBefore: (3 * 24 + 22) * 3600))
        #expect(try plan().nextAlertAt == moment("2026-03-01T11:00:00Z"))
    }

    @Test func planningAlertsSearchesIndexesAndNeverScansTheReminders() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        for day in 0..<30 {
            let date = try due("2026-02-15").adding(days: day).description
            try store.add("Day \(day)", to: list, due: date)
            try store.createReminder(ReminderDraft(listID: list.id, title: "Early \(day)", dueDate: try due(date + "T10:00"),
                                                   alertBefore: 3600))
        }
        var statements: [String] = []
        let plan = try store.writer.read { db in
            db.trace { event in
                if case .statement(let statement) = event { statements.append(statement.expandedSQL) }
            }
            defer { db.trace(nil) }
            return try DueAlertPlan.read(db, clock: store.clock, defaultHour: 9, catchUp: 12 * 3600)
        }
        #expect(plan.due.map(\.reminder.title) == ["Day 14", "Early 14"])
        #expect(plan.nextAlertAt == (try moment("2026-03-02T09:00:00Z")))
        #expect(statements.count >= 4)
        for sql in statements {
            let steps = try store.writer.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
            }
            #expect(!steps.contains { $0.hasPrefix("SCAN reminders") || $0.hasPrefix("SCAN remindersLists") },
                    "\(sql)\n\(steps.joined(separator: "\n"))")
        }
    }
}
