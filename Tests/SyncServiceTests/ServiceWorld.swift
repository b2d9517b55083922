import CloudClient
import CloudServer
import Foundation
import CloudServerPostgres
import Synchronization
import SyncService
import Testing
import TestSupport

/// How a test reaches the store: the directory store itself, `reminders
/// serve` over HTTP in front of a directory, the PostgreSQL store itself,
/// or `reminders serve` over HTTP in front of PostgreSQL. Every conformance
/// test runs on each, and must see the same results.
enum Transport: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case directory
    case http
    case postgres
    case httpPostgres = "http+postgres"

    var testDescription: String { rawValue }
    var usesPostgres: Bool { self == .postgres || self == .httpPostgres }
    var usesHTTP: Bool { self == .http || self == .httpPostgres }

    /// The transports this machine runs: the PostgreSQL ones where
    /// PostgreSQL is installed, and always in CI.
    static var available: [Transport] {
        allCases.filter { !$0.usesPostgres || TestPostgres.isEnabled }
    }
}

/// A store (a temporary directory or a new PostgreSQL database), with
/// accounts for the users a test names, reached through one transport.
final class ServiceWorld: Sendable {
    let transport: Transport
    let folder: URL
    let store: any CloudStore
    /// What `reminders serve --store` takes for the store.
    let storeArgument: String
    let accounts: AccountStore
    private let secrets: Mutex<[String: String]>
    private let serving: RunningProcess?
    let url: URL?

    init(_ transport: Transport, users: [String] = ["alice", "bob", "carol"]) async throws {
        self.transport = transport
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("service-\(UUID().uuidString)")
        if transport.usesPostgres {
            // PostgreSQL's client waits on its event loops, which the
            // concurrency threads this initializer runs on must not do.
            let (address, postgres) = try await blocking {
                let address = try TestPostgres.database()
                return (address, try PostgresStore(address: address))
            }
            store = postgres
            accounts = AccountStore(database: postgres)
            storeArgument = "\(address)"
        } else {
            store = try DirectoryServer(directory: folder.appendingPathComponent("store"))
            accounts = try AccountStore(directory: folder.appendingPathComponent("store"))
            storeArgument = folder.appendingPathComponent("store").path
        }
        var secrets: [String: String] = [:]
        for user in users { secrets[user] = try accounts.add(user) }
        self.secrets = Mutex(secrets)
        guard transport.usesHTTP else {
            serving = nil
            url = nil
            return
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (process, url) = try await Self.serve(store: storeArgument, home: folder, secret: secrets["alice"] ?? "")
        serving = process
        self.url = url
    }

    deinit {
        serving?.signal(SIGTERM)
        _ = try? serving?.wait(timeout: 10)
        (store as? PostgresStore)?.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the real `reminders serve` on a free loopback port (a process
    /// of its own: a service inside the test process would wait for the
    /// concurrency threads that the other tests keep busy), and returns
    /// once it answers alice.
    static func serve(store: String, home: URL, secret: String, options: [String] = [], scheme: String = "http",
                      certificateAuthority: String? = nil) async throws -> (RunningProcess, URL) {
        let port = try freeLoopbackPort()
        let binary = try CommandRunner.locateBinary()
        let process = try Subprocess.start(
            [binary.path, "serve", "--store", store, "--listen", "127.0.0.1:\(port)"] + options,
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home.path])
        let url = try #require(URL(string: "\(scheme)://127.0.0.1:\(port)"))
        let remote = RemoteServer(url: url, credential: RemoteCredential(
            userName: "alice", secret: secret, certificateAuthority: certificateAuthority))
        try await blocking {
            try eventually(timeout: 30, every: 0.05, "reminders serve answers") { (try? remote.fetchHead()) != nil }
        }
        return (process, url)
    }

    func secret(_ user: String) -> String { secrets.withLock { $0[user] ?? "" } }

    /// `user`'s database of `scope`, reached through the transport.
    func database(_ user: String, _ scope: DatabaseScope = .private, device: String = "device") -> any CloudDatabase {
        switch transport {
        case .directory, .postgres:
            return store.cloudDatabase(user: user, scope: scope, device: device)
        case .http, .httpPostgres:
            let remote = RemoteServer(url: url!, credential: RemoteCredential(userName: user, secret: secret(user)))
            return remote.database(scope: scope, device: device)
        }
    }
}

func record(_ name: String, in zone: ZoneID, type: String = "Reminder", fields: FieldMap<FieldValue> = [:],
            parent: RecordID? = nil) -> ServerRecord {
    ServerRecord(id: RecordID(recordName: name, zoneID: zone), recordType: type, fields: fields,
                 fieldModificationTimes: fields.mapValues { _ in 1 }, parent: parent)
}

extension CloudDatabase {
    @discardableResult
    func createZone(_ name: String) throws -> ZoneID {
        let zone = ZoneID(name: name, ownerName: userName)
        try modifyZones(saving: [zone], deleting: [])[zone]?.get()
        return zone
    }

    @discardableResult
    func save(_ record: ServerRecord) throws -> ServerRecord {
        try #require(try modifyRecords(saving: [record], deleting: []).saveResults[record.id]).get()
    }

    func saveError(_ record: ServerRecord) throws -> CloudError? {
        if case .failure(let error)? = try modifyRecords(saving: [record], deleting: []).saveResults[record.id] {
            return error
        }
        return nil
    }

    func deleteError(_ id: RecordID) throws -> CloudError? {
        if case .failure(let error)? = try modifyRecords(saving: [], deleting: [id]).deleteResults[id] { return error }
        return nil
    }
}

/// Runs blocking client calls (each waits for its HTTP answer) on a thread
/// of their own: on the concurrency pool they would hold a thread the
/// in-process service needs to answer them.
/// A body started at once on a thread of its own, not when a task gets a
/// thread of the runner; `value` waits for its result.
final class OnThread<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the thread, before `done` is signalled.
    private var result: Result<T, any Error>?

    init(_ body: @escaping @Sendable () throws -> T) {
        Thread { [self] in
            result = Result { try body() }
            done.signal()
        }.start()
    }

    var value: T {
        get async throws {
            try await blocking { [self] in
                done.wait()
                done.signal()
                return try result!.get()
            }
        }
    }
}

func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
