import Foundation
import RemindersCore
import Testing
import TestSupport

/// The server and two devices each in a network namespace of its own, as
/// three machines on one network: `reminders serve` listens on the
/// server's address only, so every request crosses a real interface. A
/// device's link is cut while it has edits to send: its sync fails with a
/// clear error and the edits wait; the link comes back and they go, once.
///
/// Needs root and iproute2: CI runs as root and installs it. Elsewhere it
/// is skipped, unless `CI` is set, where a missing requirement fails it.
@Suite("Network namespaces", .serialized)
struct NetworkNamespaceTests {
    static var isCI: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

    @Test(.enabled(if: NetworkLab.unavailableReason == nil || Self.isCI,
                   "needs root (CAP_NET_ADMIN) and iproute2's ip for network namespaces; CI has both"),
          arguments: ServerStoreKind.available)
    func devicesAcrossALinkConvergeAndKeepEditsWhileItIsCut(store kind: ServerStoreKind) throws {
        let lab = try NetworkLab(devices: ["a", "b"])
        defer { lab.remove() }
        let served = try ServedFleet(store: kind, host: lab.serverAddress,
                                     launcher: lab.launcher(lab.serverNamespace), options: ["--insecure"])
        defer { served.cleanUp() }
        let fleet = served.fleet
        for device in lab.devices {
            fleet.launchers[device] = lab.launcher(lab.namespace(of: device))
            try served.login(device)
        }
        let devices = lab.devices.map { ($0, "me") }
        let sentBefore = try lab.bytesSent(by: "a")

        // Both devices edit; after a sync each, they show the same.
        try fleet.ok("a", "list", "add", "Groceries")
        let milk = try fleet.ok("a", "add", "Milk", "--list", "Groceries")
        let bread = try fleet.ok("a", "add", "Bread", "--list", "Groceries", "--priority", "high")
        try fleet.syncUntilQuiet(devices)
        try fleet.ok("b", "edit", milk, "--notes", "2 litres")
        try fleet.ok("b", "complete", bread)
        let eggs = try fleet.ok("b", "add", "Eggs", "--list", "Groceries", "--tag", "Breakfast")
        try fleet.syncUntilQuiet(devices)
        let first = try fleet.exportText("a")
        #expect(first == (try fleet.exportText("b")), "the devices differ after syncing")
        #expect(try fleet.export("a").reminders.first { $0.id == milk }?.notes == "2 litres")
        #expect(try lab.bytesSent(by: "a") > sentBefore, "device a's requests did not cross its link")

        // Device a's link goes down while it has edits to send.
        let butter = try fleet.ok("a", "add", "Butter", "--list", "Groceries")
        try fleet.ok("a", "edit", milk, "--title", "Oat milk")
        let pending = try pendingCount("a", fleet)
        #expect(pending == 2)
        try lab.setLink(of: "a", up: false)
        let cut = try fleet.run("a", ["sync"])
        #expect(cut.status == 4, "\(cut)")
        #expect(cut.errorLine?.contains("cannot reach the server at \(served.service.url.absoluteString)") == true, "\(cut)")
        #expect(try pendingCount("a", fleet) == pending, "device a's edits did not stay pending")
        // Meanwhile b, whose link is up, goes on.
        try fleet.ok("b", "edit", eggs, "--flag")
        try fleet.sync("b")

        // The link comes back: a's edits go, and b sees them.
        try lab.setLink(of: "a", up: true)
        try eventually(timeout: 20, every: 0.2, "device a syncs once its link is back") {
            try fleet.run("a", ["sync"]).status == 0
        }
        #expect(try pendingCount("a", fleet) == 0)
        try fleet.syncUntilQuiet(devices)
        let second = try fleet.exportText("a")
        #expect(second == (try fleet.exportText("b")), "the devices differ after the link came back")
        let dump = try JSONDecoder().decode(ExportDump.self, from: Data(second.utf8))
        #expect(dump.reminders.map(\.title).sorted() == ["Bread", "Butter", "Eggs", "Oat milk"])
        #expect(dump.reminders.first { $0.id == butter }?.listID == dump.lists.first?.id)
        #expect(dump.reminders.first { $0.id == eggs }?.isFlagged == true)

        // The server's end of b's link goes down: b's interface stays up,
        // nothing gets through, and its sync gives up in time, not hangs.
        try fleet.ok("b", "add", "Jam", "--list", "Groceries")
        try lab.setLink(of: "b", up: false, end: .server)
        let silenceStarted = Date()
        let silent = try fleet.start("b", ["sync"]).wait(timeout: 60)
        let silence = Date().timeIntervalSince(silenceStarted)
        #expect(silent.status == 4 && silent.errorLine?.contains("cannot reach the server") == true, "\(silent)")
        #expect(try pendingCount("b", fleet) == 1)
        try lab.setLink(of: "b", up: true, end: .server)
        try eventually(timeout: 20, every: 0.2, "device b syncs once its link is back") {
            try fleet.run("b", ["sync"]).status == 0
        }
        try fleet.syncUntilQuiet(devices)
        let third = try fleet.exportText("a")
        #expect(third == (try fleet.exportText("b")), "the devices differ after b's link came back")
        #expect(try fleet.export("a").reminders.map(\.title).sorted() == ["Bread", "Butter", "Eggs", "Jam", "Oat milk"])
        print("network namespaces (\(kind.rawValue) store): a's link down: \"\(cut.errorLine ?? "")\"; "
              + "the server's end of b's link down: \"\(silent.errorLine ?? "")\" after \(String(format: "%.1f", silence)) s")
    }

    /// Pending saves and deletes of a device, as `status --json` tells them.
    func pendingCount(_ device: String, _ fleet: DeviceFleet) throws -> Int {
        struct Status: Decodable { var pendingSaves: Int; var pendingDeletes: Int }
        let result = try fleet.run(device, ["status", "--json"])
        let status = try JSONDecoder().decode(Status.self, from: Data(result.stdout.utf8))
        return status.pendingSaves + status.pendingDeletes
    }
}
