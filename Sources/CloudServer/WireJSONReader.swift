import Foundation

extension WireJSON {
    /// Refused by the quick reader: `JSONDecoder` decides.
    struct Refused: Error {}

    /// A key of an object: its bytes as they stand in the text, or, for a
    /// key with escapes, its decoded text.
    struct Key {
        let bytes: UnsafeBufferPointer<UInt8>
        let decoded: String?

        static func == (key: Key, name: StaticString) -> Bool {
            name.withUTF8Buffer { name in
                if let decoded = key.decoded { return decoded.utf8.elementsEqual(name) }
                return name.count == key.bytes.count && name.elementsEqual(key.bytes)
            }
        }

        /// The key as a string (for dictionaries).
        func text() throws -> String {
            if let decoded { return decoded }
            guard let text = String(utf8Text: bytes) else { throw Refused() }
            return text
        }
    }

    /// Which members of an object came already: a key that comes twice is
    /// `JSONDecoder`'s to judge.
    struct Seen {
        private var bits: UInt32 = 0

        mutating func first(_ bit: Int) throws {
            guard bits & (1 << bit) == 0 else { throw Refused() }
            bits |= 1 << bit
        }
    }

    /// Reads requests and answers straight into their types, strictly:
    /// throws `Refused` for anything it does not read exactly as
    /// `JSONDecoder` would.
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        // MARK: Operations

        mutating func request() throws -> WireRequest {
            var request: WireRequest?
            try members { reader, key in
                guard request == nil else { throw Refused() }
                if key == "modifyRecords" {
                    var saving: [ServerRecord]?, deleting: [RecordID]?, times: [WireDeleteTime]?
                    try reader.members { reader, key in
                        if key == "saving", saving == nil {
                            saving = try reader.array { try $0.record() }
                        } else if key == "deleting", deleting == nil {
                            deleting = try reader.array { try $0.recordID() }
                        } else if key == "deletedThrough", times == nil {
                            times = try reader.array { reader in
                                var id: RecordID?, time: Int64?
                                try reader.members { reader, key in
                                    if key == "id", id == nil {
                                        id = try reader.recordID()
                                    } else if key == "time", time == nil {
                                        time = try reader.int64()
                                    } else {
                                        throw Refused()
                                    }
                                }
                                guard let id, let time else { throw Refused() }
                                return WireDeleteTime(id: id, time: time)
                            }
                        } else {
                            throw Refused()
                        }
                    }
                    guard let saving, let deleting else { throw Refused() }
                    request = .modifyRecords(saving: saving, deleting: deleting, deletedThrough: times)
                } else if key == "fetchZoneChanges" {
                    var zone: ZoneID?, since: ChangeToken?, limit: Int?
                    var seen = Seen()
                    try reader.members { reader, key in
                        if key == "zoneID" {
                            try seen.first(0)
                            zone = try reader.zoneID()
                        } else if key == "since" {
                            try seen.first(1)
                            since = try reader.null() ? nil : try reader.token()
                        } else if key == "limit" {
                            try seen.first(2)
                            limit = Int(try reader.int64())
                        } else {
                            throw Refused()
                        }
                    }
                    guard let zone, let limit else { throw Refused() }
                    request = .fetchZoneChanges(zoneID: zone, since: since, limit: limit)
                } else if key == "fetchRecords" {
                    var ids: [RecordID]?
                    try reader.members { reader, key in
                        guard key == "_0", ids == nil else { throw Refused() }
                        ids = try reader.array { try $0.recordID() }
                    }
                    guard let ids else { throw Refused() }
                    request = .fetchRecords(ids)
                } else if key == "fetchDatabaseChanges" {
                    var since: ChangeToken?
                    var seen = Seen()
                    try reader.members { reader, key in
                        guard key == "since" else { throw Refused() }
                        try seen.first(0)
                        since = try reader.null() ? nil : try reader.token()
                    }
                    request = .fetchDatabaseChanges(since: since)
                } else if key == "serverIdentity" {
                    var checking: Int64?
                    var seen = Seen()
                    try reader.members { reader, key in
                        guard key == "checking" else { throw Refused() }
                        try seen.first(0)
                        checking = try reader.null() ? nil : try reader.int64()
                    }
                    request = .serverIdentity(checking: checking)
                } else if key == "modifyZones" {
                    var saving: [ZoneID]?, deleting: [ZoneID]?
                    try reader.members { reader, key in
                        if key == "saving", saving == nil {
                            saving = try reader.array { try $0.zoneID() }
                        } else if key == "deleting", deleting == nil {
                            deleting = try reader.array { try $0.zoneID() }
                        } else {
                            throw Refused()
                        }
                    }
                    guard let saving, let deleting else { throw Refused() }
                    request = .modifyZones(saving: saving, deleting: deleting)
                } else {
                    throw Refused()
                }
            }
            guard let request else { throw Refused() }
            return request
        }

