import Foundation
import GRDB

/// A reminder as an alert shows it: what, in which list, and when. Read
/// with a few columns, no tags and no subtasks: Due now may hold many.
public struct AlertingReminder: Hashable, Sendable, Identifiable {
    public var id: String
    public var listID: String
    public var title: String
    public var listTitle: String
    /// "#rrggbb".
    public var listColor: String
    public var status: ReminderStatus
    /// The due date as set: a date, or a date and time.
    public var dueDate: DueDate
    /// When it falls due (`DueDate.moment`, a date alone at the default
    /// hour).
    public var dueAt: Date
    /// When its due date alerts: `dueAt` less its alert-before lead
    /// (`AlertBefore.moment`).
    public var alertAt: Date

    public init(id: String, listID: String, title: String, listTitle: String, listColor: String, status: ReminderStatus,
                dueDate: DueDate, dueAt: Date, alertAt: Date) {
        self.id = id
        self.listID = listID
        self.title = title
        self.listTitle = listTitle
        self.listColor = listColor
        self.status = status
        self.dueDate = dueDate
        self.dueAt = dueAt
        self.alertAt = alertAt
    }

    /// The columns `init(row:)` reads, from `reminders` joined with
    /// `remindersLists`.
    static let columns = """
        reminders.id, reminders.remindersListID, reminders.title, reminders.status, reminders.dueDate,
        reminders.alertBefore, remindersLists.title AS listTitle, remindersLists.color AS listColor
        """

    /// A row of `columns`; nil for a reminder without a readable due date.
    init?(row: Row, timeZone: TimeZone?, defaultHour: Int) throws {
        let id: String = row["id"]
        let rawStatus: String = row["status"]
        guard let status = ReminderStatus(rawValue: rawStatus) else {
            throw CoreError.database("reminder \(id) has status '\(rawStatus)', which this version does not know")
        }
        guard let due = DueDate(stored: row["dueDate"]), let dueAt = due.moment(in: timeZone, defaultHour: defaultHour),
              let alertAt = AlertBefore.moment(of: due, before: row["alertBefore"], in: timeZone, defaultHour: defaultHour)
        else { return nil }
        self.init(id: id, listID: row["remindersListID"], title: row["title"], listTitle: row["listTitle"],
                  listColor: row["listColor"], status: status, dueDate: due, dueAt: dueAt, alertAt: alertAt)
    }

    /// Earliest due first; ties by title, then id, so the order is stable.
    static func order(_ a: AlertingReminder, _ b: AlertingReminder) -> Bool {
        if a.dueAt != b.dueAt { return a.dueAt < b.dueAt }
        let (x, y) = (a.title.lowercased(), b.title.lowercased())
        if x != y { return x < y }
        return a.id < b.id
    }
}

/// An alert the scheduler raises: a reminder and the moment it alerts.
public struct PlannedAlert: Hashable, Sendable, Identifiable {
    public var reminder: AlertingReminder
    /// The moment it alerts: the reminder's alert moment, or the end of
    /// the snooze this alert ends.
    public var alertAt: Date
    /// The end of the snooze, which the claim names; nil for a first alert.
    public var snoozedUntil: Date?

    public init(reminder: AlertingReminder, alertAt: Date, snoozedUntil: Date? = nil) {
        self.reminder = reminder
        self.alertAt = alertAt
        self.snoozedUntil = snoozedUntil
    }

    public var id: String { reminder.id }

    /// Claims the alert in the device's log; false when this device (this
    /// process or another one) already raised it.
    public func claim(_ db: Database, at timestamp: String) throws -> Bool {
        if let snoozedUntil {
            return try DueAlertLog.claimSnoozed(db, reminderID: id, dueDate: reminder.dueDate, until: snoozedUntil,
                                                at: timestamp)
        }
        return try DueAlertLog.record(db, reminderID: id, dueDate: reminder.dueDate, at: timestamp)
    }
}

/// What the due-alert scheduler needs to know at one moment, from reads
/// that stay small however many reminders there are (the screens are
/// measured with 100,000):
///
/// - reminders alerting at their due time, from the index of open dated
///   reminders (`reminders_open_due`), only from the start of the
///   catch-up window to the first alert after now;
/// - reminders alerting before their due time, whole, from an index of
///   their own (`reminders_open_alertBefore`): they are few, and a lead of
///   up to a year can make any of them the next to alert;
/// - the log's rows for current due dates that are neither dismissed nor
///   completed (Due now, and snoozes);
/// - the past-due count, a range count of the first index, and the next
///   reminder to become past due, from its first rows after today began.
///
/// A plan is read for one moment; the scheduler reads a new one whenever
/// the data changes or its timer fires.
public struct DueAlertPlan: Equatable, Sendable {
    /// The moment the plan was read for.
    public var now: Date
    /// Alerts whose moment came that this device has not raised yet,
    /// earliest first: to claim (`PlannedAlert.claim`) and announce.
    public var due: [PlannedAlert]
    /// Open reminders this device alerted for, for their current due
    /// dates, not dismissed and not snoozed: the Home screen's Due now,
    /// earliest due first.
    public var shown: [AlertingReminder]
    /// Open reminders past due, as Home counts them.
    public var pastDueCount: Int
    /// When the next alert comes (a first alert, or a snooze's end).
    public var nextAlertAt: Date?
    /// When the next open reminder becomes past due.
    public var nextPastDueAt: Date?

