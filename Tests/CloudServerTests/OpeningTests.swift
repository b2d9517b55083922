import Foundation
import GRDB
import Testing
@testable import CloudServer
import TestSupport

struct OpeningTests {
    @Test func openingCreatesTheDirectoryStoreAssetsAndHead() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.url.appendingPathComponent("a/b/server")
        let server = try DirectoryServer(directory: directory)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(files.isSuperset(of: ["server.sqlite", "assets", "HEAD"]))
        #expect(server.head() == 0)
        #expect(server.headFileURL == directory.appendingPathComponent("HEAD"))
    }

    @Test func storeUsesWALWithFullSynchronousAndABusyTimeout() throws {
        let world = try ServerWorld()
        let (mode, synchronous) = try world.server.pool.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(mode == "wal")
        #expect(synchronous == 2) // FULL
        #expect(DirectoryServer.busyTimeout >= 5)
    }

    @Test func reopeningKeepsTheData() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        try alice.save(record("r1", in: zone, fields: ["title": .string("Milk")]))
        let again = try world.reopen().database(user: "alice", scope: .private, device: "other")
        let fetched = try again.fetchRecords([RecordID(recordName: "r1", zoneID: zone)])
        #expect(try fetched[RecordID(recordName: "r1", zoneID: zone)]?.get().fields["title"] == .string("Milk"))
    }

    @Test func aStoreFromANewerVersionIsRefused() throws {
        let world = try ServerWorld()
        let file = world.directory.appendingPathComponent("server.sqlite").path
        let queue = try DatabaseQueue(path: file)
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA user_version = 99") }
        try queue.close()
        let error = cloudError { _ = try DirectoryServer(directory: world.directory) }
        #expect(error == .incompatibleVersion(
            "server at \(world.directory.path) was written by a newer version of reminders (format 99); upgrade reminders"))
    }

    @Test func aGarbledStoreIsReportedAsDamaged() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.url.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        try garbage.write(to: directory.appendingPathComponent("server.sqlite"))
        let error = cloudError { _ = try DirectoryServer(directory: directory) }
        guard case .serverUnavailable(let message)? = error else {
            Issue.record("expected serverUnavailable, got \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("\(directory.path)/server.sqlite is damaged ("))
        #expect(message.hasSuffix("); restore it from a backup or point --server at a new directory"))
        #expect(error?.isTransient == true)
    }

    @Test func aStoreDamagedAfterOpeningFailsRequestsClearly() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        try alice.save(record("r1", in: zone))
        // Someone edits the file by hand and breaks a record's fields.
        try world.server.pool.write { db in
            try db.execute(sql: "UPDATE record SET fields = 'not json'")
        }
        let error = cloudError { _ = try alice.fetchZoneChanges(zoneID: zone, since: nil, limit: 10) }
        guard case .serverUnavailable(let message)? = error else {
            Issue.record("expected serverUnavailable, got \(String(describing: error))")
            return
        }
        #expect(message.contains("server.sqlite is damaged"))
        #expect(message.contains("r1"))
    }

    @Test func anUnrelatedDatabaseIsNotTakenOver() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.url.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("server.sqlite").path)
        try queue.write { try $0.execute(sql: "CREATE TABLE reminder (id TEXT)") }
        try queue.close()
        let error = cloudError { _ = try DirectoryServer(directory: directory) }
        guard case .serverUnavailable(let message)? = error else {
            Issue.record("expected serverUnavailable, got \(String(describing: error))")
            return
        }
        #expect(message.contains("is not a reminders server"))
    }

    @Test func aDirectoryThatCannotBeCreatedIsUnavailable() throws {
        let temporary = TemporaryDirectory()
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let file = temporary.url.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let inside = file.appendingPathComponent("server")
        let error = cloudError { _ = try DirectoryServer(directory: inside) }
        guard case .serverUnavailable(let message)? = error else {
            Issue.record("expected serverUnavailable, got \(String(describing: error))")
            return
        }
        #expect(message.contains(inside.path))
        // In the system's words, naming where it failed.
        #expect(message.contains("(\(inside.path): Not a directory)"), "\(message)")

        let onFile = cloudError { _ = try DirectoryServer(directory: file) }
        #expect(onFile == .serverUnavailable("\(file.path) is a file, not a server directory; point --server at a directory"))
    }

    /// A store is made only in an empty directory, never by a running app
    /// (`createIfMissing: false`), and a store file shorter than its header
    /// says (a backup half put back) is left alone until it is whole.
    @Test func aStoreIsMadeOnlyInAnEmptyDirectoryAndAHalfCopiedOneIsWaitedFor() throws {
        let temporary = TemporaryDirectory()
        let documents = temporary.url.appendingPathComponent("Documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        try Data("chapter one".utf8).write(to: documents.appendingPathComponent("thesis.txt"))
        let refused = cloudError { _ = try DirectoryServer(directory: documents) }
        #expect(refused == .serverUnavailable("\(documents.path) is not a server directory: it holds other files (thesis.txt) and no server.sqlite; point --server at a server directory, or at a new empty one"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: documents.path) == ["thesis.txt"])

        let server = temporary.url.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: server, withIntermediateDirectories: true)
        let waiting = cloudError { _ = try DirectoryServer(directory: server, createIfMissing: false) }
        #expect(waiting?.description.contains("holds no server.sqlite yet") == true, "\(String(describing: waiting))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.path).isEmpty)

        // A whole store (closed: its header is current), then its first
        // 4 KiB as a copy in progress leaves it.
        do {
            let whole = try DirectoryServer(directory: server)
            let alice = whole.database(user: "alice", scope: .private, device: "d")
            _ = try alice.modifyZones(saving: [ZoneID(name: "reminders", ownerName: "alice")], deleting: [])
        }
        let file = server.appendingPathComponent("server.sqlite")
        let bytes = try Data(contentsOf: file)
        let copy = temporary.url.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let part = bytes.prefix(4_096)
        try part.write(to: copy.appendingPathComponent("server.sqlite"))
        #expect(DirectoryServer.expectedSize(file.path) == Int64(bytes.count))
        #expect(DirectoryServer.expectedSize(copy.appendingPathComponent("server.sqlite").path) == Int64(bytes.count))
        // A running app waits for a file that changed within the second.
        let changing = cloudError { _ = try DirectoryServer(directory: copy, createIfMissing: false) }
        #expect(changing?.description.contains("is changing") == true, "\(String(describing: changing))")
        // Any process refuses one shorter than its header says, looked at
        // again for a moment (a checkpoint growing it writes the header
        // first); left so, it was cut short.
        let halfCopied = cloudError { _ = try DirectoryServer(directory: copy) }
        #expect(halfCopied?.description.contains("is shorter than it says (4096 bytes)") == true, "\(String(describing: halfCopied))")
        #expect(try Data(contentsOf: copy.appendingPathComponent("server.sqlite")) == part)
        // One not changed for a second it opens.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -5)], ofItemAtPath: file.path)
        _ = try DirectoryServer(directory: server, createIfMissing: false)
    }

    /// A served directory deleted and put back from a copy is opened
    /// again by the next request, not refused until the service restarts.
    @Test func aServedDirectoryPutBackIsOpenedAgain() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.url.appendingPathComponent("store")
        let backup = temporary.url.appendingPathComponent("backup")
        let served = ServedDirectory(try DirectoryServer(directory: directory))
        let zone = ZoneID(name: "reminders", ownerName: "alice")
        _ = try served.cloudDatabase(user: "alice", scope: .private, device: "d").modifyZones(saving: [zone], deleting: [])
        try FileManager.default.copyItem(at: directory, to: backup)
        try FileManager.default.removeItem(at: directory)
        let gone = cloudError { _ = try served.cloudDatabase(user: "alice", scope: .private, device: "d").fetchDatabaseChanges(since: nil) }
        #expect(gone != nil)
        try FileManager.default.copyItem(at: backup, to: directory)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -5)],
                                              ofItemAtPath: directory.appendingPathComponent("server.sqlite").path)
        let changes = try served.cloudDatabase(user: "alice", scope: .private, device: "d").fetchDatabaseChanges(since: nil)
        #expect(changes.changedZoneIDs == [zone])
    }

    @Test func anUnwritableDirectoryIsUnavailable() throws {
        // Root ignores permission bits, so this only means something for
        // other users.
        guard getuid() != 0 else { return }
        let temporary = TemporaryDirectory()
        let directory = temporary.url.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path) }
        let error = cloudError { _ = try DirectoryServer(directory: directory) }
        guard case .serverUnavailable(let message)? = error else {
            Issue.record("expected serverUnavailable, got \(String(describing: error))")
            return
        }
        #expect(message.contains(directory.path))
    }

    @Test func headFileFollowsEveryCommittedWrite() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        let zone = try alice.createZone("Reminders")
        let afterZone = world.server.head()
        #expect(afterZone == 1)
        try alice.save([record("a", in: zone), record("b", in: zone)])
        #expect(world.server.head() == 3)
        #expect(try world.server.currentSequence() == 3)
        let text = try String(contentsOf: world.server.headFileURL, encoding: .utf8)
        #expect(text == "3\n")
        // A request that changes nothing leaves the head alone.
        _ = try alice.fetchZoneChanges(zoneID: zone, since: nil, limit: 10)
        #expect(try alice.saveError(record("a", in: zone))?.isServerRecordChanged == true)
        #expect(world.server.head() == 3)
    }

    @Test func headFallsBackToTheStoreWhenTheFileIsGone() throws {
        let world = try ServerWorld()
        try world.database("alice").createZone("Z")
        try FileManager.default.removeItem(at: world.server.headFileURL)
        #expect(world.server.head() == 1)
        try Data("garbage".utf8).write(to: world.server.headFileURL)
        #expect(world.server.head() == 1)
    }
}
