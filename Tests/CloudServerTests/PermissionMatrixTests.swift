import Foundation
import Testing
@testable import CloudServer

/// Every request a client can make, tried against Alice's shared list by a
/// read-only participant, a removed participant, an invited user who has
/// not accepted, and a user who was never invited, through both of their
/// databases: the server refuses each one itself (no client-side check is
/// involved), and Alice's zone is exactly as it was.
@Suite struct PermissionMatrixTests {
    enum Role: String, CaseIterable {
        case readOnly, removed, pending, stranger
    }

    struct Attempt {
        var what: String
        /// Nil when the request was refused (or saw nothing); otherwise what
        /// got through.
        var leak: String?
    }

    @Test(arguments: Role.allCases, StoreKind.available)
    func noRequestGetsPastTheServer(role: Role, kind: StoreKind) throws {
        let scene = try ShareScene(kind)
        let share = try scene.share(with: [("ro", .readOnly), ("gone", .readWrite), ("invited", .readWrite)])
        _ = try scene.shared("ro").acceptShare(shareID: share.id)
        _ = try scene.shared("gone").acceptShare(shareID: share.id)
        _ = try scene.alice.removeParticipant(shareID: share.id, userName: "gone")
        let user = ["readOnly": "ro", "removed": "gone", "pending": "invited", "stranger": "mallory"][role.rawValue]!
        let before = try scene.alice.fetchAllChanges(in: scene.zone, since: nil).changed
        let aliceAsset = try scene.alice.uploadAsset(Data("alice's cover".utf8))

        var attempts: [Attempt] = []
        func refused(_ what: String, _ body: () throws -> String?) {
            do {
                attempts.append(Attempt(what: what, leak: try body()))
            } catch {
                attempts.append(Attempt(what: what, leak: nil))
            }
        }
        let canRead = role == .readOnly
        for scope in DatabaseScope.allCases {
            let database = scene.world.database(user, scope, device: "\(user)-laptop")
            let label = "\(scope.rawValue) database"
            var milk = try scene.current("milk")
            milk.fields["title"] = .string("changed by \(user)")

            // Writes.
            refused("\(label): edit a shared record") { try database.saveError(milk) == nil ? "saved" : nil }
            var blind = milk
            blind.changeTag = nil
            refused("\(label): save over a record without its tag") {
                switch try database.saveError(blind) {
                case nil: "saved"
                case .serverRecordChanged(let current)?: "learned \(current.fields)"
                default: nil
                }
            }
            refused("\(label): add to the list") {
                try database.saveError(record("planted", in: scene.zone, parent: scene.list.id)) == nil ? "saved" : nil
            }
            refused("\(label): add outside the share") {
                try database.saveError(record("planted2", in: scene.zone, parent: scene.privateList.id)) == nil ? "saved" : nil
            }
            refused("\(label): delete a reminder") { try database.deleteError(scene.id("eggs")) == nil ? "deleted" : nil }
            refused("\(label): delete the list") { try database.deleteError(scene.list.id) == nil ? "deleted" : nil }
            refused("\(label): delete the zone") {
                if case .success? = try database.modifyZones(saving: [], deleting: [scene.zone])[scene.zone] { return "deleted" }
                return nil
            }
            refused("\(label): create the zone") {
                if case .success? = try database.modifyZones(saving: [scene.zone], deleting: [])[scene.zone] { return "created" }
                return nil
            }
            // Sharing.
            refused("\(label): share the list") {
                let stolen = try database.saveShare(rootRecordID: scene.list.id, participants: [("accomplice", .readWrite)])
                return "shared as \(stolen.id)"
            }
            refused("\(label): upgrade own permission") {
                let upgraded = try database.saveShare(rootRecordID: scene.list.id, participants: [(user, .readWrite)])
                return "now \(upgraded.participants)"
            }
            refused("\(label): remove a participant") {
                _ = try database.removeParticipant(shareID: share.id, userName: "ro")
                return "removed ro"
            }
            refused("\(label): delete the share") {
                try database.deleteShare(shareID: share.id)
                return "deleted the share"
            }
            if role == .removed || role == .stranger {
                refused("\(label): accept the share") {
                    let accepted = try database.acceptShare(shareID: share.id)
                    return "accepted: \(accepted.participants)"
                }
            }
            // Reads.
            if !canRead {
                refused("\(label): fetch a record") {
                    let results = try database.fetchRecords([scene.id("milk"), scene.list.id, scene.id("gift")])
                    // An invitation shows its list (like CKShare.Metadata's
                    // root record), and nothing more.
                    let leaked = results.values.compactMap { try? $0.get() }
                        .filter { !(role == .pending && scope == .shared && $0.id == scene.list.id) }
                    return leaked.isEmpty ? nil : "read \(leaked.map(\.id.recordName))"
                }
                refused("\(label): fetch the zone's changes") {
                    let changes = try database.fetchZoneChanges(zoneID: scene.zone, since: nil, limit: 100)
                    return changes.changed.isEmpty ? nil : "read \(changes.changed.map(\.id.recordName))"
                }
                refused("\(label): list changed zones") {
                    let zones = try database.fetchDatabaseChanges(since: nil).changedZoneIDs
                    return zones.contains(scene.zone) ? "sees \(zones)" : nil
                }
                refused("\(label): list shares") {
                    let shares = try database.fetchShares().filter { $0.id == share.id && role != .pending }
                    return shares.isEmpty ? nil : "sees \(shares.map(\.id))"
                }
            } else {
                refused("\(label): read outside the share") {
                    let result = try database.fetchRecords([scene.id("gift"), scene.privateList.id])
                    let leaked = result.values.compactMap { try? $0.get() }
                    return leaked.isEmpty ? nil : "read \(leaked.map(\.id.recordName))"
                }
            }
        }
        let leaks = attempts.filter { $0.leak != nil }
        #expect(leaks.isEmpty, "\(role): \(leaks.map { "\($0.what): \($0.leak ?? "")" }.joined(separator: "; "))")
        #expect(attempts.count >= 20)
        // Nothing of Alice's changed, and her share is as she left it.
        #expect(try scene.alice.fetchAllChanges(in: scene.zone, since: nil).changed == before)
        let shares = try scene.alice.fetchShares()
        #expect(shares.count == 1)
        #expect(shares.first?.participants.map(\.userName).sorted() == ["gone", "invited", "ro"])
        #expect(shares.first?.participants.first { $0.userName == "ro" }?.permission == .readOnly)
        #expect(try scene.alice.assetData(aliceAsset) == Data("alice's cover".utf8))
        print("permissions (\(role.rawValue)): \(attempts.count) requests refused")
    }
}
