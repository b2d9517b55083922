import Foundation

extension WireJSON {
    /// Writes requests and answers as `JSONEncoder` would, into bytes;
    /// throws `NotCovered` for what it leaves to `JSONEncoder`.
    struct Writer {
        private(set) var bytes: [UInt8] = []

        init(capacity: Int = 4096) {
            bytes.reserveCapacity(capacity)
        }

        mutating func request(_ request: WireRequest) throws {
            switch request {
            case .modifyZones(let saving, let deleting):
                raw("{\"modifyZones\":{\"saving\":")
                array(saving) { $0.zoneID($1) }
                raw(",\"deleting\":")
                array(deleting) { $0.zoneID($1) }
                raw("}}")
            case .modifyRecords(let saving, let deleting, let times):
                raw("{\"modifyRecords\":{\"saving\":")
                try array(saving) { try $0.record($1) }
                raw(",\"deleting\":")
                array(deleting) { $0.recordID($1) }
                if let times {
                    raw(",\"deletedThrough\":")
                    array(times) { writer, time in
                        writer.raw("{\"id\":")
                        writer.recordID(time.id)
                        writer.raw(",\"time\":")
                        writer.integer(time.time)
                        writer.raw("}")
                    }
                }
                raw("}}")
            case .serverIdentity(let checking):
                raw("{\"serverIdentity\":{")
                if let checking {
                    raw("\"checking\":")
                    integer(checking)
                }
                raw("}}")
            case .fetchDatabaseChanges(let since):
                raw("{\"fetchDatabaseChanges\":{")
                if let since {
                    raw("\"since\":")
                    token(since)
                }
                raw("}}")
            case .fetchZoneChanges(let zone, let since, let limit):
                raw("{\"fetchZoneChanges\":{\"zoneID\":")
                zoneID(zone)
                if let since {
                    raw(",\"since\":")
                    token(since)
                }
                raw(",\"limit\":")
                integer(Int64(limit))
                raw("}}")
            case .fetchRecords(let ids):
                raw("{\"fetchRecords\":{\"_0\":")
                array(ids) { $0.recordID($1) }
                raw("}}")
            case .saveShare, .removeParticipant, .deleteShare, .fetchShares, .acceptShare, .leaveShare, .knownUsers:
                throw NotCovered()
            }
        }

        mutating func response(_ response: WireResponse) throws {
            switch response {
            case .zones(let outcomes):
                raw("{\"zones\":{\"_0\":")
                try array(outcomes) { writer, outcome in
                    writer.raw("{\"zone\":")
                    writer.zoneID(outcome.zone)
                    if let error = outcome.error {
                        writer.raw(",\"error\":")
                        try writer.error(error)
                    }
                    writer.raw("}")
                }
                raw("}}")
            case .modified(let result):
                raw("{\"modified\":{\"_0\":{\"saves\":")
                try array(result.saves) { try $0.outcome($1) }
                raw(",\"deletes\":")
                try array(result.deletes) { writer, outcome in
                    writer.raw("{\"id\":")
                    writer.recordID(outcome.id)
                    if let error = outcome.error {
                        writer.raw(",\"error\":")
                        try writer.error(error)
                    }
                    writer.raw("}")
                }
                if let head = result.head {
                    raw(",\"head\":")
                    mark(head)
                }
                raw("}}}")
            case .identity(let identity):
                raw("{\"identity\":{\"_0\":{\"head\":")
                mark(identity.head)
                if let checked = identity.checked {
                    raw(",\"checked\":")
                    mark(checked)
                }
                raw("}}}")
            case .databaseChanges(let changes):
                raw("{\"databaseChanges\":{\"_0\":{\"changedZoneIDs\":")
                array(changes.changedZoneIDs) { $0.zoneID($1) }
                raw(",\"deletedZoneIDs\":")
                array(changes.deletedZoneIDs) { $0.zoneID($1) }
                raw(",\"token\":")
                token(changes.token)
                raw(changes.moreComing ? ",\"moreComing\":true" : ",\"moreComing\":false")
                if let head = changes.head {
                    raw(",\"head\":")
                    mark(head)
                }
                raw("}}}")
            case .zoneChanges(let changes):
                raw("{\"zoneChanges\":{\"_0\":{\"changed\":")
                try array(changes.changed) { try $0.record($1) }
                raw(",\"deleted\":")
                array(changes.deleted) { writer, deletion in
                    writer.raw("{\"id\":")
                    writer.recordID(deletion.id)
                    writer.raw(",\"recordType\":")
                    writer.string(deletion.recordType)
                    if let user = deletion.deletedByUser {
                        writer.raw(",\"deletedByUser\":")
                        writer.string(user)
                    }
                    if let device = deletion.deletedByDevice {
                        writer.raw(",\"deletedByDevice\":")
                        writer.string(device)
                    }
                    if let through = deletion.deletedThrough {
                        writer.raw(",\"deletedThrough\":")
                        writer.integer(through)
                    }
                    writer.raw("}")
                }
                raw(",\"token\":")
                token(changes.token)
                raw(changes.moreComing ? ",\"moreComing\":true" : ",\"moreComing\":false")
                if let head = changes.head {
                    raw(",\"head\":")
                    mark(head)
                }
                raw("}}}")
            case .records(let outcomes):
                raw("{\"records\":{\"_0\":")
                try array(outcomes) { try $0.outcome($1) }
                raw("}}")
            case .done:
                raw("{\"done\":{}}")
            case .share, .shares, .users:
                throw NotCovered()
            }
        }

