import Foundation
import Testing
import TestSupport

/// Two running apps (`reminders tui`) of one user on one server directory,
/// side by side in a private tmux server: what one shows, the other shows
/// too, with no key pressed in it.
@Suite(.serialized, .enabled(if: TwoPanes.tmuxIsAvailable, "tmux is not installed: the live sync tests under tmux are skipped"))
struct LiveSyncTmuxTests {
    @Test func anEditInOnePaneAppearsInTheOtherWithNoKeyPressed() throws {
        let panes = try TwoPanes()
        let laptop = try panes.open("laptop")
        try panes.waitSynced(laptop)
        let desktop = try panes.open("desktop")
        try panes.waitSynced(desktop)
        // The desktop joined: it fetched the sample lists and did not add its own.
        #expect(try panes.lines(desktop).filter { $0.hasPrefix("  ● Groceries ") }.count == 1)

        try panes.keys(laptop, "a")
        try panes.waitFor(laptop, "New List")
        try panes.type(laptop, "Garden")
        try panes.keys(laptop, "Enter")
        try panes.waitFor(laptop, "● Garden")
        let start = Date()
        try panes.waitFor(desktop, "● Garden", timeout: 2)
        #expect(Date().timeIntervalSince(start) < 1.5)
    }

    @Test func offlineEditsOnBothSidesConvergeAndTheConflictIsShown() throws {
        let panes = try TwoPanes()
        let laptop = try panes.open("laptop")
        try panes.waitSynced(laptop)
        let desktop = try panes.open("desktop")
        try panes.waitSynced(desktop)
        for pane in [laptop, desktop] {
            try panes.keys(pane, "o")
            try panes.waitFor(pane, "· offline")
        }
        try panes.editMilk(laptop, title: "Oat milk")
        try panes.keys(laptop, "f")
        try panes.waitFor(laptop, "1 pending")
        // A second field too: the priority (the form's fifth field), one step up.
        try panes.editMilk(desktop, title: "Buy milk", then: "Tab", "Tab", "Tab", "Tab", "Right")
        try panes.waitFor(desktop, "1 pending")

        try panes.keys(laptop, "o")
        try panes.waitSynced(laptop)
        try panes.keys(desktop, "o")
        try panes.waitFor(desktop, "Conflict on “Buy milk” (Title): this device's edit won")
        try panes.waitSynced(desktop)
        try panes.waitFor(laptop, "Buy milk")
        // Both converge: the later title, and the laptop's flag on both.
        for pane in [laptop, desktop] {
            let screen = try panes.waitFor(pane, "! Buy milk")
            let row = screen.components(separatedBy: "\n").first { $0.contains("Buy milk") }
            #expect(row?.contains("⚑") == true, "\(screen)")
            #expect(!screen.contains("Oat milk"))
        }
        try panes.keys(desktop, "C")
        // Polled one by one: a capture may catch the screen mid-redraw.
        for text in ["CONFLICTS", "Reminder “Buy milk” · Title", "this device won", "Ancestor", "Value    Milk",
                     "Oat milk", "laptop", "✓ Kept this device's value: this device's edit is the later one.",
                     "· 1 conflict"] {
            try panes.waitFor(desktop, text, timeout: 3)
        }
    }

    @Test func anAppKilledWithPendingEditsSendsThemWhenStartedAgain() throws {
        let panes = try TwoPanes()
        let laptop = try panes.open("laptop")
        try panes.waitSynced(laptop)
        let desktop = try panes.open("desktop")
        try panes.waitSynced(desktop)

        // An edit made offline waits as pending…
        try panes.keys(laptop, "o")
        try panes.waitFor(laptop, "· offline")
        try panes.keys(laptop, "a")
        try panes.waitFor(laptop, "New List")
        try panes.type(laptop, "Garden")
        try panes.keys(laptop, "Enter")
        try panes.waitFor(laptop, "● Garden")
        try panes.waitFor(laptop, "1 pending")
        // …and the app is killed outright: nothing is flushed or sent.
        try panes.kill(laptop)
        #expect(try !panes.capture(desktop).contains("Garden"))

        // Started again, it still has the edit, pending (and still offline:
        // the switch is the user's); back online, it goes.
        let again = try panes.open("laptop")
        try panes.waitFor(again, "1 pending")
        #expect(try panes.capture(again).contains("● Garden"))
        try panes.keys(again, "o")
        try panes.waitFor(desktop, "● Garden", timeout: 3)
        try panes.waitSynced(again)
    }

