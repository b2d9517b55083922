import CloudServer
import Foundation
import GRDB

/// Translates between local rows and server records.
///
/// A record's name is "<table>/<primary key>", so rows of different tables
/// that share a key (a list and its cover) stay distinct; its type is the
/// table name. Blob columns travel as assets; every other column as a typed
/// field; NULL as an absent field.
enum RecordCoder {
    static func recordName(table: String, key: String) -> String { "\(table)/\(key)" }

    /// (table, key) of a record name, or nil for a name not made here.
    /// The slash is found byte by byte: by character, splitting was 144 ms
    /// of a first download of 100,000 records (85 ms now).
    static func split(_ recordName: String) -> (table: String, key: String)? {
        let bytes = recordName.utf8
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        return (String(recordName[..<slash]), String(recordName[bytes.index(after: slash)...]))
    }

    /// The field values of a local row as `fetchRow` reads it (every
    /// column, primary key first; read by position); blobs as asset
    /// references (hash and size), so that rows compare without loading
    /// their bytes twice. `start`: where those columns begin in a row that
    /// has others before them.
    static func values(of row: Row, table: TableSchema, from start: Int = 0) -> (values: FieldMap<FieldValue>, blobs: [String: Data]) {
        var values = FieldMap<FieldValue>(minimumCapacity: table.columns.count)
        var blobs: [String: Data] = [:]
        for index in table.nameOrder {
            let column = table.columns[index]
            let value: DatabaseValue = row[start + index + 1]
            switch value.storage {
            case .null: break
            case .int64(let v): values[column] = .int64(v)
            case .double(let v): values[column] = .double(v)
            case .string(let v): values[column] = .string(v)
            case .blob(let data):
                values[column] = .asset(Asset(sha256: Asset.digest(of: data), size: data.count))
                blobs[column] = data
            }
        }
        return (values, blobs)
    }

    /// The SQL value of a field; assets are read through `assetData`.
    static func databaseValue(_ value: FieldValue?, assetData: (Asset) throws -> Data) throws -> DatabaseValue {
        guard let value else { return .null }
        switch value {
        case .string(let s): return s.databaseValue
        case .int64(let i): return i.databaseValue
        case .double(let d): return d.databaseValue
        case .date(let date): return date.timeIntervalSince1970.databaseValue
        case .bytes(let data): return data.databaseValue
        case .asset(let asset): return try assetData(asset).databaseValue
        case .reference(let id): return (split(id.recordName)?.key ?? id.recordName).databaseValue
        case .stringList(let list):
            let json = try JSONEncoder().encode(list)
            return String(decoding: json, as: UTF8.self).databaseValue
        }
    }

    /// A short human form of a value, for the conflict log.
    static func display(_ value: FieldValue?) -> String? {
        guard let value else { return nil }
        switch value {
        case .string(let s): return s
        case .int64(let i): return String(i)
        case .double(let d): return String(d)
        case .date(let date): return ISO8601DateFormatter().string(from: date)
        case .bytes(let data): return "\(data.count) bytes"
        case .asset(let asset): return "image \(asset.sha256.prefix(12)) (\(asset.size) bytes)"
        case .reference(let id): return split(id.recordName)?.key ?? id.recordName
        case .stringList(let list): return list.joined(separator: ", ")
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// A record as the device stores it (its last-known version, a held
    /// record): the binary archive, which costs a fraction of JSON.
    static func encode(_ record: ServerRecord) throws -> Data { RecordArchive.encode(record) }

    /// Reads the archive, or the JSON that databases written before the
    /// archive existed still hold.
    static func decode(_ data: Data) throws -> ServerRecord {
        if RecordArchive.isArchive(data) { return try RecordArchive.decode(data) }
        return try JSONDecoder().decode(ServerRecord.self, from: data)
    }
}
