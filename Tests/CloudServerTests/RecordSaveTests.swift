import Foundation
import Testing
@testable import CloudServer

struct RecordSaveTests {
    @Test(arguments: StoreKind.available) func saveAssignsServerFields(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice", device: "laptop")
        let zone = try alice.createZone("Reminders")
        let sent = record("r1", in: zone, fields: ["title": .string("Milk"), "priority": .int64(2)])
        let saved = try alice.save(sent)
        #expect(saved.fields == sent.fields)
        #expect(saved.fieldModificationTimes == sent.fieldModificationTimes)
        #expect(saved.changeTag != nil)
        #expect(saved.modificationDate != nil)
        #expect(saved.modifiedByUser == "alice")
        #expect(saved.modifiedByDevice == "laptop")
        let fetched = try alice.fetchRecords([sent.id])[sent.id]?.get()
        #expect(fetched == saved)
    }

    @Test(arguments: StoreKind.available) func everySaveGetsANewChangeTagAndANewerDateEvenWithAPinnedClock(_ kind: StoreKind) throws {
        let pinned = Date(timeIntervalSince1970: 1_700_000_000)
        let world = try ServerWorld(kind, clock: { pinned })
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        var current = try alice.save(record("r1", in: zone))
        var tags: Set<String> = [current.changeTag ?? ""]
        for index in 0..<5 {
            var next = current
            next.fields["title"] = .string("v\(index)")
            let saved = try alice.save(next)
            #expect(saved.modificationDate! > current.modificationDate!)
            tags.insert(saved.changeTag ?? "")
            current = saved
        }
        #expect(tags.count == 6)
    }

    @Test(arguments: StoreKind.available) func allFieldKindsRoundTrip(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let asset = try alice.uploadAsset(Data("cover".utf8))
        let fields: FieldMap<FieldValue> = [
            "string": .string("Grüße 🎉 \"quoted\" \n newline"),
            "int": .int64(Int64.min),
            "double": .double(0.1 + 0.2),
            "infinity": .double(.infinity),
            "date": .date(Date(timeIntervalSinceReferenceDate: 123_456.789_012)),
            "bytes": .bytes(Data([0, 1, 2, 255])),
            "asset": .asset(asset),
            "reference": .reference(RecordID(recordName: "list", zoneID: zone)),
            "tags": .stringList(["Work", "Home", ""]),
        ]
        let sent = record("r1", in: zone, fields: fields, parent: RecordID(recordName: "list", zoneID: zone))
        try alice.save(sent)
        let fetched = try alice.fetchRecords([sent.id])[sent.id]?.get()
        #expect(fetched?.fields == fields)
        #expect(fetched?.parent == sent.parent)
    }

    @Test(arguments: StoreKind.available) func savingANewRecordOverAnExistingOneReturnsTheServerRecord(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let saved = try alice.save(record("r1", in: zone, fields: ["title": .string("first")]))
        let error = try alice.saveError(record("r1", in: zone, fields: ["title": .string("second")]))
        #expect(error == .serverRecordChanged(saved))
    }

    @Test(arguments: StoreKind.available) func aStaleChangeTagReturnsTheCurrentServerRecord(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let phone = world.database("alice", device: "phone")
        let laptop = world.database("alice", device: "laptop")
        let zone = try phone.createZone("Reminders")
        let original = try phone.save(record("r1", in: zone, fields: ["title": .string("Milk")]))
        var fromPhone = original
        fromPhone.fields["title"] = .string("Oat milk")
        let current = try phone.save(fromPhone)
        var fromLaptop = original
        fromLaptop.fields["title"] = .string("Soy milk")
        #expect(try laptop.saveError(fromLaptop) == .serverRecordChanged(current))
        // With the current tag the laptop's save goes through.
        fromLaptop.changeTag = current.changeTag
        #expect(try laptop.save(fromLaptop).fields["title"] == .string("Soy milk"))
    }

