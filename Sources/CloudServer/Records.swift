import Crypto
import Foundation

/// A zone of one user's records. Zones are how the server groups records for
/// change tracking: every zone has its own change token.
public struct ZoneID: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    public var name: String
    /// The user who owns the zone. In a participant's shared database the
    /// zones are the owners' zones, so the owner is part of the identity.
    public var ownerName: String

    public init(name: String, ownerName: String) {
        self.name = name
        self.ownerName = ownerName
    }

    public static func < (a: ZoneID, b: ZoneID) -> Bool {
        (a.ownerName, a.name) < (b.ownerName, b.name)
    }

    public var description: String { "\(name)@\(ownerName)" }
}

/// The identity of a record: its name within a zone.
public struct RecordID: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    public var recordName: String
    public var zoneID: ZoneID

    public init(recordName: String, zoneID: ZoneID) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    public static func < (a: RecordID, b: RecordID) -> Bool {
        (a.zoneID, a.recordName) < (b.zoneID, b.recordName)
    }

    /// The name alone: ids that differ only by zone are few, and equality
    /// still compares the zone. Hashing the zone's two names as well was 7%
    /// of a server's save, where every record is looked up several times.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordName)
    }

    public var description: String { "\(recordName) in \(zoneID)" }
}

/// A file stored beside the records, addressed by the SHA-256 of its content.
/// Records carry the reference; the bytes are uploaded once with
/// `CloudDatabase.uploadAsset` and read back with `CloudDatabase.assetData`.
public struct Asset: Hashable, Codable, Sendable {
    /// Lower-case hex SHA-256 of the content.
    public var sha256: String
    public var size: Int

    public init(sha256: String, size: Int) {
        self.sha256 = sha256
        self.size = size
    }

    /// The lower-case hex SHA-256 of some bytes: the name their asset gets.
    public static func digest(of data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(2 * SHA256.byteCount)
        for byte in SHA256.hash(data: data) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A typed field value. A field that is absent from `ServerRecord.fields`
/// is null.
public enum FieldValue: Hashable, Codable, Sendable {
    case string(String)
    case int64(Int64)
    case double(Double)
    case date(Date)
    case bytes(Data)
    case asset(Asset)
    case reference(RecordID)
    case stringList([String])

    /// Bytes this value counts against a request's size limit. Asset content
    /// does not count: it travels separately.
    public var encodedSize: Int {
        switch self {
        case .string(let s): s.utf8.count
        case .int64, .double, .date: 8
        case .bytes(let d): d.count
        case .asset(let a): a.sha256.utf8.count + 8
        case .reference(let r): r.recordName.utf8.count + r.zoneID.name.utf8.count + r.zoneID.ownerName.utf8.count
        case .stringList(let l): l.reduce(0) { $0 + $1.utf8.count + 1 }
        }
    }
}

/// A record as the server stores it and as clients send it.
///
/// `changeTag` and `modificationDate` are assigned by the server on every
/// save; a client sends back the change tag it last saw, and the server
/// refuses the save with `serverRecordChanged` if the record has changed
/// since. `fieldModificationTimes` are written by clients (hybrid logical
/// clock values) and stored as sent: they are what a three-way merge uses to
/// decide which concurrent edit of a field is the latest.
public struct ServerRecord: Hashable, Codable, Sendable {
    public var id: RecordID
    public var recordType: String
    /// Field values; an absent key means null.
    public var fields: FieldMap<FieldValue>
    /// Per-field modification times, including fields that are null.
    public var fieldModificationTimes: FieldMap<Int64>
    /// The record this one belongs to, for sharing: a share on a root record
    /// covers every record whose parent chain reaches the root.
    public var parent: RecordID?
    /// Server-assigned; nil on a record that was never saved.
    public var changeTag: String?
    /// Server-assigned time of the last save.
    public var modificationDate: Date?
    /// Server-assigned: the user and device whose save produced this version.
    public var modifiedByUser: String?
    public var modifiedByDevice: String?
    /// Client-sent, on a save without a change tag of a record the client
    /// held before (a re-join sends every row so): the sequence its fetch
    /// of the zone had reached. A tombstone of the record written after it
    /// is a delete the client has not seen, and the save is refused with
    /// `unknownItem`, as a save with a change tag would be, instead of
    /// bringing the record back. Never stored.
    public var knownThrough: Int64?

    public init(
        id: RecordID,
        recordType: String,
        fields: FieldMap<FieldValue> = [:],
        fieldModificationTimes: FieldMap<Int64> = [:],
        parent: RecordID? = nil,
        changeTag: String? = nil,
        modificationDate: Date? = nil,
        modifiedByUser: String? = nil,
        modifiedByDevice: String? = nil
    ) {
        self.id = id
        self.recordType = recordType
        self.fields = fields
        self.fieldModificationTimes = fieldModificationTimes
        self.parent = parent
        self.changeTag = changeTag
        self.modificationDate = modificationDate
        self.modifiedByUser = modifiedByUser
        self.modifiedByDevice = modifiedByDevice
    }

    /// Bytes this record counts against a request's 2 MB limit.
    public var encodedSize: Int {
        fields.reduce(id.recordName.utf8.count + recordType.utf8.count) { $0 + $1.key.utf8.count + $1.value.encodedSize }
            + fieldModificationTimes.count * 8
    }
}

/// An opaque position in a change stream (of a database's zones, or of a
/// zone's records). Clients store it and hand it back to fetch what changed
/// since.
public struct ChangeToken: Hashable, Codable, Sendable {
    public var sequence: Int64
    /// Set only on the tokens of a fetch that started from scratch (a nil
    /// token) and has more pages to come: the server head when it started.
    /// Such a reader holds no record older than that fetch, so it needs
    /// only the deletions after this point, which keeps its paging valid
    /// after a tombstone compaction. Nil on every other token; absent from
    /// tokens encoded before it existed.
    public var scratchHead: Int64?

    public init(sequence: Int64) {
        self.sequence = sequence
        self.scratchHead = nil
    }

    public init(sequence: Int64, scratchHead: Int64?) {
        self.sequence = sequence
        self.scratchHead = scratchHead
    }
}
