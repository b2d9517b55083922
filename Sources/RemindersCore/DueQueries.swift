import Foundation
import GRDB

/// An open reminder with a due date, and the moment it falls due.
public struct DueReminder: Hashable, Sendable, Identifiable {
    public var row: ReminderRow
    /// The due date (never nil here).
    public var dueDate: DueDate
    /// When it falls due: its date and time in the clock's time zone, or
    /// the default hour of its day for a date without a time.
    public var dueAt: Date
    /// When it alerts: `dueAt` less the reminder's `alertBefore`
    /// (`AlertBefore.moment`), `dueAt` itself when it has none.
    public var alertAt: Date

    public init(row: ReminderRow, dueDate: DueDate, dueAt: Date, alertAt: Date? = nil) {
        self.row = row
        self.dueDate = dueDate
        self.dueAt = dueAt
        self.alertAt = alertAt ?? dueAt
    }

    public var id: String { row.id }
    public var reminder: Reminder { row.reminder }
    /// Past due as everywhere else in the app: a date alone from the next
    /// day, a date with a time from that minute.
    public var isPastDue: Bool { row.isPastDue }
}

/// Which reminders are due when: for `reminders due` (past due and coming
/// up) and for the alerts of the running app. Due dates are floating
/// wall-clock times, turned into moments in the clock's time zone; a date
/// without a time falls due at a default hour, 09:00 unless configured.
public enum DueQueries {
    /// The hour at which a date without a time falls due.
    public static let defaultHour = 9

    /// Reads an hour for dates without a time: "9", "09", "9:00" or
    /// "09:00" (whole hours, 0 to 23).
    public static func parseHour(_ raw: String) throws -> Int {
        let text = raw.trimmingWhitespace()
        var hourText = Substring(text)
        if let colon = text.firstIndex(of: ":") {
            guard text[text.index(after: colon)...] == "00" else {
                throw CoreError.invalidInput("due hour '\(raw)' must be a whole hour from 0 to 23 (e.g. 9 or 09:00)")
            }
            hourText = text[..<colon]
        }
        guard (1...2).contains(hourText.count), hourText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let hour = Int(hourText), (0...23).contains(hour) else {
            throw CoreError.invalidInput("due hour '\(raw)' must be a whole hour from 0 to 23 (e.g. 9 or 09:00)")
        }
        return hour
    }

    /// The moment a due date falls due in the clock's time zone.
    public static func moment(of due: DueDate, clock: AppClock, defaultHour: Int = defaultHour) -> Date? {
        clock.moment(of: due, defaultHour: defaultHour)
    }

    /// A reminder read with `Queries.rowColumns`, with its due and alert
    /// moments in the clock's time zone; nil without a due date.
    static func dueReminder(_ row: ReminderRow, clock: AppClock, defaultHour: Int) -> DueReminder? {
        guard let due = row.reminder.dueDate,
              let dueAt = moment(of: due, clock: clock, defaultHour: defaultHour) else { return nil }
        let alertAt = AlertBefore.moment(of: due, before: row.reminder.alertBefore, in: clock.zone,
                                         defaultHour: defaultHour)
        return DueReminder(row: row, dueDate: due, dueAt: dueAt, alertAt: alertAt)
    }

    /// Every open (not completed) reminder with a due date, earliest due
    /// moment first. With `through`, only those falling due at or before it.
    public static func scheduled(
        _ db: Database, clock: AppClock, defaultHour: Int = defaultHour, through end: Date? = nil
    ) throws -> [DueReminder] {
        var sql = """
            SELECT \(Queries.rowColumns)
            FROM reminders JOIN remindersLists ON remindersLists.id = reminders.remindersListID
            WHERE reminders.dueDate IS NOT NULL AND reminders.status != 'completed'
            """
        var arguments: StatementArguments = []
        if let end {
            // Text comparison on the date part narrows the scan; moments decide.
            sql += " AND reminders.dueDate <= ?"
            arguments += [DueDate.lastStored(on: clock.dueDate(at: end, includingTime: false).dateString)]
        }
        var result: [DueReminder] = []
        for reminderRow in try Queries.reminderRows(db, sql: sql, arguments: arguments, clock: clock) {
            guard let due = dueReminder(reminderRow, clock: clock, defaultHour: defaultHour) else { continue }
            if let end, due.dueAt > end { continue }
            result.append(due)
        }
        return result.sorted(by: order)
    }

    /// Past due and upcoming: every open reminder that fell due before now,
    /// and those falling due within `span` from now, earliest first.
    public static func due(
        _ db: Database, within span: TimeSpan, clock: AppClock, defaultHour: Int = defaultHour
    ) throws -> [DueReminder] {
        try scheduled(db, clock: clock, defaultHour: defaultHour, through: clock.now.addingTimeInterval(span.timeInterval))
    }

    /// Earliest moment first; ties by title, then id, so output is stable.
    static func order(_ a: DueReminder, _ b: DueReminder) -> Bool {
        if a.dueAt != b.dueAt { return a.dueAt < b.dueAt }
        let (x, y) = (a.reminder.title.lowercased(), b.reminder.title.lowercased())
        if x != y { return x < y }
        return a.id < b.id
    }
}