        // MARK: Values

        mutating func record(_ record: ServerRecord) throws {
            raw("{\"id\":")
            recordID(record.id)
            raw(",\"recordType\":")
            string(record.recordType)
            raw(",\"fields\":{")
            var first = true
            for (name, value) in record.fields {
                if !first { raw(",") }
                first = false
                string(name)
                raw(":")
                try field(value)
            }
            raw("},\"fieldModificationTimes\":{")
            first = true
            for (name, time) in record.fieldModificationTimes {
                if !first { raw(",") }
                first = false
                string(name)
                raw(":")
                integer(time)
            }
            raw("}")
            if let parent = record.parent {
                raw(",\"parent\":")
                recordID(parent)
            }
            if let changeTag = record.changeTag {
                raw(",\"changeTag\":")
                string(changeTag)
            }
            if let known = record.knownThrough {
                raw(",\"knownThrough\":")
                integer(known)
            }
            if let date = record.modificationDate {
                raw(",\"modificationDate\":")
                try double(date.timeIntervalSinceReferenceDate)
            }
            if let user = record.modifiedByUser {
                raw(",\"modifiedByUser\":")
                string(user)
            }
            if let device = record.modifiedByDevice {
                raw(",\"modifiedByDevice\":")
                string(device)
            }
            raw("}")
        }

        mutating func field(_ value: FieldValue) throws {
            try field(value) { try $0.double($1) }
        }

        /// A field, its numbers written by `number`: the wire refuses
        /// what JSON cannot say, the server's store writes it as text
        /// (see `FieldJSON`).
        mutating func field(_ value: FieldValue, number: (inout Writer, Double) throws -> Void) rethrows {
            switch value {
            case .string(let text):
                raw("{\"string\":{\"_0\":")
                string(text)
            case .int64(let number):
                raw("{\"int64\":{\"_0\":")
                integer(number)
            case .double(let double):
                raw("{\"double\":{\"_0\":")
                try number(&self, double)
            case .date(let date):
                raw("{\"date\":{\"_0\":")
                try number(&self, date.timeIntervalSinceReferenceDate)
            case .bytes(let data):
                raw("{\"bytes\":{\"_0\":")
                string(data.base64EncodedString())
            case .asset(let asset):
                raw("{\"asset\":{\"_0\":{\"sha256\":")
                string(asset.sha256)
                raw(",\"size\":")
                integer(Int64(asset.size))
                raw("}")
            case .reference(let id):
                raw("{\"reference\":{\"_0\":")
                recordID(id)
            case .stringList(let list):
                raw("{\"stringList\":{\"_0\":")
                array(list) { $0.string($1) }
            }
            raw("}}")
        }