        mutating func response() throws -> WireResponse {
            var response: WireResponse?
            try members { reader, key in
                guard response == nil else { throw Refused() }
                if key == "done" {
                    try reader.members { _, _ in throw Refused() }
                    response = .done
                    return
                }
                // Every other answer holds its value under `_0`.
                try reader.members { reader, inner in
                    guard inner == "_0", response == nil else { throw Refused() }
                    if key == "modified" {
                        response = .modified(try reader.modifyResult())
                    } else if key == "zoneChanges" {
                        response = .zoneChanges(try reader.zoneChanges())
                    } else if key == "records" {
                        response = .records(try reader.array { try $0.recordOutcome() })
                    } else if key == "databaseChanges" {
                        response = .databaseChanges(try reader.databaseChanges())
                    } else if key == "identity" {
                        response = .identity(try reader.identity())
                    } else if key == "zones" {
                        response = .zones(try reader.array { try $0.zoneOutcome() })
                    } else {
                        throw Refused()
                    }
                }
                guard response != nil else { throw Refused() }
            }
            guard let response else { throw Refused() }
            return response
        }

        // MARK: Values

        mutating func record() throws -> ServerRecord {
            var id: RecordID?, recordType: String?, fields: FieldMap<FieldValue>?, times: FieldMap<Int64>?
            var parent: RecordID?, changeTag: String?, date: Date?, user: String?, device: String?, known: Int64?
            var seen = Seen()
            try members { reader, key in
                if key == "id" {
                    try seen.first(0)
                    id = try reader.recordID()
                } else if key == "recordType" {
                    try seen.first(1)
                    recordType = try reader.string()
                } else if key == "fields" {
                    try seen.first(2)
                    var values: FieldMap<FieldValue> = [:]
                    try reader.members { reader, name in
                        guard values.updateValue(try reader.field(), forKey: try name.text()) == nil else { throw Refused() }
                    }
                    fields = values
                } else if key == "fieldModificationTimes" {
                    try seen.first(3)
                    var values: FieldMap<Int64> = [:]
                    try reader.members { reader, name in
                        guard values.updateValue(try reader.int64(), forKey: try name.text()) == nil else { throw Refused() }
                    }
                    times = values
                } else if key == "parent" {
                    try seen.first(4)
                    parent = try reader.null() ? nil : try reader.recordID()
                } else if key == "changeTag" {
                    try seen.first(5)
                    changeTag = try reader.null() ? nil : try reader.string()
                } else if key == "modificationDate" {
                    try seen.first(6)
                    date = try reader.null() ? nil : Date(timeIntervalSinceReferenceDate: try reader.double())
                } else if key == "modifiedByUser" {
                    try seen.first(7)
                    user = try reader.null() ? nil : try reader.string()
                } else if key == "modifiedByDevice" {
                    try seen.first(8)
                    device = try reader.null() ? nil : try reader.string()
                } else if key == "knownThrough" {
                    try seen.first(9)
                    known = try reader.null() ? nil : try reader.int64()
                } else {
                    throw Refused()
                }
            }
            guard let id, let recordType, let fields, let times else { throw Refused() }
            var record = ServerRecord(id: id, recordType: recordType, fields: fields, fieldModificationTimes: times,
                                      parent: parent, changeTag: changeTag, modificationDate: date,
                                      modifiedByUser: user, modifiedByDevice: device)
            record.knownThrough = known
            return record
        }

        mutating func field() throws -> FieldValue {
            var value: FieldValue?
            try members { reader, kind in
                guard value == nil else { throw Refused() }
                try reader.members { reader, label in
                    guard label == "_0", value == nil else { throw Refused() }
                    if kind == "string" {
                        value = .string(try reader.string())
                    } else if kind == "int64" {
                        value = .int64(try reader.int64())
                    } else if kind == "date" {
                        value = .date(Date(timeIntervalSinceReferenceDate: try reader.double()))
                    } else if kind == "double" {
                        value = .double(try reader.double())
                    } else if kind == "reference" {
                        value = .reference(try reader.recordID())
                    } else if kind == "stringList" {
                        value = .stringList(try reader.array { try $0.string() })
                    } else if kind == "asset" {
                        var sha256: String?, size: Int64?
                        try reader.members { reader, key in
                            if key == "sha256", sha256 == nil {
                                sha256 = try reader.string()
                            } else if key == "size", size == nil {
                                size = try reader.int64()
                            } else {
                                throw Refused()
                            }
                        }
                        guard let sha256, let size else { throw Refused() }
                        value = .asset(Asset(sha256: sha256, size: Int(size)))
                    } else if kind == "bytes" {
                        guard let data = Data(base64Encoded: try reader.string()) else { throw Refused() }
                        value = .bytes(data)
                    } else {
                        throw Refused()
                    }
                }
                guard value != nil else { throw Refused() }
            }
            guard let value else { throw Refused() }
            return value
        }

