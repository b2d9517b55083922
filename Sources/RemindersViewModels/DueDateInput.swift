import Foundation
import RemindersCore

/// Parses what a user types in the due date and time fields of the
/// reminder form, with a message that says exactly what is wrong.
public enum DueDateInput {
    /// Parses a date ("YYYY-MM-DD", empty for none) and a time ("HH:MM",
    /// 24-hour, empty for none). Returns the due date or the field errors.
    public static func parse(date dateText: String, time timeText: String)
        -> Result<DueDate?, DueDateInputError> {
        let dateText = dateText.trimmingCharacters(in: .whitespaces)
        let timeText = timeText.trimmingCharacters(in: .whitespaces)
        var error = DueDateInputError()
        var date: (year: Int, month: Int, day: Int)?
        var time: (hour: Int, minute: Int)?
        if !dateText.isEmpty {
            switch parseDate(dateText) {
            case .success(let value): date = value
            case .failure(let message): error.date = message.text
            }
        }
        if !timeText.isEmpty {
            switch parseTime(timeText) {
            case .success(let value): time = value
            case .failure(let message): error.time = message.text
            }
            if dateText.isEmpty, error.time == nil { error.date = "enter a date for the time \(timeText)" }
        }
        if error.date != nil || error.time != nil { return .failure(error) }
        guard let date else { return .success(nil) }
        guard let due = DueDate(year: date.year, month: date.month, day: date.day,
                                hour: time?.hour, minute: time?.minute) else {
            error.date = "\(dateText) is not a valid date"
            return .failure(error)
        }
        return .success(due)
    }

    /// The two fields for an existing due date: ("2026-03-01", "09:30") or
    /// ("2026-03-01", "").
    public static func fields(for due: DueDate?) -> (date: String, time: String) {
        guard let due else { return ("", "") }
        guard let time = due.time else { return (due.dateString, "") }
        return (due.dateString, String(format: "%02d:%02d", time.hour, time.minute))
    }

    struct Message: Error { var text: String }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]

    static func parseDate(_ text: String) -> Result<(year: Int, month: Int, day: Int), Message> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            return .failure(Message(text: "date must be YYYY-MM-DD, e.g. 2026-03-01"))
        }
        guard DueDate.years.contains(year) else {
            return .failure(Message(text: "year \(year) is out of range (\(DueDate.years.lowerBound)–\(DueDate.years.upperBound))"))
        }
        guard (1...12).contains(month) else {
            return .failure(Message(text: "\(text) has no month \(month) (months are 01–12)"))
        }
        guard let probe = DueDate(year: year, month: month, day: 1) else {
            return .failure(Message(text: "\(text) is not a valid date"))
        }
        let days = (28...31).last { DueDate(year: probe.year, month: month, day: $0) != nil } ?? 28
        guard (1...days).contains(day) else {
            return .failure(Message(text: "\(text): \(monthNames[month - 1]) \(year) has \(days) days"))
        }
        return .success((year, month, day))
    }

    static func parseTime(_ text: String) -> Result<(hour: Int, minute: Int), Message> {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else {
            return .failure(Message(text: "time must be HH:MM (24-hour), e.g. 09:30"))
        }
        guard (0...23).contains(hour) else { return .failure(Message(text: "\(text): hour must be 00–23")) }
        guard (0...59).contains(minute) else { return .failure(Message(text: "\(text): minutes must be 00–59")) }
        return .success((hour, minute))
    }
}

/// Messages for the date and time fields; nil where the field is fine.
public struct DueDateInputError: Error, Equatable, Sendable {
    /// What is wrong with the date field; nil when it is fine.
    public var date: String?
    /// What is wrong with the time field; nil when it is fine.
    public var time: String?
}
