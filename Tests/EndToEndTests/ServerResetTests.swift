import Foundation
import RemindersCore
import Testing
import TestSupport

/// The server directory deleted and made again, swapped for another, or put
/// back from an older copy, with real `reminders` processes: devices re-join
/// and keep everything; nothing missing from the server is taken for a
/// delete. See docs/SYNC.md, "A server that is not the one".
@Suite("Server reset", .serialized)
struct ServerResetTests {
    static let notice = "is not the one this device synced with"

    /// A sync that must re-join (the user told so once, on stderr) and take
    /// no delete from the server.
    @discardableResult
    private func rejoin(_ fleet: DeviceFleet, _ device: String, because cause: String = "it was reset or replaced",
                        environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> DeviceFleet.SyncCounts? {
        let result = try fleet.run(device, ["sync", "--json"], environment: environment)
        #expect(result.status == 0, "\(device): \(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(Self.notice) && result.stderr.contains("(\(cause))"), "\(device): \(result)",
                sourceLocation: sourceLocation)
        let counts = try? JSONDecoder().decode(DeviceFleet.SyncCounts.self, from: Data(result.stdout.utf8))
        #expect(counts?.receivedDeletes == 0, "\(device): \(result)", sourceLocation: sourceLocation)
        return counts
    }

    /// Two lists with reminders on a, synced to b (and c).
    private func world(devices: [String] = ["a", "b"]) throws -> (DeviceFleet, list: String) {
        let fleet = try DeviceFleet()
        let list = try fleet.ok("a", "list", "add", "Home")
        try fleet.ok("a", "add", "Milk", "--list", "Home", "--tag", "food")
        try fleet.ok("a", "add", "Bread", "--list", "Home", "--notes", "rye")
        try fleet.ok("a", "list", "add", "Work")
        try fleet.ok("a", "add", "Report", "--list", "Work", "--due", "2026-03-02")
        for device in devices { try fleet.sync(device) }
        return (fleet, list)
    }

    @Test(arguments: [false, true])
    func aServerDeletedAndMadeAgainLosesNothing(editInBetween: Bool) throws {
        let (fleet, _) = try world(devices: ["a", "b", "c"])
        defer { fleet.cleanUp() }
        let before = try fleet.exportText("a")
        try FileManager.default.removeItem(at: fleet.server)
        if editInBetween { try fleet.ok("a", "add", "after wipe", "--list", "Home") }
        try rejoin(fleet, "a")
        #expect(try fleet.export("a").lists.count == 2)
        try rejoin(fleet, "b")
        try rejoin(fleet, "c")
        try fleet.syncUntilQuiet([("a", "me"), ("b", "me"), ("c", "me")])
        let after = try fleet.exportText("a")
        #expect(try fleet.exportText("b") == after)
        #expect(try fleet.exportText("c") == after)
        if editInBetween {
            #expect(try fleet.export("c").reminders.contains { $0.title == "after wipe" })
        } else {
            #expect(after == before)
        }
        // A device that joins the new server afterwards gets everything.
        try fleet.sync("d")
        #expect(try fleet.exportText("d") == after)
        // The notice is given once.
        #expect(try fleet.run("a", ["sync"]).stderr.isEmpty)
    }

    @Test func aDeviceSwitchedToAnEmptyServerAndBackLosesNothing() throws {
        let (fleet, _) = try world()
        defer { fleet.cleanUp() }
        let directory = fleet.cli.home.appendingPathComponent("elsewhere")
        let elsewhere = ["REMINDERS_SERVER": directory.path]
        let moved = "this device now points at another server"
        // A directory that does not exist is refused (a mistyped path); made first, it is a server to move to.
        #expect(try fleet.run("a", ["sync"], environment: elsewhere).status == 4)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try rejoin(fleet, "a", because: moved, environment: elsewhere)
        try fleet.ok("a", "add", "Eggs", "--list", "Home")
        #expect(try fleet.run("a", ["sync"], environment: elsewhere).status == 0)
        try rejoin(fleet, "a", because: moved)
        try fleet.syncUntilQuiet([("a", "me"), ("b", "me")])
        #expect(try fleet.export("b").reminders.contains { $0.title == "Eggs" })
        #expect(try fleet.export("b").reminders.count == 4)
        #expect(try fleet.exportText("a") == fleet.exportText("b"))
    }

