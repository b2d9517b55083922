import CloudClient
import CloudServer
import Foundation
import CloudServerPostgres
import SyncService
import Testing
import TestSupport

/// What only a store shared by several server processes can get wrong:
/// writes through two `reminders serve` on one PostgreSQL database at once,
/// the head heard across them, and PostgreSQL itself going away.
@Suite(.enabled(if: TestPostgres.isEnabled, "PostgreSQL's server programs are not installed"))
struct PostgresStoreTests {
    /// Alice's devices write through two servers at once, each request a
    /// batch: every acknowledged record is on the store once, every change
    /// has a sequence of its own, no batch is half applied, and a fresh
    /// reader paging through the changes sees each record exactly once.
    @Test func twoServersOnOneDatabaseLoseNothingAndNeverShareASequence() async throws {
        let world = try await ServiceWorld(.httpPostgres)
        let (second, secondURL) = try await Self.secondServer(on: world)
        defer { Self.stop(second) }
        let urls = [try #require(world.url), secondURL]
        let zone = try await blocking { try world.database("alice").createZone("Reminders") }
        let acknowledged = Recorder<String>()
        // Six writers, three per server, each sending batches of 20.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<6 {
                group.addTask {
                    try await blocking {
                        let remote = RemoteServer(url: urls[writer % 2], credential: RemoteCredential(
                            userName: "alice", secret: world.secret("alice")))
                        let database = remote.database(scope: .private, device: "writer\(writer)")
                        for batch in 0..<5 {
                            let records = (0..<20).map { index in
                                record("w\(writer)-b\(batch)-\(index)", in: zone, fields: ["title": .string("Item \(index)")])
                            }
                            let result = try database.modifyRecords(saving: records, deleting: [])
                            for (id, outcome) in result.saveResults {
                                if case .success = outcome { acknowledged.append(id.recordName) }
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let saved = acknowledged.all
        #expect(saved.count == 600)

        let postgres = try #require(world.store as? PostgresStore)
        let dump = try await blocking { try postgres.dump() }
        #expect(Set(dump.records.map(\.recordName)) == Set(saved))
        #expect(Set(dump.records.map(\.sequence)).count == dump.records.count)
        #expect(dump.head == dump.records.map(\.sequence).max())

        // A reader from scratch, 7 records a page, through the other server.
        let names = try await blocking {
            let reader = RemoteServer(url: urls[1], credential: RemoteCredential(userName: "alice", secret: world.secret("alice")))
                .database(scope: .private, device: "reader")
            var token: ChangeToken?
            var names: [String] = []
            while true {
                let page = try reader.fetchZoneChanges(zoneID: zone, since: token, limit: 7)
                names += page.changed.map(\.id.recordName)
                token = page.token
                if !page.moreComing { return names }
            }
        }
        #expect(names.count == 600)
        #expect(Set(names) == Set(saved))
    }

    /// A zone that fills fast has the planner's statistics while it fills,
    /// not a minute later when autovacuum gets to it: without them every
    /// batch read the whole zone, and a first upload grew with the square
    /// of its size. The server analyzes the record table itself once it has
    /// changed by more rows than it held.
    @Test func aTableThatFillsFastIsAnalyzedWhileItFills() async throws {
        let world = try await ServiceWorld(.httpPostgres)
        let postgres = try #require(world.store as? PostgresStore)
        let alice = world.database("alice")
        let zone = try await blocking { try alice.createZone("Reminders") }
        func manualAnalyses() throws -> Int64 {
            try postgres.transaction { connection in
                try connection.integer("SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'record'") ?? 0
            }
        }
        #expect(try manualAnalyses() == 0)
        // Autovacuum off for the table, so that only the server's own
        // analysis can bring the statistics (under the whole suite's load
        // the test can outlast autovacuum's minute, and an analysis of
        // autovacuum's leaves the server nothing to do).
        try postgres.transaction { connection in
            try connection.execute("ALTER TABLE record SET (autovacuum_enabled = false)", [])
        }
        func save(batch: Int, count: Int) async throws {
            let records = (0..<count).map { index in
                record("b\(batch)-\(index)", in: zone, fields: ["title": .string("Item \(index)")])
            }
            _ = try await blocking { try alice.modifyRecords(saving: records, deleting: []) }
        }
        for batch in 0..<8 { try await save(batch: batch, count: 200) }
        // PostgreSQL counts changes a second late at most, and the server
        // looks at most once a second: a few more commits give it the
        // chance (a minute of them, for a machine busy with other tests).
        var batch = 8
        let deadline = Date().addingTimeInterval(60)
        while try manualAnalyses() == 0, Date() < deadline {
            try await save(batch: batch, count: 1)
            batch += 1
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(try manualAnalyses() > 0)
        let estimate = try postgres.transaction { connection in
            try connection.integer("SELECT reltuples::bigint FROM pg_class WHERE relname = 'record'") ?? 0
        }
        #expect(estimate >= 1_000)
    }

    /// A long poll waiting on one server answers when a record is saved
    /// through the other: the commit's notification reaches every server.
    @Test func aSaveThroughOneServerWakesALongPollOnTheOther() async throws {
        let world = try await ServiceWorld(.httpPostgres)
        let (second, secondURL) = try await Self.secondServer(on: world)
        defer { Self.stop(second) }
        let listening = RemoteServer(url: secondURL, credential: RemoteCredential(userName: "alice", secret: world.secret("alice")))
        let alice = world.database("alice")
        let zone = try await blocking { try alice.createZone("Reminders") }
        let before = try await blocking { try listening.fetchHead() }
        // The poll and the save each start at once on a thread of their
        // own, and the poll is timed on its thread: this task may wait long
        // for a thread of the test runner, which the rest of the suite keeps
        // busy on two cores (a save made after the task's own sleep once
        // came 22 s late).
        let woken = OnThread { () -> (Int64, Duration) in
            let started = ContinuousClock.now
            let head = try listening.fetchHead(after: before, wait: 30)
            return (head, ContinuousClock.now - started)
        }
        let saved = OnThread {
            Thread.sleep(forTimeInterval: 0.3)
            _ = try alice.save(record("milk", in: zone, fields: ["title": .string("Milk")]))
        }
        try await saved.value
        let (head, waited) = try await woken.value
        #expect(head > before)
        // Woken by the save, not by the poll's 30 seconds running out.
        #expect(waited < .seconds(20))
    }

    /// PostgreSQL stopped as by a crash and started again while a device
    /// writes: requests in the gap fail as `serverUnavailable`, the device
    /// sends them again, and every record acknowledged is there after.
    @Test func aPostgresRestartUnderLoadLosesNoAcknowledgedSave() async throws {
        // A cluster of its own: other tests keep using the shared one.
        let folder = TemporaryDirectory()
        let cluster = try await blocking { try LocalCluster(directory: folder.url.appendingPathComponent("pg"), port: try freeLoopbackPort(), durable: false) }
        defer { try? cluster.stop(immediately: true) }
        let store = try await blocking { try PostgresStore(address: try cluster.createDatabase("restart")) }
        defer { store.close() }
        let alice = store.database(user: "alice", scope: .private, device: "laptop")
        let zone = try await blocking { try alice.createZone("Reminders") }
        let acknowledged = Recorder<String>()
        let failures = Recorder<CloudError>()
        let done = Recorder<Bool>()
        async let writing: Void = blocking {
            var index = 0
            while done.all.isEmpty {
                let name = "r\(index)"
                do {
                    let result = try alice.modifyRecords(saving: [record(name, in: zone)], deleting: [])
                    if case .success? = result.saveResults[RecordID(recordName: name, zoneID: zone)] {
                        acknowledged.append(name)
                        index += 1
                    }
                } catch let error as CloudError {
                    guard case .serverUnavailable = error else { throw error }
                    failures.append(error)
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        try await blocking { try cluster.stop(immediately: true) }
        try await Task.sleep(for: .milliseconds(300))
        try await blocking { try cluster.start() }
        try await Task.sleep(for: .milliseconds(500))
        done.append(true)
        try await writing
        #expect(!failures.all.isEmpty)
        let saved = Set(acknowledged.all)
        #expect(saved.count > 10)
        let dump = try await blocking { try store.dump() }
        #expect(saved.isSubset(of: Set(dump.records.map(\.recordName))))
    }

    @Test func aDatabaseHoldingSomethingElseIsRefused() async throws {
        let address = try await blocking { try TestPostgres.database() }
        let other = try await blocking { try PostgresStore(address: address) }
        other.close()
        // A database with tables of another program's.
        let foreign = try await blocking { try TestPostgres.database() }
        try await blocking {
            let store = try PostgresStore(address: foreign)
            try store.transaction { db in try db.execute("DROP TABLE meta") }
            store.close()
        }
        await #expect(throws: CloudError.self) { try await blocking { try PostgresStore(address: foreign) } }
        #expect(throws: PostgresStoreError.self) { try PostgresAddress("postgres://host") }
        #expect(throws: PostgresStoreError.self) { try PostgresAddress("postgres://host/db?sslmode=maybe") }
        #expect(try PostgresAddress("postgres://u:secret@db.example:6543/lists").description == "postgres://u@db.example:6543/lists")
    }

    /// Another `reminders serve` on the world's PostgreSQL database.
    static func secondServer(on world: ServiceWorld) async throws -> (RunningProcess, URL) {
        try await ServiceWorld.serve(store: world.storeArgument, home: world.folder, secret: world.secret("alice"))
    }

    static func stop(_ server: RunningProcess) {
        server.signal(SIGTERM)
        _ = try? server.wait(timeout: 10)
    }
}
