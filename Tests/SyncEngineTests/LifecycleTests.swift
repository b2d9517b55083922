import CloudServer
import Foundation
import GRDB
import Testing
import TestSupport
@testable import SyncEngine

/// A device with one generic table, `counters(id, count)`, to follow a row
/// through the eleven-step lifecycle of the conflict resolution model.
final class CounterDevice {
    let db: DatabaseQueue
    let engine: SyncEngine
    let clock: TestClock

    init(_ name: String, server: DirectoryServer, clock: TestClock) throws {
        self.clock = clock
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        db = try DatabaseQueue(configuration: configuration)
        try db.write { db in
            try db.execute(sql: "CREATE TABLE counters (id TEXT PRIMARY KEY NOT NULL, count INTEGER NOT NULL DEFAULT 0) STRICT")
        }
        engine = try SyncEngine(
            writer: db, privateDatabase: server.database(user: "me", scope: .private, device: name),
            sharedDatabase: server.database(user: "me", scope: .shared, device: name),
            tables: [SyncedTable("counters")], wallClock: { clock.now })
    }

    func count() throws -> Int? {
        try db.read { try Int.fetchOne($0, sql: "SELECT count FROM counters WHERE id = 'c'") }
    }

    func set(_ count: Int) throws {
        try db.write { try $0.execute(sql: "UPDATE counters SET count = ? WHERE id = 'c'", arguments: [count]) }
    }

    func lastKnown() throws -> (count: Int64?, tag: String?)? {
        try db.read { db in
            guard let meta = try Metadata.fetch(db, type: "counters", name: "c"), let record = meta.lastKnown else { return nil }
            guard case .int64(let count)? = record.fields["count"] else { return (nil, record.changeTag) }
            return (count, record.changeTag)
        }
    }
}

@Suite struct LifecycleTests {
    let directory = TemporaryDirectory()

    func serverRecord(_ server: DirectoryServer) throws -> (count: Int64?, tag: String?)? {
        let id = RecordID(recordName: "counters/c", zoneID: ZoneID(name: "reminders", ownerName: "me"))
        guard case .success(let record)? = try server.database(user: "me", scope: .private, device: "probe").fetchRecords([id])[id] else {
            return nil
        }
        guard case .int64(let count)? = record.fields["count"] else { return (nil, record.changeTag) }
        return (count, record.changeTag)
    }

    /// Steps 1-11, with the conflict of step 9 met on send or on fetch, and
    /// won by either side.
    @Test(arguments: [(onSend: true, clientLater: true), (onSend: true, clientLater: false),
                      (onSend: false, clientLater: true), (onSend: false, clientLater: false)])
    func elevenSteps(_ scenario: (onSend: Bool, clientLater: Bool)) throws {
        let server = try makeServer(directory)
        let client = try CounterDevice("client", server: server, clock: TestClock(1_000_000))
        let other = try CounterDevice("other", server: server, clock: TestClock(1_000_000))

        // 1. No row exists yet.
        #expect(try client.count() == nil)
        #expect(try serverRecord(server) == nil)
        // 2. Client creates row.
        try client.db.write { try $0.execute(sql: "INSERT INTO counters (id, count) VALUES ('c', 1)") }
        #expect(try client.count() == 1)
        #expect(try client.lastKnown() == nil)
        // 3-4. Client sends; the server sets a change tag; the confirmed record
        // becomes the last-known server record.
        try client.engine.sendChanges()
        let a = try #require(try serverRecord(server))
        #expect(a.count == 1 && a.tag != nil)
        #expect(try client.lastKnown()?.count == 1)
        #expect(try client.lastKnown()?.tag == a.tag)
        // 5. Server updates record independently (another device).
        try other.engine.sync()
        other.clock.advance(10)
        try other.set(2)
        try other.engine.sendChanges()
        let b = try #require(try serverRecord(server))
        #expect(b.count == 2 && b.tag != a.tag)
        #expect(try client.count() == 1)
        #expect(try client.lastKnown()?.tag == a.tag)
        // 6. Client fetches and advances its last-known server record.
        try client.engine.fetchChanges()
        #expect(try client.count() == 2)
        #expect(try client.lastKnown()?.count == 2)
        #expect(try client.lastKnown()?.tag == b.tag)
        // 7. Client updates row locally; last-known stays.
        try other.engine.fetchChanges()
        if scenario.clientLater { other.clock.advance(10); client.clock.advance(1_000) } else { client.clock.advance(10); other.clock.advance(1_000) }
        try client.set(3)
        #expect(try client.lastKnown()?.tag == b.tag)
        // 8. Server updates record independently.
        try other.set(4)
        try other.engine.sendChanges()
        let c = try #require(try serverRecord(server))
        #expect(c.count == 4)
        // 9. Conflict on send or on fetch: resolved, last-known advances to c.
        let expected: Int = scenario.clientLater ? 3 : 4
        if scenario.onSend {
            let report = try client.engine.sendChanges()
            #expect(report.merged >= 1)
        } else {
            try client.engine.fetchChanges()
            #expect(try client.lastKnown()?.tag == c.tag)
            #expect(try client.lastKnown()?.count == 4)
        }
        #expect(try client.count() == expected)
        // 10-11. The merged state is sent; the server confirms it.
        try client.engine.sync()
        let d = try #require(try serverRecord(server))
        #expect(d.count == Int64(expected))
        #expect(try client.lastKnown()?.count == Int64(expected))
        #expect(try client.lastKnown()?.tag == d.tag)
        #expect(try client.engine.pendingCount() == 0)
        try other.engine.sync()
        #expect(try other.count() == expected)
    }

