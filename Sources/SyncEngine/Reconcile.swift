import CloudServer
import Foundation
import GRDB

extension SyncEngine {
    /// Catches up with writes made while the change-capture triggers were
    /// being replaced: an app migration that rebuilds a synced table (a new
    /// key, a new column) copies its rows with the old triggers gone. Runs
    /// when the engine attaches and finds its triggers out of date, after
    /// `backfill` marked the rows it had never seen:
    ///
    /// - a row the server had (or may have) that is gone now is a delete;
    /// - a row whose values differ from the last server record is an edit
    ///   of those fields, stamped now.
    ///
    /// So a table rebuilt under new keys deletes the old records on the
    /// server and creates the new ones, as a primary-key change does.
    static func reconcile(_ db: Database, tables: [TableSchema], statements: TableStatements) throws {
        try db.execute(sql: ChangeCapture.tick)
        let now = try Int64.fetchOne(db, sql: "SELECT hlc FROM sync_clock") ?? 0
        for table in tables {
            let missing = """
                recordType = ? AND NOT isPendingDelete AND recordName NOT IN (
                  SELECT \(table.primaryKey.quotedDatabaseIdentifier) FROM \(table.name.quotedDatabaseIdentifier))
                """
            try db.execute(sql: "DELETE FROM sync_metadata WHERE \(missing) AND lastKnownServerRecord IS NULL AND zoneName IS NULL",
                           arguments: [table.name])
            try db.execute(sql: """
                UPDATE sync_metadata SET isPendingDelete = 1, isPendingSave = 0, editTimes = '{}', changeCount = changeCount + 1
                WHERE \(missing)
                """, arguments: [table.name])
            let known = try Row.fetchAll(db, sql: """
                SELECT \(Metadata.columns) FROM sync_metadata
                WHERE recordType = ? AND NOT isPendingDelete AND lastKnownServerRecord IS NOT NULL
                """, arguments: [table.name])
            for metaRow in known {
                let meta = try Metadata(row: metaRow)
                guard let lastKnown = meta.lastKnown,
                      let row = try Row.fetchOne(db.cachedStatement(sql: statements.row(table)), arguments: [meta.recordName])
                else { continue }
                let values = RecordCoder.values(of: row, table: table).values
                var editTimes = meta.editTimes
                // A column the last-known record never had (added since, with
                // a default) is not an edit.
                for column in table.columns where values[column] != lastKnown.fields[column] && editTimes[column] == nil
                    && (lastKnown.fields[column] != nil || lastKnown.fieldModificationTimes[column] != nil) {
                    editTimes[column] = now
                }
                guard editTimes != meta.editTimes else { continue }
                try db.executeCached("""
                    UPDATE sync_metadata SET editTimes = ?, isPendingSave = 1, changeCount = changeCount + 1
                    WHERE recordType = ? AND recordName = ?
                    """, arguments: [Metadata.encodeTimes(editTimes), table.name, meta.recordName])
            }
        }
    }
}
