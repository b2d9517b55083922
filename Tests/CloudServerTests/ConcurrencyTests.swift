import Foundation
import Testing
@testable import CloudServer

/// Several servers on one directory, as several processes would have, each
/// writing from its own thread.
struct ConcurrencyTests {
    @Test func concurrentWritersLoseNothingAndSequencesStayUnique() throws {
        let world = try ServerWorld()
        let zone = try world.database("alice").createZone("Reminders")
        let writers = 4
        let batches = 25
        let perBatch = 10
        let failures = FailureLog()
        let group = DispatchGroup()
        for writer in 0..<writers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let server = try DirectoryServer(directory: world.directory)
                    let database = server.database(user: "alice", scope: .private, device: "device\(writer)")
                    for batch in 0..<batches {
                        let records = (0..<perBatch).map { record("w\(writer)-b\(batch)-\($0)", in: zone) }
                        try database.save(records)
                    }
                } catch {
                    failures.append("writer \(writer): \(error)")
                }
            }
        }
        group.wait()
        #expect(failures.entries.isEmpty)

        let dump = try world.server.dump()
        #expect(dump.records.count == writers * batches * perBatch)
        let sequences = dump.records.map(\.sequence)
        #expect(Set(sequences).count == sequences.count)
        #expect(dump.head == Int64(1 + writers * batches * perBatch))
        #expect(world.server.head() == dump.head)
        // Every device's records are there, in the order it saved them.
        for writer in 0..<writers {
            let mine = dump.records.filter { $0.modifiedByDevice == "device\(writer)" }.sorted { $0.sequence < $1.sequence }
            #expect(mine.count == batches * perBatch)
            let batchOrder = mine.map { Int($0.recordName.split(separator: "-")[1].dropFirst()) ?? -1 }
            #expect(batchOrder == batchOrder.sorted())
        }
        let feed = try world.database("alice").fetchAllChanges(in: zone, since: nil, limit: 77)
        #expect(Set(feed.changed.map(\.id.recordName)).count == writers * batches * perBatch)
    }

    @Test func concurrentConflictingEditsAcceptExactlyOneWinnerEachRound() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let original = try alice.save(record("shared", in: zone, fields: ["count": .int64(0)]))
        let wins = Counter()
        let group = DispatchGroup()
        let failures = FailureLog()
        for writer in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let database = try DirectoryServer(directory: world.directory)
                        .database(user: "alice", scope: .private, device: "d\(writer)")
                    var edit = original
                    edit.fields["count"] = .int64(Int64(writer + 1))
                    if try database.saveError(edit) == nil { wins.increment() }
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        group.wait()
        #expect(failures.entries.isEmpty)
        #expect(wins.value == 1)
    }

    @Test func concurrentReadersAndWritersSeeConsistentPages() throws {
        let world = try ServerWorld()
        let zone = try world.database("alice").createZone("Reminders")
        let done = Counter()
        let failures = FailureLog()
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            defer { group.leave(); done.increment() }
            do {
                let database = try DirectoryServer(directory: world.directory).database(user: "alice", scope: .private, device: "writer")
                for batch in 0..<40 {
                    try database.save((0..<5).map { record("b\(batch)-\($0)", in: zone) })
                }
            } catch {
                failures.append("writer: \(error)")
            }
        }
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            do {
                let database = try DirectoryServer(directory: world.directory).database(user: "alice", scope: .private, device: "reader")
                var names: Set<String> = []
                var token: ChangeToken?
                while true {
                    let finished = done.value > 0
                    let page = try database.fetchZoneChanges(zoneID: zone, since: token, limit: 7)
                    for record in page.changed where !names.insert(record.id.recordName).inserted {
                        failures.append("\(record.id.recordName) delivered twice")
                    }
                    token = page.token
                    if finished && !page.moreComing { break }
                }
                if names.count != 200 { failures.append("reader saw \(names.count) records") }
            } catch {
                failures.append("reader: \(error)")
            }
        }
        group.wait()
        #expect(failures.entries.isEmpty)
    }
}

final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ entry: String) {
        lock.withLock { storage.append(entry) }
    }

    var entries: [String] { lock.withLock { storage } }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int { lock.withLock { count } }
}
