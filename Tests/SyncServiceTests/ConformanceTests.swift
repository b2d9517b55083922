import AsyncHTTPClient
import CloudClient
import CloudServer
import Foundation
import NIOCore
import SyncService
import Testing

/// The semantics of `CloudDatabase`, checked on every transport: what the
/// directory store answers, `reminders serve` answers over HTTP, errors
/// included.
@Suite struct ConformanceTests {
    @Test(arguments: Transport.available)
    func aSavedRecordComesBackWithAChangeTagAndInTheChanges(_ transport: Transport) async throws {
        let world = try await ServiceWorld(transport)
        try await blocking {
            let alice = world.database("alice")
            let zone = try alice.createZone("Reminders")
            let saved = try alice.save(record("milk", in: zone, fields: ["title": .string("Milk"), "done": .int64(0)]))
            #expect(saved.changeTag != nil)
            #expect(saved.fields["title"] == .string("Milk"))
            let changes = try alice.fetchZoneChanges(zoneID: zone, since: nil, limit: 100)
            #expect(changes.changed.map(\.id.recordName) == ["milk"])
            #expect(changes.changed.first?.changeTag == saved.changeTag)
            #expect(changes.head != nil)
            let zones = try alice.fetchDatabaseChanges(since: nil)
            #expect(zones.changedZoneIDs == [zone])
            let identity = try alice.serverIdentity(checking: changes.head?.sequence)
            #expect(identity.continues(try #require(changes.head)))
        }
    }

    /// A delete's version time is kept on its tombstone and comes back
    /// with it, for a record the store had and one it never had.
    @Test(arguments: Transport.available)
    func aDeleteKeepsTheTimeOfTheVersionItTook(_ transport: Transport) async throws {
        let world = try await ServiceWorld(transport)
        try await blocking {
            let alice = world.database("alice")
            let zone = try alice.createZone("Reminders")
            _ = try alice.save(record("milk", in: zone, fields: ["title": .string("Milk")]))
            _ = try alice.save(record("eggs", in: zone, fields: ["title": .string("Eggs")]))
            let milk = RecordID(recordName: "milk", zoneID: zone)
            let eggs = RecordID(recordName: "eggs", zoneID: zone)
            let never = RecordID(recordName: "never", zoneID: zone)
            let result = try alice.modifyRecords(saving: [], deleting: [milk, eggs, never],
                                                 deletedThrough: [milk: 1_764_000_000_123, never: 7])
            #expect(result.deleteResults.values.allSatisfy { if case .success = $0 { true } else { false } })
            let changes = try alice.fetchZoneChanges(zoneID: zone, since: ChangeToken(sequence: 0), limit: 100)
            let times = Dictionary(uniqueKeysWithValues: changes.deleted.map { ($0.id.recordName, $0.deletedThrough ?? -1) })
            #expect(times == ["milk": 1_764_000_000_123, "eggs": -1, "never": 7])
        }
    }

    @Test(arguments: Transport.available)
    func aStaleChangeTagGetsTheServersRecord(_ transport: Transport) async throws {
        let world = try await ServiceWorld(transport)
        try await blocking {
            let alice = world.database("alice")
            let zone = try alice.createZone("Reminders")
            let first = try alice.save(record("milk", in: zone, fields: ["title": .string("Milk")]))
            var newer = first
            newer.fields["title"] = .string("Oat milk")
            let current = try alice.save(newer)
            var stale = first
            stale.fields["title"] = .string("Soy milk")
            guard case .serverRecordChanged(let server)? = try alice.saveError(stale) else {
                Issue.record("expected serverRecordChanged")
                return
            }
            #expect(server == current)
        }
    }

    @Test(arguments: Transport.available)
    func missingZonesRecordsAndLimitsAreTheSameErrors(_ transport: Transport) async throws {
        let world = try await ServiceWorld(transport)
        try await blocking {
            let alice = world.database("alice")
            let zone = try alice.createZone("Reminders")
            let nowhere = ZoneID(name: "Nowhere", ownerName: "alice")
            #expect(try alice.saveError(record("x", in: nowhere)) == .zoneNotFound(nowhere))
            // A delete of a record never saved is recorded; a second is unknown.
            let ghost = RecordID(recordName: "ghost", zoneID: zone)
            #expect(try alice.deleteError(ghost) == nil)
            #expect(try alice.deleteError(ghost) == .unknownItem(ghost))
            let many = (0...400).map { record("r\($0)", in: zone) }
            #expect(throws: CloudError.self) { try alice.modifyRecords(saving: many, deleting: []) }
            do {
                _ = try alice.modifyRecords(saving: many, deleting: [])
            } catch let error as CloudError {
                guard case .limitExceeded = error else { Issue.record("expected limitExceeded, got \(error)"); return }
            }
            let fetched = try alice.fetchRecords([ghost])
            #expect(fetched[ghost].map { if case .failure(.unknownItem) = $0 { true } else { false } } == true)
        }
    }

