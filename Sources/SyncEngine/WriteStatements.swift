import Foundation
import GRDB

/// The SQL of `writeRow`, made once per table and set of columns: building
/// it for every record cost a third of the write.
final class WriteStatements: @unchecked Sendable {
    private struct Key: Hashable {
        var table: String
        var columns: [String]
        var insert: Bool
        var rows = 1
    }

    private let lock = NSLock()
    private var texts: [Key: String] = [:]

    /// Inserts `rows` rows with `columns` (after the primary key, in that
    /// order), or updates them where a row exists.
    func upsert(_ table: TableSchema, columns: [String], rows: Int = 1) -> String {
        text(Key(table: table.name, columns: columns, insert: true, rows: rows)) {
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
        text(Key(table: table.name, columns: columns, insert: false)) {
            """
            UPDATE \(table.name.quotedDatabaseIdentifier)
            SET \(columns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: ", "))
            WHERE \(table.primaryKey.quotedDatabaseIdentifier) = ?
            """
        }
    }

    private func text(_ key: Key, make: () -> String) -> String {
        if let text = lock.withLock({ texts[key] }) { return text }
        let text = make()
        lock.withLock { texts[key] = text }
        return text
    }
}
