import Foundation
import Testing
import TestSupport
@testable import CloudServer
import CloudServerPostgres

/// The stores the semantic tests run on: the directory store, and the
/// PostgreSQL store (where PostgreSQL is installed, and always in CI).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case directory
    case postgres

    var testDescription: String { rawValue }

    static var available: [StoreKind] {
        TestPostgres.isEnabled ? [.directory, .postgres] : [.directory]
    }
}

/// What the tests ask of a store beyond its databases; both stores have it.
protocol TestedStore: Sendable {
    func database(user: String, scope: DatabaseScope, device: String) -> StoreDatabase
    func dump() throws -> ServerDump
    func head() -> Int64
    func currentSequence() throws -> Int64
    func compactTombstones(through sequence: Int64) throws -> Int
    func compactTombstones(olderThan date: Date) throws -> Int
    func compactedThrough() throws -> Int64
}

extension DirectoryServer: TestedStore {}
extension PostgresStore: TestedStore {}

/// Closes a PostgreSQL store when the test's world goes away.
final class StoreLifetime: Sendable {
    let store: any TestedStore

    init(_ store: any TestedStore) {
        self.store = store
    }

    deinit {
        (store as? PostgresStore)?.close()
    }
}

/// A server in a fresh directory, or a fresh PostgreSQL database, with
/// helpers to build the scene of a test in a few lines.
struct ServerWorld {
    let temporary = TemporaryDirectory()
    private let lifetime: StoreLifetime

    init(_ kind: StoreKind = .directory, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        switch kind {
        case .directory:
            lifetime = StoreLifetime(try DirectoryServer(directory: temporary.url.appendingPathComponent("server"), clock: clock))
        case .postgres:
            lifetime = StoreLifetime(try PostgresStore(address: try TestPostgres.database(), clock: clock))
        }
    }

    /// The store, whichever it is.
    var store: any TestedStore { lifetime.store }

    /// The directory store, for the tests of what only it has (its files,
    /// a second process opening it).
    var server: DirectoryServer {
        guard let server = lifetime.store as? DirectoryServer else { preconditionFailure("a directory-only test on another store") }
        return server
    }

    var directory: URL { server.directory }

    func database(_ user: String, _ scope: DatabaseScope = .private, device: String = "device") -> StoreDatabase {
        store.database(user: user, scope: scope, device: device)
    }

    /// Another handle on the same directory, as a second process would open.
    func reopen() throws -> DirectoryServer {
        try DirectoryServer(directory: directory)
    }
}

func record(
    _ name: String, in zone: ZoneID, type: String = "Reminder",
    fields: FieldMap<FieldValue> = [:], parent: RecordID? = nil
) -> ServerRecord {
    ServerRecord(
        id: RecordID(recordName: name, zoneID: zone), recordType: type, fields: fields,
        fieldModificationTimes: fields.mapValues { _ in 1 }, parent: parent)
}

struct UnexpectedFailure: Error, CustomStringConvertible {
    var description: String
}

extension StoreDatabase {
    @discardableResult
    func createZone(_ name: String) throws -> ZoneID {
        let zone = ZoneID(name: name, ownerName: userName)
        let results = try modifyZones(saving: [zone], deleting: [])
        try results[zone]?.get()
        return zone
    }

    /// Saves records that must all succeed; returns the server's versions.
    @discardableResult
    func save(_ records: [ServerRecord]) throws -> [ServerRecord] {
        let result = try modifyRecords(saving: records, deleting: [])
        return try records.map { record in
            guard let outcome = result.saveResults[record.id] else {
                throw UnexpectedFailure(description: "no result for \(record.id)")
            }
            return try outcome.get()
        }
    }

    @discardableResult
    func save(_ record: ServerRecord) throws -> ServerRecord {
        try save([record])[0]
    }

    func delete(_ ids: [RecordID]) throws {
        let result = try modifyRecords(saving: [], deleting: ids)
        for id in ids {
            try result.deleteResults[id]?.get()
        }
    }

    /// The error a single save got, or nil if it succeeded.
    func saveError(_ record: ServerRecord) throws -> CloudError? {
        let result = try modifyRecords(saving: [record], deleting: [])
        if case .failure(let error)? = result.saveResults[record.id] { return error }
        return nil
    }

    func deleteError(_ id: RecordID) throws -> CloudError? {
        let result = try modifyRecords(saving: [], deleting: [id])
        if case .failure(let error)? = result.deleteResults[id] { return error }
        return nil
    }

    /// Every page of a zone's changes since `token`.
    func fetchAllChanges(in zone: ZoneID, since token: ChangeToken?, limit: Int = 100)
        throws -> (changed: [ServerRecord], deleted: [RecordDeletion], token: ChangeToken, pages: Int)
    {
        var changed: [ServerRecord] = []
        var deleted: [RecordDeletion] = []
        var token = token
        var pages = 0
        while true {
            let page = try fetchZoneChanges(zoneID: zone, since: token, limit: limit)
            pages += 1
            changed += page.changed
            deleted += page.deleted
            token = page.token
            if !page.moreComing { break }
        }
        return (changed, deleted, token ?? ChangeToken(sequence: 0), pages)
    }

    func names(in zone: ZoneID, since token: ChangeToken?) throws -> (changed: [String], deleted: [String]) {
        let changes = try fetchAllChanges(in: zone, since: token)
        return (changes.changed.map(\.id.recordName).sorted(), changes.deleted.map(\.id.recordName).sorted())
    }

    func currentToken() throws -> ChangeToken {
        try fetchDatabaseChanges(since: nil).token
    }
}

extension CloudError {
    var isServerRecordChanged: Bool {
        if case .serverRecordChanged = self { return true }
        return false
    }

    var isPermissionFailure: Bool {
        if case .permissionFailure = self { return true }
        return false
    }

    var isAssetUnavailable: Bool {
        if case .assetUnavailable = self { return true }
        return false
    }

    var isLimitExceeded: Bool {
        if case .limitExceeded = self { return true }
        return false
    }

    var message: String { description }
}

/// The CloudError a throwing expression threw, or nil.
func cloudError(_ body: () throws -> Void) -> CloudError? {
    do {
        try body()
        return nil
    } catch let error as CloudError {
        return error
    } catch {
        return .serverUnavailable("unexpected \(error)")
    }
}

extension ModifyRecordsResult {
    func saveError(_ id: RecordID) -> CloudError? {
        if case .failure(let error)? = saveResults[id] { return error }
        return nil
    }

    func deleteError(_ id: RecordID) -> CloudError? {
        if case .failure(let error)? = deleteResults[id] { return error }
        return nil
    }
}