        mutating func zoneID() throws -> ZoneID {
            var name: String?, owner: String?
            try members { reader, key in
                if key == "name", name == nil {
                    name = try reader.string()
                } else if key == "ownerName", owner == nil {
                    owner = try reader.string()
                } else {
                    throw Refused()
                }
            }
            guard let name, let owner else { throw Refused() }
            return ZoneID(name: name, ownerName: owner)
        }

        mutating func recordID() throws -> RecordID {
            var name: String?, zone: ZoneID?
            try members { reader, key in
                if key == "recordName", name == nil {
                    name = try reader.string()
                } else if key == "zoneID", zone == nil {
                    zone = try reader.zoneID()
                } else {
                    throw Refused()
                }
            }
            guard let name, let zone else { throw Refused() }
            return RecordID(recordName: name, zoneID: zone)
        }

        mutating func token() throws -> ChangeToken {
            var sequence: Int64?, scratchHead: Int64?
            var seen = Seen()
            try members { reader, key in
                if key == "sequence" {
                    try seen.first(0)
                    sequence = try reader.int64()
                } else if key == "scratchHead" {
                    try seen.first(1)
                    scratchHead = try reader.null() ? nil : try reader.int64()
                } else {
                    throw Refused()
                }
            }
            guard let sequence else { throw Refused() }
            return ChangeToken(sequence: sequence, scratchHead: scratchHead)
        }

        mutating func mark() throws -> HistoryMark {
            var storeID: String?, sequence: Int64?, commit: String?
            var seen = Seen()
            try members { reader, key in
                if key == "storeID" {
                    try seen.first(0)
                    storeID = try reader.string()
                } else if key == "sequence" {
                    try seen.first(1)
                    sequence = try reader.int64()
                } else if key == "commit" {
                    try seen.first(2)
                    commit = try reader.null() ? nil : try reader.string()
                } else {
                    throw Refused()
                }
            }
            guard let storeID, let sequence else { throw Refused() }
            return HistoryMark(storeID: storeID, sequence: sequence, commit: commit)
        }

        mutating func optionalMark() throws -> HistoryMark? {
            try null() ? nil : try mark()
        }

        mutating func error() throws -> WireError {
            var code: String?, message: String?, record: ServerRecord?, zone: ZoneID?, recordID: RecordID?
            var seen = Seen()
            try members { reader, key in
                if key == "code" {
                    try seen.first(0)
                    code = try reader.string()
                } else if key == "message" {
                    try seen.first(1)
                    message = try reader.string()
                } else if key == "record" {
                    try seen.first(2)
                    record = try reader.null() ? nil : try reader.record()
                } else if key == "zone" {
                    try seen.first(3)
                    zone = try reader.null() ? nil : try reader.zoneID()
                } else if key == "recordID" {
                    try seen.first(4)
                    recordID = try reader.null() ? nil : try reader.recordID()
                } else {
                    throw Refused()
                }
            }
            guard let code, let message else { throw Refused() }
            var error = WireError(code: code, message: message)
            error.record = record
            error.zone = zone
            error.recordID = recordID
            return error
        }

        mutating func optionalError() throws -> WireError? {
            try null() ? nil : try error()
        }

        mutating func recordOutcome() throws -> WireRecordOutcome {
            var id: RecordID?, record: ServerRecord?, error: WireError?, saved: WireSaveStamp?
            var seen = Seen()
            try members { reader, key in
                if key == "id" {
                    try seen.first(0)
                    id = try reader.recordID()
                } else if key == "record" {
                    try seen.first(1)
                    record = try reader.null() ? nil : try reader.record()
                } else if key == "error" {
                    try seen.first(2)
                    error = try reader.optionalError()
                } else if key == "saved" {
                    try seen.first(3)
                    saved = try reader.null() ? nil : try reader.stamp()
                } else {
                    throw Refused()
                }
            }
            guard let id else { throw Refused() }
            return WireRecordOutcome(id: id, record: record, error: error, saved: saved)
        }