    @Test(arguments: Transport.available)
    func anotherUsersZoneAndReadOnlySharesAreRefused(_ transport: Transport) async throws {
        let world = try await ServiceWorld(transport)
        try await blocking {
            let alice = world.database("alice")
            let zone = try alice.createZone("Reminders")
            let list = try alice.save(record("groceries", in: zone, type: "List", fields: ["title": .string("Groceries")]))
            _ = try alice.save(record("milk", in: zone, fields: ["title": .string("Milk")], parent: list.id))

            // Bob writing into Alice's zone through his private database.
            let bobPrivate = world.database("bob")
            guard case .permissionFailure? = try bobPrivate.saveError(record("evil", in: zone)) else {
                Issue.record("expected permissionFailure")
                return
            }

            // A read-only share: Bob reads the list, and may not change it.
            let share = try alice.saveShare(rootRecordID: list.id, participants: [("bob", .readOnly)])
            let bob = world.database("bob", .shared)
            _ = try bob.acceptShare(shareID: share.id)
            let changes = try bob.fetchZoneChanges(zoneID: zone, since: nil, limit: 100)
            #expect(Set(changes.changed.map(\.id.recordName)) == ["groceries", "milk"])
            var edited = try #require(changes.changed.first { $0.id.recordName == "milk" })
            edited.fields["title"] = .string("Bob's milk")
            guard case .permissionFailure? = try bob.saveError(edited) else {
                Issue.record("expected permissionFailure for a read-only participant")
                return
            }
            #expect(try bob.fetchShares().map(\.id) == [share.id])

            // Removed: access ends at once.
            _ = try alice.removeParticipant(shareID: share.id, userName: "bob")
            #expect(try bob.fetchZoneChanges(zoneID: zone, since: nil, limit: 100).changed.isEmpty)
        }
    }

    @Test(arguments: Transport.available)
    func assetsGoUpAndComeBackByTheirHash(_ transport: Transport) async throws {
        let world = try await ServiceWorld(transport)
        try await blocking {
            let alice = world.database("alice")
            let zone = try alice.createZone("Reminders")
            let bytes = Data((0..<70_000).map { UInt8($0 % 251) })
            let asset = try alice.uploadAsset(bytes)
            #expect(asset.sha256 == Asset.digest(of: bytes))
            _ = try alice.save(record("cover", in: zone, type: "Cover", fields: ["image": .asset(asset)]))
            #expect(try alice.assetData(asset) == bytes)
            let missing = Asset(sha256: String(repeating: "ab", count: 32), size: 3)
            guard case .failure(.assetUnavailable)? = try alice.modifyRecords(
                saving: [record("bad", in: zone, type: "Cover", fields: ["image": .asset(missing)])], deleting: []
            ).saveResults[RecordID(recordName: "bad", zoneID: zone)] else {
                Issue.record("expected assetUnavailable")
                return
            }
        }
    }
}

/// What only the network service can get wrong: who is asking, and what
/// arrives on the wire.
@Suite struct ServiceRefusalTests {
    @Test func aWrongSecretOrNoneIsRefused() async throws {
        let world = try await ServiceWorld(.http)
        let url = try #require(world.url)
        let wrong = RemoteServer(url: url, credential: RemoteCredential(userName: "alice", secret: "guess"))
        await #expect(throws: CloudError.self) { try await blocking { try wrong.database(scope: .private, device: "d").fetchShares() } }
        let nobody = RemoteServer(url: url, credential: RemoteCredential(userName: "mallory", secret: world.secret("alice")))
        await #expect(throws: CloudError.self) { try await blocking { try nobody.fetchHead() } }
        let status = try await Self.raw(url, path: "/v1/db/private", body: "{}", auth: nil).status
        #expect(status == 401)
    }

    @Test func aRemovedAccountIsRefusedFromThenOn() async throws {
        let world = try await ServiceWorld(.http)
        let alice = world.database("alice")
        _ = try await blocking { try alice.createZone("Reminders") }
        try world.accounts.remove("alice")
        await #expect(throws: CloudError.self) { try await blocking { try alice.fetchDatabaseChanges(since: nil) } }
        // Over HTTP the refusal says first what to do: sign in again.
        if world.url != nil {
            do {
                _ = try await blocking { try alice.fetchDatabaseChanges(since: nil) }
            } catch let error as CloudError {
                #expect(error.description.hasPrefix("permission denied: sign in again (reminders login "), "\(error)")
                #expect(error.description.contains("--user alice)") && error.description.contains("unknown account or wrong secret"))
            }
        }
    }

