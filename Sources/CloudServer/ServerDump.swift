import Foundation

/// Everything a server holds, for people (`reminders server dump`) and for
/// tests (`--json`): users, zones, records with their field timestamps,
/// change tags and authors, tombstones, shares and participants.
///
/// Every list is sorted, and the JSON has sorted keys, so two dumps of the
/// same store are byte-identical and a diff of two dumps shows exactly what
/// changed.
public struct ServerDump: Codable, Hashable, Sendable {
    public var directory: String
    public var formatVersion: Int
    /// The latest change sequence.
    public var head: Int64
    /// Tombstones up to this sequence were compacted away.
    public var compactedThrough: Int64
    /// Everyone the store mentions: zone owners, participants, authors.
    public var users: [String]
    public var zones: [Zone]
    public var records: [Record]
    public var tombstones: [Tombstone]
    public var shares: [ShareEntry]

    public struct Zone: Codable, Hashable, Sendable {
        public var ownerName: String
        public var name: String
        public var createdSequence: Int64
        public var changeSequence: Int64
        /// Set for a deleted zone, kept until compaction.
        public var deletedSequence: Int64?
    }

    public struct Record: Codable, Hashable, Sendable {
        public var ownerName: String
        public var zoneName: String
        public var recordName: String
        public var recordType: String
        public var fields: [String: Value]
        public var fieldModificationTimes: [String: Int64]
        /// "recordName in zone@owner", or nil.
        public var parent: String?
        public var changeTag: String
        /// ISO 8601 with milliseconds, UTC.
        public var modificationDate: String
        public var modifiedByUser: String
        public var modifiedByDevice: String
        public var sequence: Int64
    }

    /// A field value as text, with its type, so that the JSON stays flat and
    /// readable.
    public struct Value: Codable, Hashable, Sendable {
        /// "string", "int64", "double", "date", "bytes", "asset",
        /// "reference" or "stringList".
        public var type: String
        /// Dates in ISO 8601, bytes in base64, assets as "sha256 (N bytes)",
        /// references as "recordName in zone@owner", lists as JSON arrays.
        public var value: String
    }

    public struct Tombstone: Codable, Hashable, Sendable {
        public var ownerName: String
        public var zoneName: String
        public var recordName: String
        public var recordType: String
        public var deletedAt: String
        public var deletedByUser: String
        public var deletedByDevice: String
        public var sequence: Int64
    }

    public struct ShareEntry: Codable, Hashable, Sendable {
        public var id: String
        public var ownerName: String
        public var zoneName: String
        public var rootRecordName: String
        public var participants: [Participant]
    }

    public struct Participant: Codable, Hashable, Sendable {
        public var userName: String
        public var permission: SharePermission
        public var status: ParticipantStatus
        /// The sequence of the participant's last change (invited,
        /// accepted, removed, left, permission changed).
        public var sequence: Int64
    }

    /// Pretty-printed JSON with sorted keys: stable for tests and diffs.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The dump for a person reading a terminal. Text that came from users
    /// (names, field values) has control characters replaced, so a record
    /// cannot smuggle escape sequences into the terminal.
    public var text: String {
        var lines: [String] = []
        lines.append("server \(clean(directory)) (format \(formatVersion)), head \(head), tombstones compacted through \(compactedThrough)")
        lines.append("users: " + (users.isEmpty ? "none" : users.map(clean).joined(separator: ", ")))
        for zone in zones {
            let zoneID = "\(clean(zone.name))@\(clean(zone.ownerName))"
            if let deleted = zone.deletedSequence {
                lines.append("")
                lines.append("zone \(zoneID) deleted at \(deleted)")
                continue
            }
            lines.append("")
            lines.append("zone \(zoneID) (created at \(zone.createdSequence), last change \(zone.changeSequence))")
            for record in records where record.ownerName == zone.ownerName && record.zoneName == zone.name {
                lines.append("  record \(clean(record.recordName)) [\(clean(record.recordType))] tag \(record.changeTag), seq \(record.sequence)")
                lines.append("    modified \(record.modificationDate) by \(clean(record.modifiedByUser)) on \(clean(record.modifiedByDevice))")
                if let parent = record.parent {
                    lines.append("    parent \(clean(parent))")
                }
                let names = Set(record.fields.keys).union(record.fieldModificationTimes.keys).sorted()
                for name in names {
                    let value = record.fields[name].map { "\($0.type) \(clean($0.value))" } ?? "null"
                    let time = record.fieldModificationTimes[name].map { " @\($0)" } ?? ""
                    lines.append("    \(clean(name)) = \(value)\(time)")
                }
            }
            for tombstone in tombstones where tombstone.ownerName == zone.ownerName && tombstone.zoneName == zone.name {
                lines.append("  tombstone \(clean(tombstone.recordName)) [\(clean(tombstone.recordType))] seq \(tombstone.sequence), deleted \(tombstone.deletedAt) by \(clean(tombstone.deletedByUser)) on \(clean(tombstone.deletedByDevice))")
            }
        }
        for share in shares {
            lines.append("")
            lines.append("share \(share.id) of \(clean(share.rootRecordName)) in \(clean(share.zoneName))@\(clean(share.ownerName))")
            if share.participants.isEmpty {
                lines.append("  no participants")
            }
            for participant in share.participants {
                lines.append("  \(clean(participant.userName)) \(participant.permission.rawValue) \(participant.status.rawValue) (seq \(participant.sequence))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func clean(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control || (scalar.properties.generalCategory == .format && scalar.value != 0x200D)
                ? "\u{FFFD}" : scalar
        }))
    }
}

