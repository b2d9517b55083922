import CloudServer
import DeviceRuntime
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import TestSupport
@testable import SyncEngine

/// One device of one user: its own database, store and engine, on a shared
/// server: a directory, or `reminders serve` reached over HTTP (any
/// `ServerConnection`).
///
/// Not `DeviceWorld`'s `DeviceSession`: the engine's tests connect it to
/// `CloudDatabase` values they make themselves (a server opened again,
/// swapped, or intercepted) and run hundreds of devices in the property
/// tests, on in-memory databases; a session only opens a database file and
/// reaches its server through its address.
final class Device {
    let name: String
    let user: String
    let db: DatabaseQueue
    let store: RemindersStore
    let engine: SyncEngine
    let clock: TestClock

    init(_ name: String, user: String = "me", server: any ServerConnection, clock: TestClock = TestClock(),
         bulkLoad: BulkLoad? = DeviceSession.bulkLoad) throws {
        self.name = name
        self.user = user
        self.clock = clock
        db = try AppDatabase.inMemory()
        let sharing = ListSharing(userName: user)
        store = RemindersStore(writer: db, clock: AppClock(pinned: Date(timeIntervalSince1970: 1_800_000_000)),
                               writeGuard: { db, lists in try sharing.writeGuard(db, listIDs: lists) })
        let databases = server.databases(user: user, device: name)
        engine = try SyncEngine(
            writer: db,
            privateDatabase: databases.private,
            sharedDatabase: databases.shared,
            tables: RemindersTables.all,
            wallClock: { clock.now },
            repair: { db in try SyncedRules.repair(db) },
            bulkLoad: bulkLoad)
    }

    @discardableResult
    func sync() throws -> SyncReport { try engine.sync() }

    func export() throws -> ExportDump {
        try db.read { db in
            try ExportDump.read(db, owner: { id in
                (try? SyncEngine.owner(db, table: "remindersLists", key: id, defaultOwner: self.user)) ?? self.user
            })
        }
    }

    func reminder(_ id: String) throws -> Reminder? {
        try db.read { db in try Reminder.fetchOne(db, key: id) }
    }

    func list(_ id: String) throws -> RemindersList? {
        try db.read { db in try RemindersList.fetchOne(db, key: id) }
    }

    func pending() throws -> Int { try engine.pendingCount() }
}

enum RemindersTables {
    static let all = DeviceSession.syncedTables
}

func makeServer(_ directory: TemporaryDirectory) throws -> DirectoryServer {
    try DirectoryServer(directory: directory.url.appendingPathComponent("server"))
}

/// Devices A and B of one user on a new server in `directory`.
func twoDevices(_ directory: TemporaryDirectory) throws -> (Device, Device) {
    try twoDevices(on: makeServer(directory))
}

/// Devices A and B of one user on `server`.
func twoDevices(on server: DirectoryServer) throws -> (Device, Device) {
    (try Device("A", server: server), try Device("B", server: server))
}
