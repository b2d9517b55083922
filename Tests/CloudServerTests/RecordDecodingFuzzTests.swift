import Foundation
import GRDB
import Testing
@testable import CloudServer

/// Bounded fuzzing of everything that decodes records: the JSON a client
/// sends or keeps (`ServerRecord`), and the rows of the server's store,
/// garbled in place. Each input either decodes to something that encodes
/// back to itself, or is refused with an error (a damaged store for rows);
/// nothing crashes. `REMINDERS_FUZZ_SECONDS` scales the time budget.
@Suite(.serialized) struct RecordDecodingFuzzTests {
    static let budget = ProcessInfo.processInfo.environment["REMINDERS_FUZZ_SECONDS"].flatMap(Double.init) ?? 2

    static func corpus() -> [ServerRecord] {
        let zone = ZoneID(name: "reminders", ownerName: "alice")
        let parent = RecordID(recordName: "remindersLists/list-1", zoneID: zone)
        let fields: [FieldMap<FieldValue>] = [
            ["title": .string("Milk"), "priority": .int64(3), "isFlagged": .int64(1)],
            ["notes": .string("é\u{301} עברית \u{1B}[2J 😀\n\t\u{0}"), "ratio": .double(-0.0), "big": .double(1e308)],
            ["due": .date(Date(timeIntervalSinceReferenceDate: 1e9)), "blob": .bytes(Data([0, 1, 2, 255]))],
            ["cover": .asset(Asset(sha256: String(repeating: "ab", count: 32), size: 12)), "list": .reference(parent)],
            ["tags": .stringList(["a", "", "ü,b"]), "min": .int64(.min), "max": .int64(.max)],
            [:],
        ]
        return fields.enumerated().map { index, fields in
            ServerRecord(id: RecordID(recordName: "reminders/r-\(index)", zoneID: zone), recordType: "reminders",
                         fields: fields, fieldModificationTimes: fields.mapValues { _ in Int64(index) << 40 },
                         parent: index % 2 == 0 ? parent : nil, changeTag: index % 3 == 0 ? nil : "tag-\(index)",
                         modificationDate: Date(timeIntervalSinceReferenceDate: Double(index) * 1000),
                         modifiedByUser: "alice", modifiedByDevice: "laptop")
        }
    }