    public init(now: Date, due: [PlannedAlert] = [], shown: [AlertingReminder] = [], pastDueCount: Int = 0,
                nextAlertAt: Date? = nil, nextPastDueAt: Date? = nil) {
        self.now = now
        self.due = due
        self.shown = shown
        self.pastDueCount = pastDueCount
        self.nextAlertAt = nextAlertAt
        self.nextPastDueAt = nextPastDueAt
    }

    /// Reads the plan for the clock's now.
    /// - Parameters:
    ///   - defaultHour: when a date without a time falls due.
    ///   - catchUp: a first alert is raised when its moment came at most
    ///     this long ago, or later while its reminder is not due yet (an
    ///     early alert missed while nothing ran still comes before the due
    ///     time). A snooze's end is raised however long ago it came.
    public static func read(_ db: Database, clock: AppClock, defaultHour: Int, catchUp: TimeInterval) throws -> DueAlertPlan {
        let now = clock.now
        let snapshot = clock.pinned(at: now)
        let zone = clock.zone
        var plan = DueAlertPlan(now: now)
        let windowStart = DueDate(moment: now.addingTimeInterval(-catchUp), in: zone, includingTime: false).description
        let today = snapshot.today
        let scanStart = Self.scanStart(from: now.addingTimeInterval(-catchUp), zone: zone, defaultHour: defaultHour)

        // First alerts: the ones due now (id, alert moment), and the next.
        var firstDue: [(id: String, alertAt: Date)] = []
        var nextAlert: Date?
        func consider(id: String, dueAt: Date, alertAt: Date) {
            if alertAt <= now {
                if now.timeIntervalSince(alertAt) <= catchUp || now < dueAt { firstDue.append((id, alertAt)) }
            } else if nextAlert.map({ alertAt < $0 }) ?? true {
                nextAlert = alertAt
            }
        }

        // At the due time: in due order from the catch-up window's start,
        // until the next alert after now is certain (`scanEnd`).
        let atDueTime = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT reminders.id, reminders.dueDate FROM reminders
            WHERE reminders.status != 'completed' AND reminders.dueDate IS NOT NULL AND reminders.dueDate >= ?
              AND reminders.alertBefore IS NULL AND reminders.status = 'incomplete' AND \(notInLog)
            ORDER BY reminders.dueDate
            """), arguments: [scanStart])
        var stop: (after: Date, text: String)?
        while let row = try atDueTime.next() {
            let text: String = row[1]
            if let stop, text >= stop.text { break }
            guard let due = DueDate(stored: text), let dueAt = due.moment(in: zone, defaultHour: defaultHour) else { continue }
            consider(id: row[0], dueAt: dueAt, alertAt: dueAt)
            if let nextAlert, nextAlert != stop?.after { stop = (nextAlert, Self.scanEnd(after: nextAlert, zone: zone)) }
        }

        // Before the due time: all of them (see above).
        let early = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT reminders.id, reminders.dueDate, reminders.alertBefore FROM reminders
            WHERE reminders.alertBefore IS NOT NULL AND reminders.status != 'completed' AND reminders.dueDate IS NOT NULL
              AND reminders.dueDate >= ? AND reminders.status = 'incomplete' AND \(notInLog)
            """), arguments: [windowStart])
        while let row = try early.next() {
            guard let due = DueDate(stored: row[1]), let dueAt = due.moment(in: zone, defaultHour: defaultHour),
                  let alertAt = AlertBefore.moment(of: due, before: row[2], in: zone, defaultHour: defaultHour)
            else { continue }
            consider(id: row[0], dueAt: dueAt, alertAt: alertAt)
        }

        if !firstDue.isEmpty {
            let rows = try reminders(db, ids: firstDue.map(\.id), timeZone: zone, defaultHour: defaultHour)
            for (id, alertAt) in firstDue {
                if let reminder = rows[id] { plan.due.append(PlannedAlert(reminder: reminder, alertAt: alertAt)) }
            }
        }

        // The log: Due now, and snoozes that end now or later.
        let logged = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT \(AlertingReminder.columns), local_alertsShown.snoozedUntil AS alertSnoozedUntil
            FROM local_alertsShown
            CROSS JOIN reminders ON reminders.id = local_alertsShown.reminderID AND reminders.dueDate = local_alertsShown.dueDate
            JOIN remindersLists ON remindersLists.id = reminders.remindersListID
            WHERE local_alertsShown.dismissedAt IS NULL AND reminders.status != 'completed'
            """))
        while let row = try logged.next() {
            guard let reminder = try AlertingReminder(row: row, timeZone: zone, defaultHour: defaultHour) else { continue }
            let snoozed = (row["alertSnoozedUntil"] as String?).flatMap(DueAlertLog.moment)
            guard let snoozed else {
                plan.shown.append(reminder)
                continue
            }
            guard reminder.status == .incomplete else { continue }
            if snoozed <= now {
                plan.due.append(PlannedAlert(reminder: reminder, alertAt: snoozed, snoozedUntil: snoozed))
            } else if nextAlert.map({ snoozed < $0 }) ?? true {
                nextAlert = snoozed
            }
        }
        plan.due.sort { a, b in a.alertAt != b.alertAt ? a.alertAt < b.alertAt : AlertingReminder.order(a.reminder, b.reminder) }
        plan.shown.sort(by: AlertingReminder.order)
        plan.nextAlertAt = nextAlert

        // Past due as Home counts it (`Queries.smartCounts`): before now,
        // less the dates alone of today, which are past due tomorrow.
        plan.pastDueCount = try Int.fetchOne(db, sql: """
            SELECT (SELECT count(*) FROM reminders WHERE status != 'completed' AND dueDate IS NOT NULL AND dueDate < ?)
                 - (SELECT count(*) FROM reminders WHERE status != 'completed' AND dueDate IS NOT NULL AND dueDate = ?)
            """, arguments: [snapshot.nowDue.description, today]) ?? 0
        plan.nextPastDueAt = try nextPastDue(db, after: now, today: today, zone: zone)
        return plan
    }

    /// Leaves out reminders whose current due date this device alerted
    /// for (or holds snoozed): the log's primary key answers.
    private static let notInLog = """
        NOT EXISTS (SELECT 1 FROM local_alertsShown
                    WHERE local_alertsShown.reminderID = reminders.id AND local_alertsShown.dueDate = reminders.dueDate)
        """

    /// The reminders with these ids, with their moments; a few hundred ids
    /// a statement, well under SQLite's limit of arguments.
    private static func reminders(_ db: Database, ids: [String], timeZone: TimeZone?,
                                  defaultHour: Int) throws -> [String: AlertingReminder] {
        var result: [String: AlertingReminder] = [:]
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let rows = try Row.fetchCursor(db, sql: """
                SELECT \(AlertingReminder.columns)
                FROM reminders JOIN remindersLists ON remindersLists.id = reminders.remindersListID
                WHERE reminders.id IN (\(marks))
                """, arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                if let reminder = try AlertingReminder(row: row, timeZone: timeZone, defaultHour: defaultHour) {
                    result[reminder.id] = reminder
                }
            }
        }
        return result
    }

    /// When the next open reminder becomes past due (`Queries.isPastDue`):
    /// the minute after its time, or the day after its date.
    private static func nextPastDue(_ db: Database, after now: Date, today: String, zone: TimeZone?) throws -> Date? {
        var best: Date?
        // Dates alone of today sort before every time of today: asked apart.
        if try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM reminders WHERE status != 'completed' AND dueDate IS NOT NULL AND dueDate = ?)
            """, arguments: [today]) == true {
            best = DueDate(today)?.adding(days: 1).moment(in: zone, defaultHour: 0)
        }
        let cursor = try String.fetchCursor(db.cachedStatement(sql: """
            SELECT dueDate FROM reminders
            WHERE status != 'completed' AND dueDate IS NOT NULL AND dueDate >= ?
            ORDER BY dueDate
            """), arguments: [DueDate(moment: now.addingTimeInterval(-2 * 3600), in: zone).description])
        var stop: (after: Date, text: String)?
        while let text = try cursor.next() {
            if let best, best != stop?.after { stop = (best, scanEnd(after: best, zone: zone)) }
            if let stop, text >= stop.text { break }
            guard let due = DueDate(stored: text) else { continue }
            let start = due.hasTime
                ? due.moment(in: zone).map { $0.addingTimeInterval(60) }
                : due.adding(days: 1).moment(in: zone, defaultHour: 0)
            guard let start, start > now else { continue }
            if best.map({ start < $0 }) ?? true { best = start }
        }
        return best
    }

    /// Where a scan in due-date order starts to find every due date that
    /// falls due at `moment` or later: the wall-clock minute an hour
    /// before (a time in the hour clocks skip in spring reads an hour
    /// later than its text), or that day's date alone if a date alone of
    /// that day falls due (at the default hour) from `moment` on.
    static func scanStart(from moment: Date, zone: TimeZone?, defaultHour: Int) -> String {
        let margin = DueDate(moment: moment.addingTimeInterval(-3600), in: zone)
        var dateAlone = margin
        dateAlone.time = nil
        if let dueAt = dateAlone.moment(in: zone, defaultHour: defaultHour), dueAt >= moment { return dateAlone.description }
        return margin.description
    }

    /// Where a scan in due-date order may stop once `best` is the earliest
    /// moment it found: every due date from this text on falls due later.
    /// Times sort as they fall due but for the hour of a change of clocks,
    /// hence two hours' slack; a date alone sorts before the times of its
    /// day, so one from here on is of a later day.
    static func scanEnd(after best: Date, zone: TimeZone?) -> String {
        DueDate(moment: best.addingTimeInterval(2 * 3600), in: zone).description
    }
}
