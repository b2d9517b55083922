import Testing
@testable import CloudServer

/// A record id hashes its name alone; ids that share a name in different
/// zones stay different keys.
@Suite struct RecordIDTests {
    @Test func theSameNameInTwoZonesIsTwoIDs() {
        let mine = RecordID(recordName: "reminders/1", zoneID: ZoneID(name: "reminders", ownerName: "alice"))
        let shared = RecordID(recordName: "reminders/1", zoneID: ZoneID(name: "reminders", ownerName: "bob"))
        let other = RecordID(recordName: "reminders/1", zoneID: ZoneID(name: "groceries", ownerName: "alice"))
        #expect(Set([mine, shared, other, mine]).count == 3)
        var results: [RecordID: String] = [mine: "alice's", shared: "bob's"]
        results[other] = "another zone's"
        #expect(results[mine] == "alice's")
        #expect(results[shared] == "bob's")
        #expect(results[other] == "another zone's")
        #expect(mine.hashValue == RecordID(recordName: "reminders/1", zoneID: mine.zoneID).hashValue)
    }
}
