import Foundation
import TestSupport

/// A tmux server of the tests' own (a private socket, so nothing touches
/// the user's tmux), driven through the tmux client: the full-screen app
/// runs in its panes, read back with `capture-pane` and typed into with
/// `send-keys`.
struct TmuxServer {
    let socket: URL
    /// The client's environment, which the server started by the first
    /// command and the programs in its panes inherit.
    let environment: [String: String]

    /// Whether tmux is installed (CI installs it; see .ci/run).
    /// Whether tmux is installed. In CI (`CI` set, as `.ci/run` does) the
    /// answer is yes regardless, so that a missing tmux fails the tests
    /// that need it instead of skipping them.
    static var isAvailable: Bool {
        let environment = ProcessInfo.processInfo.environment
        if let ci = environment["CI"], !ci.isEmpty, ci != "false" { return true }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/tmux") }
    }

    init(socket: URL, environment: [String: String]) {
        self.socket = socket
        var environment = environment
        environment.removeValue(forKey: "TMUX")
        self.environment = environment
    }

    /// Runs the tmux client and returns what it printed.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        // -u: the panes are UTF-8 whatever the locale of the test runner.
        let result = try Subprocess.run(["tmux", "-u", "-S", socket.path] + arguments, environment: environment)
        guard result.status == 0 else {
            throw Failure(message: "tmux \(arguments.joined(separator: " ")) failed: \(result)")
        }
        return result.stdout
    }

    /// Ends the server and the programs in its panes. Idempotent.
    func kill() {
        _ = try? run(["kill-server"])
    }

    /// The pane's text now.
    func capture(_ pane: String) throws -> String {
        try run(["capture-pane", "-p", "-t", pane])
    }

    /// Waits until the pane's text meets `condition`; returns it, or throws
    /// with the last capture after `timeout`.
    @discardableResult
    func wait(_ pane: String, for what: String, timeout: TimeInterval, _ condition: (String) -> Bool) throws -> String {
        var last = ""
        do {
            try eventually(timeout: timeout, every: 0.05, what) {
                last = try capture(pane)
                return condition(last)
            }
        } catch is EventuallyTimeout {
            throw Failure(message: "waited \(timeout) s for \(what) in pane \(pane); it shows:\n\(last)")
        }
        return last
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