    /// Demo/sharing.sh splits the window while the first app is still
    /// starting: before the app read its size after every wake-up, that
    /// resize waited for the next key (4 runs of 4 failed).
    @Test func aServerDirectoryDeletedWhileTheAppRunsIsNoticedAndRejoined() throws {
        let panes = try TwoPanes()
        let laptop = try panes.open("laptop")
        try panes.waitSynced(laptop)
        try panes.cli("desktop", ["sync"])
        try FileManager.default.removeItem(at: panes.folder.appendingPathComponent("server"))
        // The app does not go on writing to the deleted store, nor make an
        // empty one: it says the directory is gone.
        try panes.waitFor(laptop, "server error")
        try panes.waitFor(laptop, "is gone (edits wait")
        // Another device makes the server again and re-joins it; the app
        // notices, re-joins too, and says so once.
        let result = try panes.cli("desktop", ["sync"])
        #expect(result.stdout.contains("is not the one this device synced with"), "\(result.stdout)")
        try panes.waitFor(laptop, "is not the one this device synced with (it was reset or replaced)")
        try panes.waitFor(laptop, "re-joined server")
        try panes.waitSynced(laptop)
        #expect(try !panes.capture(laptop).contains("server error"))
        let lists = try panes.cli("desktop", ["lists"]).stdout
        #expect(lists.contains("Groceries") && lists.contains("Personal"), "\(lists)")
    }

    @Test func demoScriptsPassTheirChecks() throws {
        let binary = try CommandRunner.locateBinary()
        for script in ["two-devices.sh", "conflict.sh", "sharing.sh"] {
            var environment = ProcessInfo.processInfo.environment
            environment["REMINDERS_BIN"] = binary.path
            let result = try Subprocess.run(["bash", packageRoot.appendingPathComponent("Demo/\(script)").path, "--check"],
                                            environment: environment, mergingErrors: true)
            #expect(result.status == 0, "Demo/\(script) --check:\n\(result.stdout)")
        }
    }
}

/// Devices of user `me` in panes of a private tmux server, on one server
/// directory in a temporary folder.
final class TwoPanes {
    let folder: URL
    let binary: URL
    private let socket: String
    private var session = false