    @Test(arguments: StoreKind.available) func savingADeletedRecordWithAChangeTagIsUnknownItem(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let saved = try alice.save(record("r1", in: zone))
        try alice.delete([saved.id])
        #expect(try alice.saveError(saved) == .unknownItem(saved.id))
        // Never saved at all, but carrying a tag: same answer.
        var ghost = record("ghost", in: zone)
        ghost.changeTag = "1-abc"
        #expect(try alice.saveError(ghost) == .unknownItem(ghost.id))
    }

    @Test(arguments: StoreKind.available) func aDeletedRecordCanBeCreatedAgainUnderTheSameName(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let first = try alice.save(record("r1", in: zone, fields: ["title": .string("old")]))
        let token = try alice.currentToken()
        try alice.delete([first.id])
        let again = try alice.save(record("r1", in: zone, fields: ["title": .string("new")]))
        #expect(again.changeTag != first.changeTag)
        let changes = try alice.fetchAllChanges(in: zone, since: token)
        #expect(changes.changed.map(\.fields) == [["title": .string("new")]])
        #expect(changes.deleted.isEmpty)
    }

    /// A save without a change tag that says how far its fetch came
    /// (`knownThrough`) is refused when another device deleted the record
    /// after that, and taken when the delete was its own or seen.
    @Test(arguments: StoreKind.available) func aSaveIsRefusedOverADeleteMadeElsewhereAfterItsFetch(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let laptop = world.database("alice", device: "laptop")
        let phone = world.database("alice", device: "phone")
        let zone = try laptop.createZone("Reminders")
        let milk = try laptop.save(record("milk", in: zone))
        let bread = try laptop.save(record("bread", in: zone))
        let fetched = try laptop.currentToken().sequence
        try phone.delete([milk.id])
        try laptop.delete([bread.id])
        var again = record("milk", in: zone, fields: ["title": .string("Milk")])
        again.knownThrough = fetched
        #expect(try laptop.saveError(again) == .unknownItem(milk.id))
        var own = record("bread", in: zone, fields: ["title": .string("Bread")])
        own.knownThrough = fetched
        #expect(try laptop.saveError(own) == nil)
        // Fetched past the delete, it is a new record.
        again.knownThrough = try laptop.currentToken().sequence
        let saved = try laptop.save(again)
        #expect(saved.knownThrough == nil)
    }

    @Test(arguments: StoreKind.available) func deletingARecordTheServerNeverHadIsRecordedAndDeletingItAgainIsUnknownItem(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let id = RecordID(recordName: "nope", zoneID: zone)
        let start = try alice.fetchAllChanges(in: zone, since: nil).token
        #expect(try alice.deleteError(id) == nil)
        #expect(try alice.fetchAllChanges(in: zone, since: start).deleted.map(\.id) == [id])
        #expect(try alice.deleteError(id) == .unknownItem(id))
        let saved = try alice.save(record("r1", in: zone))
        try alice.delete([saved.id])
        #expect(try alice.deleteError(saved.id) == .unknownItem(saved.id))
    }

