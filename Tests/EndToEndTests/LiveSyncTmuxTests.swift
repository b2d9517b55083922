import Foundation
import Testing
import TestSupport

/// Two running apps (`reminders tui`) of one user on one server directory,
/// side by side in a private tmux server: what one shows, the other shows
/// too, with no key pressed in it.
@Suite(.serialized, .enabled(if: TmuxServer.isAvailable, "tmux is not installed: the live sync tests under tmux are skipped"))
struct LiveSyncTmuxTests {
    @Test func anEditInOnePaneAppearsInTheOtherWithNoKeyPressed() throws {
        let panes = try TwoPanes()
        let (laptop, desktop) = try panes.openLaptopAndDesktop()
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
        let (laptop, desktop) = try panes.openLaptopAndDesktop()
        for pane in [laptop, desktop] {
            try panes.keys(pane, "o")
            try panes.waitFor(pane, "· offline")
        }
        try panes.editMilk(laptop, title: "Oat milk")
        try panes.keys(laptop, "f")
        try panes.waitFor(laptop, "1 pending")
        // A second field too: the priority (the form's seventh field), one step up.
        try panes.editMilk(desktop, title: "Buy milk", then: "Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Right")
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
        let (laptop, desktop) = try panes.openLaptopAndDesktop()

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
        try FileManager.default.removeItem(at: panes.world.serverDirectory)
        // The app does not go on writing to the deleted store, nor make an
        // empty one: it says the directory is gone.
        try panes.waitFor(laptop, "server error")
        try panes.waitFor(laptop, "is gone (edits wait")
        // Another device makes the server again and re-joins it; the app
        // notices, re-joins too, and says so once.
        let result = try panes.cli("desktop", ["sync"])
        #expect(result.stderr.contains("is not the one this device synced with"), "\(result)")
        try panes.waitFor(laptop, "is not the one this device synced with (it was reset or replaced)")
        try panes.waitFor(laptop, "re-joined server")
        try panes.waitSynced(laptop)
        #expect(try !panes.capture(laptop).contains("server error"))
        let lists = try panes.cli("desktop", ["lists"]).stdout
        #expect(lists.contains("Groceries") && lists.contains("Personal"), "\(lists)")
    }

    @Test func demoScriptsPassTheirChecks() throws {
        let binary = try CommandRunner.locateBinary()
        // tmux's own socket folder: the demos must leave nothing in it.
        let sockets = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp")
            .appendingPathComponent("tmux-\(getuid())")
        func demoSockets() -> Set<String> {
            Set(((try? FileManager.default.contentsOfDirectory(atPath: sockets.path)) ?? []).filter { $0.hasPrefix("reminders-demo") })
        }
        let before = demoSockets()
        defer { #expect(demoSockets().subtracting(before).isEmpty, "the demos left tmux sockets behind") }
        for script in ["two-devices.sh", "conflict.sh", "sharing.sh", "network.sh"] {
            var environment = ProcessInfo.processInfo.environment
            environment["REMINDERS_BIN"] = binary.path
            // The suite runs beside many other tests: the demos' waits are
            // 4 times as long (they end as soon as the screen shows).
            environment["DEMO_SLACK"] = "4"
            let result = try Subprocess.run(["bash", packageRoot.appendingPathComponent("Demo/\(script)").path, "--check"],
                                            environment: environment, mergingErrors: true)
            #expect(result.status == 0, "Demo/\(script) --check:\n\(result.stdout)")
        }
    }
}

/// Devices of user `me` in panes of a private tmux server, on one server
/// directory in a `DeviceWorld`'s folder.
final class TwoPanes {
    let world = DeviceWorld()
    let runner: CommandRunner
    private let tmux: TmuxServer
    private var session = false

    init() throws {
        runner = try CommandRunner(home: world.directory)
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        tmux = TmuxServer(socket: world.directory.appendingPathComponent("tmux"), environment: environment)
    }

    deinit {
        tmux.kill()
    }

