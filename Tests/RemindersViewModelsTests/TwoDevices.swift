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

    /// A laptop and a desktop, each with its live sync, past their first rounds.
    func liveLaptopAndDesktop() throws -> (laptop: DeviceSession, desktop: DeviceSession, laptopLive: LiveSync, desktopLive: LiveSync) {
        let laptop = try device("laptop")
        let desktop = try device("desktop")
        let laptopLive = live(laptop)
        let desktopLive = live(desktop)
        try eventually("first rounds") { laptopLive.currentStatus().lastSync != nil && desktopLive.currentStatus().lastSync != nil }
        return (laptop, desktop, laptopLive, desktopLive)
    }

    /// "Milk" in Groceries, made on a laptop and synced to a desktop.
    func milkOnLaptopAndDesktop(priority: Priority = .none) throws -> (laptop: DeviceSession, desktop: DeviceSession, reminderID: String) {
        let laptop = try device("laptop")
        let desktop = try device("desktop")
        let listID = try laptop.store.createList(title: "Groceries").id
        let reminderID = try laptop.store.createReminder(ReminderDraft(listID: listID, title: "Milk", priority: priority)).id
        try laptop.syncOnce()
        try desktop.syncOnce()
        return (laptop, desktop, reminderID)
    }
}

extension DeviceSession {
    func listTitles() throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "SELECT title FROM remindersLists ORDER BY title") }
    }

    func reminder(_ id: String) throws -> Reminder? {
        try writer.read { db in try Reminder.fetchOne(db, key: id) }
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
