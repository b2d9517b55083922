import Foundation
import GRDB
import Testing
@testable import RemindersCore

/// `Reminder` reads and writes its row column by column; the row must be
/// the one `Codable` would have read and written.
@Suite("A reminder's row")
struct ReminderRowTests {
    static let full = Reminder(
        id: "5d2f7a1c-93b4-4e0a-8c71-2b6d9f04e5a3", remindersListID: "list", title: "Café “bill” 😀", notes: "line\nline",
        dueDate: DueDate(year: 2026, month: 3, day: 4, hour: 9, minute: 30), priority: .high, isFlagged: true,
        status: .completed, completedAt: "2026-03-04T10:00:00", position: -3, parentID: "parent",
        repeatRule: "FREQ=WEEKLY", repeatOf: "series", alertBefore: 600, icalendar: "BEGIN:VTODO\r\nEND:VTODO\r\n")
    static let bare = Reminder(id: "bare", remindersListID: "list", title: "t")

    @Test func aRowReadsBackAsWritten() throws {
        let store = try makeStore()
        try store.writer.write { db in
            try RemindersList(id: "list", title: "L").insert(db)
            var parent = Self.bare
            parent.id = "parent"
            try parent.insert(db)
            try Self.full.insert(db)
            try Self.bare.insert(db)
        }
        #expect(try store.reminder(Self.full.id) == Self.full)
        #expect(try store.reminder("bare") == Self.bare)
    }

    @Test func theColumnsAreTheTablesAndTheValuesCodables() throws {
        let store = try makeStore()
        let columns = try store.read { db in try db.columns(in: Reminder.databaseTableName).map(\.name) }
        for reminder in [Self.full, Self.bare] {
            let written = try reminder.databaseDictionary
            #expect(Set(written.keys) == Set(columns))
            let viaCodable = try JSONDecoder().decode(Reminder.self, from: JSONEncoder().encode(reminder))
            #expect(try Reminder(row: Row(written)) == viaCodable)
        }
    }

    @Test func aDueDateThatDoesNotReadIsNone() throws {
        var values: [String: (any DatabaseValueConvertible)?] = try Self.full.databaseDictionary
        values["dueDate"] = "not a date"
        #expect(try Reminder(row: Row(values)).dueDate == nil)
        values["dueDate"] = 42
        #expect(try Reminder(row: Row(values)).dueDate == nil)
        values["status"] = "lost"
        #expect(throws: CoreError.self) { try Reminder(row: Row(values)) }
    }
}