        mutating func outcome(_ outcome: WireRecordOutcome) throws {
            raw("{\"id\":")
            recordID(outcome.id)
            if let record = outcome.record {
                raw(",\"record\":")
                try self.record(record)
            }
            if let error = outcome.error {
                raw(",\"error\":")
                try self.error(error)
            }
            if let stamp = outcome.saved {
                raw(",\"saved\":{")
                var first = true
                func member(_ name: StaticString, _ write: (inout Writer) throws -> Void) rethrows {
                    raw(first ? "\"" : ",\"")
                    first = false
                    raw(name)
                    raw("\":")
                    try write(&self)
                }
                if let tag = stamp.changeTag { member("changeTag") { $0.string(tag) } }
                if let date = stamp.modificationDate { try member("modificationDate") { try $0.double(date.timeIntervalSinceReferenceDate) } }
                if let user = stamp.modifiedByUser { member("modifiedByUser") { $0.string(user) } }
                if let device = stamp.modifiedByDevice { member("modifiedByDevice") { $0.string(device) } }
                raw("}")
            }
            raw("}")
        }

        mutating func error(_ error: WireError) throws {
            raw("{\"code\":")
            string(error.code)
            raw(",\"message\":")
            string(error.message)
            if let record = error.record {
                raw(",\"record\":")
                try self.record(record)
            }
            if let zone = error.zone {
                raw(",\"zone\":")
                zoneID(zone)
            }
            if let id = error.recordID {
                raw(",\"recordID\":")
                recordID(id)
            }
            raw("}")
        }

        mutating func zoneID(_ zone: ZoneID) {
            raw("{\"name\":")
            string(zone.name)
            raw(",\"ownerName\":")
            string(zone.ownerName)
            raw("}")
        }

        mutating func recordID(_ id: RecordID) {
            raw("{\"recordName\":")
            string(id.recordName)
            raw(",\"zoneID\":")
            zoneID(id.zoneID)
            raw("}")
        }

        mutating func token(_ token: ChangeToken) {
            raw("{\"sequence\":")
            integer(token.sequence)
            if let scratchHead = token.scratchHead {
                raw(",\"scratchHead\":")
                integer(scratchHead)
            }
            raw("}")
        }

        mutating func mark(_ mark: HistoryMark) {
            raw("{\"storeID\":")
            string(mark.storeID)
            raw(",\"sequence\":")
            integer(mark.sequence)
            if let commit = mark.commit {
                raw(",\"commit\":")
                string(commit)
            }
            raw("}")
        }

        // MARK: Tokens

        mutating func array<Element>(_ elements: [Element], _ body: (inout Writer, Element) throws -> Void) rethrows {
            raw("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { raw(",") }
                try body(&self, element)
            }
            raw("]")
        }

        mutating func raw(_ text: StaticString) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func integer(_ number: Int64) {
            if number < 0 { bytes.append(UInt8(ascii: "-")) }
            var magnitude = number.magnitude
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            // Up to 20 digits, written from the last.
            withUnsafeMutableBytes(of: &digits) { buffer in
                var at = buffer.count
                repeat {
                    at -= 1
                    buffer[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                bytes.append(contentsOf: buffer[at...])
            }
        }

        /// JSON has no infinity or NaN: `JSONEncoder` decides (it refuses
        /// them, as it always did here).
        mutating func double(_ number: Double) throws {
            guard number.isFinite else { throw NotCovered() }
            finite(number)
        }

        /// A number as `Codable` stores it in the server's records (see
        /// `FieldJSON`): JSON's own, or the text "NaN", "+Infinity" or
        /// "-Infinity".
        mutating func storedNumber(_ number: Double) {
            if number.isNaN {
                raw("\"NaN\"")
            } else if number.isInfinite {
                number < 0 ? raw("\"-Infinity\"") : raw("\"+Infinity\"")
            } else {
                finite(number)
            }
        }

        /// A finite number as JSON writes it.
        private mutating func finite(_ number: Double) {
            var text = number.description
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }

        mutating func string(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            var text = text
            text.withUTF8 { utf8 in
                var start = 0
                for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    start = index + 1
                    switch byte {
                    case UInt8(ascii: "\""): raw("\\\"")
                    case UInt8(ascii: "\\"): raw("\\\\")
                    case UInt8(ascii: "\n"): raw("\\n")
                    case UInt8(ascii: "\r"): raw("\\r")
                    case UInt8(ascii: "\t"): raw("\\t")
                    default:
                        let hex = Array("0123456789abcdef".utf8)
                        raw("\\u00")
                        bytes.append(hex[Int(byte >> 4)])
                        bytes.append(hex[Int(byte & 0x0F)])
                    }
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
