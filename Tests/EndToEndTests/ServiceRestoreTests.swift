import Foundation
import RemindersCore
import Testing
import TestSupport

/// `reminders serve` put back from an older backup of its store, behind the
/// same URL: the devices recognise that the server's history is not the one
/// they synced with, send again what it lacks, and nothing is lost; a new
/// device then gets everything from it.
@Suite struct ServiceRestoreTests {
    @Test(arguments: ServerStoreKind.available)
    func aServerPutBackFromAnOlderBackupGetsTheDevicesEditsBack(store kind: ServerStoreKind) throws {
        let served = try ServedFleet(store: kind)
        defer { served.cleanUp() }
        let fleet = served.fleet
        try served.login("laptop")
        try served.login("desktop")
        let list = try fleet.ok("laptop", "list", "add", "Groceries")
        try fleet.ok("laptop", "add", "Milk", "--list", list)
        try fleet.sync("laptop")
        try fleet.sync("desktop")

        // The backup: the store as it is now.
        served.service.stop()
        let backup = try served.store.backup(in: served.folder.url)
        try served.service.start()
        try fleet.ok("laptop", "add", "Eggs", "--list", list)
        try fleet.ok("desktop", "add", "Bread", "--list", list)
        try fleet.syncUntilQuiet([("laptop", "me"), ("desktop", "me")])

        // The server is put back from the backup, which has Milk only.
        served.service.stop()
        let restored = try ServiceProcess(store: backup, port: served.service.port, home: served.folder.url)
        try restored.start()
        defer { restored.stop() }
        // Each device says what it found, once, and sends what it holds.
        for device in ["laptop", "desktop"] {
            let first = try fleet.run(device, ["sync"])
            #expect(first.status == 0)
            #expect(first.stderr.contains("is not the one this device synced with"))
        }
        try fleet.syncUntilQuiet([("laptop", "me"), ("desktop", "me")])
        let laptop = try fleet.export("laptop")
        #expect(try fleet.exportText("laptop") == fleet.exportText("desktop"))
        #expect(laptop.reminders.map(\.title).sorted() == ["Bread", "Eggs", "Milk"])

        // A device that never synced gets all of it from the restored server.
        try served.login("phone")
        try fleet.sync("phone")
        #expect(try fleet.export("phone").reminders.map(\.title).sorted() == ["Bread", "Eggs", "Milk"])
    }
}
