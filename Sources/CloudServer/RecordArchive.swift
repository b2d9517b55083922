import Foundation

/// A compact binary form of a `ServerRecord`, for a device to keep the last
/// version the server confirmed (one per synced row).
///
/// JSON through `Codable` cost more than the SQL around it during a sync of
/// ten thousand rows; this form is read and written by hand, byte by byte.
/// It starts with a byte JSON never starts with, so a reader can tell the
/// two apart and read records stored before this form existed.
///
/// Layout: marker, version, then the record's parts in order. Integers are
/// LEB128 varints (signed ones zigzag-encoded), strings a varint length and
/// UTF-8 bytes, doubles their 8-byte bit pattern, and optional parts a
/// presence byte.
///
/// Version 2, written since, leaves out what a record repeats (a reminder
/// of the benchmark's took 582 bytes in version 1, 435 in version 2):
/// - the type first, then the record name without a leading "type/";
/// - a field time's name as its field's position when the record has that
///   field, and each time as the difference from the one before (a record
///   saved whole has one time for every field: two bytes each after the
///   first, the position and a zero);
/// - the parent's zone when it is the record's own.
/// Version 1 (id, type, fields, times by name, parent, then the rest)
/// still reads.
public enum RecordArchive {
    static let marker: UInt8 = 0xB5
    static let version: UInt8 = 2

    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether `data` is in this form (rather than JSON).
    public static func isArchive(_ data: Data) -> Bool { data.first == marker }

    public static func encode(_ record: ServerRecord) -> Data {
        var writer = Writer()
        // A reminder's archive takes about 450 bytes: room for it at once.
        writer.bytes.reserveCapacity(512)
        writer.byte(marker)
        writer.byte(version)
        writer.string(record.recordType)
        writer.recordName(record.id.recordName, ofType: record.recordType)
        writer.string(record.id.zoneID.name)
        writer.string(record.id.zoneID.ownerName)
        // Keys in order (a `FieldMap`'s own), so a record always has the
        // same bytes.
        writer.unsigned(UInt64(record.fields.count))
        for (key, value) in record.fields {
            writer.string(key)
            writer.field(value)
        }
        writer.unsigned(UInt64(record.fieldModificationTimes.count))
        var previous: Int64 = 0
        // Both maps are in key order: one walk finds each time's field.
        let fields = record.fields.storage
        var position = 0
        for entry in record.fieldModificationTimes.storage {
            while position < fields.count, fields[position].key < entry.key { position += 1 }
            // 0: the name follows; n: the name of the n-th field, spelt
            // in the same bytes.
            if position < fields.count, sameBytes(fields[position].key, entry.key) {
                writer.unsigned(UInt64(position) + 1)
            } else {
                writer.byte(0)
                writer.string(entry.key)
            }
            writer.signed(entry.value &- previous)
            previous = entry.value
        }
        switch record.parent {
        case nil:
            writer.byte(0)
        case let parent? where sameBytes(parent.zoneID.name, record.id.zoneID.name)
                            && sameBytes(parent.zoneID.ownerName, record.id.zoneID.ownerName):
            writer.byte(2)
            writer.string(parent.recordName)
        case let parent?:
            writer.byte(1)
            writer.recordID(parent)
        }
        writer.optional(record.changeTag) { $0.string($1) }
        writer.optional(record.modificationDate) { $0.double($1.timeIntervalSinceReferenceDate) }
        writer.optional(record.modifiedByUser) { $0.string($1) }
        writer.optional(record.modifiedByDevice) { $0.string($1) }
        return Data(writer.bytes)
    }

