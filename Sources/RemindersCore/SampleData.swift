import Foundation
import GRDB

/// Sample lists and reminders for a first run, with due dates relative to
/// the app clock so that Today and past due always have something to show.
public enum SampleData {
    /// Creates the sample data. Returns false (and changes nothing) when the
    /// database already holds lists.
    @discardableResult
    public static func seed(_ store: RemindersStore) throws -> Bool {
        let today = store.clock.dueDate(at: store.clock.now, includingTime: false)
        func day(_ offset: Int, _ hour: Int? = nil, _ minute: Int = 0) -> DueDate {
            var date = today.adding(days: offset)
            if let hour { date.time = (hour, minute) }
            return date
        }
        return try store.write { db in
            guard try RemindersList.fetchCount(db) == 0 else { return false }
            let lists = [
                RemindersList(title: "Personal", color: "#4a99ef", position: 0),
                RemindersList(title: "Work", color: "#e8524a", position: 1),
                RemindersList(title: "Groceries", color: "#5cc15a", position: 2),
            ]
            for list in lists { try list.insert(db) }
            let samples: [(list: Int, title: String, notes: String, due: DueDate?, priority: Priority, flagged: Bool, tags: [String])] = [
                (0, "Call mom", "Ask about the weekend", day(0, 18), .none, true, ["family"]),
                (0, "Renew passport", "Photos are in the desk drawer\nForm DS-82", day(-2), .high, false, ["errands"]),
                (0, "Book dentist appointment", "", day(3), .medium, false, ["health"]),
                (0, "Read \"The Pragmatic Programmer\"", "Chapters 4 and 5", nil, .low, false, ["reading"]),
                (1, "Prepare sprint demo", "Show sync between two terminals", day(0, 14, 30), .high, true, ["work"]),
                (1, "Review pull requests", "", day(1, 10), .medium, false, ["work"]),
                (1, "Write quarterly report", "Numbers from the benchmark table", day(7), .none, false, ["work", "writing"]),
                (1, "Expense receipts", "", day(-1, 17), .low, false, ["errands"]),
                (2, "Milk", "Oat, 2 cartons", day(0), .none, false, []),
                (2, "Coffee beans", "", nil, .none, true, []),
                (2, "Tomatoes", "", nil, .none, false, []),
                (2, "Bread", "Sourdough", day(1), .none, false, []),
            ]
            for (index, sample) in samples.enumerated() {
                let reminder = Reminder(
                    remindersListID: lists[sample.list].id, title: sample.title, notes: sample.notes,
                    dueDate: sample.due, priority: sample.priority, isFlagged: sample.flagged, position: index)
                try reminder.insert(db)
                try RemindersStore.setTags(db, reminderID: reminder.id, tags: sample.tags)
            }
            let done = Reminder(
                remindersListID: lists[2].id, title: "Eggs", status: .completed,
                completedAt: store.clock.timestamp(), position: samples.count)
            try done.insert(db)
            let covers = ["sunrise", "ocean", "forest"]
            for (list, cover) in zip(lists, covers) {
                if let png = SampleCovers.png(named: cover) {
                    try RemindersListCover(remindersListID: list.id, image: png).insert(db)
                }
            }
            return true
        }
    }
}
