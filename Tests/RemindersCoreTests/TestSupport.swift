import Foundation
import GRDB
import Testing
@testable import RemindersCore

/// 2026-03-01 10:00 UTC, the moment every test lives in unless it says otherwise.
let pinnedNow = "2026-03-01T10:00:00Z"
let utc = TimeZone(identifier: "UTC") ?? .current

func clock(_ moment: String = pinnedNow) throws -> AppClock {
    AppClock(pinned: try #require(AppClock.parseMoment(moment, timeZone: utc)), timeZone: utc)
}

/// A store on a fresh in-memory database, its clock pinned.
func makeStore(now: String = pinnedNow) throws -> RemindersStore {
    RemindersStore(writer: try AppDatabase.inMemory(), clock: try clock(now))
}

/// The same database seen through a clock pinned elsewhere in time.
func store(_ store: RemindersStore, at moment: String) throws -> RemindersStore {
    RemindersStore(writer: store.writer, clock: try clock(moment))
}

func due(_ text: String) throws -> DueDate {
    try #require(DueDate(text))
}

extension RemindersStore {
    /// Adds a reminder in a few words.
    @discardableResult
    func add(_ title: String, to list: RemindersList, notes: String = "", due: String? = nil,
             priority: Priority = .none, flagged: Bool = false, tags: [String] = []) throws -> Reminder {
        try createReminder(ReminderDraft(
            listID: list.id, title: title, notes: notes, dueDate: try due.map { try #require(DueDate($0)) },
            priority: priority, isFlagged: flagged, tags: tags))
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.read(body)
    }

    func rows(_ filter: ReminderFilter, sort: RemindersCore.SortOrder = .manual, showCompleted: Bool = false) throws -> [ReminderRow] {
        try read { try Queries.reminders($0, filter: filter, sort: sort, showCompleted: showCompleted, clock: clock) }
    }

    func titles(_ filter: ReminderFilter, sort: RemindersCore.SortOrder = .manual, showCompleted: Bool = false) throws -> [String] {
        try rows(filter, sort: sort, showCompleted: showCompleted).map(\.reminder.title)
    }

    func search(_ text: String, showCompleted: Bool = false) throws -> SearchResults {
        try read { try Queries.search($0, text: text, showCompleted: showCompleted, clock: clock) }
    }

    func reminder(_ id: String) throws -> Reminder? {
        try read { try Reminder.fetchOne($0, key: id) }
    }

    /// Every row of every table, search index included, as text: equal
    /// snapshots mean an unchanged database.
    func snapshot() throws -> String {
        try read { db in
            var lines: [String] = []
            for table in Schema.syncedTables + ["reminderSearch"] {
                for row in try Row.fetchAll(db, sql: "SELECT rowid, * FROM \(table) ORDER BY rowid") {
                    lines.append("\(table) \(row)")
                }
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// Asserts that `body` throws exactly `expected`.
func expectError(_ expected: CoreError, sourceLocation: SourceLocation = #_sourceLocation,
                 _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(expected), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as CoreError {
        #expect(error == expected, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Asserts that `body` throws a CoreError of the same kind as `kind`
/// (the message is not compared) and returns it.
@discardableResult
func expectErrorKind(_ kind: CoreError, sourceLocation: SourceLocation = #_sourceLocation,
                     _ body: () throws -> Void) -> CoreError? {
    do {
        try body()
        Issue.record("expected a \(kind) error, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as CoreError {
        #expect(error.exitCode == kind.exitCode && sameKind(error, kind), "got \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a CoreError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

func sameKind(_ a: CoreError, _ b: CoreError) -> Bool {
    switch (a, b) {
    case (.invalidInput, .invalidInput), (.notFound, .notFound), (.ambiguous, .ambiguous),
         (.readOnly, .readOnly), (.database, .database): true
    default: false
    }
}
