import Foundation
import Testing
@testable import CloudServer

struct DumpTests {
    @Test func dumpListsEverythingSorted() throws {
        let scene = try ShareScene(.directory)
        _ = try scene.shareAccepted(by: "bob")
        try scene.alice.delete([scene.id("eggs")])
        let dump = try scene.world.server.dump()
        #expect(dump.users == ["alice", "bob"])
        #expect(dump.zones.map(\.name) == ["Reminders"])
        #expect(dump.records.map(\.recordName) == ["gift", "groceries", "milk", "secret"])
        #expect(dump.tombstones.map(\.recordName) == ["eggs"])
        #expect(dump.tombstones.first?.deletedByUser == "alice")
        let milk = try #require(dump.records.first { $0.recordName == "milk" })
        #expect(milk.fields["title"] == ServerDump.Value(type: "string", value: "Milk"))
        #expect(milk.fieldModificationTimes == ["title": 1])
        #expect(milk.parent == "groceries in Reminders@alice")
        #expect(milk.modifiedByDevice == "alice-laptop")
        #expect(milk.changeTag == scene.reminders["milk"]?.changeTag)
        #expect(dump.shares.count == 1)
        #expect(dump.shares.first?.participants.map(\.status) == [.accepted])
        #expect(dump.head == scene.world.server.head())
    }

    @Test func jsonIsStableAndRoundTrips() throws {
        let scene = try ShareScene(.directory)
        let first = try scene.world.server.dump().jsonData()
        let second = try scene.world.server.dump().jsonData()
        #expect(first == second)
        let decoded = try JSONDecoder().decode(ServerDump.self, from: first)
        #expect(decoded == (try scene.world.server.dump()))
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.contains("\"compactedThrough\" : 0"))
        // Keys are sorted.
        let directoryIndex = try #require(text.range(of: "\"directory\""))
        let zonesIndex = try #require(text.range(of: "\"zones\""))
        #expect(directoryIndex.lowerBound < zonesIndex.lowerBound)
    }

    @Test func textNamesRecordsTagsAndParticipants() throws {
        let scene = try ShareScene(.directory)
        _ = try scene.share(with: [("bob", .readOnly)])
        try scene.alice.save(record("evil", in: scene.zone, fields: ["title": .string("\u{1B}[31mred\u{07}")]))
        let text = try scene.world.server.dump().text
        #expect(text.contains("zone Reminders@alice"))
        #expect(text.contains("record milk [Reminder] tag \(scene.reminders["milk"]?.changeTag ?? "?")"))
        #expect(text.contains("title = string Milk @1"))
        #expect(text.contains("bob read-only pending"))
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{07}"))
    }

    @Test func datesAreISO8601WithMilliseconds() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        #expect(ServerDumpReader.format(date) == "2023-11-14T22:13:20.250Z")
    }
}