    @Test func badJSONUnknownOperationsAndOversizeBodiesGetClearErrors() async throws {
        let world = try await ServiceWorld(.http)
        let url = try #require(world.url)
        let auth = ("alice", world.secret("alice"))
        let garbage = try await Self.raw(url, path: "/v1/db/private", body: "not json", auth: auth)
        #expect(garbage.status == 400)
        #expect(garbage.body.contains("badRequest"))
        let unknown = try await Self.raw(url, path: "/v1/db/private", body: #"{"dropEverything":{}}"#, auth: auth)
        #expect(unknown.status == 400)
        let wrongScope = try await Self.raw(url, path: "/v1/db/public", body: #"{"fetchShares":{}}"#, auth: auth)
        #expect(wrongScope.status == 404)
        let huge = String(repeating: "x", count: SyncServer.maxRequestBytes + 10)
        let oversize = try await Self.raw(url, path: "/v1/db/private", body: huge, auth: auth)
        #expect(oversize.status == 413)
        // And the service still answers.
        let fine = try await Self.raw(url, path: "/v1/db/private", body: #"{"fetchShares":{}}"#, auth: auth)
        #expect(fine.status == 200)
    }

    @Test(arguments: Transport.allCases)
    func pagesOfChangesMissNothingSavedBetweenThem(_ transport: Transport) async throws {
        let world = try await ServiceWorld(transport)
        try await blocking {
            let alice = world.database("alice")
            let zone = try alice.createZone("Reminders")
            var saved = try (0..<25).map { try alice.save(record("r\($0)", in: zone, fields: ["n": .int64(Int64($0))])) }
            // One device fetches in pages (over HTTP the next page is on its
            // way while this one is read) as another saves between them.
            let reader = world.database("alice", device: "reader")
            var seen: [String: ServerRecord] = [:]
            var token: ChangeToken?
            var pages = 0
            while true {
                let page = try reader.fetchZoneChanges(zoneID: zone, since: token, limit: 10)
                for changed in page.changed { seen[changed.id.recordName] = changed }
                token = page.token
                pages += 1
                if pages == 1 {
                    for index in [0, 24] {
                        var edited = saved[index]
                        edited.fields["n"] = .int64(Int64(100 + index))
                        saved[index] = try alice.save(edited)
                    }
                    saved.append(try alice.save(record("r25", in: zone)))
                }
                if !page.moreComing { break }
            }
            // What was saved after a page was read comes in the next fetch.
            while true {
                let page = try reader.fetchZoneChanges(zoneID: zone, since: token, limit: 10)
                for changed in page.changed { seen[changed.id.recordName] = changed }
                token = page.token
                if !page.moreComing { break }
            }
            #expect(pages >= 3)
            #expect(seen.count == saved.count)
            for record in saved {
                #expect(seen[record.id.recordName] == record, "\(record.id.recordName)")
            }
        }
    }

    @Test func aSaveIsAnsweredBrieflyOnlyWhenTheClientAsks() async throws {
        let world = try await ServiceWorld(.http)
        let url = try #require(world.url)
        let auth = ("alice", world.secret("alice"))
        _ = try await blocking { try world.database("alice").createZone("Reminders") }
        func save(_ name: String) -> String {
            #"{"modifyRecords":{"saving":[{"id":{"recordName":"\#(name)","zoneID":{"name":"Reminders","ownerName":"alice"}},"#
                + #""recordType":"Reminder","fields":{"title":{"string":{"_0":"Milk"}}},"fieldModificationTimes":{"title":1}}],"#
                + #""deleting":[]}}"#
        }
        let whole = try await Self.raw(url, path: "/v1/db/private", body: save("milk"), auth: auth)
        #expect(whole.status == 200)
        #expect(whole.body.contains("Milk") && whole.body.contains("changeTag") && !whole.body.contains("saved"), "\(whole.body)")
        let brief = try await Self.raw(url, path: "/v1/db/private", body: save("oats"), auth: auth,
                                       headers: [("Prefer", "return=minimal")])
        #expect(brief.status == 200)
        #expect(!brief.body.contains("Milk") && brief.body.contains("saved") && brief.body.contains("changeTag"), "\(brief.body)")
        // Both were saved whole.
        let alice = world.database("alice")
        let zone = ZoneID(name: "Reminders", ownerName: "alice")
        let stored = try await blocking {
            try alice.fetchRecords(["milk", "oats"].map { RecordID(recordName: $0, zoneID: zone) })
        }
        #expect(stored.values.allSatisfy { (try? $0.get().fields["title"]) == .string("Milk") })
    }

    @Test func theHeadLongPollAnswersWhenSomethingIsSaved() async throws {
        let world = try await ServiceWorld(.http)
        let url = try #require(world.url)
        let remote = RemoteServer(url: url, credential: RemoteCredential(userName: "alice", secret: world.secret("alice")))
        let start = try await blocking { try remote.fetchHead() }
        let alice = world.database("alice")
        // The longest wait the service allows: a loaded machine may take
        // seconds to make the save below.
        let waiting = Task { try await blocking { try remote.fetchHead(after: start, wait: SyncServer.maxWait) } }
        try await Task.sleep(for: .milliseconds(200))
        _ = try await blocking { try alice.createZone("Reminders") }
        let moved = try await waiting.value
        #expect(moved > start)
        // Nothing new: the poll answers with the same head once its time is up.
        let now = try await blocking { try remote.fetchHead() }
        #expect(try await blocking { try remote.fetchHead(after: now, wait: 0.2) } == now)
    }

    static func raw(_ url: URL, path: String, body: String, auth: (String, String)?, headers: [(String, String)] = []) async throws
        -> (status: UInt, body: String) {
        var request = HTTPClientRequest(url: url.absoluteString + path)
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: body))
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let (user, secret) = auth {
            request.headers.add(name: "Authorization", value: "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString())
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (response.status.code, String(buffer: bytes))
    }
}
