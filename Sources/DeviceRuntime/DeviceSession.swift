import CloudServer
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import SyncEngine

/// Everything one device opens: its database with the sync engine
/// attached (so every write is captured), the store, and where the server
/// is. Both the command line and the full-screen app start from here.
public final class DeviceSession: Sendable {
    /// The device's SQLite file.
    public let databasePath: String
    /// Where the server is; the transport follows from it.
    public let server: ServerAddress
    /// Who the user is; the engine syncs their lists and those shared with
    /// them.
    public let userName: String
    /// This device's name, which the conflict log records.
    public let deviceName: String
    /// The device's database, with the engine's change capture attached.
    public let writer: DatabasePool
    /// The sync engine attached to `writer`; `connect()` gives it the server.
    public let engine: SyncEngine
    /// Where edits go: one transaction each, captured for sync in the same
    /// transaction. A read-only share's lists refuse them.
    public let store: RemindersStore
    /// Sharing lines and read-only rules of lists.
    public let sharing: ListSharing

    /// The tables the engine syncs: lists with their covers and reminders,
    /// tags and the links between reminders and tags.
    /// Core's list of the tables that hold user data; a tag link is a
    /// child of its reminder but stays in the tagging user's own zone.
    /// A reminder's parent, for sharing and send order, is its list (its
    /// other reference, a subtask's parent reminder, is in the same list).
    public static let syncedTables = Schema.syncedTables.map { name in
        switch name {
        case ReminderTag.databaseTableName: SyncedTable(name, parentColumn: "reminderID", sharesWithParent: false)
        case Reminder.databaseTableName:
            SyncedTable(name, parentColumn: "remindersListID", editedTogether: [Repeats.scheduleColumns],
                        keptWhole: RemindersStore.restoredColumns)
        default: SyncedTable(name)
        }
    }

    /// A first download of many records builds the search index and the
    /// counts once at its end instead of row by row (`DerivedData`).
    public static let bulkLoad = BulkLoad(
        isWorthIt: { incoming, existing in DerivedData.isWorthSuspending(incoming: incoming, existing: existing) },
        begin: { db in try DerivedData.suspend(db) },
        end: { db in try DerivedData.resume(db) })

    /// Opens the device's database (created and migrated if new) and
    /// attaches the engine. Does not touch the server: that happens on the
    /// first sync.
    /// - Parameters:
    ///   - databasePath: the device's SQLite file.
    ///   - server: where the server is.
    ///   - userName: who the user is.
    ///   - deviceName: this device's name.
    ///   - clock: "now" for due dates, Today and alerts; a pinned clock
    ///     makes screen states repeatable.
    ///   - wallClock: the sync engine's wall clock (milliseconds), which
    ///     orders edits; tests move it by hand instead of sleeping.
    ///   - readersToWarm: connections for reading to open on other
    ///     threads while the database is checked and the engine attaches
    ///     (see `AppDatabase.open(path:readersToWarm:)`): the full-screen
    ///     app's first screens read with several at once.
    public init(databasePath: String, server: ServerAddress, userName: String, deviceName: String, clock: AppClock,
                wallClock: @escaping @Sendable () -> Int64 = systemWallClock, readersToWarm: Int = 0) throws {
        self.databasePath = databasePath
        self.server = server
        self.userName = userName
        self.deviceName = deviceName
        writer = try AppDatabase.open(path: databasePath, readersToWarm: readersToWarm)
        do {
            engine = try SyncEngine(writer: writer, userName: userName, deviceName: deviceName, tables: Self.syncedTables,
                                    wallClock: wallClock, repair: { db in try SyncedRules.repair(db) },
                                    bulkLoad: Self.bulkLoad)
        } catch let error as SyncError {
            throw CoreError.database("database \(databasePath): \(error.description)")
        }
        let sharing = ListSharing(userName: userName)
        self.sharing = sharing
        store = RemindersStore(writer: writer, clock: clock, writeGuard: { db, listIDs in
            try sharing.writeGuard(db, listIDs: listIDs)
        }, deleteGuard: { db, listID in
            try sharing.deleteGuard(db, listID: listID)
        })
    }

    /// Opens the server and connects the engine to this user's databases.
    /// Throws `CloudError` (server unavailable, damaged, too new).
    @discardableResult
    public func connect() throws -> any ServerConnection {
        let connection = try server.open(knownLocation: try engine.knownServerLocation())
        let databases = connection.databases(user: userName, device: deviceName)
        engine.connect(privateDatabase: databases.private, sharedDatabase: databases.shared,
                       location: server.description)
        return connection
    }

