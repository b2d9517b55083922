import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A damaged server or device database: every command that meets it fails
/// with one line that names the file and says what to do (exit 4 for the
/// server, 1 for the device's own database), never crashes, and leaves the
/// device's data as it was; once the damage is repaired, nothing was lost.
@Suite("Damage", .serialized)
struct DamageTests {
    /// Device a has a list with a cover and a reminder, synced, and one
    /// edit not yet sent; device b has everything that was synced.
    final class World {
        let fleet: DeviceFleet
        let listID: String
        let pendingID: String
        var store: URL { fleet.server.appendingPathComponent("server.sqlite") }

        init() throws {
            fleet = try DeviceFleet()
            listID = try fleet.ok("a", "list", "add", "Garden")
            try fleet.ok("a", "list", "cover", "Garden", packageRoot.appendingPathComponent("Assets/covers/forest.png").path)
            try fleet.ok("a", "add", "Plant tomatoes", "--list", "Garden")
            try fleet.syncUntilQuiet([("a", "me"), ("b", "me")])
            pendingID = try fleet.ok("a", "add", "Water the basil", "--list", "Garden", "--notes", "every morning")
        }

        /// What device a shows and has pending, to compare after a failure.
        func localState(_ device: String = "a") throws -> String {
            let status = try fleet.run(device, ["status", "--json"])
            let pending = (try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
                .map { "\($0["pendingSaves"] ?? "?")/\($0["pendingDeletes"] ?? "?")" } ?? status.description
            return try fleet.exportText(device) + "\npending " + pending
        }

        /// A sync that must fail with one line on stderr naming `file`.
        /// With `sendsFirst`, the failure comes after the send, so pending
        /// edits may have gone; what the device shows must not change.
        func expectFailure(_ device: String = "a", exit: Int32 = 4, naming file: String, saying hint: String,
                           sendsFirst: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let before = sendsFirst ? try fleet.exportText(device) : try localState(device)
            let result = try fleet.run(device, ["sync"])
            #expect(result.status == exit, "\(result)", sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
            let line = try #require(result.errorLine, "not one line: \(result)", sourceLocation: sourceLocation)
            #expect(line.contains(file), "\(line) does not name \(file)", sourceLocation: sourceLocation)
            #expect(line.contains(hint), "\(line) does not say '\(hint)'", sourceLocation: sourceLocation)
            let after = sendsFirst ? try fleet.exportText(device) : try localState(device)
            #expect(after == before, "the device's data changed", sourceLocation: sourceLocation)
        }

        /// After the repair: everything, the pending edit included, reaches b.
        func expectNothingLost(sourceLocation: SourceLocation = #_sourceLocation) throws {
            try fleet.syncUntilQuiet([("a", "me"), ("b", "me")], sourceLocation: sourceLocation)
            let b = try fleet.export("b", sourceLocation: sourceLocation)
            #expect(b.reminders.contains { $0.id == pendingID && $0.notes == "every morning" }, sourceLocation: sourceLocation)
            #expect(try fleet.exportText("a") == fleet.exportText("b"), sourceLocation: sourceLocation)
        }

        func backUp() throws -> URL {
            let backup = fleet.cli.home.appendingPathComponent("server-backup")
            try FileManager.default.copyItem(at: fleet.server, to: backup)
            return backup
        }

        func restore(_ backup: URL) throws {
            try FileManager.default.removeItem(at: fleet.server)
            try FileManager.default.copyItem(at: backup, to: fleet.server)
        }
    }

    @Test func aTruncatedServerStoreIsReportedAndRestoringItLosesNothing() throws {
        let world = try World()
        defer { world.fleet.cleanUp() }
        let backup = try world.backUp()
        for size in [100, 3_000, 9_000] {
            try world.restore(backup)
            let handle = try FileHandle(forWritingTo: world.store)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
            try world.expectFailure(naming: world.store.path, saying: "restore it from a backup")
            try world.expectFailure("b", naming: world.store.path, saying: "restore it from a backup")
        }
        try world.restore(backup)
        try world.expectNothingLost()
    }