extension DirectoryServer {
    /// A consistent snapshot of the whole store.
    public func dump() throws -> ServerDump {
        try ServerDump.read(self, location: directory.path, formatVersion: Schema.formatVersion)
    }
}

extension ServerDump {
    /// A consistent snapshot of the whole of any store.
    package static func read(_ store: some RecordStore, location: String, formatVersion: Int) throws -> ServerDump {
        try store.read { db in
            try ServerDumpReader(db: db, directory: location, formatVersion: formatVersion).read()
        }
    }
}

/// Reads the tables into a `ServerDump`.
struct ServerDumpReader {
    let db: any StoreConnection
    let directory: String
    let formatVersion: Int

    func read() throws -> ServerDump {
        var users: Set<String> = []
        let zones = try db.rows("""
            SELECT ownerName, name, createdSequence, changeSequence, deletedSequence FROM zone ORDER BY ownerName, name
            """).map { row in
            ServerDump.Zone(
                ownerName: try row.text(0), name: try row.text(1),
                createdSequence: try row.integer(2), changeSequence: try row.integer(3),
                deletedSequence: try row.optionalInteger(4))
        }
        users.formUnion(zones.map(\.ownerName))

        var records: [ServerDump.Record] = []
        var tombstones: [ServerDump.Tombstone] = []
        let rows = try db.rows("SELECT \(StoredRecord.columns) FROM record ORDER BY ownerName, zoneName, recordName")
        for row in rows {
            let stored = try StoredRecord(row: row)
            let record = stored.record
            let date = Self.format(record.modificationDate ?? Date(timeIntervalSinceReferenceDate: 0))
            users.insert(record.modifiedByUser ?? "")
            if stored.isDeleted {
                tombstones.append(ServerDump.Tombstone(
                    ownerName: record.id.zoneID.ownerName, zoneName: record.id.zoneID.name,
                    recordName: record.id.recordName, recordType: record.recordType,
                    deletedAt: date, deletedByUser: record.modifiedByUser ?? "",
                    deletedByDevice: record.modifiedByDevice ?? "", sequence: stored.sequence))
            } else {
                records.append(ServerDump.Record(
                    ownerName: record.id.zoneID.ownerName, zoneName: record.id.zoneID.name,
                    recordName: record.id.recordName, recordType: record.recordType,
                    fields: record.fields.mapValues(Self.value).dictionary,
                    fieldModificationTimes: record.fieldModificationTimes.dictionary,
                    parent: record.parent.map(Self.reference),
                    changeTag: record.changeTag ?? "", modificationDate: date,
                    modifiedByUser: record.modifiedByUser ?? "", modifiedByDevice: record.modifiedByDevice ?? "",
                    sequence: stored.sequence))
            }
        }

        var shares: [ServerDump.ShareEntry] = []
        for row in try db.rows("SELECT id, ownerName, zoneName, rootRecordName FROM share ORDER BY id") {
            let id = try row.text(0)
            let participants = try db.rows(
                "SELECT userName, permission, status, sequence FROM participant WHERE shareID = ? ORDER BY userName", [id]
            ).map { row in
                let permission = try row.text(1)
                let status = try row.text(2)
                guard let permission = SharePermission(rawValue: permission), let status = ParticipantStatus(rawValue: status) else {
                    throw StoredDataCorrupted(message: "a participant of share \(id) has permission \(permission) and status \(status)")
                }
                return ServerDump.Participant(
                    userName: try row.text(0), permission: permission, status: status, sequence: try row.integer(3))
            }
            users.formUnion(participants.map(\.userName))
            shares.append(ServerDump.ShareEntry(
                id: id, ownerName: try row.text(1), zoneName: try row.text(2),
                rootRecordName: try row.text(3), participants: participants))
        }
        users.remove("")
        return ServerDump(
            directory: directory,
            formatVersion: formatVersion,
            head: try StoreMeta.integer(db, StoreMeta.sequence),
            compactedThrough: try StoreMeta.integer(db, StoreMeta.compactedThrough),
            users: users.sorted(),
            zones: zones, records: records, tombstones: tombstones, shares: shares)
    }

    static func reference(_ id: RecordID) -> String {
        "\(id.recordName) in \(id.zoneID)"
    }

    static func value(_ value: FieldValue) -> ServerDump.Value {
        switch value {
        case .string(let text): ServerDump.Value(type: "string", value: text)
        case .int64(let number): ServerDump.Value(type: "int64", value: String(number))
        case .double(let number): ServerDump.Value(type: "double", value: String(number))
        case .date(let date): ServerDump.Value(type: "date", value: format(date))
        case .bytes(let data): ServerDump.Value(type: "bytes", value: data.base64EncodedString())
        case .asset(let asset): ServerDump.Value(type: "asset", value: "\(asset.sha256) (\(asset.size) bytes)")
        case .reference(let id): ServerDump.Value(type: "reference", value: reference(id))
        case .stringList(let list):
            ServerDump.Value(type: "stringList", value: "[" + list.map(quoted).joined(separator: ",") + "]")
        }
    }

    private static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// ISO 8601 in UTC with milliseconds, formatted by hand so the output
    /// does not depend on the locale or Foundation version.
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let millis = Int(((seconds - whole) * 1000).rounded(.down))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(millis, 3))Z"
    }
}
