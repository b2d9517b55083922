import CloudServer
import Foundation
import GRDB

/// A row of `sync_metadata`.
struct Metadata: Sendable {
    var recordType: String
    var recordName: String
    var zoneID: ZoneID?
    var lastKnown: ServerRecord?
    var editTimes: FieldMap<Int64>
    var isPendingSave: Bool
    var isPendingDelete: Bool
    var changeCount: Int64
    /// The row's rowid: a send's next batch leaves out the batch in flight
    /// by it, checked in the pending index before the row is read.
    var rowID: Int64

    /// The columns `init(row:)` reads, in its order: read by position,
    /// since looking columns up by name cost more than the query.
    static let columns = columnNames.joined(separator: ", ")
    private static let columnNames = [
        "recordType", "recordName", "zoneName", "ownerName", "lastKnownServerRecord", "editTimes", "isPendingSave",
        "isPendingDelete", "changeCount", "rowid",
    ]
    /// How many `columns` there are: a row read with more (`pendingSaves`)
    /// has the others after them.
    static let columnCount = columnNames.count
    /// `columns`, each named with its table, for a read that joins another.
    static let qualifiedColumns = columnNames.map { "sync_metadata." + $0 }.joined(separator: ", ")

    /// A row selected with `columns`.
    init(row: Row) throws {
        recordType = row[0]
        recordName = row[1]
        if let zoneName: String = row[2], let ownerName: String = row[3] {
            zoneID = ZoneID(name: zoneName, ownerName: ownerName)
        }
        if let data: Data = row[4] {
            lastKnown = try RecordCoder.decode(data)
        }
        let times: String = row[5]
        editTimes = Self.decodeTimes(times)
        isPendingSave = row[6]
        isPendingDelete = row[7]
        changeCount = row[8]
        rowID = row[9]
    }

    /// Whether the row holds an edit the server has not seen: a field whose
    /// edit time is past the last-known record's (every field of a row the
    /// server never confirmed). A re-join makes every row pending with the
    /// times it already had: those are not edits.
    var hasLocalEdits: Bool {
        guard let lastKnown else { return true }
        return editTimes.contains { column, time in time > (lastKnown.fieldModificationTimes[column] ?? 0) }
    }

    /// When the row was made here, if since its last-known version: the
    /// time a create stamps on its key and no edit does (`createdAt`).
    func createdHere(_ table: TableSchema) -> Int64? {
        editTimes[table.primaryKey]
    }

    /// Whether the row was made here after every edit of `version` (an
    /// undo of its delete, a reminder put back from the log).
    func isMadeAfter(_ version: ServerRecord, table: TableSchema) -> Bool {
        guard let created = createdHere(table), let newest = version.fieldModificationTimes.values.max() else { return false }
        return created > newest
    }

    static func fetch(_ db: Database, type: String, name: String) throws -> Metadata? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM sync_metadata WHERE recordType = ? AND recordName = ?"),
                         arguments: [type, name]).map(Metadata.init(row:))
    }

    /// Edit times as the JSON object the triggers patch (`json_patch`),
    /// keys sorted, in the form the server stores field times.
    static func encodeTimes(_ times: FieldMap<Int64>) -> String {
        FieldJSON.encode(times: times)
    }

    /// Reads what `encodeTimes` or SQLite's JSON functions wrote; what the
    /// quick reader does not take goes through `JSONDecoder`, and what that
    /// cannot read either counts as no times.
    static func decodeTimes(_ text: String) -> FieldMap<Int64> {
        if let times = FieldJSON.quickTimes(text) { return times }
        return (try? JSONDecoder().decode(FieldMap<Int64>.self, from: Data(text.utf8))) ?? [:]
    }

    /// Stores what the server confirmed or sent, with the local state of
    /// the row (pending edits and their times).
    static func save(_ db: Database, type: String, name: String, lastKnown: ServerRecord?, editTimes: FieldMap<Int64>,
                     isPendingSave: Bool, isPendingDelete: Bool) throws {
        try db.executeCached(saveSQL(rows: 1), arguments: StatementArguments(try values(
            type: type, name: name, lastKnown: lastKnown, editTimes: editTimes,
            isPendingSave: isPendingSave, isPendingDelete: isPendingDelete)))
    }

    /// What `save` writes for one row, in the order of `saveSQL`'s values.
    static func values(type: String, name: String, lastKnown: ServerRecord?, editTimes: FieldMap<Int64>,
                       isPendingSave: Bool, isPendingDelete: Bool) throws -> [DatabaseValue] {
        [
            type.databaseValue, name.databaseValue, lastKnown?.id.zoneID.name.databaseValue ?? .null,
            lastKnown?.id.zoneID.ownerName.databaseValue ?? .null, try lastKnown.map(RecordCoder.encode)?.databaseValue ?? .null,
            encodeTimes(editTimes).databaseValue, isPendingSave.databaseValue, isPendingDelete.databaseValue,
        ]
    }

    /// Saves `rows` rows of `values` in one statement (a page's new rows
    /// are saved many at a time, see `PageWrites`).
    static func saveSQL(rows: Int) -> String {
        saveTexts[rows] ?? makeSaveSQL(rows: rows)
    }

    /// Inserts `rows` rows of `values` in one statement, failing where one
    /// exists (`PageWrites.assumesNew`).
    static func insertSQL(rows: Int) -> String {
        insertTexts[rows] ?? makeInsertSQL(rows: rows)
    }

    private static let saveTexts = Dictionary(uniqueKeysWithValues: PageWrites.chunkSizes.map { ($0, makeSaveSQL(rows: $0)) })
    private static let insertTexts = Dictionary(uniqueKeysWithValues: PageWrites.chunkSizes.map { ($0, makeInsertSQL(rows: $0)) })

    private static func makeInsertSQL(rows: Int) -> String {
        let row = "(?, ?, ?, ?, ?, ?, ?, ?, 0)"
        return """
            INSERT INTO sync_metadata (recordType, recordName, zoneName, ownerName, lastKnownServerRecord, editTimes,
                                       isPendingSave, isPendingDelete, changeCount)
            VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))
            """
    }

    private static func makeSaveSQL(rows: Int) -> String {
        makeInsertSQL(rows: rows) + """

            ON CONFLICT (recordType, recordName) DO UPDATE SET
              zoneName = excluded.zoneName, ownerName = excluded.ownerName,
              lastKnownServerRecord = excluded.lastKnownServerRecord, editTimes = excluded.editTimes,
              isPendingSave = excluded.isPendingSave, isPendingDelete = excluded.isPendingDelete
            """
    }

    static func delete(_ db: Database, type: String, name: String) throws {
        try db.executeCached("DELETE FROM sync_metadata WHERE recordType = ? AND recordName = ?", arguments: [type, name])
    }
}
