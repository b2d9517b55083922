import Foundation
import RemindersCore
import Testing
@testable import RemindersTUI

/// The right-hand columns of reminder rows (due date, repeat, tags, flag)
/// leave the titles at least half the width.
@Suite struct RowColumnsTests {
    let clock = AppClock(pinned: pinnedNow, timeZone: TimeZone(identifier: "UTC")!)

    func row(_ title: String, due: String?, tags: [String], flagged: Bool = false) -> ReminderRow {
        ReminderRow(reminder: Reminder(remindersListID: "l", title: title, dueDate: due.flatMap(DueDate.init), isFlagged: flagged),
                    tags: tags, listTitle: "Home", listColor: "#ff0000", isPastDue: false)
    }

    var rows: [ReminderRow] {
        [row("Prepare sprint demo", due: "2026-03-03T14:30", tags: ["work"], flagged: true),
         row("Groceries", due: "2026-03-04T17:00", tags: ["groceries", "weekly", "errands"])]
    }

    @Test(arguments: [40, 60, 80])
    func titlesKeepHalfANarrowRow(width: Int) {
        let columns = ListDetailScreen.columns(for: rows, width: width, clock: clock)
        #expect(columns.rightWidth <= width - width / 2 - 2, "\(columns)")
        // The due date stays whole; the tags give way, down to none.
        #expect(columns.due == ListDetailScreen.columns(for: rows, width: 200, clock: clock).due)
        #expect(columns.tags == 0 || columns.tags >= ListDetailScreen.minimumTags)
    }

    @Test func aWideRowKeepsItsTagsWhole() {
        let columns = ListDetailScreen.columns(for: rows, width: 120, clock: clock)
        #expect(columns.tags == "#groceries #weekly #errands".count)
    }

    @Test func aTagColumnCutShowsWhereItWasCut() {
        let columns = ListDetailScreen.columns(for: rows, width: 60, clock: clock)
        let lines = ListDetailScreen.rowLines(rows[1], width: 60, showList: false, clock: clock, theme: Theme(mode: .indexed256),
                                              spinner: "", columns: columns)
        let right = lines[0].right.map(\.text).joined()
        #expect(right.contains("#groceries") || right.contains("…"), "\(right)")
        #expect(DisplayWidth.of(right) == columns.rightWidth, "\(right)")
    }
}
