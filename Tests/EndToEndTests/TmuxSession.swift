import Foundation
import TestSupport

/// The full-screen app running in a detached tmux session of its own (a
/// private server socket, so nothing touches the user's tmux), read back
/// with `capture-pane` and driven with `send-keys`.
final class TmuxSession {
    let socket: URL
    let name = "reminders"
    let environment: [String: String]

    /// Whether tmux is installed (CI installs it; see .ci/run).
    static var isAvailable: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/tmux") }
    }

    /// Starts `command` (argument words, run without a shell by tmux's
    /// `new-session ... -- argv`) in a width x height window.
    init(_ command: [String], environment: [String: String], in folder: URL, width: Int = 100, height: Int = 30) throws {
        socket = folder.appendingPathComponent("tmux-\(UUID().uuidString.prefix(8))")
        self.environment = environment
        try tmux(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", "--"] + command)
    }

    deinit {
        stop()
    }

    /// Ends the tmux server and the program in it. Idempotent.
    func stop() {
        _ = try? tmux(["kill-server"])
    }

    /// The window's text now.
    func capture() throws -> String {
        try tmux(["capture-pane", "-p", "-t", name])
    }

    /// Types keys (tmux key names: "Escape", "Enter", or plain text with -l).
    func send(_ keys: String, literal: Bool = true) throws {
        try tmux(["send-keys", "-t", name] + (literal ? ["-l", keys] : [keys]))
    }

    /// Waits until the window shows `text`; returns the window, or throws
    /// with the last capture after `timeout`.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 10) throws -> String {
        var last = ""
        do {
            try eventually(timeout: timeout, every: 0.1, "'\(text)' to appear") {
                last = try capture()
                return last.contains(text)
            }
        } catch is EventuallyTimeout {
            throw TmuxError(message: "'\(text)' did not appear within \(timeout) s; the window shows:\n\(last)")
        }
        return last
    }

    /// Whether the program in the window is still running.
    var isRunning: Bool {
        ((try? tmux(["list-panes", "-t", name, "-F", "#{pane_dead}"])) ?? "1").trimmingCharacters(in: .whitespacesAndNewlines) == "0"
    }

    /// Runs the tmux client and returns what it printed.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        // -u: the panes are UTF-8 whatever the locale of the test runner.
        let result = try Subprocess.run(["tmux", "-u", "-S", socket.path] + arguments, environment: environment)
        guard result.status == 0 else {
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")) failed: \(result)")
        }
        return result.stdout
    }

    struct TmuxError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
