import Foundation

/// A row of the `record` table: the latest version of a record, or its
/// tombstone once deleted.
struct StoredRecord {
    /// The record as clients see it, server fields filled in.
    var record: ServerRecord
    /// The change sequence of the last save or delete.
    var sequence: Int64
    var isDeleted: Bool

    static let columns = """
        ownerName, zoneName, recordName, recordType, fields, fieldModificationTimes, \
        parentOwnerName, parentZoneName, parentRecordName, changeTag, modificationDate, \
        modifiedByUser, modifiedByDevice, sequence, isDeleted
        """

    /// A tombstone's only field time, under a name no record field can
    /// have: the newest edit time of the version its delete was made
    /// against (`RecordDeletion.deletedThrough`), when the device sent it.
    static let deletedThroughKey = "sync.deletedThrough"

    /// The deletion a fetch reports for a tombstone.
    var deletion: RecordDeletion {
        RecordDeletion(id: record.id, recordType: record.recordType, deletedByUser: record.modifiedByUser?.nonEmpty,
                       deletedByDevice: record.modifiedByDevice?.nonEmpty,
                       deletedThrough: record.fieldModificationTimes[Self.deletedThroughKey])
    }

    init(record: ServerRecord, sequence: Int64, isDeleted: Bool) {
        self.record = record
        self.sequence = sequence
        self.isDeleted = isDeleted
    }

    /// Reads a row selected with `columns`, which start at column `offset`.
    init(row: StoreRow, at offset: Int = 0) throws {
        let zone = ZoneID(name: try row.text(offset + 1), ownerName: try row.text(offset))
        let id = RecordID(recordName: try row.text(offset + 2), zoneID: zone)
        var parent: RecordID?
        if let parentOwner = try row.optionalText(offset + 6),
           let parentZone = try row.optionalText(offset + 7),
           let parentName = try row.optionalText(offset + 8) {
            parent = RecordID(recordName: parentName, zoneID: ZoneID(name: parentZone, ownerName: parentOwner))
        }
        record = ServerRecord(
            id: id,
            recordType: try row.text(offset + 3),
            fields: try RecordCoding.decodeFields(try row.text(offset + 4), of: id),
            fieldModificationTimes: try RecordCoding.decodeTimes(try row.text(offset + 5), of: id),
            parent: parent,
            changeTag: try row.optionalText(offset + 9),
            modificationDate: Date(timeIntervalSinceReferenceDate: try row.real(offset + 10)),
            modifiedByUser: try row.text(offset + 11),
            modifiedByDevice: try row.text(offset + 12))
        sequence = try row.integer(offset + 13)
        isDeleted = try row.bool(offset + 14)
    }

    /// The row of a record, live or tombstone; nil if the server never had it
    /// (or compacted its tombstone away).
    static func fetch(_ db: any StoreConnection, _ id: RecordID) throws -> StoredRecord? {
        guard let row = try db.row("""
            SELECT \(columns) FROM record WHERE ownerName = ? AND zoneName = ? AND recordName = ?
            """, [id.zoneID.ownerName, id.zoneID.name, id.recordName]) else {
            return nil
        }
        return try StoredRecord(row: row)
    }

