import Foundation

/// A compact binary form of a `ServerRecord`, for a device to keep the last
/// version the server confirmed (one per synced row).
///
/// JSON through `Codable` cost more than the SQL around it during a sync of
/// ten thousand rows; this form is read and written by hand, byte by byte.
/// It starts with a byte JSON never starts with, so a reader can tell the
/// two apart and read records stored before this form existed.
///
/// Layout (version 1): marker, version, then the record's parts in order.
/// Integers are LEB128 varints (signed ones zigzag-encoded), strings a
/// varint length and UTF-8 bytes, doubles their 8-byte bit pattern, and
/// optional parts a presence byte.
public enum RecordArchive {
    static let marker: UInt8 = 0xB5
    static let version: UInt8 = 1

    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether `data` is in this form (rather than JSON).
    public static func isArchive(_ data: Data) -> Bool { data.first == marker }

    public static func encode(_ record: ServerRecord) -> Data {
        var writer = Writer()
        // A reminder's archive takes about 600 bytes: room for it at once.
        writer.bytes.reserveCapacity(1024)
        writer.byte(marker)
        writer.byte(version)
        writer.recordID(record.id)
        writer.string(record.recordType)
        // Keys in order (a `FieldMap`'s own), so a record always has the
        // same bytes.
        writer.unsigned(UInt64(record.fields.count))
        for (key, value) in record.fields {
            writer.string(key)
            writer.field(value)
        }
        writer.unsigned(UInt64(record.fieldModificationTimes.count))
        for (key, time) in record.fieldModificationTimes {
            writer.string(key)
            writer.signed(time)
        }
        writer.optional(record.parent) { $0.recordID($1) }
        writer.optional(record.changeTag) { $0.string($1) }
        writer.optional(record.modificationDate) { $0.double($1.timeIntervalSinceReferenceDate) }
        writer.optional(record.modifiedByUser) { $0.string($1) }
        writer.optional(record.modifiedByDevice) { $0.string($1) }
        return Data(writer.bytes)
    }

    public static func decode(_ data: Data) throws -> ServerRecord {
        try data.withUnsafeBytes { buffer in
            var reader = Reader(bytes: buffer)
            guard try reader.byte() == marker else { throw Malformed(description: "not an archived record") }
            let version = try reader.byte()
            guard version == Self.version else {
                throw Malformed(description: "an archived record of version \(version), which this version does not read")
            }
            let id = try reader.recordID()
            let recordType = try reader.string()
            let fields = try reader.map { try $0.field() }
            let times = try reader.map { try $0.signed() }
            let record = ServerRecord(
                id: id, recordType: recordType, fields: fields, fieldModificationTimes: times,
                parent: try reader.optional { try $0.recordID() },
                changeTag: try reader.optional { try $0.string() },
                modificationDate: try reader.optional { Date(timeIntervalSinceReferenceDate: try $0.double()) },
                modifiedByUser: try reader.optional { try $0.string() },
                modifiedByDevice: try reader.optional { try $0.string() })
            guard reader.isAtEnd else { throw Malformed(description: "an archived record with bytes after its end") }
            return record
        }
    }

    private enum Tag: UInt8 {
        case string, int64, double, date, bytes, asset, reference, stringList
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func byte(_ value: UInt8) { bytes.append(value) }