        mutating func stamp() throws -> WireSaveStamp {
            var tag: String?, date: Date?, user: String?, device: String?
            var seen = Seen()
            try members { reader, key in
                if key == "changeTag" {
                    try seen.first(0)
                    tag = try reader.null() ? nil : try reader.string()
                } else if key == "modificationDate" {
                    try seen.first(1)
                    date = try reader.null() ? nil : Date(timeIntervalSinceReferenceDate: try reader.double())
                } else if key == "modifiedByUser" {
                    try seen.first(2)
                    user = try reader.null() ? nil : try reader.string()
                } else if key == "modifiedByDevice" {
                    try seen.first(3)
                    device = try reader.null() ? nil : try reader.string()
                } else {
                    throw Refused()
                }
            }
            return WireSaveStamp(changeTag: tag, modificationDate: date, modifiedByUser: user, modifiedByDevice: device)
        }

        mutating func zoneOutcome() throws -> WireOutcome {
            var zone: ZoneID?, error: WireError?
            var seen = Seen()
            try members { reader, key in
                if key == "zone" {
                    try seen.first(0)
                    zone = try reader.zoneID()
                } else if key == "error" {
                    try seen.first(1)
                    error = try reader.optionalError()
                } else {
                    throw Refused()
                }
            }
            guard let zone else { throw Refused() }
            return WireOutcome(zone: zone, error: error)
        }

        mutating func modifyResult() throws -> WireModifyResult {
            var saves: [WireRecordOutcome]?, deletes: [WireOutcomeOfDelete]?, head: HistoryMark?
            var seen = Seen()
            try members { reader, key in
                if key == "saves" {
                    try seen.first(0)
                    saves = try reader.array { try $0.recordOutcome() }
                } else if key == "deletes" {
                    try seen.first(1)
                    deletes = try reader.array { reader in
                        var id: RecordID?, error: WireError?
                        var seen = Seen()
                        try reader.members { reader, key in
                            if key == "id" {
                                try seen.first(0)
                                id = try reader.recordID()
                            } else if key == "error" {
                                try seen.first(1)
                                error = try reader.optionalError()
                            } else {
                                throw Refused()
                            }
                        }
                        guard let id else { throw Refused() }
                        return WireOutcomeOfDelete(id: id, error: error)
                    }
                } else if key == "head" {
                    try seen.first(2)
                    head = try reader.optionalMark()
                } else {
                    throw Refused()
                }
            }
            guard let saves, let deletes else { throw Refused() }
            return WireModifyResult(saves: saves, deletes: deletes, head: head)
        }

        mutating func zoneChanges() throws -> WireZoneChanges {
            var changed: [ServerRecord]?, deleted: [WireDeletion]?, token: ChangeToken?, moreComing: Bool?
            var head: HistoryMark?
            var seen = Seen()
            try members { reader, key in
                if key == "changed" {
                    try seen.first(0)
                    changed = try reader.array { try $0.record() }
                } else if key == "deleted" {
                    try seen.first(1)
                    deleted = try reader.array { reader in
                        var id: RecordID?, recordType: String?, user: String?, device: String?, through: Int64?
                        try reader.members { reader, key in
                            if key == "id", id == nil {
                                id = try reader.recordID()
                            } else if key == "recordType", recordType == nil {
                                recordType = try reader.string()
                            } else if key == "deletedByUser", user == nil {
                                user = try reader.string()
                            } else if key == "deletedByDevice", device == nil {
                                device = try reader.string()
                            } else if key == "deletedThrough", through == nil {
                                through = try reader.int64()
                            } else {
                                throw Refused()
                            }
                        }
                        guard let id, let recordType else { throw Refused() }
                        return WireDeletion(RecordDeletion(id: id, recordType: recordType, deletedByUser: user, deletedByDevice: device,
                                                           deletedThrough: through))
                    }
                } else if key == "token" {
                    try seen.first(2)
                    token = try reader.token()
                } else if key == "moreComing" {
                    try seen.first(3)
                    moreComing = try reader.bool()
                } else if key == "head" {
                    try seen.first(4)
                    head = try reader.optionalMark()
                } else {
                    throw Refused()
                }
            }
            guard let changed, let deleted, let token, let moreComing else { throw Refused() }
            return WireZoneChanges(ZoneChanges(changed: changed, deleted: deleted.map(\.deletion),
                                               token: token, moreComing: moreComing, head: head))
        }

