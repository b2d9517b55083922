import Foundation
import RemindersCore

/// Parses what a user types in the due date and time fields of the
/// reminder form, with a message that says exactly what is wrong.
public enum DueDateInput {
    /// Parses the date field (anything `NaturalDate` reads: "fri 9am",
    /// "in 3 days", "2026-12-01"; empty for none) and the time field (a
    /// time alone: "9am", "21:00"; empty for none, or for the date's own
    /// time). Returns the due date or the field errors.
    public static func parse(date dateText: String, time timeText: String, dates: NaturalDate)
        -> Result<DueDate?, DueDateInputError> {
        let dateText = dateText.trimmingCharacters(in: .whitespaces)
        let timeText = timeText.trimmingCharacters(in: .whitespaces)
        var problems = DueDateInputError()
        var date: DueDate?
        var time: (hour: Int, minute: Int)?
        if !dateText.isEmpty {
            do { date = try dates.parse(dateText) } catch { problems.date = error.description }
        }
        if !timeText.isEmpty {
            do { time = try dates.time(timeText) } catch { problems.time = error.description }
            if dateText.isEmpty, problems.time == nil { problems.date = "enter a date for the time \(timeText)" }
        }
        if let date, time != nil, let own = date.timeString {
            problems.time = "the date already says \(own): keep one"
        }
        if problems.date != nil || problems.time != nil { return .failure(problems) }
        guard var date else { return .success(nil) }
        if let time { date.time = time }
        return .success(date)
    }

    /// The two fields for an existing due date: ("2026-03-01", "09:30") or
    /// ("2026-03-01", "").
    public static func fields(for due: DueDate?) -> (date: String, time: String) {
        guard let due else { return ("", "") }
        return (due.dateString, due.timeString ?? "")
    }
}

/// Messages for the date and time fields; nil where the field is fine.
public struct DueDateInputError: Error, Equatable, Sendable {
    /// What is wrong with the date field; nil when it is fine.
    public var date: String?
    /// What is wrong with the time field; nil when it is fine.
    public var time: String?
}