    @Test func schemaViolationsNameTheTableAndColumn() throws {
        let server = try makeServer(directory)
        func attempt(_ sql: String, tables: [SyncedTable]) throws -> SyncError? {
            let db = try DatabaseQueue()
            try db.write { try $0.execute(sql: sql) }
            do {
                _ = try SyncEngine(writer: db, privateDatabase: server.database(user: "me", scope: .private, device: "x"),
                                   sharedDatabase: server.database(user: "me", scope: .shared, device: "x"), tables: tables)
                return nil
            } catch let error as SyncError {
                return error
            }
        }
        #expect(try attempt("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)", tables: [SyncedTable("t")])
            == .unsupportedSchema(table: "t", column: "id", reason: "primary key must be TEXT, is INTEGER"))
        let unique = try attempt("CREATE TABLE t (id TEXT PRIMARY KEY, email TEXT UNIQUE)", tables: [SyncedTable("t")])
        #expect(unique?.description.contains("table t, column email") == true)
        let foreign = try attempt("""
            CREATE TABLE p (id TEXT PRIMARY KEY); CREATE TABLE c (id TEXT PRIMARY KEY, pid TEXT REFERENCES p(id) ON DELETE CASCADE);
            """, tables: [SyncedTable("c")])
        #expect(foreign?.description == "table c, column pid: references p, which is not synced")
        let restrict = try attempt("""
            CREATE TABLE p (id TEXT PRIMARY KEY); CREATE TABLE c (id TEXT PRIMARY KEY, pid TEXT REFERENCES p(id) ON DELETE RESTRICT);
            """, tables: [SyncedTable("p"), SyncedTable("c")])
        #expect(restrict?.description.contains("ON DELETE RESTRICT is not supported") == true)
        let cycle = try attempt("""
            CREATE TABLE a (id TEXT PRIMARY KEY, bid TEXT REFERENCES b(id) ON DELETE CASCADE);
            CREATE TABLE b (id TEXT PRIMARY KEY, aid TEXT REFERENCES a(id) ON DELETE CASCADE);
            """, tables: [SyncedTable("a"), SyncedTable("b")])
        #expect(cycle?.description.contains("cycle") == true)
        #expect(try attempt("CREATE TABLE t (a TEXT, b TEXT, PRIMARY KEY (a, b))", tables: [SyncedTable("t")])
            == .unsupportedSchema(table: "t", column: nil, reason: "needs a single-column primary key, found 2"))
        func wide(_ columns: Int) -> String {
            "CREATE TABLE t (id TEXT PRIMARY KEY, " + (1...columns).map { "c\($0) TEXT" }.joined(separator: ", ") + ")"
        }
        #expect(try attempt(wide(SchemaInspector.maximumColumns), tables: [SyncedTable("t")]) == nil)
        #expect(try attempt(wide(SchemaInspector.maximumColumns + 1), tables: [SyncedTable("t")])
            == .unsupportedSchema(table: "t", column: nil, reason: "has \(SchemaInspector.maximumColumns + 1) columns besides its primary key; "
                                  + "a synced table may have at most \(SchemaInspector.maximumColumns) (the change triggers pass two values a column to one SQL function, which takes at most 127)"))
    }

    /// The widest table the engine takes is synced whole: every column's
    /// edit is captured and sent.
    @Test func theWidestTableTakenSyncsEveryColumn() throws {
        let server = try makeServer(directory)
        let db = try DatabaseQueue()
        let count = SchemaInspector.maximumColumns
        try db.write { db in
            try db.execute(sql: "CREATE TABLE t (id TEXT PRIMARY KEY, " + (1...count).map { "c\($0) TEXT" }.joined(separator: ", ") + ")")
        }
        let engine = try SyncEngine(writer: db, privateDatabase: server.database(user: "me", scope: .private, device: "x"),
                                    sharedDatabase: server.database(user: "me", scope: .shared, device: "x"), tables: [SyncedTable("t")])
        try db.write { db in
            try db.execute(sql: "INSERT INTO t (id, c1, c\(count)) VALUES ('row', 'first', 'last')")
            try db.execute(sql: "UPDATE t SET c\(count) = 'edited last' WHERE id = 'row'")
        }
        _ = try engine.sendChanges()
        let other = try DatabaseQueue()
        try other.write { db in
            try db.execute(sql: "CREATE TABLE t (id TEXT PRIMARY KEY, " + (1...count).map { "c\($0) TEXT" }.joined(separator: ", ") + ")")
        }
        let fetcher = try SyncEngine(writer: other, privateDatabase: server.database(user: "me", scope: .private, device: "y"),
                                     sharedDatabase: server.database(user: "me", scope: .shared, device: "y"), tables: [SyncedTable("t")])
        _ = try fetcher.fetchChanges()
        let row = try other.read { db in try Row.fetchOne(db, sql: "SELECT c1, c\(count) AS last FROM t WHERE id = 'row'") }
        #expect(row?["c1"] == "first")
        #expect(row?["last"] == "edited last")
    }
}
