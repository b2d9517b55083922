import Foundation

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
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try capture()
            if last.contains(text) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw TmuxError(message: "'\(text)' did not appear within \(timeout) s; the window shows:\n\(last)")
    }

    /// Whether the program in the window is still running.
    var isRunning: Bool {
        ((try? tmux(["list-panes", "-t", name, "-F", "#{pane_dead}"])) ?? "1").trimmingCharacters(in: .whitespacesAndNewlines) == "0"
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // -u: the panes are UTF-8 whatever the locale of the test runner.
        process.arguments = ["tmux", "-u", "-S", socket.path] + arguments
        process.environment = environment
        // A file, not a pipe: the tmux server that `new-session` starts keeps
        // the client's stdout open, and reading a pipe to its end would wait
        // for the server to exit.
        let output = socket.deletingLastPathComponent().appendingPathComponent("tmux-out-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let data = try Data(contentsOf: output)
        guard process.terminationStatus == 0 else {
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    struct TmuxError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
