import Foundation
import RemindersCore
import Testing
import TestSupport

/// A conflict merged on one device shows on the other too, from its own
/// side, with real `reminders` processes; dismissing it on one dismisses it
/// on both.
@Suite("Conflicts on both sides", .serialized)
struct ConflictBothSidesTests {
    /// `--keep-other` puts the value that lost back as a new edit, which
    /// reaches the other device, and marks the conflict as seen.
    @Test func theValueThatLostCanBePutBackFromTheCommandLine() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        try fleet.ok("a", "list", "add", "Home")
        try fleet.ok("a", "add", "Paint", "--list", "Home")
        try fleet.sync("a")
        try fleet.sync("b")
        try fleet.ok("b", "edit", "Paint", "--title", "Paint the fence")
        try fleet.ok("a", "edit", "Paint", "--title", "Paint the shed")
        try fleet.sync("b")
        try fleet.sync("a")     // a merges: its edit is the later one
        try fleet.sync("b")
        let entries = try JSONDecoder().decode([Entry].self, from: Data(try fleet.ok("b", "conflicts", "--json").utf8))
        let id = try #require(entries.first?.id)
        #expect(try fleet.run("b", ["conflicts", "--keep-other", "zzzz"]).status == 2)
        #expect(try fleet.run("b", ["conflicts", "--keep-other", String(id.prefix(6)), "--dismiss-all"]).status != 0)
        #expect(try fleet.ok("b", "conflicts", "--keep-other", String(id.prefix(6)))
                == "Title of Reminder “Paint the shed” is “Paint the fence” again (a new edit: 'reminders sync' sends it).")
        #expect(try fleet.ok("b", "conflicts").hasSuffix("(dismissed)"))
        try fleet.sync("b")
        try fleet.sync("a")
        #expect(try fleet.ok("a", "show", "Home").contains("Paint the fence"))
        #expect(try fleet.ok("a", "status").contains("Conflicts: 0"))
    }

    /// A reminder added on one device to a list another deleted goes with
    /// the list; `--keep-other` on its entry puts it back whole, in the
    /// list `--list` names, and it reaches the other device.
    @Test func aReminderADeleteTookCanBePutBackFromTheCommandLine() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        try fleet.ok("a", "list", "add", "Home")
        try fleet.ok("a", "list", "add", "Temp")
        try fleet.sync("a")
        try fleet.sync("b")
        try fleet.ok("b", "list", "delete", "Temp", "--yes")
        try fleet.ok("a", "add", "Wifi", "--list", "Temp", "--notes", "the password is hunter2", "--priority", "high", "--due", "2026-12-01")
        try fleet.sync("b")
        let synced = try fleet.ok("a", "sync")
        #expect(synced.contains("(1 conflict: see 'reminders conflicts')"), "\(synced)")
        let entries = try JSONDecoder().decode([Entry].self, from: Data(try fleet.ok("a", "conflicts", "--json").utf8))
        let id = try #require(entries.first?.id)
        #expect(try fleet.ok("a", "conflicts").contains("it went with what it was in (its list, or the reminder it was a subtask of)"))
        let wrongList = try fleet.run("a", ["conflicts", "--keep-other", String(id.prefix(6)), "--list", "Nowhere"])
        #expect(wrongList.status != 0 && wrongList.errorLine?.contains("Nowhere") == true, "\(wrongList)")
        #expect(try fleet.run("a", ["conflicts", "--list", "Home"]).status == 2)
        #expect(try fleet.ok("a", "conflicts", "--keep-other", String(id.prefix(6)), "--list", "Home")
                == "“Wifi” is back, in Home (a new reminder: 'reminders sync' sends it).")
        let again = try fleet.run("a", ["conflicts", "--keep-other", String(id.prefix(6))])
        #expect(again.status != 0 && again.errorLine?.contains("is here: there is nothing to put back") == true, "\(again)")
        try fleet.sync("a")
        try fleet.sync("b")
        let onB = try fleet.ok("b", "show", "Home")
        #expect(onB.contains("Wifi") && onB.contains("!!!") && onB.contains("2026-12-01"), "\(onB)")
    }

    /// On a terminal a long entry wraps at its words under its text, at
    /// the terminal's width; piped, each entry is one line.
    @Test(.enabled(if: TmuxServer.isAvailable, "needs tmux"))
    func aLongEntryWrapsOnANarrowTerminal() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        try fleet.ok("a", "list", "add", "Home")
        try fleet.ok("a", "add", "Paint the garden fence before the winter comes", "--list", "Home", "--literal")
        try fleet.sync("a")
        try fleet.sync("b")
        let title = "Paint the garden fence before the winter comes"
        try fleet.ok("b", "edit", title, "--title", "Paint the garden fence and the shed before the frost")
        try fleet.ok("a", "edit", title, "--title", "Paint the whole garden fence green before the winter")
        try fleet.sync("b")
        try fleet.sync("a")
        let piped = try fleet.ok("a", "conflicts").split(separator: "\n")
        #expect(piped.count == 1 && piped[0].count > 100, "\(piped)")
        let binary = fleet.cli.binary.path.replacingOccurrences(of: "'", with: "'\\''")
        let shell = try TmuxSession(["/bin/sh", "-c", "'\(binary)' conflicts; echo END; sleep 30"],
                                    environment: fleet.environment("a"), in: fleet.cli.home, width: 60, height: 20)
        defer { shell.stop() }
        let screen = try shell.waitFor("END")
        let lines = screen.split(separator: "\n").map(String.init).prefix { $0 != "END" }
        #expect(lines.count > 2 && lines.allSatisfy { $0.count <= 60 }, "\(screen)")
        #expect(lines.first?.hasPrefix(String(piped[0].prefix(8))) == true, "\(screen)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("          ") }, "\(screen)")
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == String(piped[0]), "\(screen)")
    }

    /// A subtask added on one device while the other deletes its parent
    /// goes with the parent, and both devices' logs say so, once, naming
    /// the subtask and the device that made it (the deleting device, which
    /// a tombstone does not record, goes unnamed).
    @Test func aSubtaskThatWentWithItsParentIsLoggedOnceOnBothDevices() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        try fleet.ok("a", "list", "add", "Home")
        try fleet.ok("a", "add", "Paint the fence", "--list", "Home")
        try fleet.sync("a")
        try fleet.sync("b")
        #expect(try fleet.run("b", ["add", "Buy paint", "--list", "Home", "--parent", "Paint the fence"]).status == 0)
        #expect(try fleet.run("a", ["delete", "Paint the fence"]).status == 0)
        try fleet.sync("b")
        try fleet.sync("a")
        try fleet.sync("b")
        for device in ["a", "b"] {
            let lines = try fleet.ok(device, "conflicts").split(separator: "\n")
            #expect(lines.count == 1, "\(device): \(lines)")
            let line = String(lines.first ?? "")
            #expect(line.contains("Reminder “Buy paint”"), "\(device): \(line)")
            #expect(line.contains("deleted with its parent"), "\(device): \(line)")
            #expect(!line.contains("?"), "\(device): \(line)")
        }
        #expect(try fleet.ok("b", "conflicts").contains("here Title “Buy paint”"))
        #expect(try fleet.ok("a", "conflicts").contains("b Title “Buy paint”"))
    }

    @Test func theDeviceWhoseEditLostSeesTheConflictAndADismissalReachesBoth() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        try fleet.ok("a", "list", "add", "Home")
        let paint = try fleet.ok("a", "add", "Paint", "--list", "Home")
        try fleet.sync("a")
        try fleet.sync("b")
        #expect(try fleet.ok("b", "conflicts", "--dismiss-all") == "No conflicts.")
        // a's edit is the later one: its process starts after b's has ended
        // (the binary's engine reads the system clock).
        try fleet.ok("b", "edit", "Paint", "--title", "Paint the fence")
        try fleet.ok("a", "edit", "Paint", "--title", "Paint the shed")
        try fleet.sync("b")
        try fleet.sync("a")     // a merges: its edit is the later one
        try fleet.sync("b")
        let onA = try fleet.ok("a", "conflicts")
        let onB = try fleet.ok("b", "conflicts")
        #expect(onA.contains("here \"Paint the shed\" (a), there \"Paint the fence\" (b); local won"), "\(onA)")
        // Named as the Conflicts screen names it: kind, title now, id, field.
        #expect(onA.contains("Reminder “Paint the shed” (\(paint.prefix(8))) title: ancestor \"Paint\", here"), "\(onA)")
        #expect(onB.contains("here \"Paint the fence\" (b), there \"Paint the shed\" (a); remote won: the other device's edit is the later one"),
                "\(onB)")
        // A device that took no part names both sides and the winner.
        try fleet.sync("c")
        let onC = try fleet.ok("c", "conflicts")
        #expect(onC.contains("a \"Paint the shed\", b \"Paint the fence\"; a won: a's edit is the later one"), "\(onC)")
        let entries = try JSONDecoder().decode([Entry].self, from: Data(try fleet.ok("b", "conflicts", "--json").utf8))
        #expect(entries.count == 1 && entries.first?.dismissed == false)
        // Seen from b, as its lines are: b's side is "local", and it lost.
        #expect(entries.first?.local == "Paint the fence" && entries.first?.localDevice == "b")
        #expect(entries.first?.remote == "Paint the shed" && entries.first?.winner == "remote")
        let entriesOnA = try JSONDecoder().decode([Entry].self, from: Data(try fleet.ok("a", "conflicts", "--json").utf8))
        #expect(entriesOnA.first?.local == "Paint the shed" && entriesOnA.first?.winner == "local")
        let status = try fleet.ok("b", "status")
        #expect(status.contains("Conflicts: 1"))
        // The switch, and that status did not ask the server.
        #expect(status.contains("Online: 'reminders sync' sends and fetches (status itself does not ask the server)."))
        // Dismissed on b, then synced.
        let id = try #require(entries.first?.id)
        #expect(try fleet.run("b", ["conflicts", "--dismiss", "zzzz"]).status == 2)
        #expect(try fleet.ok("b", "conflicts", "--dismiss", String(id.prefix(6))) == "Dismissed 1 conflict.")
        #expect(try fleet.ok("b", "conflicts", "--dismiss", String(id.prefix(6))) == "Already dismissed.")
        // Nothing left to dismiss says so, rather than "Dismissed 0 conflicts."
        #expect(try fleet.ok("b", "conflicts", "--dismiss-all") == "Every conflict was dismissed already.")
        try fleet.sync("b")
        try fleet.sync("a")
        #expect(try fleet.ok("a", "status").contains("Conflicts: 0"))
        // The log keeps a dismissed entry, and says so in JSON as in lines.
        let onAAfter = try JSONDecoder().decode([Entry].self, from: Data(try fleet.ok("a", "conflicts", "--json").utf8))
        #expect(onAAfter.map(\.id) == [id] && onAAfter.first?.dismissed == true)
        #expect(try fleet.ok("a", "conflicts").hasSuffix("(dismissed)"))

        // A due date is said in words, a date as a date-time: neither is
        // quoted, as typed text is.
        try fleet.ok("a", "edit", paint, "--due", "2026-12-01")
        try fleet.sync("a")
        try fleet.sync("b")
        try fleet.ok("b", "edit", paint, "--due", "2026-12-03")
        try fleet.ok("a", "edit", paint, "--due", "2026-12-02 10:00")
        try fleet.sync("b")
        try fleet.sync("a")
        let due = try #require(try fleet.ok("a", "conflicts").split(separator: "\n").first { $0.contains("due date") })
        #expect(due.contains("due date: ancestor 2026-12-01, here 2026-12-02 10:00 (a), there 2026-12-03 (b); local won"), "\(due)")
    }

    struct Entry: Decodable {
        var id: String
        var dismissed: Bool
        var local, remote, localDevice: String?
        var winner: String
    }

}
