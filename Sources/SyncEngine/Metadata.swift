import CloudServer
import Foundation
import GRDB

/// A row of `sync_metadata`.
struct Metadata: Sendable {
    var recordType: String
    var recordName: String
    var zoneID: ZoneID?
    var lastKnown: ServerRecord?
    var editTimes: [String: Int64]
    var isPendingSave: Bool
    var isPendingDelete: Bool
    var changeCount: Int64

    /// The columns `init(row:)` reads, in its order: read by position,
    /// since looking columns up by name cost more than the query.
    static let columns = """
        recordType, recordName, zoneName, ownerName, lastKnownServerRecord, editTimes, isPendingSave, isPendingDelete, changeCount
        """

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
    }

    static func fetch(_ db: Database, type: String, name: String) throws -> Metadata? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM sync_metadata WHERE recordType = ? AND recordName = ?"),
                         arguments: [type, name]).map(Metadata.init(row:))
    }

    /// Edit times as the JSON object the triggers patch (`json_patch`),
    /// keys sorted. Written by hand: `JSONEncoder` cost more than the
    /// statement that stores it.
    static func encodeTimes(_ times: [String: Int64]) -> String {
        var text = "{"
        for (index, key) in times.keys.sorted().enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for scalar in key.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\":\(times[key]!)"
        }
        return text + "}"
    }

    /// Reads what `encodeTimes` or SQLite's JSON functions wrote: a flat
    /// object of integers. Keys with escapes, or anything unexpected, go
    /// through `JSONDecoder`; what it cannot read either counts as no times.
    static func decodeTimes(_ text: String) -> [String: Int64] {
        if let times = quickDecodeTimes(text) { return times }
        return (try? JSONDecoder().decode([String: Int64].self, from: Data(text.utf8))) ?? [:]
    }

    private static func quickDecodeTimes(_ text: String) -> [String: Int64]? {
        let bytes = Array(text.utf8)
        var index = 0
        func skipSpaces() {
            while index < bytes.count, [0x20, 0x0A, 0x09, 0x0D].contains(bytes[index]) { index += 1 }
        }
        func expect(_ byte: UInt8) -> Bool {
            skipSpaces()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard expect(UInt8(ascii: "{")) else { return nil }
        var times: [String: Int64] = [:]
        if expect(UInt8(ascii: "}")) { return index == bytes.count ? times : nil }
        while true {
            guard expect(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
                  let key = String(validating: bytes[start..<index], as: UTF8.self) else { return nil }
            index += 1
            guard expect(UInt8(ascii: ":")) else { return nil }
            skipSpaces()
            let numberStart = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard let number = Int64(String(decoding: bytes[numberStart..<index], as: UTF8.self)) else { return nil }
            times[key] = number
            if expect(UInt8(ascii: ",")) { continue }
            guard expect(UInt8(ascii: "}")) else { return nil }
            skipSpaces()
            return index == bytes.count ? times : nil
        }
    }

    /// Stores what the server confirmed or sent, with the local state of
    /// the row (pending edits and their times).
    static func save(_ db: Database, type: String, name: String, lastKnown: ServerRecord?, editTimes: [String: Int64],
                     isPendingSave: Bool, isPendingDelete: Bool) throws {
        try db.executeCached("""
            INSERT INTO sync_metadata (recordType, recordName, zoneName, ownerName, lastKnownServerRecord, editTimes,
                                       isPendingSave, isPendingDelete, changeCount)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
            ON CONFLICT (recordType, recordName) DO UPDATE SET
              zoneName = excluded.zoneName, ownerName = excluded.ownerName,
              lastKnownServerRecord = excluded.lastKnownServerRecord, editTimes = excluded.editTimes,
              isPendingSave = excluded.isPendingSave, isPendingDelete = excluded.isPendingDelete
            """, arguments: [
                type, name, lastKnown?.id.zoneID.name, lastKnown?.id.zoneID.ownerName,
                try lastKnown.map(RecordCoder.encode), encodeTimes(editTimes), isPendingSave, isPendingDelete,
            ])
    }

    static func delete(_ db: Database, type: String, name: String) throws {
        try db.executeCached("DELETE FROM sync_metadata WHERE recordType = ? AND recordName = ?", arguments: [type, name])
    }
}