    @Test(arguments: StoreKind.available) func writingToAMissingOrDeletedZoneIsZoneNotFound(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let missing = ZoneID(name: "Nowhere", ownerName: "alice")
        #expect(try alice.saveError(record("r1", in: missing)) == .zoneNotFound(missing))
        #expect(try alice.deleteError(RecordID(recordName: "r1", zoneID: missing)) == .zoneNotFound(missing))
        let zone = try alice.createZone("Reminders")
        _ = try alice.modifyZones(saving: [], deleting: [zone])
        #expect(try alice.saveError(record("r1", in: zone)) == .zoneNotFound(zone))
        #expect(throws: CloudError.zoneNotFound(zone)) {
            try alice.fetchZoneChanges(zoneID: zone, since: nil, limit: 10)
        }
        let results = try alice.modifyZones(saving: [], deleting: [missing])
        #expect(throws: CloudError.zoneNotFound(missing)) { try results[missing]?.get() }
    }

    @Test(arguments: StoreKind.available) func writingToAnotherUsersZoneThroughThePrivateDatabaseIsRefused(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let zone = try world.database("alice").createZone("Reminders")
        let bob = world.database("bob")
        #expect(try bob.saveError(record("r1", in: zone))?.isPermissionFailure == true)
        #expect(try bob.modifyZones(saving: [zone], deleting: [])[zone].map { result in
            if case .failure(let error) = result { return error.isPermissionFailure }
            return false
        } == true)
    }

    @Test(arguments: StoreKind.available) func moreThanFourHundredRecordsIsLimitExceeded(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let saves = (0..<300).map { record("s\($0)", in: zone) }
        let deletes = (0..<101).map { RecordID(recordName: "d\($0)", zoneID: zone) }
        #expect(throws: CloudError.limitExceeded("401 records in one request; the limit is 400")) {
            try alice.modifyRecords(saving: saves, deleting: deletes)
        }
        // Exactly 400 is fine.
        let result = try alice.modifyRecords(saving: (0..<400).map { record("s\($0)", in: zone) }, deleting: [])
        #expect(result.saveResults.values.allSatisfy { (try? $0.get()) != nil })
        #expect(world.store.head() == 401)
    }

    @Test(arguments: StoreKind.available) func moreThanTwoMegabytesIsLimitExceededButAssetsDoNotCount(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let big = String(repeating: "x", count: 700_000)
        let saves = (0..<3).map { record("r\($0)", in: zone, fields: ["notes": .string(big)]) }
        let error = cloudError { _ = try alice.modifyRecords(saving: saves, deleting: []) }
        #expect(error?.isLimitExceeded == true)
        #expect(try alice.fetchAllChanges(in: zone, since: nil).changed.isEmpty)

        let asset = try alice.uploadAsset(Data(repeating: 7, count: 3_000_000))
        try alice.save(record("cover", in: zone, fields: ["image": .asset(asset)]))
    }

    @Test(arguments: StoreKind.available) func aRecordNamedTwiceInOneRequestIsRefused(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let error = cloudError {
            _ = try alice.modifyRecords(saving: [record("r1", in: zone)], deleting: [RecordID(recordName: "r1", zoneID: zone)])
        }
        #expect(error?.isLimitExceeded == true)
    }

    @Test(arguments: StoreKind.available) func aFailureRollsBackItsZoneButNotOtherZones(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let home = try alice.createZone("Home")
        let work = try alice.createZone("Work")
        let existing = try alice.save(record("taken", in: home))
        let toDelete = try alice.save(record("doomed", in: home))
        let headBefore = world.store.head()

        let result = try alice.modifyRecords(
            saving: [record("fresh", in: home), record("taken", in: home), record("w1", in: work)],
            deleting: [toDelete.id])
        let fresh = RecordID(recordName: "fresh", zoneID: home)
        #expect(result.saveError(existing.id) == .serverRecordChanged(existing))
        #expect(result.saveError(fresh) == .batchRequestFailed(fresh))
        #expect(result.deleteError(toDelete.id) == .batchRequestFailed(toDelete.id))
        #expect(try result.saveResults[RecordID(recordName: "w1", zoneID: work)]?.get().changeTag != nil)

        #expect(try alice.names(in: home, since: nil).changed == ["doomed", "taken"])
        #expect(try alice.names(in: work, since: nil).changed == ["w1"])
        // Only the Work save took a sequence: no gaps from the rolled-back zone.
        #expect(world.store.head() == headBefore + 1)
    }

    @Test func aStoreFailureMidRequestLeavesNothingBehind() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        let home = try alice.createZone("Home")
        let work = try alice.createZone("Work")
        let head = world.server.head()
        // The store fails on the third record of the request, after other
        // zones' changes were written inside the transaction.
        try world.server.pool.write { db in
            try db.execute(sql: """
                CREATE TRIGGER failure BEFORE INSERT ON record WHEN NEW.recordName = 'boom'
                BEGIN SELECT RAISE(FAIL, 'simulated I/O failure'); END
                """)
        }
        let error = cloudError {
            _ = try alice.modifyRecords(
                saving: [record("a", in: home), record("b", in: home), record("w", in: work), record("boom", in: work)],
                deleting: [])
        }
        #expect(error == .serverUnavailable("the server at \(world.directory.path) failed (simulated I/O failure)"))
        #expect(try alice.names(in: home, since: nil).changed.isEmpty)
        #expect(try alice.names(in: work, since: nil).changed.isEmpty)
        #expect(world.server.head() == head)
        #expect(try world.server.currentSequence() == head)
    }

    @Test(arguments: StoreKind.available) func everyFailingRecordOfAZoneReportsItsOwnError(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Home")
        let a = try alice.save(record("a", in: zone))
        let b = try alice.save(record("b", in: zone))
        let result = try alice.modifyRecords(saving: [record("a", in: zone), record("b", in: zone), record("c", in: zone)], deleting: [])
        func failure(_ name: String) -> CloudError? {
            result.saveError(RecordID(recordName: name, zoneID: zone))
        }
        #expect(failure("a") == .serverRecordChanged(a))
        #expect(failure("b") == .serverRecordChanged(b))
        #expect(failure("c") == .batchRequestFailed(RecordID(recordName: "c", zoneID: zone)))
    }

    @Test(arguments: StoreKind.available) func referencingAnAssetThatWasNeverUploadedIsAssetUnavailable(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let phantom = Asset(sha256: Asset.digest(of: Data("never uploaded".utf8)), size: 14)
        let error = try alice.saveError(record("r1", in: zone, fields: ["cover": .asset(phantom)]))
        #expect(error?.isAssetUnavailable == true)
        #expect(error?.description.contains(phantom.sha256) == true)
        let uploaded = try alice.uploadAsset(Data("never uploaded".utf8))
        #expect(uploaded == phantom)
        try alice.save(record("r1", in: zone, fields: ["cover": .asset(uploaded)]))
    }

    @Test(arguments: StoreKind.available) func deletingAZoneDeletesItsRecordsAndShowsInDatabaseChanges(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let other = try alice.createZone("Other")
        try alice.save([record("a", in: zone), record("b", in: zone)])
        let token = try alice.currentToken()
        let zoneToken = try alice.fetchAllChanges(in: zone, since: nil).token
        #expect(try alice.modifyZones(saving: [], deleting: [zone])[zone].map { (try? $0.get()) != nil } == true)

        let changes = try alice.fetchDatabaseChanges(since: token)
        #expect(changes.deletedZoneIDs == [zone])
        #expect(changes.changedZoneIDs.isEmpty)
        #expect(try alice.fetchDatabaseChanges(since: nil).changedZoneIDs == [other])

        // Re-created, the zone is empty and its old records arrive as deletions.
        try alice.createZone("Reminders")
        let after = try alice.fetchAllChanges(in: zone, since: zoneToken)
        #expect(after.changed.isEmpty)
        #expect(after.deleted.map(\.id.recordName).sorted() == ["a", "b"])
        #expect(try alice.fetchDatabaseChanges(since: token).changedZoneIDs == [zone])
    }

    @Test(arguments: StoreKind.available) func savingAnExistingZoneIsANoOp(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        try alice.createZone("Reminders")
        let head = world.store.head()
        try alice.createZone("Reminders")
        #expect(world.store.head() == head)
    }

    @Test(arguments: StoreKind.available) func theSharedDatabaseHasNoZonesOfItsOwn(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let shared = world.database("alice", .shared)
        let zone = ZoneID(name: "Z", ownerName: "alice")
        let results = try shared.modifyZones(saving: [zone], deleting: [])
        guard case .failure(let error)? = results[zone] else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.isPermissionFailure)
    }

    @Test(arguments: StoreKind.available) func fetchRecordsReportsMissingRecords(_ kind: StoreKind) throws {
        let world = try ServerWorld(kind)
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let saved = try alice.save(record("here", in: zone))
        let missing = RecordID(recordName: "gone", zoneID: zone)
        let results = try alice.fetchRecords([saved.id, missing])
        #expect(try results[saved.id]?.get() == saved)
        #expect(throws: CloudError.unknownItem(missing)) { try results[missing]?.get() }
    }
}