    @Test func aGarbledServerStoreIsReportedAndRestoringItLosesNothing() throws {
        let world = try World()
        defer { world.fleet.cleanUp() }
        let backup = try world.backUp()
        let original = try Data(contentsOf: world.store)
        var random = SeededGenerator(seed: 7)
        // The header, then every page after the first, then the schema page.
        let ranges = [0..<100, 4_096..<original.count, 100..<4_096]
        for range in ranges {
            try world.restore(backup)
            var garbled = original
            for index in range { garbled[index] = UInt8.random(in: 0...255, using: &random) }
            try garbled.write(to: world.store)
            try world.expectFailure(naming: world.store.path, saying: "restore it from a backup")
        }
        try world.restore(backup)
        try world.expectNothingLost()
    }

    @Test func aServerFromANewerVersionIsRefused() throws {
        let world = try World()
        defer { world.fleet.cleanUp() }
        let queue = try DatabaseQueue(path: world.store.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 99") }
        try queue.close()
        let before = try Data(contentsOf: world.store)
        try world.expectFailure(naming: world.fleet.server.path, saying: "upgrade reminders")
        #expect(try Data(contentsOf: world.store) == before, "the newer store was changed")
        let reopened = try DatabaseQueue(path: world.store.path)
        try reopened.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 2") }
        try reopened.close()
        try world.expectNothingLost()
    }

    @Test(arguments: ["missing", "altered", "empty"])
    func aLostOrAlteredAssetIsReportedTheRestSyncsAndSettingTheCoverAgainRepairsIt(damage: String) throws {
        let world = try World()
        defer { world.fleet.cleanUp() }
        let assets = world.fleet.server.appendingPathComponent("assets")
        let files = try FileManager.default.contentsOfDirectory(atPath: assets.path).filter { !$0.hasPrefix(".") }
        #expect(files.count == 1)
        let asset = assets.appendingPathComponent(files[0])
        switch damage {
        case "missing": try FileManager.default.removeItem(at: asset)
        case "altered":
            var data = try Data(contentsOf: asset)
            data[data.count / 2] ^= 0xFF
            try data.write(to: asset)
        default: try Data().write(to: asset)
        }
        // A device that never saw the cover gets everything else (it used
        // to get nothing), and is told which list's cover it lacks, and how
        // to repair it: exit 4, one line.
        try world.fleet.ok("c", "list", "add", "Mine")
        for _ in 0..<2 {
            let result = try world.fleet.run("c", ["sync"])
            #expect(result.status == 4, "\(result)")
            let line = try #require(result.errorLine, "not one line: \(result)")
            for words in [asset.path, "the cover of “Garden”", "everything else synced", "list cover \"Garden\" --clear"] {
                #expect(line.contains(words), "\(line) does not say '\(words)'")
            }
            let c = try world.fleet.export("c")
            #expect(c.reminders.contains { $0.title == "Plant tomatoes" })
            #expect(c.lists.first { $0.id == world.listID }?.coverImageSHA256 == nil)
        }
        let status = try world.fleet.ok("c", "status")
        #expect(status.contains("Not downloaded: the cover of “Garden”: ") && status.contains(asset.path), "\(status)")
        try world.fleet.ok("a", "sync")
        #expect(try world.fleet.export("a").lists.contains { $0.title == "Mine" })
        // The repair the message suggests, on a device that shows the cover.
        try world.fleet.ok("a", "list", "cover", "Garden", "--clear")
        try world.fleet.sync("a")
        try world.fleet.ok("a", "list", "cover", "Garden", packageRoot.appendingPathComponent("Assets/covers/forest.png").path)
        try world.fleet.sync("a")
        try world.fleet.syncUntilQuiet([("c", "me"), ("a", "me"), ("b", "me")])
        let c = try world.fleet.export("c")
        #expect(c.lists.first { $0.id == world.listID }?.coverImageSHA256 == files[0])
        #expect(c.lists.contains { $0.title == "Mine" })
        try world.expectNothingLost()
    }

    @Test func aGarbledDeviceDatabaseIsRefusedAndLeftAsItWas() throws {
        let world = try World()
        defer { world.fleet.cleanUp() }
        let database = world.fleet.databaseURL("b")
        var data = try Data(contentsOf: database)
        var random = SeededGenerator(seed: 3)
        for index in 4_096..<data.count { data[index] = UInt8.random(in: 0...255, using: &random) }
        try data.write(to: database)
        for arguments in [["sync"], ["show", "--all"], ["export", "--json"], ["add", "x", "--list", "Garden"], ["status"]] {
            let result = try world.fleet.run("b", arguments)
            #expect(result.status == 1, "\(arguments): \(result)")
            let line = try #require(result.errorLine, "\(arguments): not one line: \(result)")
            #expect(line.contains(database.path) && line.contains("restore it from a backup"), "\(arguments): \(line)")
            #expect(try Data(contentsOf: database) == data, "\(arguments) changed the damaged file")
        }
        // Moved away, the device starts afresh and gets back what was synced.
        try FileManager.default.moveItem(at: database, to: database.appendingPathExtension("damaged"))
        try world.expectNothingLost()
    }

    @Test func anUnwritableServerDirectoryIsReported() throws {
        let world = try World()
        defer { world.fleet.cleanUp() }
        if geteuid() != 0 {
            chmod(world.fleet.server.path, 0o555)
            defer { chmod(world.fleet.server.path, 0o755) }
            try world.expectFailure(naming: world.fleet.server.path, saying: "not writable")
        } else if TmpfsMount.isAvailable {
            // Root ignores permissions: make the directory a read-only mount.
            let mount = try TmpfsMount(over: world.fleet.server, size: "16m")
            defer { mount.unmount() }
            #expect(mount.remount("ro"))
            try world.expectFailure(naming: world.fleet.server.path, saying: "not writable")
            #expect(mount.remount("rw"))
            try world.expectNothingLost()
        } else {
            print("skipped: running as root and no tmpfs can be mounted, so a directory cannot be made unwritable")
        }
    }

    @Test(.enabled(if: TmpfsMount.isAvailable, "mounting a small tmpfs needs root"))
    func aFullDiskIsReportedAndFreeingSpaceLosesNothing() throws {
        let world = try World()
        defer { world.fleet.cleanUp() }
        let mount = try TmpfsMount(over: world.fleet.server, size: "400k")
        defer { mount.unmount() }
        // Notes of 100 KB each (an argument can hold no more) until it is full.
        let notes = String(repeating: "0123456789", count: 10_000)
        for index in 0..<6 {
            try world.fleet.ok("a", "add", "Big \(index)", "--list", "Garden", "--notes", notes)
        }
        try world.expectFailure(naming: world.store.path, saying: "is full")
        #expect(mount.remount("size=16m"))
        try world.expectNothingLost()
        #expect(try world.fleet.export("b").reminders.filter { $0.notes == notes }.count == 6)
    }
}

/// A tmpfs mounted over a directory (its content copied in), to make a
/// small or read-only file system. Needs root.
final class TmpfsMount {
    let directory: URL

    /// Whether this machine lets the tests mount one, checked once.
    static let isAvailable: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("reminders-mount-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard geteuid() == 0, run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path]) else { return false }
        return run("/usr/bin/umount", [probe.path])
    }()

    init(over directory: URL, size: String) throws {
        self.directory = directory
        let saved = directory.deletingLastPathComponent().appendingPathComponent(".\(directory.lastPathComponent)-before-mount")
        try FileManager.default.moveItem(at: directory, to: saved)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        guard Self.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", directory.path]) else {
            struct MountFailed: Error {}
            throw MountFailed()
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: saved.path) {
            try FileManager.default.copyItem(at: saved.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        try FileManager.default.removeItem(at: saved)
    }

    func remount(_ options: String) -> Bool {
        Self.run("/usr/bin/mount", ["-o", "remount,\(options)", directory.path])
    }

    func unmount() {
        _ = remount("rw")
        _ = Self.run("/usr/bin/umount", [directory.path])
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        (try? Subprocess.run([tool] + arguments, environment: ProcessInfo.processInfo.environment))?.status == 0
    }
}
