import Foundation
import GRDB
import Synchronization

/// The SQL the engine runs for every record (reading a row, writing it),
/// made once per table and set of columns: building it for every record
/// cost a third of the write.
final class TableStatements: Sendable {
    private enum Kind: Hashable {
        case upsert(rows: Int), update, row, rows, exists
    }

    private struct Key: Hashable {
        var table: String
        var columns: [String]
        var kind: Kind
    }

    private let texts = Mutex<[Key: String]>([:])

    /// Inserts `rows` rows with `columns` (after the primary key, in that
    /// order), or updates them where a row exists.
    func upsert(_ table: TableSchema, columns: [String], rows: Int = 1) -> String {
        text(Key(table: table.name, columns: columns, kind: .upsert(rows: rows))) {
            let pk = table.primaryKey.quotedDatabaseIdentifier
            let names = ([table.primaryKey] + columns).map(\.quotedDatabaseIdentifier)
            let updates = columns.isEmpty
                ? "\(pk) = excluded.\(pk)"
                : columns.map { "\($0.quotedDatabaseIdentifier) = excluded.\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
            let row = "(" + names.map { _ in "?" }.joined(separator: ", ") + ")"
            return """
                INSERT INTO \(table.name.quotedDatabaseIdentifier) (\(names.joined(separator: ", ")))
                VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))
                ON CONFLICT (\(pk)) DO UPDATE SET \(updates)
                """
        }
    }

    /// Updates `columns` (in that order), then the primary key to match.
    func update(_ table: TableSchema, columns: [String]) -> String {
        text(Key(table: table.name, columns: columns, kind: .update)) {
            """
            UPDATE \(table.name.quotedDatabaseIdentifier)
            SET \(columns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: ", "))
            WHERE \(table.primaryKey.quotedDatabaseIdentifier) = ?
            """
        }
    }

    /// Selects the row with every column, primary key first.
    func row(_ table: TableSchema) -> String {
        text(Key(table: table.name, columns: [], kind: .row)) {
            let columns = table.allColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            return "SELECT \(columns) FROM \(table.name.quotedDatabaseIdentifier) WHERE \(table.primaryKey.quotedDatabaseIdentifier) = ?"
        }
    }

    /// Selects the rows whose primary keys are in a JSON array, with every
    /// column, primary key first.
    func rows(_ table: TableSchema) -> String {
        text(Key(table: table.name, columns: [], kind: .rows)) {
            let columns = table.allColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            return """
                SELECT \(columns) FROM \(table.name.quotedDatabaseIdentifier)
                WHERE \(table.primaryKey.quotedDatabaseIdentifier) IN (SELECT value FROM json_each(?))
                """
        }
    }

    /// Whether the row exists.
    func exists(_ table: TableSchema) -> String {
        text(Key(table: table.name, columns: [], kind: .exists)) {
            """
            SELECT EXISTS (SELECT 1 FROM \(table.name.quotedDatabaseIdentifier) WHERE \(table.primaryKey.quotedDatabaseIdentifier) = ?)
            """
        }
    }

    private func text(_ key: Key, make: () -> String) -> String {
        if let text = texts.withLock({ $0[key] }) { return text }
        let text = make()
        texts.withLock { $0[key] = text }
        return text
    }
}
