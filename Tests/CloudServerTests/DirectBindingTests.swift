import Foundation
import GRDB
import Testing
@testable import CloudServer

/// Statements run with their values bound straight into SQLite: every
/// kind of value arrives as written, rows in order, and a wrong number of
/// values runs nothing.
@Suite struct DirectBindingTests {
    static let values: [DatabaseValue] = [
        .null, 42.databaseValue, Int64.min.databaseValue, 2.5.databaseValue, "".databaseValue, "é\tx\u{1F600}".databaseValue,
        String(repeating: "long ", count: 10_000).databaseValue, Data([0, 1, 255]).databaseValue,
        // Text cut from a longer string is bound from its own bytes.
        String("a longer string, cut".dropFirst(2).prefix(6)).databaseValue,
    ]

    static func table() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (position INTEGER PRIMARY KEY, value)") }
        return queue
    }

    @Test func oneRowOfValues() throws {
        let queue = try Self.table()
        try queue.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?)")
            for (position, value) in Self.values.enumerated() {
                try statement.execute(binding: [position.databaseValue, value])
            }
        }
        let stored = try queue.read { db in try DatabaseValue.fetchAll(db, sql: "SELECT value FROM t ORDER BY position") }
        #expect(stored == Self.values)
    }

    @Test func manyRowsPerStatementInOrder() throws {
        let queue = try Self.table()
        let rows = Self.values.enumerated().map { [$0.offset.databaseValue, $0.element] }
        try queue.write { db in
            let marks = Array(repeating: "(?, ?)", count: 3).joined(separator: ", ")
            let statement = try db.cachedStatement(sql: "INSERT INTO t VALUES \(marks)")
            // Twice with the same statement: the second run binds anew.
            try statement.execute(bindingRows: rows[0..<3])
            try statement.execute(bindingRows: rows[3..<6])
            try db.execute(sql: "INSERT INTO t VALUES (?, ?), (?, ?)", arguments: StatementArguments(rows[6..<8].joined()))
            try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?)").execute(bindingRows: rows[8...])
        }
        let stored = try queue.read { db in try DatabaseValue.fetchAll(db, sql: "SELECT value FROM t ORDER BY position") }
        #expect(stored == Self.values)
    }

    /// Text goes in with its length: all of it, a NUL inside included
    /// (read back here as bytes, since reading text stops at a NUL).
    @Test func textIsBoundWhole() throws {
        let queue = try Self.table()
        try queue.write { db in
            try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?)").execute(binding: [1.databaseValue, "before\u{0}after".databaseValue])
        }
        let stored = try queue.read { db in try Data.fetchOne(db, sql: "SELECT CAST(value AS BLOB) FROM t") }
        #expect(stored == Data("before\u{0}after".utf8))
    }

    @Test func aWrongNumberOfValuesRunsNothing() throws {
        let queue = try Self.table()
        try queue.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?)")
            #expect(throws: DatabaseError.self) { try statement.execute(binding: [1.databaseValue]) }
            #expect(throws: DatabaseError.self) { try statement.execute(binding: [1.databaseValue, 2.databaseValue, 3.databaseValue]) }
            #expect(throws: DatabaseError.self) { try statement.execute(bindingRows: [[1.databaseValue], [2.databaseValue]][...] + [[3.databaseValue]]) }
            // Still usable after.
            try statement.execute(binding: [7.databaseValue, "kept".databaseValue])
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 1)
    }
}
