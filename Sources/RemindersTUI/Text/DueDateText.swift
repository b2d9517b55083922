import Foundation
import RemindersCore

/// Due dates as a row shows them: relative near today ("Today 14:30",
/// "Tomorrow", "Yesterday"), a weekday within the week ahead, the day and
/// month this year, the full date otherwise.
enum DueDateText {
    static let weekdays = DueDate.weekdaySymbols
    static let months = DueDate.monthNames.map { String($0.prefix(3)) }

    static func format(_ due: DueDate, clock: AppClock) -> String {
        let today = DueDate(moment: clock.now, in: clock.timeZone, includingTime: false)
        let days = due.dayNumber - today.dayNumber
        var text: String
        switch days {
        case 0: text = "Today"
        case 1: text = "Tomorrow"
        case -1: text = "Yesterday"
        case 2...6: text = weekdays[due.weekday]
        default:
            text = "\(weekdays[due.weekday]) \(due.day) \(months[due.month - 1])"
            if due.year != today.year { text += " \(due.year)" }
        }
        if let time = due.timeString { text += " " + time }
        return text
    }
}
