import Foundation
import GRDB
import Synchronization
import Testing
import TestSupport
@testable import RemindersCore

/// A window of a long list is read another way than the whole list (keys
/// first, from an index, and for All, Today and Scheduled in the user's
/// order list by list), so every window must be the first rows of the whole
/// list, whatever the ties.
@Suite("Windows of lists")
struct WindowOrderTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func everyWindowIsTheStartOfTheWholeList(seed: UInt64) throws {
        print("windows of lists: seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let store = try makeStore()
        var listIDs: [String] = []
        for index in 0..<4 {
            listIDs.append(try store.createList(title: ["Home", "home", "Work", "Errands"][index]).id)
        }
        let titles = ["apple", "Apple", "banana", "Éclair", "zucchini", "apple pie"]
        let dues = [nil, "2026-02-27", "2026-03-01", "2026-03-01T09:00", "2026-03-01T11:30", "2026-03-05"]
        let statuses: [ReminderStatus] = [.incomplete, .incomplete, .completing, .completed]
        for _ in 0..<60 {
            let reminder = try store.createReminder(ReminderDraft(
                listID: listIDs[random.below(listIDs.count)], title: titles[random.below(titles.count)],
                dueDate: dues[random.below(dues.count)].flatMap(DueDate.init),
                priority: Priority(rawValue: random.below(4)) ?? .none, isFlagged: random.below(3) == 0,
                tags: random.below(2) == 0 ? ["x"] : []))
            // Ties of positions and statuses the store alone would not make.
            try store.writer.write { db in
                try db.execute(sql: "UPDATE reminders SET position = ?, status = ? WHERE id = ?",
                               arguments: [random.below(5), statuses[random.below(statuses.count)].rawValue, reminder.id])
            }
        }
        try store.writer.write { db in
            for id in listIDs {
                try db.execute(sql: "UPDATE remindersLists SET position = ? WHERE id = ?", arguments: [random.below(2), id])
            }
        }

        let filters: [ReminderFilter] = [.all, .today, .scheduled, .flagged, .completed, .tag("x"), .list(listIDs[0])]
        for filter in filters {
            for sort in SortOrder.allCases {
                for showCompleted in [false, true] {
                    let whole = try store.read { db in
                        try Queries.reminders(db, filter: filter, sort: sort, showCompleted: showCompleted, clock: store.clock)
                    }.map(\.id)
                    for size in [1, 3, 10, whole.count + 1] {
                        let window = try store.read { db in
                            try Queries.reminders(db, filter: filter, sort: sort, showCompleted: showCompleted,
                                                  clock: store.clock, limit: size)
                        }.map(\.id)
                        #expect(window == Array(whole.prefix(size)),
                                "seed \(seed): \(filter), \(sort), completed shown: \(showCompleted), window \(size)")
                    }
                }
            }
        }
    }
}

extension SeededGenerator {
    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }
}

/// Today and Scheduled by due date hold dated reminders only, so a window
/// of them is read from the index of open due dates in order (sorting only
/// the ties of one date), not by sorting every reminder due: Today's first
/// frame reads 100 of thousands.
@Suite("Windows by due date")
struct DueWindowPlanTests {
    @Test(arguments: [ReminderFilter.today, .scheduled])
    func aWindowByDueDateReadsTheIndexInOrder(filter: ReminderFilter) throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        for day in 1...20 {
            try store.createReminder(ReminderDraft(listID: list.id, title: "r\(day)", dueDate: DueDate(String(format: "2026-02-%02d", day))))
        }
        let statements = Mutex<[String]>([])
        let rows = try store.writer.read { db in
            db.trace { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.expandedSQL) } }
            }
            defer { db.trace(options: [], nil) }
            return try Queries.reminders(db, filter: filter, sort: .due, showCompleted: false, clock: store.clock, limit: 5)
        }
        #expect(rows.map(\.reminder.title) == ["r1", "r2", "r3", "r4", "r5"])
        let window = try #require(statements.withLock { $0 }.first { $0.contains("LIMIT") })
        let plan = try store.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + window).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("reminders_open_due") }, "\(plan)")
        // One whole sort, the window's own five rows; the keys come in order.
        #expect(plan.filter { $0.hasSuffix("USE TEMP B-TREE FOR ORDER BY") }.count == 1, "\(plan)")
    }
}
