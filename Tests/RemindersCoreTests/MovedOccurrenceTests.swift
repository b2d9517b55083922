import Foundation
import GRDB
import Testing
import TestSupport
@testable import RemindersCore

/// A repeating reminder whose due date is moved off the rule's schedule
/// stands for the occurrence it was moved from (`Reminder.occurrence`).
/// Nov 30, 2026 is a Monday.
@Suite("A moved occurrence")
struct MovedOccurrenceTests {
    private func mondays(_ store: RemindersStore, due: String = "2026-11-30") throws -> Reminder {
        let home = try store.createList(title: "Home")
        return try store.createReminder(ReminderDraft(listID: home.id, title: "Mow lawn", dueDate: DueDate(due),
                                                      repeatRule: "FREQ=WEEKLY;BYDAY=MO"))
    }

    /// A series in a list of its own, daily unless `rule` says otherwise.
    private func series(_ store: RemindersStore, _ title: String, due: String, rule: String = "FREQ=DAILY") throws -> Reminder {
        let home = try store.createList(title: title + "s")
        return try store.createReminder(ReminderDraft(listID: home.id, title: title, dueDate: DueDate(due), repeatRule: rule))
    }

    private func reminder(_ store: RemindersStore, _ id: String) throws -> Reminder {
        try #require(try store.read { db in try Reminder.fetchOne(db, key: id) })
    }

    private func move(_ store: RemindersStore, _ id: String, to due: String) throws {
        try store.updateReminder(id: id, ReminderChanges(dueDate: .some(DueDate(due))))
    }

    @Test func aMondayChoreDoneEarlyOnSaturdayIsDueTheMondayAfter() throws {
        let store = try makeStore()
        let series = try mondays(store)
        try move(store, series.id, to: "2026-11-28")
        #expect(try reminder(store, series.id).occurrence == DueDate("2026-11-30"))
        try store.complete(id: series.id)

        let after = try reminder(store, series.id)
        #expect(after.dueDate == DueDate("2026-12-07"))
        #expect(after.occurrence == nil)
        // The copy is the Monday's, done when it was due: Saturday.
        let copy = try reminder(store, Repeats.occurrenceID(series: series.id, due: try #require(DueDate("2026-11-30"))))
        #expect(copy.status == .completed && copy.dueDate == DueDate("2026-11-28") && copy.occurrence == DueDate("2026-11-30"))
    }

    /// A due date off the rule's days is the first, and the series goes on
    /// by its days from there: the CLI's confirmations say when it does.
    @Test func aFirstDueDateOffTheRulesDaysIsNamedWithTheOneAfter() throws {
        let store = try makeStore()
        #expect(Repeats.nextOffSchedule(try mondays(store)) == nil)
        let tuesday = try mondays(store, due: "2026-12-01")
        #expect(Repeats.nextOffSchedule(tuesday) == DueDate("2026-12-07"))
        #expect(Repeats.nextOffSchedule(try series(store, "Rent", due: "2026-11-30", rule: "FREQ=MONTHLY;BYMONTHDAY=1"))
                == DueDate("2026-12-01"))
        // A moved occurrence is off its days on purpose; a rule without
        // days, or counted from completion, goes on from any date; a last
        // occurrence has none after it.
        let moved = try mondays(store)
        try move(store, moved.id, to: "2026-12-02")
        #expect(Repeats.nextOffSchedule(try reminder(store, moved.id)) == nil)
        #expect(Repeats.nextOffSchedule(try series(store, "Water", due: "2026-12-01", rule: "FREQ=WEEKLY")) == nil)
        // A Monday is on "every 2 weeks on Mon" whatever week it is in.
        #expect(Repeats.nextOffSchedule(try series(store, "Bins", due: "2026-12-07", rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO")) == nil)
        #expect(Repeats.nextOffSchedule(try series(store, "Bins", due: "2026-12-08", rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"))
                == DueDate("2026-12-21"))
        #expect(Repeats.nextOffSchedule(try series(store, "Cut", due: "2026-12-01", rule: "FREQ=WEEKLY;BYDAY=MO;FROM=COMPLETION")) == nil)
        #expect(Repeats.nextOffSchedule(try series(store, "Once", due: "2026-12-01", rule: "FREQ=WEEKLY;BYDAY=MO;COUNT=1")) == nil)
    }

    @Test func aChorePostponedPastItsNextOccurrenceGoesOnFromTheNewDate() throws {
        let store = try makeStore()
        let series = try mondays(store)
        try move(store, series.id, to: "2026-12-08")
        try store.complete(id: series.id)
        #expect(try reminder(store, series.id).dueDate == DueDate("2026-12-14"))
    }

    @Test func aSecondMoveKeepsTheOccurrenceAndAMoveBackClearsIt() throws {
        let store = try makeStore()
        let series = try mondays(store)
        try move(store, series.id, to: "2026-11-28")
        try move(store, series.id, to: "2026-11-29")
        #expect(try reminder(store, series.id).occurrence == DueDate("2026-11-30"))
        try move(store, series.id, to: "2026-11-30")
        #expect(try reminder(store, series.id).occurrence == nil)
    }