    /// Whether two strings are spelt in the same UTF-8 bytes (`==` takes
    /// canonically equivalent spellings as equal).
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
        }
    }

    public static func decode(_ data: Data) throws -> ServerRecord {
        try data.withUnsafeBytes { buffer in
            var reader = Reader(bytes: buffer)
            guard try reader.byte() == marker else { throw Malformed(description: "not an archived record") }
            let record: ServerRecord
            switch try reader.byte() {
            case 1: record = try reader.recordVersion1()
            case 2: record = try reader.recordVersion2()
            case let version:
                throw Malformed(description: "an archived record of version \(version), which this version does not read")
            }
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

        /// A record name, without its type's prefix when it has it.
        mutating func recordName(_ name: String, ofType type: String) {
            guard !type.isEmpty else {
                byte(0)
                return string(name)
            }
            var name = name
            let short = name.withUTF8 { utf8 -> Bool in
                var type = type
                return type.withUTF8 { prefix in
                    guard utf8.count > prefix.count, utf8[prefix.count] == UInt8(ascii: "/"),
                          memcmp(utf8.baseAddress!, prefix.baseAddress!, prefix.count) == 0 else { return false }
                    byte(1)
                    unsigned(UInt64(utf8.count - prefix.count - 1))
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[(prefix.count + 1)...]))
                    return true
                }
            }
            if !short {
                byte(0)
                string(name)
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

        /// Version 1: the record's id, its type, its fields and their times
        /// by name, then the rest.
        mutating func recordVersion1() throws -> ServerRecord {
            let id = try recordID()
            let recordType = try string()
            let fields = try map { try $0.field() }
            let times = try map { try $0.signed() }
            return try rest(id: id, recordType: recordType, fields: fields, times: times,
                            parent: try optional { try $0.recordID() })
        }

        /// Version 2 (see `RecordArchive`).
        mutating func recordVersion2() throws -> ServerRecord {
            let recordType = try string()
            let recordName: String
            switch try byte() {
            case 0: recordName = try string()
            case 1: recordName = recordType + "/" + (try string())
            case let other: throw Malformed(description: "an archived record with name form \(other)")
            }
            let id = RecordID(recordName: recordName, zoneID: ZoneID(name: try string(), ownerName: try string()))
            let fields = try map { try $0.field() }
            let count = try count()
            var times = FieldMap<Int64>(minimumCapacity: count)
            var previous: Int64 = 0
            for _ in 0..<count {
                let reference = try unsigned()
                let key: String
                if reference == 0 {
                    key = try string()
                } else {
                    guard reference <= UInt64(fields.count) else {
                        throw Malformed(description: "an archived record with a time of field \(reference), which it lacks")
                    }
                    key = fields.storage[Int(reference) - 1].key
                }
                previous = previous &+ (try signed())
                guard times.updateValue(previous, forKey: key) == nil else {
                    throw Malformed(description: "an archived record with two times for one field")
                }
            }
            let parent: RecordID?
            switch try byte() {
            case 0: parent = nil
            case 1: parent = try recordID()
            case 2: parent = RecordID(recordName: try string(), zoneID: id.zoneID)
            case let other: throw Malformed(description: "an archived record with parent form \(other)")
            }
            return try rest(id: id, recordType: recordType, fields: fields, times: times, parent: parent)
        }

        /// The parts after the parent, the same in both versions.
        mutating func rest(id: RecordID, recordType: String, fields: FieldMap<FieldValue>, times: FieldMap<Int64>,
                           parent: RecordID?) throws -> ServerRecord {
            ServerRecord(
                id: id, recordType: recordType, fields: fields, fieldModificationTimes: times, parent: parent,
                changeTag: try optional { try $0.string() },
                modificationDate: try optional { Date(timeIntervalSinceReferenceDate: try $0.double()) },
                modifiedByUser: try optional { try $0.string() },
                modifiedByDevice: try optional { try $0.string() })
        }

        /// A count, then that many keys, each followed by what `value`
        /// reads.
        mutating func map<Value>(_ value: (inout Reader) throws -> Value) throws -> FieldMap<Value> {
            let count = try count()
            var result = FieldMap<Value>(minimumCapacity: count)
            for _ in 0..<count {
                let key = try string()
                guard result.updateValue(try value(&self), forKey: key) == nil else {
                    throw Malformed(description: "an archived record with a key given twice")
                }
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
