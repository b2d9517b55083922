import Foundation
import GRDB

/// Which due alerts this device has shown, so that each (reminder, due
/// date) pair alerts once per device, across restarts, while a reminder
/// snoozed to a new due date alerts again.
///
/// The table lives in the device's own database but is not synced: every
/// device that is open alerts once. Its name starts with `local_` to say
/// so; no foreign key ties it to the synced tables, and rows of reminders
/// that are gone are pruned when the app starts. `Schema` creates it
/// (migration v6; `snoozedUntil` since v9).
///
/// Every process of the device shares it: the full-screen app and
/// `reminders alerts --watch` may both be open, and both may find the same
/// alert due at the same moment. Whoever raises an alert first claims it
/// with one statement that only one writer can win (`record`,
/// `claimSnoozed`): write transactions are `BEGIN IMMEDIATE`, so SQLite
/// runs them one after the other, and the loser finds the row there.
public enum DueAlertLog {
    public static let tableName = "local_alertsShown"

    /// Forgets alerts of reminders that no longer exist or no longer have
    /// that due date (snoozed, edited, synced from elsewhere).
    public static func prune(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM local_alertsShown
            WHERE NOT EXISTS (SELECT 1 FROM reminders
                              WHERE reminders.id = local_alertsShown.reminderID
                                AND reminders.dueDate = local_alertsShown.dueDate)
            """)
    }

    /// Claims an alert; false when this device already showed it (the
    /// insert is the test, so two paths or two processes racing cannot
    /// both alert).
    public static func record(_ db: Database, reminderID: String, dueDate: DueDate, at timestamp: String) throws -> Bool {
        try db.execute(sql: """
            INSERT INTO local_alertsShown (reminderID, dueDate, alertedAt) VALUES (?, ?, ?)
            ON CONFLICT DO NOTHING
            """, arguments: [reminderID, dueDate.description, timestamp])
        return db.changesCount > 0
    }

    /// Holds the alert of a reminder's due date until `until`, on this
    /// device: it leaves Due now and comes again then (`claimSnoozed`).
    /// Works whether or not it was shown before, so that a snooze that
    /// moves the due date can hold the new date's alert as well.
    public static func snooze(_ db: Database, reminderID: String, dueDate: DueDate, until: Date, at timestamp: String) throws {
        try db.execute(sql: """
            INSERT INTO local_alertsShown (reminderID, dueDate, alertedAt, snoozedUntil) VALUES (?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET snoozedUntil = excluded.snoozedUntil, dismissedAt = NULL
            """, arguments: [reminderID, dueDate.description, timestamp, momentText(until)])
    }

    /// Ends a snooze without alerting (its undo): the alert is back in
    /// Due now.
    public static func endSnooze(_ db: Database, reminderID: String, dueDate: DueDate) throws {
        try db.execute(sql: """
            UPDATE local_alertsShown SET snoozedUntil = NULL WHERE reminderID = ? AND dueDate = ?
            """, arguments: [reminderID, dueDate.description])
    }

    /// When the alert of a reminder's due date is snoozed until, if it is.
    public static func snoozedUntil(_ db: Database, reminderID: String, dueDate: DueDate) throws -> Date? {
        try String.fetchOne(db, sql: """
            SELECT snoozedUntil FROM local_alertsShown WHERE reminderID = ? AND dueDate = ?
            """, arguments: [reminderID, dueDate.description]).flatMap(moment)
    }

    /// Claims the alert that ends a snooze; false when another process did
    /// first, or the snooze changed meanwhile (`until` is the one the
    /// claimer read).
    public static func claimSnoozed(_ db: Database, reminderID: String, dueDate: DueDate, until: Date,
                                    at timestamp: String) throws -> Bool {
        try db.execute(sql: """
            UPDATE local_alertsShown SET snoozedUntil = NULL, alertedAt = ?, dismissedAt = NULL
            WHERE reminderID = ? AND dueDate = ? AND snoozedUntil = ?
            """, arguments: [timestamp, reminderID, dueDate.description, momentText(until)])
        return db.changesCount > 0
    }

    public static func dismiss(_ db: Database, reminderID: String, at timestamp: String) throws {
        try db.execute(sql: """
            UPDATE local_alertsShown SET dismissedAt = ?
            WHERE dismissedAt IS NULL AND reminderID = ?
              AND dueDate = (SELECT dueDate FROM reminders WHERE id = ?)
            """, arguments: [timestamp, reminderID, reminderID])
    }

    /// A snooze's end as stored: ISO 8601 in UTC, to the second.
    static func momentText(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func moment(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
