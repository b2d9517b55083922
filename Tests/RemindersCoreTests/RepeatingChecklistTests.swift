import Foundation
import GRDB
import Testing
import TestSupport
@testable import RemindersCore

/// A repeating reminder's subtasks are a checklist for each occurrence,
/// and the completed copies of occurrences stay out of every checklist.
@Suite("A repeating reminder's checklist")
struct RepeatingChecklistTests {
    /// A daily series due 2026-03-01, in a list of its own.
    private func dailyBackup(_ store: RemindersStore) throws -> Reminder {
        let home = try store.createList(title: "Home")
        return try store.createReminder(ReminderDraft(listID: home.id, title: "Backup", dueDate: DueDate("2026-03-01"),
                                                      repeatRule: "FREQ=DAILY"))
    }

    /// Completes the series' first two occurrences; returns their copies' ids.
    private func completeTwice(_ store: RemindersStore, _ series: Reminder) throws -> (first: String, second: String) {
        try store.complete(id: series.id)
        try store.complete(id: series.id)
        return (Repeats.occurrenceID(series: series.id, due: try #require(DueDate("2026-03-01"))),
                Repeats.occurrenceID(series: series.id, due: try #require(DueDate("2026-03-02"))))
    }

    @Test func theNextOccurrenceStartsWithItsChecklistOpen() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        let clean = try store.createReminder(ReminderDraft(listID: home.id, title: "Weekly clean", dueDate: DueDate("2026-03-01"),
                                                           repeatRule: "FREQ=WEEKLY"))
        let vacuum = try store.createReminder(ReminderDraft(listID: home.id, title: "Vacuum", parentID: clean.id))
        let dust = try store.createReminder(ReminderDraft(listID: home.id, title: "Dust", dueDate: DueDate("2026-03-01"),
                                                          parentID: clean.id, repeatRule: "FREQ=DAILY"))
        try store.complete(id: vacuum.id)
        try store.complete(id: clean.id, subtasks: true)

        let rows = try store.read { db in try Reminder.order(Column("title"), Column("dueDate")).fetchAll(db) }
        let series = try #require(rows.first { $0.id == clean.id })
        #expect(series.status == .incomplete && series.dueDate == DueDate("2026-03-08"))
        // Ticked for this week, open again for the next.
        #expect(try #require(rows.first { $0.id == vacuum.id }).status == .incomplete)
        let dustSeries = try #require(rows.first { $0.id == dust.id })
        #expect(dustSeries.status == .incomplete && dustSeries.dueDate == DueDate("2026-03-02"))
        // The copies: completed, each a record of its series, under no parent.
        let copies = rows.filter { $0.repeatOf != nil }
        #expect(Set(copies.map(\.repeatOf)) == [clean.id, dust.id])
        #expect(copies.allSatisfy { $0.status == .completed && $0.parentID == nil })
        // The checklist under the series: its two items, both open.
        let checklist = rows.filter { $0.parentID == clean.id }
        #expect(Set(checklist.map(\.id)) == [vacuum.id, dust.id])
        let row = try #require(try store.read { db in try Queries.reminder(db, id: clean.id, clock: store.clock) })
        #expect(row.subtasks == 2 && row.openSubtasks == 2)
    }

    /// The series' last occurrence completes it for good: its checklist
    /// stays as it was ticked.
    @Test func theLastOccurrenceKeepsItsChecklistAsTicked() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        let trip = try store.createReminder(ReminderDraft(listID: home.id, title: "Pack", dueDate: DueDate("2026-03-01"),
                                                          repeatRule: "FREQ=WEEKLY;COUNT=1"))
        let passport = try store.createReminder(ReminderDraft(listID: home.id, title: "Passport", parentID: trip.id))
        try store.complete(id: trip.id, subtasks: true)
        let rows = try store.read { db in try Reminder.fetchAll(db) }
        #expect(try #require(rows.first { $0.id == trip.id }).status == .completed)
        #expect(try #require(rows.first { $0.id == passport.id }).status == .completed)
    }

    /// Reopening a completed occurrence's copy: the latest one is taken
    /// back (copy gone, series due at it again), an earlier one refused. It
    /// used to become one more open reminder beside its series.
    @Test func uncompletingACopyTakesBackOnlyTheLatestOccurrence() throws {
        let store = try makeStore()
        let backup = try dailyBackup(store)
        #expect(try store.uncomplete(id: backup.id) == .alreadyOpen)
        let (first, second) = try completeTwice(store, backup)
        #expect(throws: CoreError.self) { try store.uncomplete(id: first) }
        #expect(try store.uncomplete(id: second) == .tookBackOccurrence(seriesID: backup.id))
        let rows = try store.read { db in try Reminder.fetchAll(db) }
        #expect(Set(rows.map(\.id)) == [backup.id, first])
        #expect(try #require(rows.first { $0.id == backup.id }).dueDate == DueDate("2026-03-02"))
        #expect(rows.filter { $0.status == .incomplete }.count == 1)
        // The series itself takes back the one left.
        #expect(try store.uncomplete(id: backup.id) == .tookBackOccurrence(seriesID: backup.id))
        #expect(try store.uncomplete(id: backup.id) == .alreadyOpen)
    }

    /// Ticked in the app, the parent and its subtasks are "completing" and
    /// finish together later: the subtasks finish first, so the series
    /// moving on finds them done and opens them for the next occurrence.
    @Test func aChecklistTickedInTheAppStartsOpenForTheNextOccurrence() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        let clean = try store.createReminder(ReminderDraft(listID: home.id, title: "Weekly clean", dueDate: DueDate("2026-03-01"),
                                                           repeatRule: "FREQ=WEEKLY"))
        let vacuum = try store.createReminder(ReminderDraft(listID: home.id, title: "Vacuum", parentID: clean.id))
        try store.toggleCompletion(id: clean.id)
        try store.toggleCompletion(id: vacuum.id)
        try store.finishCompleting()
        let rows = try store.read { db in try Reminder.fetchAll(db) }
        #expect(try #require(rows.first { $0.id == clean.id }).dueDate == DueDate("2026-03-08"))
        #expect(try #require(rows.first { $0.id == vacuum.id }).status == .incomplete)
    }

    /// The checkbox on a copy: as `uncomplete`.
    @Test func theCheckboxOnACopyTakesBackOnlyTheLatest() throws {
        let store = try makeStore()
        let backup = try dailyBackup(store)
        let (first, second) = try completeTwice(store, backup)
        #expect(throws: CoreError.self) { try store.toggleCompletion(id: first) }
        #expect(try store.toggleCompletion(id: second) == .incomplete)
        let rows = try store.read { db in try Reminder.fetchAll(db) }
        #expect(Set(rows.map(\.id)) == [backup.id, first])
        #expect(rows.filter { $0.status != .completed }.map(\.id) == [backup.id])
        // With the series gone, a copy reopens as any reminder.
        try store.deleteReminder(id: backup.id)
        #expect(try store.uncomplete(id: first) == .reopened)
    }
}
