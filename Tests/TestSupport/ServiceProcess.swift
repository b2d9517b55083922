import CloudClient
import Foundation
import Synchronization

/// `reminders serve` as a test runs it: the real binary in a process of its
/// own, on a store of `ServerStoreKind`, that the test can kill with
/// `kill -9` and start again on the same store and port, as the devices of
/// other machines would see a server crash and come back.
///
/// The first start listens on the port asked for (0: any free one, read
/// back from the service's "serving … on URL" line, so no port is guessed
/// and then raced for); later starts take the same port, so the devices'
/// URL stays right. A `launcher` runs the service through another program
/// first (`ip netns exec NAME`, to serve inside a network namespace).
public final class ServiceProcess: Sendable {
    public let store: ServerStore
    public let host: String
    private let launcher: [String]
    private let options: [String]
    private let environment: [String: String]
    private let binary: URL
    private let state: Mutex<State>

    private struct State {
        var process: RunningProcess?
        var port: Int
        /// What the processes that ended printed, for messages.
        var earlierOutput = ""
    }

    /// The service could not be started, or did not say it listens.
    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A service that does not run until `start()`.
    /// - Parameters:
    ///   - store: where it keeps its data.
    ///   - host: the address it listens on.
    ///   - port: the port of the first start; 0 for any free one.
    ///   - home: the service's HOME.
    ///   - launcher: a program and arguments the service is run through.
    ///   - options: more options of `reminders serve` (`--insecure`).
    public init(store: ServerStore, host: String = "127.0.0.1", port: Int = 0, home: URL,
                launcher: [String] = [], options: [String] = []) throws {
        self.store = store
        self.host = host
        self.launcher = launcher
        self.options = options
        binary = try CommandRunner.locateBinary()
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "LANG": "C.UTF-8",
        ]
        state = Mutex(State(port: port))
    }

    deinit {
        stop()
    }

    /// The port it listens on (once started).
    public var port: Int { state.withLock { $0.port } }

    /// The URL devices reach it at.
    public var url: URL {
        URL(string: "http://\(host):\(port)") ?? URL(fileURLWithPath: "/")
    }

    public var isRunning: Bool { state.withLock { $0.process != nil } }

    /// Makes an account on the store and returns its secret (the last line
    /// `reminders serve user add` prints). The service need not run.
    public func addUser(_ name: String) throws -> String {
        let result = try Subprocess.run([binary.path, "serve", "user", "add", name, "--store", store.argument],
                                        environment: environment, timeout: 60)
        guard result.status == 0,
              let secret = result.stdout.split(separator: "\n").last.map(String.init), !secret.isEmpty else {
            throw StartFailure(description: "reminders serve user add \(name): \(result)")
        }
        return secret
    }

    /// A client of the service, signed in as `user`.
    public func remote(user: String, secret: String) -> RemoteServer {
        RemoteServer(url: url, credential: RemoteCredential(userName: user, secret: secret))
    }

    /// Starts the service and returns once it listens (it printed its
    /// "serving" line). Throws with what it printed if it ends first or
    /// does not listen within `timeout` seconds.
    public func start(timeout: TimeInterval = 60) throws {
        let port = state.withLock { state -> Int? in state.process == nil ? state.port : nil }
        guard let port else { return }
        let command = launcher + [binary.path, "serve", "--store", store.argument, "--listen", "\(host):\(port)"] + options
        let process = try Subprocess.start(command, environment: environment)
        let started = Date()
        while true {
            let printed = process.outputSoFar().stdout
            if let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("reminders: serving ") }),
               let bound = line.split(separator: ":").last.flatMap({ Int($0) }) {
                state.withLock {
                    $0.process = process
                    $0.port = bound
                }
                return
            }
            if process.hasEnded {
                let ended = try process.wait()
                throw StartFailure(description: "\(command.joined(separator: " ")) ended before it listened: \(ended)")
            }
            if Date().timeIntervalSince(started) > timeout {
                process.kill()
                let result = try process.wait()
                throw StartFailure(description: "\(command.joined(separator: " ")) did not listen within \(Int(timeout)) s: \(result)")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// `kill -9`: the service ends at once, whatever it was doing; nothing
    /// is flushed. Returns once it has ended.
    public func kill() {
        end(signal: SIGKILL)
    }

    /// Ends the service as an operator would (SIGTERM), killing it if it
    /// does not end within 10 seconds.
    public func stop() {
        end(signal: SIGTERM)
    }

    /// `kill -9`, then a new start on the same store and port.
    public func restart() throws {
        kill()
        try start()
    }

    /// Everything the service printed, through all its starts.
    public func output() -> String {
        state.withLock { state in
            let current = state.process.map { process in
                let (stdout, stderr) = process.outputSoFar()
                return stdout + stderr
            } ?? ""
            return state.earlierOutput + current
        }
    }

    private func end(signal: Int32) {
        guard let process = state.withLock({ $0.process }) else { return }
        process.signal(signal)
        let result: ProcessResult
        do {
            result = try process.wait(timeout: 10)
        } catch let timeout as RunningProcess.Timeout {
            result = timeout.result
        } catch {
            result = ProcessResult(status: -1, stdout: "", stderr: "\(error)")
        }
        state.withLock { state in
            // Another thread may have ended it first, and started it again.
            guard state.process === process else { return }
            state.earlierOutput += result.stdout + result.stderr
            state.process = nil
        }
    }
}
