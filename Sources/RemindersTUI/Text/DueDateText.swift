import Foundation
import RemindersCore

/// Due dates as a row shows them: relative near today ("Today 14:30",
/// "Tomorrow", "Yesterday"), a weekday within the week ahead, the day and
/// month this year, the full date otherwise.
enum DueDateText {
    static let weekdays = DueDate.weekdaySymbols
    static let months = DueDate.monthNames.map { String($0.prefix(3)) }

    /// `dated`: always the weekday with the day and month ("Mon 30 Nov"),
    /// for dates side by side: "Mon, Wed, Fri 4 Dec" read like a weekly
    /// rule's days.
    static func format(_ due: DueDate, clock: AppClock, dated: Bool = false) -> String {
        let today = clock.dueDate(at: clock.now, includingTime: false)
        let days = due.dayNumber - today.dayNumber
        var text: String
        switch days {
        case 0 where !dated: text = "Today"
        case 1 where !dated: text = "Tomorrow"
        case -1 where !dated: text = "Yesterday"
        case 2...6 where !dated: text = weekdays[due.weekday]
        default:
            text = "\(weekdays[due.weekday]) \(due.day) \(months[due.month - 1])"
            if due.year != today.year { text += " \(due.year)" }
        }
        if let time = due.timeString { text += " " + time }
        return text
    }
}
