import ArgumentParser
import Foundation
import RemindersCore

/// `reminders due [--within DURATION] [--due-hour H] [--json]`: past-due
/// reminders and those falling due soon, for cron jobs and status bars.
struct DueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "due",
        abstract: "List past-due reminders and those due soon.",
        discussion: """
            Due times are wall-clock times in this device's time zone; a reminder \
            with a date but no time falls due at the due hour (09:00 unless \
            --due-hour or REMINDERS_DUE_HOUR says otherwise). Handy in a status bar: \
            `reminders due --within 2h --json`.
            """)

    @Option(help: ArgumentHelp(
        "How far ahead to look: minutes, hours, days or weeks, e.g. 90m, 2h, 1d, 1h30m.", valueName: "duration"))
    var within: String = "1d"

    @OptionGroup var dueHour: DueHourOption

    @Flag(help: "Print an array of {id, listID, listTitle, title, dueDate, dueAt, alertAt, isPastDue}, earliest first.")
    var json = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
        try usage { _ = try TimeSpan(parsing: within) }
    }

    func run() throws {
        let context = try ReadingContext(common)
        let span = try TimeSpan(parsing: within)
        let hour = try dueHour.hour(common)
        let due = try context.read { db in
            try DueQueries.due(db, within: span, clock: context.clock, defaultHour: hour)
        }
        if json {
            try JSONOutput.print(due.map { DueJSON($0, timeZone: context.clock.timeZone) })
            return
        }
        // Past due (red on Home), due now (a date alone after the due hour
        // today), then what falls due within the span.
        let now = context.clock.now
        let sections = [
            ("Past due", due.filter(\.isPastDue)),
            ("Due now", due.filter { !$0.isPastDue && $0.dueAt <= now }),
            ("Due within \(span)", due.filter { $0.dueAt > now }),
        ].filter { !$0.1.isEmpty }
        if sections.isEmpty {
            print("Nothing due within \(span).")
        }
        for (index, (heading, reminders)) in sections.enumerated() {
            if index > 0 { print("") }
            print("\(heading) (\(reminders.count))")
            print(ReminderTable.render(reminders.map(\.row), showList: true))
        }
    }
}

/// `--due-hour`, shared by `due` and the full-screen app: when a reminder
/// with a date but no time falls due.
struct DueHourOption: ParsableArguments {
    @Option(name: .customLong("due-hour"), help: ArgumentHelp(
        "When a reminder with a date but no time falls due, 0-23 (env REMINDERS_DUE_HOUR; config due-hour; default 9).",
        valueName: "hour"))
    var value: String?

    func validate() throws {
        try usage {
            if let value { _ = try DueQueries.parseHour(value) }
            if let text = ProcessInfo.processInfo.environment["REMINDERS_DUE_HOUR"], !text.isEmpty {
                do {
                    _ = try DueQueries.parseHour(text)
                } catch let error as CoreError {
                    throw CoreError.invalidInput("REMINDERS_DUE_HOUR: \(error.description)")
                }
            }
        }
    }

    /// The option, else `REMINDERS_DUE_HOUR`, else the config file's
    /// `due-hour`, else 9.
    func hour(_ common: CommonOptions) throws -> Int {
        try EffectiveSettings(common: common, dueHour: value).dueHour.value
    }
}

/// `due --json`: one reminder with the moment it falls due.
struct DueJSON: Encodable {
    var id: String
    var listID: String
    var listTitle: String
    var title: String
    /// As stored: "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM" (floating).
    var dueDate: String
    /// The moment, ISO 8601 with this device's UTC offset.
    var dueAt: String
    /// When it alerts, written as `dueAt`: `dueAt` itself, or earlier by
    /// the reminder's alert-before lead.
    var alertAt: String
    var isPastDue: Bool

    init(_ due: DueReminder, timeZone: TimeZone) {
        id = due.id
        listID = due.reminder.remindersListID
        listTitle = due.row.listTitle
        title = due.reminder.title
        dueDate = due.dueDate.description
        dueAt = Self.moment(due.dueAt, in: timeZone)
        alertAt = Self.moment(due.alertAt, in: timeZone)
        isPastDue = due.isPastDue
    }

    /// An alert of `reminders alerts --json`: its moment is the alert's
    /// (a snooze's end, if it ends one).
    init(_ alert: PlannedAlert, clock: AppClock) {
        let reminder = alert.reminder
        id = reminder.id
        listID = reminder.listID
        listTitle = reminder.listTitle
        title = reminder.title
        dueDate = reminder.dueDate.description
        dueAt = Self.moment(reminder.dueAt, in: clock.timeZone)
        alertAt = Self.moment(alert.alertAt, in: clock.timeZone)
        isPastDue = Queries.isPastDue(reminder.dueDate, clock: clock)
    }

    /// ISO 8601 with the zone's UTC offset at that moment.
    static func moment(_ date: Date, in timeZone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