        mutating func unsigned(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        mutating func signed(_ value: Int64) {
            unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        }

        mutating func double(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func string(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                unsigned(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func recordID(_ id: RecordID) {
            string(id.recordName)
            string(id.zoneID.name)
            string(id.zoneID.ownerName)
        }

        mutating func optional<T>(_ value: T?, _ write: (inout Writer, T) -> Void) {
            guard let value else { return byte(0) }
            byte(1)
            write(&self, value)
        }

        mutating func field(_ value: FieldValue) {
            switch value {
            case .string(let text):
                byte(Tag.string.rawValue)
                string(text)
            case .int64(let number):
                byte(Tag.int64.rawValue)
                signed(number)
            case .double(let number):
                byte(Tag.double.rawValue)
                double(number)
            case .date(let date):
                byte(Tag.date.rawValue)
                double(date.timeIntervalSinceReferenceDate)
            case .bytes(let data):
                byte(Tag.bytes.rawValue)
                unsigned(UInt64(data.count))
                bytes.append(contentsOf: data)
            case .asset(let asset):
                byte(Tag.asset.rawValue)
                string(asset.sha256)
                signed(Int64(asset.size))
            case .reference(let id):
                byte(Tag.reference.rawValue)
                recordID(id)
            case .stringList(let list):
                byte(Tag.stringList.rawValue)
                unsigned(UInt64(list.count))
                for item in list { string(item) }
            }
        }
    }

    /// Reads with every length checked against what is left, so damaged or
    /// hostile bytes end in `Malformed`, never in a crash or a huge
    /// allocation.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw Malformed(description: "an archived record cut short") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func unsigned() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                guard shift < 64, shift < 63 || next <= 1 else { throw Malformed(description: "an archived record with a number too large") }
                result |= UInt64(next & 0x7F) << shift
                if next < 0x80 { return result }
                shift += 7
            }
        }

        mutating func signed() throws -> Int64 {
            let raw = try unsigned()
            return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        }

        /// A count, then that many keys, each followed by what `value`
        /// reads.
        mutating func map<Value>(_ value: (inout Reader) throws -> Value) throws -> FieldMap<Value> {
            let count = try count()
            var result = FieldMap<Value>(minimumCapacity: count)
            for _ in 0..<count {
                let key = try string()
                result[key] = try value(&self)
            }
            return result
        }

        /// A count or length: never more than the bytes left, since every
        /// item takes at least one.
        mutating func count() throws -> Int {
            let value = try unsigned()
            guard value <= UInt64(bytes.count - offset) else { throw Malformed(description: "an archived record cut short") }
            return Int(value)
        }

        mutating func double() throws -> Double {
            guard bytes.count - offset >= 8 else { throw Malformed(description: "an archived record cut short") }
            var pattern: UInt64 = 0
            withUnsafeMutableBytes(of: &pattern) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8])) }
            offset += 8
            return Double(bitPattern: UInt64(littleEndian: pattern))
        }

        mutating func data() throws -> Data {
            let length = try count()
            defer { offset += length }
            return Data(bytes[offset..<offset + length])
        }

        mutating func string() throws -> String {
            let length = try count()
            defer { offset += length }
            guard let text = String(validating: bytes[offset..<offset + length], as: UTF8.self) else {
                throw Malformed(description: "an archived record with text that is not UTF-8")
            }
            return text
        }

        mutating func recordID() throws -> RecordID {
            let name = try string()
            return RecordID(recordName: name, zoneID: ZoneID(name: try string(), ownerName: try string()))
        }

        mutating func optional<T>(_ read: (inout Reader) throws -> T) throws -> T? {
            switch try byte() {
            case 0: return nil
            case 1: return try read(&self)
            case let other: throw Malformed(description: "an archived record with presence byte \(other)")
            }
        }

        mutating func field() throws -> FieldValue {
            let raw = try byte()
            guard let tag = Tag(rawValue: raw) else { throw Malformed(description: "an archived record with field type \(raw)") }
            switch tag {
            case .string: return .string(try string())
            case .int64: return .int64(try signed())
            case .double: return .double(try double())
            case .date: return .date(Date(timeIntervalSinceReferenceDate: try double()))
            case .bytes: return .bytes(try data())
            case .asset:
                let sha256 = try string()
                let size = try signed()
                guard let size = Int(exactly: size) else { throw Malformed(description: "an archived record with a number too large") }
                return .asset(Asset(sha256: sha256, size: size))
            case .reference: return .reference(try recordID())
            case .stringList:
                let count = try count()
                var list: [String] = []
                list.reserveCapacity(count)
                for _ in 0..<count { list.append(try string()) }
                return .stringList(list)
            }
        }
    }
}
