import Foundation

/// How long before its due time a reminder alerts: stored in
/// `reminders.alertBefore` as seconds, nil for "at the due time" (every
/// reminder written before early alerts existed reads so). A due date
/// without a time alerts from its day's default hour (`DueDate.moment`).
public enum AlertBefore {
    /// Longer leads are refused, as long durations are (`TimeSpan.maximum`).
    public static let maximumSeconds = 366 * 24 * 3600

    /// The leads the form offers, in its order: nil is "at the due time".
    public static let choices: [Int?] = [nil, 5 * 60, 15 * 60, 30 * 60, 3600, 24 * 3600]

    /// Parses what `--alert-before` takes: "none" (no early alert: at the
    /// due time), or a duration ("15m", "1h", "1d", "1h30m").
    /// - throws: `CoreError.invalidInput` naming what is wrong.
    public static func parse(_ text: String) throws -> Int? {
        let trimmed = text.trimmingWhitespace().lowercased()
        if ["none", "no", "off", "at time", "at due time"].contains(trimmed) { return nil }
        do {
            return try TimeSpan(parsing: trimmed).minutes * 60
        } catch let CoreError.invalidInput(message) {
            throw CoreError.invalidInput("alert-before: \(message), or none")
        }
    }

    /// "At due time", "15 minutes before", "1 hour before", "1 day before",
    /// "1h30m before".
    public static func describe(_ seconds: Int?) -> String {
        guard let seconds, seconds > 0 else { return "At due time" }
        let minutes = seconds / 60
        switch minutes {
        case 1: return "1 minute before"
        case 2..<60: return "\(minutes) minutes before"
        case 60: return "1 hour before"
        case 24 * 60: return "1 day before"
        case 7 * 24 * 60: return "1 week before"
        default:
            if minutes % (24 * 60) == 0 { return "\(minutes / (24 * 60)) days before" }
            if minutes % 60 == 0, minutes < 24 * 60 { return "\(minutes / 60) hours before" }
            return "\(TimeSpan(minutes: minutes)) before"
        }
    }

    /// The moment a reminder due `due` alerts when it alerts `seconds`
    /// before: its due moment (`DueDate.moment`, so a date without a time
    /// counts from `defaultHour`) less the lead, nil for none ("at the due
    /// time").
    ///
    /// Whole days of the lead are calendar days, as RFC 5545 counts the
    /// days of an alarm's trigger: "1 day before" a reminder due 09:00 is
    /// 09:00 the day before, also across a change to or from summer time
    /// (23 or 25 hours then). The rest (hours and minutes) is elapsed
    /// time: "1 hour before" 03:30 on the night clocks go forward is 01:30,
    /// an hour earlier by any watch. A wall-clock time that does not exist
    /// (in the hour skipped in spring) is read with the offset from before
    /// the change, 02:30 as 03:30 summer time; one that comes twice (the
    /// hour repeated in autumn), as its first occurrence. `DueDate.moment`
    /// does both, for due and alert times alike.
    public static func moment(of due: DueDate, before seconds: Int?, in timeZone: TimeZone?,
                              defaultHour: Int) -> Date? {
        let lead = max(seconds ?? 0, 0)
        let day = 24 * 3600
        let wallClock = lead >= day ? due.adding(days: -(lead / day)) : due
        return wallClock.moment(in: timeZone, defaultHour: defaultHour)?.addingTimeInterval(-TimeInterval(lead % day))
    }

    /// The short form for the command line and JSON readers: "15m", "1h",
    /// "1d", or "none".
    public static func short(_ seconds: Int?) -> String {
        guard let seconds else { return "none" }
        return TimeSpan(minutes: seconds / 60).description
    }
}
