import Foundation
import RemindersCore

/// Due dates as a row shows them: relative near today ("Today 14:30",
/// "Tomorrow", "Yesterday"), a weekday within the week ahead, the day and
/// month this year, the full date otherwise.
enum DueDateText {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(_ due: DueDate, clock: AppClock) -> String {
        let today = DueDate(moment: clock.now, in: clock.timeZone, includingTime: false)
        let days = dayNumber(due) - dayNumber(today)
        var text: String
        switch days {
        case 0: text = "Today"
        case 1: text = "Tomorrow"
        case -1: text = "Yesterday"
        case 2...6: text = weekdays[weekday(due)]
        default:
            text = "\(weekdays[weekday(due)]) \(due.day) \(months[due.month - 1])"
            if due.year != today.year { text += " \(due.year)" }
        }
        if let time = due.time {
            text += String(format: " %02d:%02d", time.hour, time.minute)
        }
        return text
    }

    /// Days since 0001-01-01 in the proleptic Gregorian calendar (no time
    /// zones involved: due dates are wall-clock dates).
    static func dayNumber(_ date: DueDate) -> Int {
        var y = date.year
        var m = date.month
        if m <= 2 {
            y -= 1
            m += 12
        }
        return 365 * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5 + date.day
    }

    /// 0 = Sunday.
    static func weekday(_ date: DueDate) -> Int {
        // 2000-01-02 was a Sunday.
        let sunday = dayNumber(DueDate(year: 2000, month: 1, day: 2) ?? date)
        return ((dayNumber(date) - sunday) % 7 + 7) % 7
    }
}
