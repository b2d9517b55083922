import DeviceRuntime
import Foundation
import RemindersCore

/// Devices of one or more users on one server directory in a temporary
/// folder, each opened as the app opens it (`DeviceSession`: a database
/// file with the sync engine attached) or driven through the `reminders`
/// binary with `commandEnvironment`, on the same files.
///
/// Every session's clock is pinned, so due dates read the same on every
/// run, and the engine's wall clock, which orders edits, is one `TestClock`
/// shared by the devices: `later()` moves it, instead of a sleep. Live
/// syncs started here stop, and the folder goes, with the world.
public final class DeviceWorld {
    public let folder: TemporaryDirectory
    /// The sync engines' clock (milliseconds); it starts at the real time.
    public let wallClock: TestClock
    /// The moment every session's clock is pinned to.
    public let now: Date
    private var lives: [LiveSync] = []

    public init(now: String = "2026-03-01T10:00:00Z",
                wallClock: TestClock = TestClock(Int64(Date().timeIntervalSince1970 * 1000))) {
        folder = TemporaryDirectory(prefix: "reminders-devices")
        self.now = AppClock.parseMoment(now, timeZone: Self.utc) ?? Date(timeIntervalSince1970: 1_772_359_200)
        self.wallClock = wallClock
    }

    deinit {
        for live in lives { live.stop() }
    }

    public static let utc = TimeZone(identifier: "UTC") ?? .current

    public var directory: URL { folder.url }
    public var serverDirectory: URL { directory.appendingPathComponent("server") }

    /// Where a device of a user keeps its database.
    public func databaseURL(_ device: String, user: String = "me") -> URL {
        directory.appendingPathComponent("devices/\(user)-\(device).sqlite")
    }

    /// Opens a device's session (again, if it was opened before: the same
    /// file). `clock` replaces the pinned one, for a test that moves it.
    public func device(_ name: String, user: String = "me", clock: AppClock? = nil) throws -> DeviceSession {
        let wallClock = self.wallClock
        return try DeviceSession(databasePath: databaseURL(name, user: user).path, server: .directory(serverDirectory),
                                 userName: user, deviceName: name,
                                 clock: clock ?? AppClock(pinned: now, timeZone: Self.utc),
                                 wallClock: { wallClock.now })
    }

    /// Makes the next edit later than every edit so far, on every device.
    public func later(_ milliseconds: Int64 = 1_000) {
        wallClock.advance(milliseconds)
    }

    /// Live sync for a session, started; it stops with the world.
    public func live(_ session: DeviceSession, server: URL? = nil, pollInterval: TimeInterval = 1) -> LiveSync {
        let live = LiveSync(engine: session.engine, server: .directory(server ?? serverDirectory), pollInterval: pollInterval)
        lives.append(live)
        live.start()
        return live
    }

    /// The variables that point the `reminders` binary at a device of this
    /// world (its database, user and server), for `CommandRunner`.
    public func commandEnvironment(_ device: String, user: String = "me") -> [String: String] {
        ["REMINDERS_SERVER": serverDirectory.path, "REMINDERS_USER": user, "REMINDERS_DEVICE": device,
         "REMINDERS_DB": databaseURL(device, user: user).path]
    }
}