    /// What the app should do on this start: nothing (the user has lists,
    /// shares or has answered before), or offer the sample lists.
    ///
    /// A device with no lists and no sync state fetches what the server
    /// holds for the user first. Sample data is offered only when that
    /// leaves nothing: no list of the user's own, no list shared with them,
    /// no invitation waiting (an invited user came for the shared list),
    /// and no earlier answer on this device. With the server out of reach
    /// nothing is offered, since whether the user has lists elsewhere is
    /// unknown; the next start asks again.
    public func firstStart() throws -> FirstStart {
        guard try isUntouched() else { return .returning }
        do {
            try Self.retryingBriefly { _ = try connect(); try engine.sync() }
        } catch {
            engine.disconnect()
            return .serverUnreachable(describeSyncFailure(error))
        }
        let nothing = try writer.read { db in
            try RemindersList.fetchCount(db) == 0 && sharing.invitations(db).isEmpty
                && SyncEngine.localShares(db).isEmpty
        }
        return nothing ? .offerSampleData : .returning
    }

    /// What a start found (see `firstStart()`).
    public enum FirstStart: Equatable, Sendable {
        /// The user has lists or shares, or this device asked before.
        case returning
        /// Nothing anywhere: offer "Start empty / Add sample lists".
        case offerSampleData
        /// The server could not be asked; nothing is offered this time.
        case serverUnreachable(String)
    }

    /// Whether this device has no lists, has never synced and was never
    /// asked about sample data.
    private func isUntouched() throws -> Bool {
        let local = try writer.read { db in
            try RemindersList.fetchCount(db) == 0 && DeviceSettings.value(db, DeviceSettings.firstRunChoice) == nil
        }
        return try local && !engine.hasSyncState()
    }

    /// The user's answer to the offer: remembered, so it is not asked
    /// again. Adding the sample lists first claims them on the server, so
    /// two devices answering at once add one copy: the device whose claim
    /// the server took first seeds, and the other gets the lists by sync.
    /// Throws when the server cannot be asked after a few tries; nothing is
    /// seeded then (a copy made offline would be a second one).
    public func answerFirstRun(addSampleData: Bool) throws -> SampleDataOutcome {
        guard addSampleData else {
            try writer.write { db in try DeviceSettings.set(db, DeviceSettings.firstRunChoice, "empty") }
            return .startedEmpty
        }
        let claimed = try Self.retryingBriefly {
            try claimSampleData(try server.open(knownLocation: try engine.knownServerLocation()))
        }
        try writer.write { db in try DeviceSettings.set(db, DeviceSettings.firstRunChoice, "sample") }
        guard claimed else { return .addedByAnotherDevice }
        return try SampleData.seed(store) ? .added : .addedByAnotherDevice
    }

    /// Runs `body`, and again after a short pause when the server was busy
    /// or briefly unreachable (up to four tries): a first start should not
    /// decide anything on one failed request.
    static func retryingBriefly<T>(_ body: () throws -> T) throws -> T {
        var pause: UInt32 = 50_000
        for _ in 1..<4 {
            do { return try body() } catch { usleep(pause); pause *= 3 }
        }
        return try body()
    }

    /// The record a device creates on the server before seeding sample
    /// data: a save that only creates, so of two devices the server takes
    /// one and refuses the other. The engine leaves records of types it
    /// does not sync alone.
    static let sampleDataClaim = "sampleData/claim"

    /// Whether this device may seed: its claim was the server's first.
    func claimSampleData(_ server: any ServerConnection) throws -> Bool {
        let database = server.databases(user: userName, device: deviceName).private
        let zone = engine.defaultZoneID
        if case .failure(let error)? = try database.modifyZones(saving: [zone], deleting: [])[zone] { throw error }
        let claim = ServerRecord(id: RecordID(recordName: Self.sampleDataClaim, zoneID: zone), recordType: "sampleData",
                                 fields: ["device": .string(deviceName)])
        switch try database.modifyRecords(saving: [claim], deleting: []).saveResults[claim.id] {
        case .success?: return true
        case .failure(.serverRecordChanged)?: return false
        case .failure(let error)?: throw error
        case nil: throw CloudError.serverUnavailable("the server did not answer the sample data claim")
        }
    }
}

extension DeviceSession {
    /// Why this device last re-joined its server, once (see
    /// `SyncEngine.takeRejoinNotice`).
    public func takeRejoin(at date: Date = Date()) throws -> ServerRejoin? {
        try engine.takeRejoinNotice().map { ServerRejoin($0, server: server.description, at: date) }
    }
}