    /// The rows of several records of one zone, by record name, read in a
    /// few queries instead of one each; records the server never had are
    /// left out.
    static func fetchAll(_ db: any StoreConnection, _ ids: [RecordID], in zone: ZoneID) throws -> [String: StoredRecord] {
        var found: [String: StoredRecord] = [:]
        let names = ids.map(\.recordName)
        for start in stride(from: 0, to: names.count, by: 200) {
            let chunk = Array(names[start..<min(start + 200, names.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let rows = try db.rows("""
                SELECT \(columns) FROM record WHERE ownerName = ? AND zoneName = ? AND recordName IN (\(marks))
                """, [zone.ownerName, zone.name] + chunk)
            for row in rows {
                let stored = try StoredRecord(row: row)
                found[stored.record.id.recordName] = stored
            }
        }
        return found
    }

    /// Writes this version over whatever the row held.
    func write(_ db: any StoreConnection) throws {
        try Self.write([self], db)
    }

    /// Rows per statement of `write(_:_:)`: 15 values each, well inside
    /// both stores' limits on a statement's parameters.
    static let rowsPerStatement = 100

    /// Writes several versions over whatever their rows held, many rows per
    /// statement: a request's saves in a few statements rather than one
    /// each (for PostgreSQL, a few round trips instead of hundreds). Each
    /// record at most once.
    static func write(_ stored: [StoredRecord], _ db: any StoreConnection) throws {
        for start in stride(from: 0, to: stored.count, by: rowsPerStatement) {
            let chunk = stored[start..<min(start + rowsPerStatement, stored.count)]
            var arguments: [any SQLBindable] = []
            arguments.reserveCapacity(chunk.count * 15)
            for item in chunk {
                let record = item.record
                let zone = record.id.zoneID
                arguments += [
                    zone.ownerName, zone.name, record.id.recordName, record.recordType,
                    try RecordCoding.encodeFields(record.fields), try RecordCoding.encodeTimes(record.fieldModificationTimes),
                    record.parent?.zoneID.ownerName, record.parent?.zoneID.name, record.parent?.recordName,
                    record.changeTag, (record.modificationDate ?? Date()).timeIntervalSinceReferenceDate,
                    record.modifiedByUser ?? "", record.modifiedByDevice ?? "", item.sequence, item.isDeleted,
                ]
            }
            let rows = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
            try db.execute("""
                INSERT INTO record (\(columns))
                VALUES \(rows)
                ON CONFLICT (ownerName, zoneName, recordName) DO UPDATE SET
                    recordType = excluded.recordType, fields = excluded.fields,
                    fieldModificationTimes = excluded.fieldModificationTimes,
                    parentOwnerName = excluded.parentOwnerName, parentZoneName = excluded.parentZoneName,
                    parentRecordName = excluded.parentRecordName, changeTag = excluded.changeTag,
                    modificationDate = excluded.modificationDate, modifiedByUser = excluded.modifiedByUser,
                    modifiedByDevice = excluded.modifiedByDevice, sequence = excluded.sequence,
                    isDeleted = excluded.isDeleted
                """, arguments)
        }
    }
}

/// Stored data that does not decode: the file was altered outside this
/// program. Reported as a damaged store.
package struct StoredDataCorrupted: Error {
    package var message: String
}

/// How fields are stored: JSON with sorted keys, so the bytes of a record are
/// stable and a person can read them with `sqlite3`. `FieldJSON` writes and
/// (mostly) reads it; `JSONDecoder` reads what it does not recognise.
enum RecordCoding {
    static func encodeFields(_ fields: FieldMap<FieldValue>) throws -> String {
        FieldJSON.encode(fields: fields)
    }

    static func decodeFields(_ text: String, of id: RecordID) throws -> FieldMap<FieldValue> {
        if let fields = FieldJSON.quickFields(text) { return fields }
        return try decode(FieldMap<FieldValue>.self, from: text, what: "the fields of record \(id)")
    }

    static func encodeTimes(_ times: FieldMap<Int64>) throws -> String {
        FieldJSON.encode(times: times)
    }

    static func decodeTimes(_ text: String, of id: RecordID) throws -> FieldMap<Int64> {
        if let times = FieldJSON.quickTimes(text) { return times }
        return try decode(FieldMap<Int64>.self, from: text, what: "the field modification times of record \(id)")
    }

    private static func decode<T: Decodable>(_ type: T.Type, from text: String, what: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            return try decoder.decode(type, from: Data(text.utf8))
        } catch {
            throw StoredDataCorrupted(message: "cannot decode \(what)")
        }
    }
}
