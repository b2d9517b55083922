import Foundation
import GRDB
import Testing
import TestSupport
@testable import CloudServer

/// The hand-written encodings against the reference: `FieldJSON` must
/// write what `JSONDecoder` reads back to the same values and read what
/// `JSONEncoder` wrote, and never accept text the reference reads
/// differently; `RecordArchive` must round-trip every record and refuse
/// damaged bytes without crashing.
@Suite struct RecordEncodingTests {
    static func referenceDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }

    static func referenceEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }

    /// Values that are equal, counting NaN equal to NaN.
    static func same(_ a: FieldMap<FieldValue>, _ b: FieldMap<FieldValue>) -> Bool {
        guard a.keys.sorted() == b.keys.sorted() else { return false }
        return a.allSatisfy { key, value in
            if case .double(let x) = value, case .double(let y)? = b[key], x.isNaN, y.isNaN { return true }
            return b[key] == value
        }
    }

    static let hostileTexts = [
        "", "plain", "quote \" and backslash \\ and slash /", "new\nline\r\ttab\u{08}\u{0C}", "\u{0}\u{1}\u{1F}\u{7F}",
        "é\u{301} עברית \u{1B}[2J", "😀 \u{10FFFF} \u{FFFD}", "\u{2028}\u{2029}\u{202E}", "{\"string\":{\"_0\":1}}",
    ]

    static func randomFields(_ random: inout some RandomNumberGenerator) -> FieldMap<FieldValue> {
        var fields: FieldMap<FieldValue> = [:]
        let zone = ZoneID(name: hostileTexts.randomElement(using: &random)!, ownerName: "alice")
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let key = Bool.random(using: &random) ? "k\(Int.random(in: 0...9, using: &random))" : hostileTexts.randomElement(using: &random)!
            let text = hostileTexts.randomElement(using: &random)!
            let doubles: [Double] = [0, -0.0, 1.5, -1e-308, 1e308, .pi, .nan, .infinity, -.infinity, 5e-324, 123456789.125]
            fields[key] = switch Int.random(in: 0..<8, using: &random) {
            case 0: .string(text)
            case 1: .int64([0, 1, -1, .min, .max, Int64.random(in: .min ... .max, using: &random)].randomElement(using: &random)!)
            case 2: .double(doubles.randomElement(using: &random)!)
            case 3: .date(Date(timeIntervalSinceReferenceDate: doubles.filter(\.isFinite).randomElement(using: &random)!))
            case 4: .bytes(Data((0..<Int.random(in: 0...9, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
            case 5: .asset(Asset(sha256: String(repeating: "0f", count: 32), size: Int.random(in: 0...1 << 40, using: &random)))
            case 6: .reference(RecordID(recordName: text, zoneID: zone))
            default: .stringList(Array(hostileTexts.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))))
            }
        }
        return fields
    }

    @Test func fieldJSONAgreesWithCodableBothWays() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let fields = Self.randomFields(&random)
            let written = FieldJSON.encode(fields: fields)
            let byReference = try Self.referenceDecoder().decode(FieldMap<FieldValue>.self, from: Data(written.utf8))
            #expect(Self.same(byReference, fields), "\(written)")
            let quick = try #require(FieldJSON.quickFields(written), "\(written)")
            #expect(Self.same(quick, fields), "\(written)")
            let referenceText = String(decoding: try Self.referenceEncoder().encode(fields.dictionary), as: UTF8.self)
            let quickOfReference = try #require(FieldJSON.quickFields(referenceText), "\(referenceText)")
            #expect(Self.same(quickOfReference, fields), "\(referenceText)")

            let times = fields.mapValues { _ in Int64.random(in: .min ... .max, using: &random) }
            let timesText = FieldJSON.encode(times: times)
            #expect(try Self.referenceDecoder().decode([String: Int64].self, from: Data(timesText.utf8)) == times.dictionary)
            #expect(FieldJSON.quickTimes(timesText) == times)
        }
    }

    /// The times reader's one-pass path (the triggers' shape) and its
    /// general one: on mutated times, whatever it accepts the reference
    /// reads to the same times; edge numbers and the triggers' own text
    /// read exactly.
    @Test func timesReaderAgreesWithTheReferenceOnMutatedTimes() throws {
        var random = SystemRandomNumberGenerator()
        for (text, times) in [
            ("{}", [:]), ("{\"a\":0}", ["a": 0]), ("{\"a\":-0}", ["a": 0]),
            ("{\"title\":1772359200000,\"notes\":-5}", ["title": 1_772_359_200_000, "notes": -5]),
            ("{\"max\":9223372036854775807,\"min\":-9223372036854775808}", ["max": .max, "min": .min]),
            ("{\"caf\\u00e9\":1}", ["café": 1]), ("{ \"a\" : 1 }", ["a": 1]),
        ] as [(String, FieldMap<Int64>)] {
            #expect(FieldJSON.quickTimes(text) == times, "\(text)")
        }
        for text in ["", "{", "{\"a\":}", "{\"a\":01}", "{\"a\":1,}", "{\"a\":1}x", "{\"a\":1,\"a\":2}",
                     "{\"a\":9223372036854775808}", "{\"a\":1.5}", "[1]"] {
            let reference = try? Self.referenceDecoder().decode(FieldMap<Int64>.self, from: Data(text.utf8))
            #expect(FieldJSON.quickTimes(text) == nil || FieldJSON.quickTimes(text) == reference, "\(text)")
        }
        let corpus = (0..<50).map { _ in
            let keys = Self.randomFields(&random).keys
            return Data(FieldJSON.encode(times: FieldMap(keys.map { (key: $0, value: Int64.random(in: .min ... .max, using: &random)) })).utf8)
        }
        let accepted = Self.mutating(corpus, &random, read: FieldJSON.quickTimes) { text, quick in
            let reference = try? Self.referenceDecoder().decode(FieldMap<Int64>.self, from: Data(text.utf8))
            #expect(reference == quick, "quick times reader accepted \(text)")
        }
        print("fuzz times: 20000 mutated inputs, \(accepted) accepted by the quick reader, all read the same by JSONDecoder")
    }

    /// Reads 20,000 mutations of `corpus` with `read` and checks each text
    /// it accepts; returns how many it accepted.
    static func mutating<Value>(_ corpus: [Data], _ random: inout some RandomNumberGenerator, read: (String) -> Value?,
                                check: (String, Value) -> Void) -> Int {
        var accepted = 0
        for round in 0..<20_000 {
            let input = RecordDecodingFuzzTests.mutate(corpus[round % corpus.count], corpus: corpus, random: &random)
            let text = String(decoding: input, as: UTF8.self)
            guard let value = read(text) else { continue }
            accepted += 1
            check(text, value)
        }
        return accepted
    }

    /// The keys of a batch, written for `json_each`: the reference reads
    /// back every hostile string.
    @Test func stringArraysReadBackAsWritten() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let strings = Array(Self.hostileTexts.shuffled(using: &random).prefix(Int.random(in: 0...6, using: &random)))
            let text = FieldJSON.encode(strings: strings)
            #expect(try JSONDecoder().decode([String].self, from: Data(text.utf8)) == strings, "\(text)")
        }
    }

    /// Mutated stores: whatever the quick reader accepts, the reference
    /// reads to the same values.
    @Test func fieldJSONNeverAcceptsWhatTheReferenceReadsOtherwise() throws {
        var random = SystemRandomNumberGenerator()
        let corpus = (0..<50).map { _ in Data(FieldJSON.encode(fields: Self.randomFields(&random)).utf8) }
        let accepted = Self.mutating(corpus, &random, read: FieldJSON.quickFields) { text, quick in
            let reference = try? Self.referenceDecoder().decode(FieldMap<FieldValue>.self, from: Data(text.utf8))
            #expect(reference.map { Self.same($0, quick) } == true, "quick reader accepted \(text)")
        }
        print("fuzz FieldJSON: 20000 mutated inputs, \(accepted) accepted by the quick reader, all read the same by JSONDecoder")
    }

    @Test func archiveRoundTripsEveryRecord() throws {
        var random = SystemRandomNumberGenerator()
        for record in RecordDecodingFuzzTests.corpus() {
            #expect(try RecordArchive.decode(RecordArchive.encode(record)) == record)
        }
        let otherZone = ZoneID(name: "shared", ownerName: "carol")
        for index in 0..<2_000 {
            let fields = Self.randomFields(&random)
            let zone = ZoneID(name: Self.hostileTexts.randomElement(using: &random)!, ownerName: "bob")
            // Names with and without their type's prefix, and times for
            // fields the record does not have, near and far apart.
            let names = ["reminders/\(index)", "reminders/", "remindersX\(index)", "reminder/\(index)", "\(index)",
                         "reminders/é\(index)", Self.hostileTexts.randomElement(using: &random)!]
            var times = fields.mapValues { _ in Int64.random(in: .min ... .max, using: &random) }
            for extra in ["alertBefore", "zz", "é", ""] where Bool.random(using: &random) {
                times[extra] = Bool.random(using: &random) ? Int64.random(in: .min ... .max, using: &random) : times.values.first ?? 0
            }
            let parents = [nil, RecordID(recordName: "remindersLists/x", zoneID: zone), RecordID(recordName: "remindersLists/y", zoneID: otherZone)]
            let record = ServerRecord(
                id: RecordID(recordName: names.randomElement(using: &random)!, zoneID: zone), recordType: "reminders",
                fields: fields, fieldModificationTimes: times,
                parent: parents.randomElement(using: &random)!,
                changeTag: Bool.random(using: &random) ? "t\(index)" : nil,
                modificationDate: Bool.random(using: &random) ? Date(timeIntervalSinceReferenceDate: Double(index) / 3) : nil,
                modifiedByUser: Bool.random(using: &random) ? "bob" : nil, modifiedByDevice: Bool.random(using: &random) ? "" : nil)
            let data = RecordArchive.encode(record)
            #expect(RecordArchive.isArchive(data))
            let decoded = try RecordArchive.decode(data)
            #expect(decoded.id == record.id && decoded.parent == record.parent && decoded.changeTag == record.changeTag)
            #expect(decoded.modificationDate == record.modificationDate && decoded.modifiedByDevice == record.modifiedByDevice)
            #expect(Self.same(decoded.fields, record.fields) && decoded.fieldModificationTimes == record.fieldModificationTimes)
        }
    }

    /// One record, one form: the keys are written in order, whatever order
    /// its fields were set in, and a decoded record encodes to the bytes it
    /// came from.
    @Test func archiveBytesDoNotDependOnTheOrderFieldsWereSetIn() throws {
        var random = SystemRandomNumberGenerator()
        for index in 0..<500 {
            let fields = Self.randomFields(&random)
            let times = fields.mapValues { _ in Int64.random(in: .min ... .max, using: &random) }
            func record(_ fields: FieldMap<FieldValue>, _ times: FieldMap<Int64>) -> ServerRecord {
                ServerRecord(id: RecordID(recordName: "reminders/\(index)", zoneID: ZoneID(name: "reminders", ownerName: "bob")),
                             recordType: "reminders", fields: fields, fieldModificationTimes: times)
            }
            let rebuilt = record(FieldMap(fields.shuffled(using: &random)), FieldMap(times.shuffled(using: &random)))
            let bytes = RecordArchive.encode(record(fields, times))
            #expect(RecordArchive.encode(rebuilt) == bytes)
            #expect(RecordArchive.encode(try RecordArchive.decode(bytes)) == bytes)
        }
    }

    /// The archives of version 1 a release before this one wrote (the
    /// device databases in Tests/Fixtures/before-repeats).
    static func versionOneArchives() throws -> [Data] {
        var archives: [Data] = []
        for name in ["laptop.sqlite", "bob.sqlite"] {
            let path = packageRoot.appendingPathComponent("Tests/Fixtures/before-repeats/\(name)").path
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: "file:\(path)?immutable=1", configuration: configuration)
            archives += try queue.read { db in
                try Data.fetchAll(db, sql: "SELECT lastKnownServerRecord FROM sync_metadata WHERE lastKnownServerRecord IS NOT NULL")
            }.filter(RecordArchive.isArchive)
        }
        return archives
    }

    /// Every version 1 archive an earlier release wrote still reads; written
    /// again it is version 2, smaller, reads back to the same record, and a
    /// decoded version 2 archive encodes to the very bytes it came from.
    @Test func archivesAnEarlierReleaseWroteStillReadAndShrink() throws {
        let archives = try Self.versionOneArchives()
        #expect(archives.count == 49)
        var before = 0
        var after = 0
        for data in archives {
            #expect(data[1] == 1)
            let record = try RecordArchive.decode(data)
            let again = RecordArchive.encode(record)
            #expect(again[1] == 2)
            #expect(again.count < data.count)
            #expect(try RecordArchive.decode(again) == record)
            #expect(RecordArchive.encode(try RecordArchive.decode(again)) == again)
            before += data.count
            after += again.count
        }
        print("archives of an earlier release: \(before) bytes in version 1, \(after) in version 2")
    }

    /// What a record repeats is written once: a time shared by every field
    /// costs a byte per field after the first, a time's name is its
    /// field's position, and neither the type in the record's name nor
    /// the record's zone in its parent's id is written again.
    @Test func versionTwoWritesWhatARecordRepeatsOnce() throws {
        let zone = ZoneID(name: "home-zone", ownerName: "alice")
        let names = ["dueDate", "notes", "priority", "remindersListID", "status", "title"]
        func record(times: Int, sameTime: Bool) -> ServerRecord {
            let fields = FieldMap(uniqueKeysWithValues: names.map { ($0, FieldValue.string("v")) })
            var stamps = FieldMap<Int64>()
            for (index, name) in names.prefix(times).enumerated() {
                stamps[name] = 1_790_000_000_000 + (sameTime ? 0 : Int64(index) * 1_000_000_007)
            }
            return ServerRecord(id: RecordID(recordName: "reminders/7f3a", zoneID: zone), recordType: "reminders",
                                fields: fields, fieldModificationTimes: stamps,
                                parent: RecordID(recordName: "remindersLists/9c1e", zoneID: zone))
        }
        let one = RecordArchive.encode(record(times: 1, sameTime: true))
        let shared = RecordArchive.encode(record(times: names.count, sameTime: true))
        let apart = RecordArchive.encode(record(times: names.count, sameTime: false))
        #expect(shared.count - one.count == 2 * (names.count - 1))
        #expect(apart.count > shared.count)
        let bytes = [UInt8](shared)
        func occurrences(_ text: String) -> Int {
            let needle = Array(text.utf8)
            return (0...(bytes.count - needle.count)).filter { Array(bytes[$0..<$0 + needle.count]) == needle }.count
        }
        #expect(occurrences("reminders/") == 0)
        #expect(occurrences("reminders") == 3) // the type, the field remindersListID and the parent "remindersLists/9c1e"
        #expect(occurrences("home-zone") == 1)
        #expect(occurrences("alice") == 1)
        #expect(occurrences("title") == 1)
        for data in [one, shared, apart] {
            #expect(RecordArchive.encode(try RecordArchive.decode(data)) == data)
        }
    }

    @Test func damagedArchivesAreRefusedNeverACrash() throws {
        var random = SystemRandomNumberGenerator()
        // Both versions: what this one writes, and what an earlier one did.
        let corpus = RecordDecodingFuzzTests.corpus().map(RecordArchive.encode) + (try Self.versionOneArchives())
        var refused = 0
        for round in 0..<30_000 {
            var bytes = [UInt8](corpus[round % corpus.count])
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 1..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[at] ^= UInt8.random(in: 1...255, using: &random)
                case 1: bytes = Array(bytes.prefix(at))
                case 2: bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], at: at)
                default: bytes.remove(at: at)
                }
                if bytes.count < 2 { break }
            }
            do {
                let record = try RecordArchive.decode(Data(bytes))
                // What decodes encodes back to something that decodes the same.
                let again = try RecordArchive.decode(RecordArchive.encode(record))
                #expect(again.id == record.id && Self.same(again.fields, record.fields))
            } catch is RecordArchive.Malformed {
                refused += 1
            }
        }
        #expect(refused > 0)
        #expect(throws: RecordArchive.Malformed.self) { try RecordArchive.decode(Data()) }
        #expect(throws: RecordArchive.Malformed.self) { try RecordArchive.decode(Data([0xB5, 9])) }
        #expect(throws: RecordArchive.Malformed.self) { try RecordArchive.decode(Data([0xB5, 0])) }
        print("fuzz RecordArchive: 30000 damaged archives, \(refused) refused, the rest decoded consistently")
    }
}
