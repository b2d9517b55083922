import Foundation
import GRDB
import RemindersCore
import TestSupport
@testable import DeviceRuntime
@testable import RemindersViewModels

extension DeviceWorld {
    /// An app environment for a device, with its live sync as status and controls.
    func environment(_ session: DeviceSession, live: LiveSync?) -> AppEnvironment {
        AppEnvironment(store: session.store, userName: session.userName, deviceName: session.deviceName,
                       syncStatus: live ?? LocalOnlySyncStatus(), completionDelay: 0.2)
    }
}

extension DeviceSession {
    func listTitles() throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "SELECT title FROM remindersLists ORDER BY title") }
    }

    func reminderTitle(_ id: String) throws -> String? {
        try writer.read { db in try String.fetchOne(db, sql: "SELECT title FROM reminders WHERE id = ?", arguments: [id]) }
    }

    func reminderField(_ id: String, _ column: String) throws -> DatabaseValue? {
        try writer.read { db in
            try DatabaseValue.fetchOne(db, sql: "SELECT \(column) FROM reminders WHERE id = ?", arguments: [id])
        }
    }

    /// One full round with the server, as `reminders sync` does.
    func syncOnce() throws {
        try connect()
        try engine.sync()
    }
}
