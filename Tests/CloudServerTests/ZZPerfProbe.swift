import Foundation
import Testing
@testable import CloudServer

struct PerfProbe {
    @Test func probe() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        let zone = try alice.createZone("Z")
        let list = try alice.save(record("list", in: zone, type: "List"))
        let share = try alice.saveShare(rootRecordID: list.id, participants: [("bob", .readWrite)])
        _ = try world.database("bob", .shared).acceptShare(shareID: share.id)
        var start = Date()
        for i in 0..<1000 { try alice.save(record("r\(i)", in: zone, parent: list.id)) }
        print("PROBE 1000 single saves (shared):", Date().timeIntervalSince(start))
        start = Date()
        let group = DispatchGroup()
        for w in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let db = try! DirectoryServer(directory: world.directory).database(user: "alice", scope: .private, device: "d\(w)")
                for b in 0..<500 { try! db.save([record("w\(w)-\(b)", in: zone)]) }
            }
        }
        group.wait()
        print("PROBE 2x500 concurrent batches:", Date().timeIntervalSince(start))
        start = Date()
        let all = try world.database("bob", .shared).fetchAllChanges(in: zone, since: nil, limit: 100)
        print("PROBE bob fetch", all.changed.count, Date().timeIntervalSince(start))
        start = Date()
        _ = try alice.saveShare(rootRecordID: list.id, participants: [("carol", .readOnly)])
        _ = try world.database("carol", .shared).acceptShare(shareID: share.id)
        print("PROBE accept 1001-record share:", Date().timeIntervalSince(start))
    }
}
