import Foundation
import GRDB

/// How this device shows a list or smart list: its sort order and whether
/// completed reminders are shown. Kept per device (table
/// `local_viewSettings`, made by migration v7, never synced), as a phone
/// remembers how each list was left.
public struct ViewSettings: Hashable, Sendable {
    public var sort: SortOrder
    public var showCompleted: Bool

    public init(sort: SortOrder, showCompleted: Bool) {
        self.sort = sort
        self.showCompleted = showCompleted
    }

    public static let tableName = "local_viewSettings"

    /// What a list shows before anyone changed it: Today and Scheduled by
    /// due date (they are about when), the rest in manual order; completed
    /// reminders only in Completed.
    public static func standard(for filter: ReminderFilter) -> ViewSettings {
        ViewSettings(sort: filter.isDated ? .due : .manual, showCompleted: filter == .completed)
    }

    /// The row key of a filter. A tag is keyed by its canonical key, so
    /// "#Café" and "#cafe" share their settings as they share their rows.
    public static func key(of filter: ReminderFilter) -> String {
        switch filter {
        case .list(let id): "list:" + id
        case .tag(let tag): "tag:" + TagKey.of(tag)
        case .today: "today"
        case .scheduled: "scheduled"
        case .all: "all"
        case .flagged: "flagged"
        case .completed: "completed"
        }
    }

    /// The settings saved for `filter`, or the standard ones.
    public static func saved(_ db: Database, for filter: ReminderFilter) throws -> ViewSettings {
        guard let row = try Row.fetchOne(db, sql: "SELECT sort, showCompleted FROM local_viewSettings WHERE filter = ?",
                                         arguments: [key(of: filter)]),
              let sort = SortOrder(rawValue: row["sort"]) else { return standard(for: filter) }
        return ViewSettings(sort: sort, showCompleted: row["showCompleted"])
    }

    /// Remembers `settings` for `filter`.
    public static func save(_ db: Database, _ settings: ViewSettings, for filter: ReminderFilter) throws {
        try db.execute(sql: """
            INSERT INTO local_viewSettings (filter, sort, showCompleted) VALUES (?, ?, ?)
            ON CONFLICT (filter) DO UPDATE SET sort = excluded.sort, showCompleted = excluded.showCompleted
            """, arguments: [key(of: filter), settings.sort.rawValue, settings.showCompleted])
    }
}

/// Answers this device keeps for itself (table `local_settings`, made by
/// migration v7, never synced), such as what the user chose on the first
/// start.
public enum DeviceSettings {
    public static let tableName = "local_settings"

    /// What the first-run screen was answered with: "empty" or "sample".
    public static let firstRunChoice = "firstRun.choice"

    public static func value(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM local_settings WHERE key = ?", arguments: [key])
    }

    public static func set(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: """
            INSERT INTO local_settings (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """, arguments: [key, value])
    }
}
