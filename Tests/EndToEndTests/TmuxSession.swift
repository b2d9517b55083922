import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

    /// Runs the tmux client and returns what it printed. With posix_spawn
    /// and waitpid rather than Foundation's Process, which on Linux waits
    /// for the descriptors the child inherited to close: the tmux server
    /// that `new-session` starts keeps them open for its whole life.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let output = socket.deletingLastPathComponent().appendingPathComponent("tmux-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        // -u: the panes are UTF-8 whatever the locale of the test runner.
        let words = ["/usr/bin/env", "tmux", "-u", "-S", socket.path] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp)
        guard result == 0 else { throw TmuxError(message: "cannot start tmux: \(String(cString: strerror(result)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        guard status == 0 else {
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")) failed with status \(status)")
        }
        return String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
    }

    struct TmuxError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