    /// A mutation of JSON text: flipped bytes, cut, spliced, or a token
    /// replaced by one that is valid JSON of another kind.
    static func mutate(_ data: Data, corpus: [Data], random: inout some RandomNumberGenerator) -> Data {
        var bytes = [UInt8](data)
        let tokens = ["null", "true", "-1", "1e999", "9223372036854775808", "\"\"", "[]", "{}", "\"\\ud800\"", "0.5",
                      "\"../../etc/passwd\"", "{\"string\":{}}", "[[[[[[[[[[]]]]]]]]]]", "\"\\u0000\""]
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes[at] ^= UInt8.random(in: 1...255, using: &random)
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...16, using: &random)))
            case 2: bytes = Array(bytes.prefix(at))
            case 3:
                let other = [UInt8](corpus.randomElement(using: &random) ?? Data())
                let from = Int.random(in: 0...other.count, using: &random)
                bytes.insert(contentsOf: other[from...].prefix(Int.random(in: 1...64, using: &random)), at: at)
            case 4:
                // Replace a value (after a colon) by another token.
                if let colon = bytes[at...].firstIndex(of: UInt8(ascii: ":")) {
                    let end = bytes[(colon + 1)...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") } ?? bytes.count
                    bytes.replaceSubrange((colon + 1)..<end, with: Array(tokens.randomElement(using: &random)!.utf8))
                }
            default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
            }
        }
        return Data(bytes)
    }

    @Test func serverRecordJSONEitherRoundTripsOrIsRefused() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let corpus = try Self.corpus().map { try encoder.encode($0) }
        for (record, data) in zip(Self.corpus(), corpus) {
            #expect(try JSONDecoder().decode(ServerRecord.self, from: data) == record)
        }
        var random = SystemRandomNumberGenerator()
        let deadline = Date().addingTimeInterval(Self.budget)
        var tried = 0, decoded = 0
        while Date() < deadline || tried < 1_000 {
            let input = Self.mutate(corpus[tried % corpus.count], corpus: corpus, random: &random)
            tried += 1
            guard let record = try? JSONDecoder().decode(ServerRecord.self, from: input) else { continue }
            decoded += 1
            let again = try JSONDecoder().decode(ServerRecord.self, from: try encoder.encode(record))
            #expect(again == record || record.fields.values.contains { if case .double(let d) = $0 { d.isNaN } else { false } },
                    "\(String(decoding: input, as: UTF8.self)) does not round-trip")
            // Whatever decodes has a size the server can count.
            _ = record.encodedSize
        }
        print("fuzz ServerRecord JSON: \(tried) inputs, \(decoded) decoded and round-tripped, the rest refused")
    }

    @Test func garbledStoreRowsAreReportedAsDamageNeverACrash() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        let zone = try alice.createZone("reminders")
        var records = Self.corpus().map { record -> ServerRecord in
            var copy = record
            copy.id.zoneID = zone
            copy.parent = nil
            copy.changeTag = nil
            copy.fields = copy.fields.filter { if case .asset = $0.value { false } else { true } }
            return copy
        }
        records = try alice.save(records)
        let store = world.directory.appendingPathComponent("server.sqlite").path
        let raw = try DatabaseQueue(path: store)
        let original = try raw.read { db in try Row.fetchAll(db, sql: "SELECT rowid, * FROM record") }
        let texts = original.flatMap { row in [row["fields"] as String, row["fieldModificationTimes"] as String] }.map { Data($0.utf8) }
        let columns = ["fields", "fieldModificationTimes", "recordType", "modificationDate", "sequence", "isDeleted", "changeTag",
                       "parentRecordName", "recordName", "modifiedByUser"]
        let values: [DatabaseValue] = [.null, 1.databaseValue, (-1.5).databaseValue, "".databaseValue, "x".databaseValue,
                                       Data([0xFF, 0x00]).databaseValue, Int64.max.databaseValue, "{}".databaseValue, "[]".databaseValue]
        var random = SystemRandomNumberGenerator()
        let deadline = Date().addingTimeInterval(Self.budget)
        var tried = 0, refused = 0
        while Date() < deadline || tried < 200 {
            tried += 1
            let row = original.randomElement(using: &random)!
            let column = columns.randomElement(using: &random)!
            let value: DatabaseValue
            if column == "fields" || column == "fieldModificationTimes", Bool.random(using: &random) {
                value = String(decoding: Self.mutate(Data((row[column] as String).utf8), corpus: texts, random: &random), as: UTF8.self).databaseValue
            } else {
                value = values.randomElement(using: &random)!
            }
            try raw.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA ignore_check_constraints = 1")
                try db.execute(sql: "UPDATE OR IGNORE record SET \(column) = ? WHERE rowid = ?", arguments: [value, row["rowid"] as Int64])
            }
            do {
                let server = try DirectoryServer(directory: world.directory)
                let reader = server.database(user: "alice", scope: .private, device: "fuzz")
                _ = try reader.fetchRecords(records.map(\.id))
                _ = try reader.fetchZoneChanges(zoneID: zone, since: nil, limit: 100)
                _ = try reader.fetchDatabaseChanges(since: nil)
                var edit = records[tried % records.count]
                edit.fields["fuzz"] = .int64(Int64(tried))
                _ = try reader.modifyRecords(saving: [edit], deleting: [])
                _ = try server.dump().jsonData()
            } catch let error as CloudError {
                refused += 1
                guard case .serverUnavailable(let message) = error else {
                    Issue.record("\(column) = \(value): \(error)")
                    break
                }
                #expect(message.contains("server.sqlite is damaged") || message.contains("failed"), "\(message)")
            }
            // Put the row back for the next round.
            try raw.writeWithoutTransaction { db in
                try db.execute(sql: "DELETE FROM record WHERE rowid = ?", arguments: [row["rowid"] as Int64])
                let names = row.columnNames.map { $0 == "rowid" ? "rowid" : $0 }
                try db.execute(sql: "INSERT OR REPLACE INTO record (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                               arguments: StatementArguments(row.databaseValues))
            }
        }
        print("fuzz server store rows: \(tried) garbled rows, \(refused) reported as damage, none crashed")
    }
}