    @Test func aNewRuleOrNoRuleStandsForNothing() throws {
        let store = try makeStore()
        let series = try mondays(store)
        try move(store, series.id, to: "2026-11-28")
        try store.updateReminder(id: series.id, ReminderChanges(repeatRule: .some("FREQ=DAILY")))
        #expect(try reminder(store, series.id).occurrence == nil)

        let other = try mondays(store)
        try move(store, other.id, to: "2026-11-28")
        try store.updateReminder(id: other.id, ReminderChanges(repeatRule: .some(nil)))
        #expect(try reminder(store, other.id).occurrence == nil)
        // A reminder that does not repeat has no occurrence to stand for.
        try move(store, other.id, to: "2026-11-20")
        #expect(try reminder(store, other.id).occurrence == nil)
    }

    @Test func aNewTimeOnTheSameDayIsTheSeriesTimeFromThenOn() throws {
        let store = try makeStore()
        let series = try mondays(store, due: "2026-11-30T09:00")
        try move(store, series.id, to: "2026-11-30T10:30")
        #expect(try reminder(store, series.id).occurrence == nil)
        try store.complete(id: series.id)
        #expect(try reminder(store, series.id).dueDate == DueDate("2026-12-07T10:30"))
    }

    @Test func anOccurrenceMovedToAnotherDayAndTimeGoesOnAtTheSeriesTime() throws {
        let store = try makeStore()
        let series = try mondays(store, due: "2026-11-30T09:00")
        try move(store, series.id, to: "2026-11-28T15:00")
        try store.complete(id: series.id)
        #expect(try reminder(store, series.id).dueDate == DueDate("2026-12-07T09:00"))
    }