        mutating func databaseChanges() throws -> WireDatabaseChanges {
            var changed: [ZoneID]?, deleted: [ZoneID]?, token: ChangeToken?, moreComing: Bool?, head: HistoryMark?
            var seen = Seen()
            try members { reader, key in
                if key == "changedZoneIDs" {
                    try seen.first(0)
                    changed = try reader.array { try $0.zoneID() }
                } else if key == "deletedZoneIDs" {
                    try seen.first(1)
                    deleted = try reader.array { try $0.zoneID() }
                } else if key == "token" {
                    try seen.first(2)
                    token = try reader.token()
                } else if key == "moreComing" {
                    try seen.first(3)
                    moreComing = try reader.bool()
                } else if key == "head" {
                    try seen.first(4)
                    head = try reader.optionalMark()
                } else {
                    throw Refused()
                }
            }
            guard let changed, let deleted, let token, let moreComing else { throw Refused() }
            return WireDatabaseChanges(DatabaseChanges(changedZoneIDs: changed, deletedZoneIDs: deleted, token: token,
                                                       moreComing: moreComing, head: head))
        }

        mutating func identity() throws -> ServerIdentity {
            var head: HistoryMark?, checked: HistoryMark?
            var seen = Seen()
            try members { reader, key in
                if key == "head" {
                    try seen.first(0)
                    head = try reader.mark()
                } else if key == "checked" {
                    try seen.first(1)
                    checked = try reader.optionalMark()
                } else {
                    throw Refused()
                }
            }
            guard let head else { throw Refused() }
            return ServerIdentity(head: head, checked: checked)
        }

        // MARK: Tokens

        /// Calls `body` with each key of an object, positioned on its value,
        /// which `body` must read.
        mutating func members(_ body: (inout Reader, Key) throws -> Void) throws {
            try expect(UInt8(ascii: "{"))
            if take(UInt8(ascii: "}")) { return }
            repeat {
                let key = try self.key()
                try expect(UInt8(ascii: ":"))
                try body(&self, key)
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
        }

        mutating func array<Element>(_ element: (inout Reader) throws -> Element) throws -> [Element] {
            try expect(UInt8(ascii: "["))
            var elements: [Element] = []
            if take(UInt8(ascii: "]")) { return elements }
            repeat {
                elements.append(try element(&self))
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
            return elements
        }

        private mutating func key() throws -> Key {
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Refused() }
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
                end += 1
            }
            guard end < bytes.count else { throw Refused() }
            if bytes[end] == UInt8(ascii: "\"") {
                index = end + 1
                return Key(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]), decoded: nil)
            }
            return Key(bytes: UnsafeBufferPointer(rebasing: bytes[start..<start]), decoded: try string())
        }

        /// Consumes `null` if it comes next.
        mutating func null() throws -> Bool {
            skipSpaces()
            guard literal("null") else { return false }
            return true
        }

        mutating func bool() throws -> Bool {
            skipSpaces()
            if literal("true") { return true }
            if literal("false") { return false }
            throw Refused()
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            word.withUTF8Buffer { word in
                guard bytes.count - index >= word.count,
                      word.elementsEqual(UnsafeBufferPointer(rebasing: bytes[index..<(index + word.count)])) else { return false }
                index += word.count
                return true
            }
        }

        /// An integer as JSON writes it, no fraction or exponent (those are
        /// `JSONDecoder`'s), within Int64.
        mutating func int64() throws -> Int64 {
            skipSpaces()
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let start = index
            var magnitude: UInt64 = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { throw Refused() }
                magnitude = sum
                index += 1
            }
            let digits = index - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { throw Refused() }
            if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
                throw Refused()
            }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { throw Refused() }
                return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
            }
            guard magnitude <= UInt64(Int64.max) else { throw Refused() }
            return Int64(magnitude)
        }

        /// A finite number as JSON writes it; one out of range either way
        /// (1e999, 1e-999) is `JSONDecoder`'s.
        mutating func double() throws -> Double {
            skipSpaces()
            let start = index
            func digits() -> Int {
                let first = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
                return index - first
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits()
            guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw Refused() }
            var nonZero = bytes[integerStart..<index].contains { $0 != UInt8(ascii: "0") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let fractionStart = index
                guard digits() > 0 else { throw Refused() }
                nonZero = nonZero || bytes[fractionStart..<index].contains { $0 != UInt8(ascii: "0") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw Refused() }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let value = Double(text), value.isFinite, value != 0 || !nonZero else { throw Refused() }
            return value
        }

        mutating func string() throws -> String {
            skipSpaces()
            guard let text = JSONString.read(bytes, at: &index) else { throw Refused() }
            return text
        }

        private mutating func skipSpaces() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x09, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            skipSpaces()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func expect(_ byte: UInt8) throws {
            guard take(byte) else { throw Refused() }
        }

        /// Whether only spaces are left.
        mutating func atEnd() -> Bool {
            skipSpaces()
            return index == bytes.count
        }
    }
}
