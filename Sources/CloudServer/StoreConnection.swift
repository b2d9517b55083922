import Foundation
import GRDB

/// A value bound to a statement of a store, or read from one of its rows.
/// Booleans are stored as integers 0 and 1 in every store, so that one SQL
/// text runs on SQLite and PostgreSQL alike.
package enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// What a statement of a store accepts as an argument.
package protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension String: SQLBindable {
    package var sqlValue: SQLValue { .text(self) }
}

extension Int64: SQLBindable {
    package var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLBindable {
    package var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLBindable {
    package var sqlValue: SQLValue { .real(self) }
}

extension Bool: SQLBindable {
    package var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}

extension Data: SQLBindable {
    package var sqlValue: SQLValue { .blob(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// One row a store's query returned, read by column position.
package struct StoreRow: Sendable {
    package var values: [SQLValue]

    package init(values: [SQLValue]) {
        self.values = values
    }

    /// Text at `index`; throws for NULL or another type.
    package func text(_ index: Int) throws -> String {
        guard case .text(let text) = values[index] else { throw mismatch(index, "text") }
        return text
    }

    package func optionalText(_ index: Int) throws -> String? {
        if case .null = values[index] { return nil }
        return try text(index)
    }

    /// An integer at `index`; text holding an integer is read too (a
    /// PostgreSQL store keeps its counters in a text column).
    package func integer(_ index: Int) throws -> Int64 {
        switch values[index] {
        case .integer(let value): return value
        case .text(let text):
            guard let value = Int64(text) else { throw mismatch(index, "integer") }
            return value
        default: throw mismatch(index, "integer")
        }
    }

    package func optionalInteger(_ index: Int) throws -> Int64? {
        if case .null = values[index] { return nil }
        return try integer(index)
    }

    package func real(_ index: Int) throws -> Double {
        switch values[index] {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: throw mismatch(index, "real")
        }
    }

    /// A boolean stored as an integer: anything but 0 is true.
    package func bool(_ index: Int) throws -> Bool {
        try integer(index) != 0
    }

    package func optionalBool(_ index: Int) throws -> Bool? {
        if case .null = values[index] { return nil }
        return try bool(index)
    }

    private func mismatch(_ index: Int, _ expected: String) -> StoredDataCorrupted {
        StoredDataCorrupted(message: "a stored row holds \(values[index]) in column \(index), where \(expected) belongs")
    }
}

/// The SQL that one request of a store runs on, inside the transaction the
/// store opened for it: SQLite (the directory store) or PostgreSQL.
///
/// Statements are written once for both: `?` placeholders (or `?1`, `?2`),
/// integers for booleans, `INSERT ... ON CONFLICT ... DO UPDATE` for
/// upserts, and nothing else specific to either.
package protocol StoreConnection: AnyObject {
    /// Runs a statement that returns no rows.
    func execute(_ sql: String, _ arguments: [any SQLBindable]) throws
    /// Runs a query and returns all its rows.
    func rows(_ sql: String, _ arguments: [any SQLBindable]) throws -> [StoreRow]
    /// The rows the last `execute` inserted, changed or deleted.
    var changesCount: Int { get }
    /// Runs `body` in a savepoint, kept if `body` returns true and rolled
    /// back if it returns false or throws.
    func savepoint(_ body: () throws -> Bool) throws
}

extension StoreConnection {
    package func execute(_ sql: String) throws {
        try execute(sql, [])
    }

    package func rows(_ sql: String) throws -> [StoreRow] {
        try rows(sql, [])
    }

    /// The first row of a query, if any.
    package func row(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> StoreRow? {
        try rows(sql, arguments).first
    }

    /// The first column of the first row: nil if there is no row or it is NULL.
    package func value(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> SQLValue? {
        guard let row = try row(sql, arguments), let value = row.values.first else { return nil }
        if case .null = value { return nil }
        return value
    }

    package func text(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> String? {
        guard let row = try row(sql, arguments) else { return nil }
        return try row.optionalText(0)
    }

    package func texts(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> [String] {
        try rows(sql, arguments).map { try $0.text(0) }
    }

    package func integer(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> Int64? {
        guard let row = try row(sql, arguments) else { return nil }
        return try row.optionalInteger(0)
    }

    /// A yes-or-no query (`SELECT EXISTS (...)`): false without a row.
    package func bool(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> Bool {
        guard let row = try row(sql, arguments) else { return false }
        return try row.optionalBool(0) ?? false
    }
}

/// A SQLite connection of the directory store, inside a GRDB transaction.
/// Statements are prepared once per connection and reused.
package final class SQLiteConnection: StoreConnection {
    let db: Database

    package init(_ db: Database) {
        self.db = db
    }

    package func execute(_ sql: String, _ arguments: [any SQLBindable]) throws {
        try db.cachedStatement(sql: sql).execute(binding: arguments.map(Self.databaseValue))
    }

    package func rows(_ sql: String, _ arguments: [any SQLBindable]) throws -> [StoreRow] {
        let statement = try db.cachedStatement(sql: sql)
        let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments.map(Self.databaseValue)))
        var rows: [StoreRow] = []
        while let row = try cursor.next() {
            var values: [SQLValue] = []
            values.reserveCapacity(row.count)
            for index in 0..<row.count {
                let value: DatabaseValue = row[index]
                switch value.storage {
                case .null: values.append(.null)
                case .int64(let number): values.append(.integer(number))
                case .double(let number): values.append(.real(number))
                case .string(let text): values.append(.text(text))
                case .blob(let data): values.append(.blob(data))
                }
            }
            rows.append(StoreRow(values: values))
        }
        return rows
    }

    package var changesCount: Int { db.changesCount }

    package func savepoint(_ body: () throws -> Bool) throws {
        try db.inSavepoint { try body() ? .commit : .rollback }
    }

    private static func databaseValue(_ argument: any SQLBindable) -> DatabaseValue {
        switch argument.sqlValue {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        }
    }
}
