import Foundation
import GRDB

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

    init(record: ServerRecord, sequence: Int64, isDeleted: Bool) {
        self.record = record
        self.sequence = sequence
        self.isDeleted = isDeleted
    }

    /// Reads a row selected with `columns` (in that order of names).
    init(row: Row) throws {
        do {
            let zone = ZoneID(name: try row.decode(forColumn: "zoneName"), ownerName: try row.decode(forColumn: "ownerName"))
            let id = RecordID(recordName: try row.decode(forColumn: "recordName"), zoneID: zone)
            var parent: RecordID?
            if let parentName: String = try row.decode(forColumn: "parentRecordName"),
               let parentZone: String = try row.decode(forColumn: "parentZoneName"),
               let parentOwner: String = try row.decode(forColumn: "parentOwnerName") {
                parent = RecordID(recordName: parentName, zoneID: ZoneID(name: parentZone, ownerName: parentOwner))
            }
            let modificationDate: Double = try row.decode(forColumn: "modificationDate")
            record = ServerRecord(
                id: id,
                recordType: try row.decode(forColumn: "recordType"),
                fields: try RecordCoding.decodeFields(try row.decode(forColumn: "fields"), of: id),
                fieldModificationTimes: try RecordCoding.decodeTimes(try row.decode(forColumn: "fieldModificationTimes"), of: id),
                parent: parent,
                changeTag: try row.decode(forColumn: "changeTag"),
                modificationDate: Date(timeIntervalSinceReferenceDate: modificationDate),
                modifiedByUser: try row.decode(forColumn: "modifiedByUser"),
                modifiedByDevice: try row.decode(forColumn: "modifiedByDevice"))
            sequence = try row.decode(forColumn: "sequence")
            isDeleted = try row.decode(forColumn: "isDeleted")
        } catch let error as StoredDataCorrupted {
            throw error
        } catch {
            throw StoredDataCorrupted(message: "a record row does not decode: \(error)")
        }
    }

    /// The row of a record, live or tombstone; nil if the server never had it
    /// (or compacted its tombstone away).
    static func fetch(_ db: Database, _ id: RecordID) throws -> StoredRecord? {
        let statement = try db.cachedStatement(sql: """
            SELECT \(columns) FROM record WHERE ownerName = ? AND zoneName = ? AND recordName = ?
            """)
        guard let row = try Row.fetchOne(statement, arguments: [id.zoneID.ownerName, id.zoneID.name, id.recordName]) else {
            return nil
        }
        return try StoredRecord(row: row)
    }

    /// Writes this version over whatever the row held.
    func write(_ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO record (\(Self.columns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let zone = record.id.zoneID
        try statement.execute(arguments: [
            zone.ownerName, zone.name, record.id.recordName, record.recordType,
            try RecordCoding.encodeFields(record.fields), try RecordCoding.encodeTimes(record.fieldModificationTimes),
            record.parent?.zoneID.ownerName, record.parent?.zoneID.name, record.parent?.recordName,
            record.changeTag, (record.modificationDate ?? Date()).timeIntervalSinceReferenceDate,
            record.modifiedByUser ?? "", record.modifiedByDevice ?? "", sequence, isDeleted,
        ])
    }
}

/// Stored data that does not decode: the file was altered outside this
/// program. Reported as a damaged store.
struct StoredDataCorrupted: Error {
    var message: String
}

/// How fields are stored: JSON with sorted keys, so the bytes of a record are
/// stable and a person can read them with `sqlite3`. `FieldJSON` writes and
/// (mostly) reads it; `JSONDecoder` reads what it does not recognise.
enum RecordCoding {
    static func encodeFields(_ fields: [String: FieldValue]) throws -> String {
        FieldJSON.encode(fields: fields)
    }

    static func decodeFields(_ text: String, of id: RecordID) throws -> [String: FieldValue] {
        if let fields = FieldJSON.quickFields(text) { return fields }
        return try decode([String: FieldValue].self, from: text, what: "the fields of record \(id)")
    }

    static func encodeTimes(_ times: [String: Int64]) throws -> String {
        FieldJSON.encode(times: times)
    }

    static func decodeTimes(_ text: String, of id: RecordID) throws -> [String: Int64] {
        if let times = FieldJSON.quickTimes(text) { return times }
        return try decode([String: Int64].self, from: text, what: "the field modification times of record \(id)")
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
