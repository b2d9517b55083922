import Foundation
import GRDB
import RemindersCore
import TestSupport
@testable import DeviceRuntime
@testable import RemindersViewModels

/// Devices of one user on one server directory, in a temporary folder: each
/// a real database with the sync engine attached, as the app opens it.
final class Cloud {
    let directory: URL
    /// The devices' shared sync clock, moved by hand to order edits.
    let wallClock = TestClock(Int64(Date().timeIntervalSince1970 * 1000))
    var serverDirectory: URL { directory.appendingPathComponent("server") }
    private var lives: [LiveSync] = []

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        for live in lives { live.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A device's session; the clock is pinned so that due dates read the same.
    func device(_ name: String, user: String = "me") throws -> DeviceSession {
        let clock = AppClock(pinned: AppClock.parseMoment("2026-03-01T10:00:00Z"), timeZone: TimeZone(identifier: "UTC") ?? .current)
        let wallClock = self.wallClock
        return try DeviceSession(databasePath: directory.appendingPathComponent("\(user)-\(name).sqlite").path,
                                 server: .directory(serverDirectory), userName: user, deviceName: name, clock: clock,
                                 wallClock: { wallClock.now })
    }

    /// Makes the next edit later than every edit so far, on every device.
    func later() {
        wallClock.advance()
    }

    /// Live sync for a session, started, stopped with the cloud.
    func live(_ session: DeviceSession, server: URL? = nil, pollInterval: TimeInterval = 1) -> LiveSync {
        let live = LiveSync(engine: session.engine, server: .directory(server ?? serverDirectory), pollInterval: pollInterval)
        lives.append(live)
        live.start()
        return live
    }

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

/// Polls `condition` until it holds or `timeout` passes; returns the time it took.
@discardableResult
func eventually(timeout: TimeInterval = 3, _ what: String = "condition",
                _ condition: () throws -> Bool) throws -> TimeInterval {
    let start = Date()
    while true {
        if try condition() { return Date().timeIntervalSince(start) }
        if Date().timeIntervalSince(start) > timeout {
            throw ViewModelTimeout(description: "\(what) did not hold within \(timeout) s")
        }
        usleep(5_000)
    }
}
