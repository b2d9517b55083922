import CloudServer
import Foundation
import GRDB
import Testing
@testable import SyncEngine

/// What the engine keeps per row: edit times as the JSON the triggers
/// patch, and the last-known record as an archive (or as the JSON that
/// older databases hold).
@Suite struct StoredStateEncodingTests {
    static let awkwardKeys = ["title", "", "quote\"", "back\\slash", "new\nline", "\u{1}", "é", "😀", "a,b:c{d}"]

    @Test func editTimesRoundTripAndReadWhatSQLiteWrites() throws {
        var random = SystemRandomNumberGenerator()
        let db = try DatabaseQueue()
        for _ in 0..<500 {
            var times: FieldMap<Int64> = [:]
            for key in Self.awkwardKeys.shuffled(using: &random).prefix(Int.random(in: 0...5, using: &random)) {
                times[key] = Int64.random(in: .min ... .max, using: &random)
            }
            let text = Metadata.encodeTimes(times)
            #expect(Metadata.decodeTimes(text) == times, "\(text)")
            #expect(try JSONDecoder().decode([String: Int64].self, from: Data(text.utf8)) == times.dictionary, "\(text)")
            // The triggers merge times with json_patch: it must read ours,
            // and we must read what it writes.
            let patched = try db.read { db in
                try String.fetchOne(db, sql: "SELECT json_patch(?, json_object('extra', 7))", arguments: [text])
            }
            var expected = times
            expected["extra"] = 7
            #expect(Metadata.decodeTimes(try #require(patched)) == expected, "\(patched ?? "")")
        }
        // Spaces, escapes and anything odd take the slow path, same result.
        #expect(Metadata.decodeTimes(#" { "a" : 1 , "b\u0041" : -2 } "#) == ["a": 1, "bA": -2])
        #expect(Metadata.decodeTimes("{}") == [:])
        #expect(Metadata.decodeTimes("not json") == [:])
        #expect(Metadata.decodeTimes(#"{"a":1.5}"#) == [:])
    }

    @Test func lastKnownRecordsStoredAsJSONStillRead() throws {
        let zone = ZoneID(name: "reminders", ownerName: "alice")
        let record = ServerRecord(
            id: RecordID(recordName: "reminders/r1", zoneID: zone), recordType: "reminders",
            fields: ["title": .string("Milk \"2%\""), "priority": .int64(2), "cover": .asset(Asset(sha256: "ab", size: 3))],
            fieldModificationTimes: ["title": 5, "priority": 6], parent: RecordID(recordName: "remindersLists/l", zoneID: zone),
            changeTag: "t-1", modificationDate: Date(timeIntervalSinceReferenceDate: 12.5), modifiedByUser: "alice",
            modifiedByDevice: "phone")
        let legacy = try JSONEncoder().encode(record)
        #expect(try RecordCoder.decode(legacy) == record)
        let stored = try RecordCoder.encode(record)
        #expect(RecordArchive.isArchive(stored))
        #expect(try RecordCoder.decode(stored) == record)
        #expect(stored.count < legacy.count)
    }

    /// A record name splits at its first slash, whatever the key holds
    /// (split byte by byte: a slash is never part of another character).
    @Test func recordNamesSplitAtTheirFirstSlash() {
        #expect(RecordCoder.split("reminders/abc") ?? ("", "") == ("reminders", "abc"))
        #expect(RecordCoder.split("tags/café/x") ?? ("", "") == ("tags", "café/x"))
        #expect(RecordCoder.split("tags/日本語") ?? ("", "") == ("tags", "日本語"))
        #expect(RecordCoder.split("tags/") ?? ("", "x") == ("tags", ""))
        #expect(RecordCoder.split("no slash") == nil)
        #expect(RecordCoder.split(RecordCoder.recordName(table: "remindersTags", key: "r1/é")) ?? ("", "") == ("remindersTags", "r1/é"))
    }
}
