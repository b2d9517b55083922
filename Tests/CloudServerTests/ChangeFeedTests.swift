import Foundation
import Testing
@testable import CloudServer

struct ChangeFeedTests {
    @Test(arguments: StoreKind.available) func pagingAThousandRecordsByHundredsDeliversEachOnce(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        for batch in 0..<4 {
            try alice.save((0..<250).map { record("r\(batch * 250 + $0)", in: zone) })
        }
        var seen: [String] = []
        var token: ChangeToken?
        var pages = 0
        var lastSequences: [Int64] = []
        while true {
            let page = try alice.fetchZoneChanges(zoneID: zone, since: token, limit: 100)
            pages += 1
            #expect(page.changed.count <= 100)
            seen += page.changed.map(\.id.recordName)
            if let previous = token { #expect(page.token.sequence > previous.sequence) }
            token = page.token
            lastSequences.append(page.token.sequence)
            if !page.moreComing { break }
        }
        #expect(pages == 10)
        #expect(seen.count == 1000)
        #expect(Set(seen).count == 1000)
        // Resuming from the final token finds nothing.
        let rest = try alice.fetchZoneChanges(zoneID: zone, since: token, limit: 100)
        #expect(rest.changed.isEmpty && rest.deleted.isEmpty && !rest.moreComing)
    }

    @Test(arguments: StoreKind.available) func pagingWhileAnotherDeviceWritesLosesNothing(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        try expectPagingWhileWritingLosesNothing(writer: world.database("alice", device: "writer"),
                                                  reader: world.database("alice", device: "reader"))
    }

    /// A device's own handle reads each next page while the device applies
    /// one: a page read before another device's write is still a right
    /// page, and what the write changed comes after it.
    @Test func pagesReadAheadLoseNothingWhileAnotherDeviceWrites() throws {
        let world = try ServerWorld(.directory)
        let device = try DirectoryServer(directory: world.directory, prefetchingPages: true)
        try expectPagingWhileWritingLosesNothing(writer: world.database("alice", device: "writer"),
                                                  reader: device.database(user: "alice", scope: .private, device: "reader"))
    }

    func expectPagingWhileWritingLosesNothing(writer: StoreDatabase, reader: StoreDatabase) throws {
        let zone = try writer.createZone("Reminders")
        var versions: [String: ServerRecord] = [:]
        for saved in try writer.save((0..<300).map { record("r\($0)", in: zone) }) {
            versions[saved.id.recordName] = saved
        }
        var latest: [String: ServerRecord] = [:]
        var token: ChangeToken?
        var round = 0
        repeat {
            let page = try reader.fetchZoneChanges(zoneID: zone, since: token, limit: 50)
            for record in page.changed { latest[record.id.recordName] = record }
            for deletion in page.deleted { latest[deletion.id.recordName] = nil }
            token = page.token
            // Between pages the writer edits some early records, deletes one
            // and adds one.
            if round < 3 {
                var edited = try #require(versions["r\(round)"])
                edited.fields["title"] = .string("edit \(round)")
                versions["r\(round)"] = try writer.save(edited)
                try writer.delete([RecordID(recordName: "r\(100 + round)", zoneID: zone)])
                versions["r\(100 + round)"] = nil
                versions["new\(round)"] = try writer.save(record("new\(round)", in: zone))
            }
            round += 1
            if !page.moreComing, round > 3 { break }
        } while true
        #expect(latest == versions)
    }

    @Test(arguments: StoreKind.available) func aRecordSavedManyTimesAppearsOnceInItsLatestVersion(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let token = try alice.currentToken()
        var current = try alice.save(record("r1", in: zone))
        for index in 0..<5 {
            current.fields["title"] = .string("v\(index)")
            current = try alice.save(current)
        }
        let changes = try alice.fetchAllChanges(in: zone, since: token)
        #expect(changes.changed == [current])
    }

    @Test(arguments: StoreKind.available) func tombstonesAreKeptForEveryReader(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let phone = world.database("alice", device: "phone")
        let laptop = world.database("alice", device: "laptop")
        let tablet = world.database("alice", device: "tablet")
        let zone = try phone.createZone("Reminders")
        try phone.save([record("a", in: zone), record("b", in: zone, type: "List")])
        let laptopToken = try laptop.fetchAllChanges(in: zone, since: nil).token
        let tabletToken = try tablet.fetchAllChanges(in: zone, since: nil).token
        try phone.delete([RecordID(recordName: "b", zoneID: zone)])

        // With who deleted it, for the log of an edit the delete beat.
        let expected = [RecordDeletion(id: RecordID(recordName: "b", zoneID: zone), recordType: "List",
                                       deletedByUser: "alice", deletedByDevice: "phone")]
        #expect(try laptop.fetchAllChanges(in: zone, since: laptopToken).deleted == expected)
        #expect(try tablet.fetchAllChanges(in: zone, since: tabletToken).deleted == expected)
        // Fetching again from the same token still reports it.
        #expect(try laptop.fetchAllChanges(in: zone, since: laptopToken).deleted == expected)
        // From scratch there is nothing to delete.
        let fresh = try tablet.fetchAllChanges(in: zone, since: nil)
        #expect(fresh.deleted.isEmpty)
        #expect(fresh.changed.map(\.id.recordName) == ["a"])
    }

    @Test(arguments: StoreKind.available) func compactionExpiresOlderTokensOnly(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        try alice.save([record("a", in: zone), record("b", in: zone)])
        let oldToken = try alice.currentToken()
        try alice.delete([RecordID(recordName: "a", zoneID: zone)])
        let recentToken = try alice.currentToken()
        try alice.save(record("c", in: zone))

        let removed = try world.store.compactTombstones(through: recentToken.sequence)
        #expect(removed == 1)
        #expect(try world.store.compactedThrough() == recentToken.sequence)
        #expect(throws: CloudError.changeTokenExpired) {
            try alice.fetchZoneChanges(zoneID: zone, since: oldToken, limit: 10)
        }
        #expect(throws: CloudError.changeTokenExpired) {
            try alice.fetchDatabaseChanges(since: oldToken)
        }
        #expect(try alice.names(in: zone, since: recentToken).changed == ["c"])
        #expect(try alice.names(in: zone, since: nil).changed == ["b", "c"])
        #expect(try world.store.dump().tombstones.isEmpty)
    }

    @Test(arguments: StoreKind.available) func afterCompactionAFreshDeviceCanStillPageFromScratch(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        try alice.save((0..<30).map { record("r\($0)", in: zone) })
        try alice.delete((0..<10).map { RecordID(recordName: "r\($0)", zoneID: zone) })
        try world.store.compactTombstones(through: world.store.currentSequence())
        let changes = try alice.fetchAllChanges(in: zone, since: nil, limit: 7)
        #expect(changes.changed.count == 20)
        #expect(changes.deleted.isEmpty)
        #expect(changes.pages == 3)
    }

    @Test(arguments: StoreKind.available) func aDeletionBetweenPagesFromScratchIsStillDelivered(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        try alice.save((0..<10).map { record("r\($0)", in: zone) })
        try alice.delete([RecordID(recordName: "r9", zoneID: zone)])
        let first = try alice.fetchZoneChanges(zoneID: zone, since: nil, limit: 5)
        #expect(first.moreComing)
        // r0 was delivered; it is deleted before the next page.
        try alice.delete([RecordID(recordName: "r0", zoneID: zone)])
        let rest = try alice.fetchAllChanges(in: zone, since: first.token, limit: 5)
        #expect(rest.deleted.map(\.id.recordName) == ["r0"]) // not r9, which the device never had
        #expect(rest.changed.map(\.id.recordName).sorted() == ["r5", "r6", "r7", "r8"])
        // Compacting the tombstone the device still needs expires its token.
        let second = try alice.fetchZoneChanges(zoneID: zone, since: nil, limit: 5)
        try alice.delete([RecordID(recordName: "r1", zoneID: zone)])
        try world.store.compactTombstones(through: world.store.currentSequence())
        #expect(throws: CloudError.changeTokenExpired) {
            try alice.fetchZoneChanges(zoneID: zone, since: second.token, limit: 5)
        }
    }

    @Test(arguments: StoreKind.available) func compactionByDateKeepsRecentTombstones(_ kind: StoreKind) throws {
        let clock = MutableClock(Date(timeIntervalSince1970: 1_000_000))
        let world = try ServerWorld(kind, clock: { clock.now })
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        try alice.save([record("old", in: zone), record("recent", in: zone)])
        try alice.delete([RecordID(recordName: "old", zoneID: zone)])
        clock.now = Date(timeIntervalSince1970: 2_000_000)
        try alice.delete([RecordID(recordName: "recent", zoneID: zone)])
        #expect(try world.store.compactTombstones(olderThan: Date(timeIntervalSince1970: 1_500_000)) == 1)
        #expect(try world.store.dump().tombstones.map(\.recordName) == ["recent"])
    }

    @Test(arguments: StoreKind.available) func aTokenFromAnotherServerHasExpired(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        #expect(throws: CloudError.changeTokenExpired) {
            try alice.fetchZoneChanges(zoneID: zone, since: ChangeToken(sequence: 1_000), limit: 10)
        }
    }

    @Test(arguments: StoreKind.available) func databaseChangesListZonesChangedSinceAToken(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let bob = world.database("bob")
        let home = try alice.createZone("Home")
        let work = try alice.createZone("Work")
        try bob.createZone("Bob's")
        let all = try alice.fetchDatabaseChanges(since: nil)
        #expect(all.changedZoneIDs == [home, work])
        #expect(all.deletedZoneIDs.isEmpty)
        #expect(!all.moreComing)

        try alice.save(record("r1", in: work))
        let since = try alice.fetchDatabaseChanges(since: all.token)
        #expect(since.changedZoneIDs == [work])
        #expect(try alice.fetchDatabaseChanges(since: since.token).changedZoneIDs.isEmpty)
    }

    @Test(arguments: StoreKind.available) func aLimitBelowOneStillMakesProgress(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        try alice.save([record("a", in: zone), record("b", in: zone)])
        let page = try alice.fetchZoneChanges(zoneID: zone, since: nil, limit: 0)
        #expect(page.changed.count == 1)
        #expect(page.moreComing)
    }
}

final class MutableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date

    init(_ value: Date) {
        self.value = value
    }

    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