    @Test func aServerPutBackFromACopyGetsTheLaterEditsBack() throws {
        let (fleet, _) = try world()
        defer { fleet.cleanUp() }
        let backup = fleet.cli.home.appendingPathComponent("backup")
        try FileManager.default.copyItem(at: fleet.server, to: backup)
        try fleet.ok("a", "edit", "Milk", "--title", "Oat milk")
        try fleet.ok("a", "add", "Eggs", "--list", "Home")
        try fleet.sync("a")
        try fleet.sync("b")
        try fleet.ok("b", "edit", "Bread", "--notes", "sourdough")
        try fleet.sync("b")
        try fleet.sync("a")
        let expected = try fleet.exportText("a")
        try FileManager.default.removeItem(at: fleet.server)
        try FileManager.default.copyItem(at: backup, to: fleet.server)
        try rejoin(fleet, "b", because: "it was put back from an older copy")
        try rejoin(fleet, "a", because: "it was put back from an older copy")
        try fleet.syncUntilQuiet([("a", "me"), ("b", "me")])
        #expect(try fleet.exportText("a") == expected)
        #expect(try fleet.exportText("b") == expected)
    }

    /// The crash window: the server took a new reminder, the device died
    /// before recording that; the reminder is then deleted (or edited) on
    /// the device. The delete must reach the server and every device.
    @Test(arguments: 1...3)
    func aDeleteAfterAKillBetweenTheServersCommitAndTheDevicesStays(deviceWrite: Int) throws {
        let (fleet, _) = try world()
        defer { fleet.cleanUp() }
        try fleet.ok("a", "add", "doomed", "--list", "Home")
        try fleet.ok("a", "add", "edited", "--list", "Home")
        let killed = try fleet.run("a", ["sync"], environment: ["REMINDERS_FAULT_SCOPE": "device",
                                                                "REMINDERS_FAULT_AFTER_WRITES": "\(deviceWrite)"])
        #expect(killed.stderr.contains("fault injected"), "\(killed)")
        try fleet.ok("a", "delete", "doomed")
        try fleet.ok("a", "edit", "edited", "--notes", "after the crash")
        try fleet.syncUntilQuiet([("a", "me"), ("b", "me")])
        for device in ["a", "b"] {
            let reminders = try fleet.export(device).reminders
            #expect(!reminders.contains { $0.title == "doomed" }, "\(device)")
            #expect(reminders.filter { $0.title == "edited" }.map(\.notes) == ["after the crash"], "\(device)")
        }
        #expect(try fleet.exportText("a") == fleet.exportText("b"))
        #expect(try fleet.ok("a", "conflicts").contains("No conflicts"))
    }

    /// A kill at any write of a re-join loses nothing: the next sync
    /// finishes it.
    @Test(arguments: [("device", 1), ("device", 2), ("device", 3), ("device", 4), ("server", 1), ("server", 2)])
    func aKillDuringARejoinLosesNothing(scope: String, write: Int) throws {
        let (fleet, _) = try world()
        defer { fleet.cleanUp() }
        let expected = try fleet.exportText("a")
        try FileManager.default.removeItem(at: fleet.server)
        let killed = try fleet.run("a", ["sync"], environment: ["REMINDERS_FAULT_SCOPE": scope,
                                                                "REMINDERS_FAULT_AFTER_WRITES": "\(write)"])
        #expect(killed.stderr.contains("fault injected"), "\(killed)")
        let again = try fleet.run("a", ["sync", "--json"])
        #expect(again.status == 0, "\(again)")
        try fleet.run("b", ["sync"])
        try fleet.syncUntilQuiet([("a", "me"), ("b", "me")])
        #expect(try fleet.exportText("a") == expected)
        #expect(try fleet.exportText("b") == expected)
    }

    /// b deletes Milk while a edits it; a puts it back from its conflict
    /// log. The server is made again and b, which remembers its delete,
    /// re-joins first: its delete was made against the version before the
    /// put-back and does not take Milk (docs/SYNC.md, "A delete does not
    /// take a row made again after it").
    @Test func aReminderPutBackSurvivesTheDeletersRejoin() throws {
        let (fleet, _) = try world()
        defer { fleet.cleanUp() }
        let milk = try #require(try fleet.export("a").reminders.first { $0.title == "Milk" })
        try fleet.ok("b", "delete", milk.id)
        try fleet.ok("a", "edit", milk.id, "--notes", "oat")
        try fleet.sync("b")
        try fleet.sync("a")
        struct Entry: Decodable { var id: String; var winner: String }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(try fleet.ok("a", "conflicts", "--json").utf8))
        let entry = try #require(entries.first { $0.winner == "delete" })
        #expect(try fleet.ok("a", "conflicts", "--keep-other", entry.id) == "“Milk” is back, in Home (a new reminder: 'reminders sync' sends it).")
        try fleet.sync("a")
        try FileManager.default.removeItem(at: fleet.server)
        try rejoin(fleet, "b")
        try rejoin(fleet, "a")
        try fleet.syncUntilQuiet([("a", "me"), ("b", "me")])
        for device in ["a", "b"] {
            let back = try fleet.export(device).reminders.first { $0.id == milk.id }
            #expect(back?.notes == "oat", "\(device)")
        }
        #expect(try fleet.exportText("a") == fleet.exportText("b"))
    }
}