    /// A snooze moves this time only: pills at 9:00 every day, snoozed to
    /// 9:10 and taken, are due at 9:00 the next day (they drifted by each
    /// snooze before).
    @Test func aSnoozedOccurrenceKeepsTheSeriesTime() throws {
        let store = try makeStore()
        let pills = try series(store, "Pills", due: "2026-11-30T09:00")
        try store.moveOccurrence(id: pills.id, to: try #require(DueDate("2026-11-30T09:10")))
        #expect(try reminder(store, pills.id).occurrence == DueDate("2026-11-30T09:00"))
        try store.complete(id: pills.id)
        #expect(try reminder(store, pills.id).dueDate == DueDate("2026-12-01T09:00"))
        // A date-only series snoozed to a time stays date-only.
        let water = try series(store, "Water", due: "2026-11-30")
        try store.moveOccurrence(id: water.id, to: try #require(DueDate("2026-11-30T18:00")))
        try store.complete(id: water.id)
        #expect(try reminder(store, water.id).dueDate == DueDate("2026-12-01"))
    }

    /// Pills at 21:00 snoozed to the next morning and taken then: that
    /// evening's pills are still due.
    @Test func aSnoozeToTheNextMorningKeepsThatEveningsOccurrence() throws {
        let store = try makeStore()
        let pills = try series(store, "Pills", due: "2026-12-01T21:00")
        try store.moveOccurrence(id: pills.id, to: try #require(DueDate("2026-12-02T09:00")))
        try store.complete(id: pills.id)
        #expect(try reminder(store, pills.id).dueDate == DueDate("2026-12-02T21:00"))
    }

    /// Every other Monday (Nov 30, Dec 14, Dec 28), put off a week and
    /// done: the series keeps its weeks.
    @Test func aFortnightlySeriesPutOffKeepsItsWeeks() throws {
        let store = try makeStore()
        let bins = try series(store, "Recycling", due: "2026-11-30", rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO")
        try move(store, bins.id, to: "2026-12-09")
        try store.complete(id: bins.id)
        #expect(try reminder(store, bins.id).dueDate == DueDate("2026-12-14"))
        // A series without a day named keeps its day too: a move is of one occurrence.
        let weekly = try mondays(store)
        try store.updateReminder(id: weekly.id, ReminderChanges(repeatRule: .some("FREQ=WEEKLY")))
        try move(store, weekly.id, to: "2026-12-01")
        try store.complete(id: weekly.id)
        #expect(try reminder(store, weekly.id).dueDate == DueDate("2026-12-07"))
    }

    /// Edits of other fields leave the occurrence: a snoozed series
    /// flagged stays snoozed, and a copy renamed can still be taken back.
    @Test func editsOfOtherFieldsKeepTheOccurrence() throws {
        let store = try makeStore()
        let pills = try series(store, "Pills", due: "2026-11-30T09:00")
        try store.moveOccurrence(id: pills.id, to: try #require(DueDate("2026-11-30T09:10")))
        try store.setFlag(id: pills.id, true)
        try store.updateReminder(id: pills.id, ReminderChanges(title: "Vitamins"))
        #expect(try reminder(store, pills.id).occurrence == DueDate("2026-11-30T09:00"))

        let series = try mondays(store)
        try move(store, series.id, to: "2026-11-28")
        try store.complete(id: series.id)
        let copyID = Repeats.occurrenceID(series: series.id, due: try #require(DueDate("2026-11-30")))
        try store.updateReminder(id: copyID, ReminderChanges(title: "Mowed the lawn"))
        #expect(try reminder(store, copyID).occurrence == DueDate("2026-11-30"))
        try store.uncomplete(id: series.id)
        #expect(try reminder(store, series.id).occurrence == DueDate("2026-11-30"))
        try store.complete(id: series.id)
        #expect(try reminder(store, series.id).dueDate == DueDate("2026-12-07"))
    }

    @Test func takingACompletionBackPutsTheMoveBack() throws {
        let store = try makeStore()
        let series = try mondays(store)
        try move(store, series.id, to: "2026-11-28")
        try store.complete(id: series.id)
        try store.uncomplete(id: series.id)
        let back = try reminder(store, series.id)
        #expect(back.dueDate == DueDate("2026-11-28") && back.occurrence == DueDate("2026-11-30"))
        #expect(try store.read { db in try Reminder.filter(Column("repeatOf") == series.id).fetchCount(db) } == 0)
        // And completing it again is the same completion.
        try store.complete(id: series.id)
        #expect(try reminder(store, series.id).dueDate == DueDate("2026-12-07"))
    }

    @Test func theNextOccurrencesOfAMovedSeriesFollowItsOccurrence() throws {
        let store = try makeStore()
        let series = try mondays(store)
        try move(store, series.id, to: "2026-11-28")
        #expect(Repeats.nextOccurrences(try reminder(store, series.id), count: 2) == [DueDate("2026-12-07"), DueDate("2026-12-14")])
    }

    // MARK: The repair, after a merge

    /// The series as a merge may leave it: due `due`, standing for
    /// `occurrence`, with the Nov 30 occurrence completed (its copy).
    private func merged(due: String, occurrence: String) throws -> (RemindersStore, Reminder) {
        let store = try makeStore()
        let series = try mondays(store)
        try store.complete(id: series.id)
        try store.write { db in
            try db.execute(sql: "UPDATE reminders SET dueDate = ?, occurrence = ? WHERE id = ?",
                           arguments: [due, occurrence, series.id])
            try SyncedRules.repair(db)
        }
        return (store, try reminder(store, series.id))
    }

    @Test func aMoveOfACompletedOccurrenceThatWonTheMergeGoesOn() throws {
        // Moved to Tuesday elsewhere, before the completion reached there.
        let (_, series) = try merged(due: "2026-12-01", occurrence: "2026-11-30")
        #expect(series.dueDate == DueDate("2026-12-07") && series.occurrence == nil)
    }

    @Test func aCompletionThatWonTheMergeOverAStaleMoveStays() throws {
        // The completion's due date, with the stale move's occurrence.
        let (_, series) = try merged(due: "2026-12-07", occurrence: "2026-11-30")
        #expect(series.dueDate == DueDate("2026-12-07") && series.occurrence == nil)
    }

    @Test func aStaleMovePastTheNextOccurrenceGoesBackToIt() throws {
        let (_, series) = try merged(due: "2026-12-08", occurrence: "2026-11-30")
        #expect(series.dueDate == DueDate("2026-12-07") && series.occurrence == nil)
    }

    /// A release before v14 completed the moved occurrence by its due
    /// date: its copy is of Dec 1, and the occurrence Nov 30 stayed. It no
    /// longer stands.
    @Test func anOccurrenceAnOlderReleaseCompletedIsCleared() throws {
        let store = try makeStore()
        let series = try mondays(store)
        try move(store, series.id, to: "2026-12-01")
        try store.write { db in
            // What the older release wrote: a copy under the due date's id, the series moved on.
            let copy = Reminder(id: Repeats.occurrenceID(series: series.id, due: try #require(DueDate("2026-12-01"))),
                                remindersListID: series.remindersListID, title: "Mow lawn", dueDate: DueDate("2026-12-01"),
                                status: .completed, completedAt: "2026-12-01T10:00:00", repeatOf: series.id)
            try copy.insert(db)
            try db.execute(sql: "UPDATE reminders SET dueDate = '2026-12-07' WHERE id = ?", arguments: [series.id])
            try SyncedRules.repair(db)
        }
        let after = try reminder(store, series.id)
        #expect(after.dueDate == DueDate("2026-12-07") && after.occurrence == nil)
    }

    @Test func aMoveOfAnOpenOccurrenceIsLeftAlone() throws {
        let (_, series) = try merged(due: "2026-12-05", occurrence: "2026-12-07")
        #expect(series.dueDate == DueDate("2026-12-05") && series.occurrence == DueDate("2026-12-07"))
    }
}