    static var tmuxIsAvailable: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/tmux") }
    }

    init() throws {
        binary = try CommandRunner.locateBinary()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-tmux-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        socket = folder.appendingPathComponent("tmux").path
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts a device's app in a new pane (the first in a new 200x30
    /// window, the next beside it); returns the pane's id.
    func open(_ device: String) throws -> String {
        let command = ["env", "REMINDERS_SERVER=\(folder.path)/server", "REMINDERS_USER=me", "REMINDERS_DEVICE=\(device)",
                       "REMINDERS_DB=\(folder.path)/\(device).sqlite", "XDG_DATA_HOME=\(folder.path)/data",
                       "REMINDERS_NOW=2026-03-01T10:00:00Z", "TZ=UTC", binary.path, "tui"]
        let pane: String
        if session {
            pane = try tmux(["split-window", "-h", "-t", "live", "-P", "-F", "#{pane_id}", "--"] + command)
        } else {
            pane = try tmux(["new-session", "-d", "-s", "live", "-x", "200", "-y", "30", "-P", "-F", "#{pane_id}", "--"] + command)
            _ = try tmux(["set-option", "-t", "live", "remain-on-exit", "on"])
            session = true
        }
        let id = pane.trimmingCharacters(in: .whitespacesAndNewlines)
        try waitFor(id, "MY LISTS", timeout: 20)
        return id
    }

    /// Runs the command line as another device of the same user on the
    /// same server; returns its status and its output (stderr included).
    @discardableResult
    func cli(_ device: String, _ arguments: [String]) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in ["REMINDERS_SERVER": "\(folder.path)/server", "REMINDERS_USER": "me", "REMINDERS_DEVICE": device,
                             "REMINDERS_DB": "\(folder.path)/\(device).sqlite", "XDG_DATA_HOME": "\(folder.path)/data",
                             "REMINDERS_NOW": "2026-03-01T10:00:00Z", "TZ": "UTC"] {
            environment[key] = value
        }
        return try Subprocess.run([binary.path] + arguments, environment: environment, mergingErrors: true)
    }

    func capture(_ pane: String) throws -> String {
        try tmux(["capture-pane", "-p", "-t", pane])
    }

    func lines(_ pane: String) throws -> [String] {
        try capture(pane).components(separatedBy: "\n")
    }

    /// Keys by tmux name ("Enter", "C-u", "o").
    func keys(_ pane: String, _ keys: String...) throws {
        try tmux(["send-keys", "-t", pane] + keys)
    }

    func type(_ pane: String, _ text: String) throws {
        try tmux(["send-keys", "-t", pane, "-l", "--", text])
    }

    /// Kills the pane's app with SIGKILL: nothing is flushed or sent.
    func kill(_ pane: String) throws {
        let pid = try tmux(["display-message", "-p", "-t", pane, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let number = Int32(pid) else { throw TwoPanesError(message: "no pid for pane \(pane): '\(pid)'") }
        Foundation.kill(number, SIGKILL)
        try eventually(timeout: 5, every: 0.05, "the app in pane \(pane) to die") {
            try tmux(["display-message", "-p", "-t", pane, "#{pane_dead}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }
        _ = try tmux(["kill-pane", "-t", pane])
    }

    /// Waits until the pane shows `text`; returns the screen.
    @discardableResult
    func waitFor(_ pane: String, _ text: String, timeout: TimeInterval = 5) throws -> String {
        try wait(pane, "'\(text)' to show", timeout: timeout) { $0.contains(text) }
    }

    /// Waits until the status bar says synced with nothing pending.
    func waitSynced(_ pane: String, timeout: TimeInterval = 10) throws {
        try wait(pane, "synced, nothing pending", timeout: timeout) { screen in
            let bar = screen.components(separatedBy: "\n").last { !$0.isEmpty } ?? ""
            return bar.contains("synced ") && !bar.contains("pending") && !bar.contains("syncing")
        }
    }

    /// Finds "Milk" through the search and gives it a new title (then
    /// presses `formKeys` in the form, before saving).
    func editMilk(_ pane: String, title: String, then formKeys: String...) throws {
        try keys(pane, "/")
        try type(pane, "Milk")
        try waitFor(pane, "Oat, 2 cartons")
        try keys(pane, "Enter", "e")
        try waitFor(pane, "Edit Reminder")
        try keys(pane, "C-u")
        try type(pane, title)
        if !formKeys.isEmpty { try tmux(["send-keys", "-t", pane] + formKeys) }
        try keys(pane, "Enter")
        try wait(pane, "the form to close", timeout: 5) { !$0.contains("Edit Reminder") }
    }

    @discardableResult
    private func wait(_ pane: String, _ what: String, timeout: TimeInterval, _ condition: (String) -> Bool) throws -> String {
        var last = ""
        do {
            try eventually(timeout: timeout, every: 0.05, what) {
                last = try capture(pane)
                return condition(last)
            }
        } catch is EventuallyTimeout {
            throw TwoPanesError(message: "waited \(timeout) s for \(what) in pane \(pane); it shows:\n\(last)")
        }
        return last
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment.removeValue(forKey: "TMUX")
        let result = try Subprocess.run(["tmux", "-u", "-S", socket] + arguments, environment: environment)
        guard result.status == 0 else {
            throw TwoPanesError(message: "tmux \(arguments.joined(separator: " ")) failed: \(result)")
        }
        return result.stdout
    }

    struct TwoPanesError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
