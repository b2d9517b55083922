import Foundation
import TestSupport

/// The full-screen app running in a detached tmux session of its own, on
/// a private tmux server.
final class TmuxSession {
    let tmux: TmuxServer
    let name = "reminders"

    /// Starts `command` (argument words, run without a shell by tmux's
    /// `new-session ... -- argv`) in a width x height window.
    init(_ command: [String], environment: [String: String], in folder: URL, width: Int = 100, height: Int = 30) throws {
        tmux = TmuxServer(socket: folder.appendingPathComponent("tmux-\(UUID().uuidString.prefix(8))"), environment: environment)
        try tmux.run(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", "--"] + command)
    }

    deinit {
        stop()
    }

    /// Ends the tmux server and the program in it. Idempotent.
    func stop() {
        tmux.kill()
    }

    /// The window's text now.
    func capture() throws -> String {
        try tmux.capture(name)
    }

    /// Types keys (tmux key names: "Escape", "Enter", or plain text with -l).
    func send(_ keys: String, literal: Bool = true) throws {
        try tmux.run(["send-keys", "-t", name] + (literal ? ["-l", keys] : [keys]))
    }

    /// Waits until the window shows `text`; returns the window, or throws
    /// with the last capture after `timeout`.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 10) throws -> String {
        try tmux.wait(name, for: "'\(text)' to appear", timeout: timeout) { $0.contains(text) }
    }

    /// Whether the program in the window is still running.
    var isRunning: Bool {
        ((try? tmux.run(["list-panes", "-t", name, "-F", "#{pane_dead}"])) ?? "1").trimmingCharacters(in: .whitespacesAndNewlines) == "0"
    }
}
