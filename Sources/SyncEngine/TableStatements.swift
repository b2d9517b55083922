import Foundation
import GRDB
import Synchronization

/// The SQL the engine runs for every record (reading a row, writing it),
/// made once per table and set of columns: building it for every record
/// cost a third of the write.
final class TableStatements: Sendable {
    private enum Kind: Hashable {
        case upsert(rows: Int), insert(rows: Int), update, row, pendingSaves(waiting: Bool), pendingDeletes, exists
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
            let updates = columns.isEmpty
                ? "\(pk) = excluded.\(pk)"
                : columns.map { "\($0.quotedDatabaseIdentifier) = excluded.\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
            return insertSQL("INSERT", table, columns: columns, rows: rows) + "\nON CONFLICT (\(pk)) DO UPDATE SET \(updates)"
        }
    }

    /// Inserts `rows` rows with `columns` (after the primary key, in that
    /// order), failing where a row exists (`PageWrites.assumesNew`): OR
    /// ABORT overrides a key declared ON CONFLICT REPLACE, which would
    /// delete the row here and put the record in its place.
    func insert(_ table: TableSchema, columns: [String], rows: Int = 1) -> String {
        text(Key(table: table.name, columns: columns, kind: .insert(rows: rows))) {
            insertSQL("INSERT OR ABORT", table, columns: columns, rows: rows)
        }
    }

    /// `verb` INTO the table, the primary key and `columns`, `rows` rows
    /// of parameters.
    private func insertSQL(_ verb: String, _ table: TableSchema, columns: [String], rows: Int) -> String {
        let names = ([table.primaryKey] + columns).map(\.quotedDatabaseIdentifier)
        let row = "(" + names.map { _ in "?" }.joined(separator: ", ") + ")"
        return """
            \(verb) INTO \(table.name.quotedDatabaseIdentifier) (\(names.joined(separator: ", ")))
            VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))
            """
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

    /// The pending saves of `table` with their rows, in the order of the
    /// pending index: `Metadata.columns`, then the row's columns, primary
    /// key first. Arguments: the table's name, a JSON array of metadata
    /// rowids and one of keys to leave out, and a limit. `waiting`: rows
    /// waiting for a new parent (`SyncEngine.waitingForNewParent`) are
    /// left out.
    func pendingSaves(_ table: TableSchema, waitingForNewParent waiting: Bool) -> String {
        text(Key(table: table.name, columns: [], kind: .pendingSaves(waiting: waiting))) {
            let columns = table.allColumns.map { "row." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
            // CROSS JOIN: the pending index leads, the row is looked up.
            return """
                SELECT \(Metadata.qualifiedColumns), \(columns)
                FROM sync_metadata CROSS JOIN \(table.name.quotedDatabaseIdentifier) AS row
                  ON row.\(table.primaryKey.quotedDatabaseIdentifier) = sync_metadata.recordName
                WHERE sync_metadata.recordType = ?1 AND (sync_metadata.isPendingSave OR sync_metadata.isPendingDelete)
                  AND sync_metadata.rowid NOT IN (SELECT value FROM json_each(?2))
                  AND sync_metadata.isPendingDelete = 0 \(waiting ? SyncEngine.waitingForNewParent(table) : "")
                  AND sync_metadata.recordName NOT IN (SELECT value FROM json_each(?3))
                LIMIT ?4
                """
        }
    }

    /// The pending deletes of `table`, `Metadata.columns`, with the
    /// arguments of `pendingSaves`.
    func pendingDeletes(_ table: TableSchema) -> String {
        text(Key(table: table.name, columns: [], kind: .pendingDeletes)) {
            """
            SELECT \(Metadata.columns) FROM sync_metadata
            WHERE recordType = ?1 AND (isPendingSave OR isPendingDelete)
              AND rowid NOT IN (SELECT value FROM json_each(?2))
              AND isPendingDelete = 1
              AND recordName NOT IN (SELECT value FROM json_each(?3))
            LIMIT ?4
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