    /// Starts a device's app in a new pane (the first in a new 200x30
    /// window, the next beside it); returns the pane's id. A first start
    /// that offers the sample lists is answered "Add sample lists" when
    /// `addingSampleLists`.
    func open(_ device: String, addingSampleLists: Bool = true) throws -> String {
        let variables = runner.environment.merging(world.commandEnvironment(device)) { $1 }
        let command = ["env"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + [runner.binary.path, "tui"]
        let pane: String
        if session {
            pane = try tmux.run(["split-window", "-h", "-t", "live", "-P", "-F", "#{pane_id}", "--"] + command)
        } else {
            pane = try tmux.run(["new-session", "-d", "-s", "live", "-x", "200", "-y", "30", "-P", "-F", "#{pane_id}", "--"] + command)
            try tmux.run(["set-option", "-t", "live", "remain-on-exit", "on"])
            session = true
        }
        let id = pane.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try waitFor(id, "MY LISTS", timeout: 20)
        if addingSampleLists {
            // The offer comes once the first start has asked the server,
            // which on a busy machine is well after the first frame.
            let decided = try tmux.wait(id, for: "the first start's offer or lists", timeout: 20) {
                $0.contains("Welcome to Reminders") || $0.contains("● ")
            }
            if decided.contains("Welcome to Reminders") {
                try keys(id, "s")
                try waitFor(id, "● Groceries")
            }
        }
        return id
    }

    /// The laptop's app, then the desktop's beside it, each once synced.
    func openLaptopAndDesktop() throws -> (laptop: String, desktop: String) {
        let laptop = try open("laptop")
        try waitSynced(laptop)
        let desktop = try open("desktop", addingSampleLists: false)
        try waitSynced(desktop)
        try waitFor(desktop, "● Groceries")
        // It joined a user with lists: nothing to offer.
        #expect(try !capture(desktop).contains("Welcome to Reminders"))
        return (laptop, desktop)
    }

    /// Runs the command line as another device of the same user on the
    /// same server.
    @discardableResult
    func cli(_ device: String, _ arguments: [String]) throws -> ProcessResult {
        try runner.run(arguments, environment: world.commandEnvironment(device))
    }

    func capture(_ pane: String) throws -> String {
        try tmux.capture(pane)
    }

    func lines(_ pane: String) throws -> [String] {
        try capture(pane).components(separatedBy: "\n")
    }

    /// Keys by tmux name ("Enter", "C-u", "o").
    func keys(_ pane: String, _ keys: String...) throws {
        try tmux.run(["send-keys", "-t", pane] + keys)
    }

    func type(_ pane: String, _ text: String) throws {
        try tmux.run(["send-keys", "-t", pane, "-l", "--", text])
    }

    /// Kills the pane's app with SIGKILL: nothing is flushed or sent.
    func kill(_ pane: String) throws {
        let pid = try tmux.run(["display-message", "-p", "-t", pane, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let number = Int32(pid) else { throw TmuxServer.Failure(message: "no pid for pane \(pane): '\(pid)'") }
        Foundation.kill(number, SIGKILL)
        try eventually(timeout: 5, every: 0.05, "the app in pane \(pane) to die") {
            try tmux.run(["display-message", "-p", "-t", pane, "#{pane_dead}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }
        try tmux.run(["kill-pane", "-t", pane])
    }

    /// Waits until the pane shows `text`; returns the screen.
    @discardableResult
    func waitFor(_ pane: String, _ text: String, timeout: TimeInterval = 5) throws -> String {
        try tmux.wait(pane, for: "'\(text)' to show", timeout: timeout) { $0.contains(text) }
    }

    /// Waits until the status bar says synced with nothing pending.
    func waitSynced(_ pane: String, timeout: TimeInterval = 10) throws {
        try tmux.wait(pane, for: "synced, nothing pending", timeout: timeout) { screen in
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
        if !formKeys.isEmpty { try tmux.run(["send-keys", "-t", pane] + formKeys) }
        try keys(pane, "Enter")
        try tmux.wait(pane, for: "the form to close", timeout: 5) { !$0.contains("Edit Reminder") }
    }
}
