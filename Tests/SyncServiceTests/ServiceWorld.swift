import CloudClient
import CloudServer
import Foundation
import Hummingbird
import Synchronization
import SyncService
import Testing

/// How a test reaches the store: the directory store itself, or
/// `reminders serve` over HTTP in front of the same store. Every
/// conformance test runs on each, and must see the same results.
enum Transport: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case directory
    case http

    var testDescription: String { rawValue }
}

/// A store in a temporary directory, with accounts for the users a test
/// names, reached through one transport.
final class ServiceWorld: Sendable {
    let transport: Transport
    let folder: URL
    let store: DirectoryServer
    let accounts: AccountStore
    private let secrets: Mutex<[String: String]>
    private let serving: Task<Void, any Error>?
    let url: URL?

    init(_ transport: Transport, users: [String] = ["alice", "bob", "carol"]) async throws {
        self.transport = transport
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("service-\(UUID().uuidString)")
        store = try DirectoryServer(directory: folder.appendingPathComponent("store"))
        accounts = try AccountStore(directory: folder.appendingPathComponent("store"))
        var secrets: [String: String] = [:]
        for user in users { secrets[user] = try accounts.add(user) }
        self.secrets = Mutex(secrets)
        guard transport == .http else {
            serving = nil
            url = nil
            return
        }
        let (task, port) = try await Self.serve(SyncServer(store: store, accounts: accounts))
        serving = task
        url = URL(string: "http://127.0.0.1:\(port)")
    }

    deinit {
        serving?.cancel()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the service on a free loopback port; returns it once it
    /// listens.
    static func serve(_ service: SyncServer) async throws -> (Task<Void, any Error>, Int) {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: service.router(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        let task = Task { try await app.run() }
        for await port in ports { return (task, port) }
        throw CancellationError()
    }

    func secret(_ user: String) -> String { secrets.withLock { $0[user] ?? "" } }

    /// `user`'s database of `scope`, reached through the transport.
    func database(_ user: String, _ scope: DatabaseScope = .private, device: String = "device") -> any CloudDatabase {
        switch transport {
        case .directory:
            return store.database(user: user, scope: scope, device: device)
        case .http:
            let remote = RemoteServer(url: url!, credential: RemoteCredential(userName: user, secret: secret(user)))
            return remote.database(scope: scope, device: device)
        }
    }
}

func record(_ name: String, in zone: ZoneID, type: String = "Reminder", fields: [String: FieldValue] = [:],
            parent: RecordID? = nil) -> ServerRecord {
    ServerRecord(id: RecordID(recordName: name, zoneID: zone), recordType: type, fields: fields,
                 fieldModificationTimes: Dictionary(uniqueKeysWithValues: fields.keys.map { ($0, 1) }), parent: parent)
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
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
