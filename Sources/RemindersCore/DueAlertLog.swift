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
/// (migration v6).
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

    /// Records an alert; false when this device already showed it (the
    /// insert is the test, so two paths racing cannot both alert).
    public static func record(_ db: Database, reminderID: String, dueDate: DueDate, at timestamp: String) throws -> Bool {
        try db.execute(sql: """
            INSERT INTO local_alertsShown (reminderID, dueDate, alertedAt) VALUES (?, ?, ?)
            ON CONFLICT DO NOTHING
            """, arguments: [reminderID, dueDate.description, timestamp])
        return db.changesCount > 0
    }

    public static func dismiss(_ db: Database, reminderID: String, at timestamp: String) throws {
        try db.execute(sql: """
            UPDATE local_alertsShown SET dismissedAt = ?
            WHERE dismissedAt IS NULL AND reminderID = ?
              AND dueDate = (SELECT dueDate FROM reminders WHERE id = ?)
            """, arguments: [timestamp, reminderID, reminderID])
    }

    /// Shown alerts by reminder id, for the reminders' current due dates.
    public static func shown(_ db: Database) throws -> [String: Entry] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT local_alertsShown.* FROM local_alertsShown
            JOIN reminders ON reminders.id = local_alertsShown.reminderID
                          AND reminders.dueDate = local_alertsShown.dueDate
            """)
        var result: [String: Entry] = [:]
        for row in rows {
            result[row["reminderID"]] = Entry(isDismissed: row["dismissedAt"] as String? != nil)
        }
        return result
    }

    public struct Entry: Equatable, Sendable {
        public var isDismissed: Bool

        public init(isDismissed: Bool) {
            self.isDismissed = isDismissed
        }
    }
}
