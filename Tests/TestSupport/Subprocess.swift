import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a finished program left behind.
public struct ProcessResult: CustomStringConvertible, Sendable {
    /// The exit status; 128 plus the signal's number when a signal ended it.
    public var status: Int32
    /// The signal that ended the program, if one did.
    public var signal: Int32?
    public var stdout: String
    /// Empty when standard error went into `stdout`.
    public var stderr: String

    public init(status: Int32, signal: Int32? = nil, stdout: String, stderr: String) {
        self.status = status
        self.signal = signal
        self.stdout = stdout
        self.stderr = stderr
    }

    public var description: String {
        let end = signal.map { "killed by signal \($0)" } ?? "exit \(status)"
        return "\(end)\nstdout: \(stdout)\nstderr: \(stderr)"
    }
}

/// A program started by a test, running until it ends by itself or is
/// signalled. Started with `posix_spawn`, not Foundation's `Process`, which
/// on Linux waits for the descriptors the child inherited to close (a tmux
/// server forked from the child keeps them for its whole life). The child
/// gets:
/// - /dev/null as standard input and files, not pipes, for its output, so
///   a chatty program cannot fill a pipe and stall;
/// - none of the test runner's other descriptors;
/// - every signal unblocked and at its default: the test runner's worker
///   threads block all signals, and a tmux server that inherited that mask
///   never saw the SIGTERM of `kill-server` and outlived the test;
/// - a process group of its own, so that a timeout ends what it started too.
///
/// A thread waits for the child; a signal is never sent once it ended, so
/// it cannot reach a reused pid.
public final class RunningProcess: Sendable {
    public let pid: pid_t
    /// The program and its arguments, for messages.
    public let command: [String]
    private let outputFolder: URL
    /// Set once the child ended (`hasEnded` before it is reaped).
    private let state = Mutex<(hasEnded: Bool, status: Int32, signal: Int32?)>((false, -1, nil))
    private let ended = DispatchSemaphore(value: 0)

    /// The failure to start, with the program's name.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// A program that did not end within the time it was given; it was
    /// killed, with everything it started.
    public struct Timeout: Error, CustomStringConvertible {
        public var command: [String]
        public var seconds: TimeInterval
        public var result: ProcessResult
        public var description: String {
            "\(command.joined(separator: " ")) did not end within \(Int(seconds)) s and was killed\n\(result)"
        }
    }

    /// Starts `command` (a program, found on the environment's PATH unless
    /// it names a file, and its arguments).
    /// - Parameters:
    ///   - environment: the child's whole environment.
    ///   - directory: the child's working directory; this process's if nil.
    ///   - mergingErrors: standard error goes into `stdout`, interleaved as
    ///     a terminal would show it.
    public init(_ command: [String], environment: [String: String], directory: URL? = nil,
                mergingErrors: Bool = false) throws {
        guard let program = command.first else { throw StartError(description: "no program to start") }
        let executable = try Self.resolve(program, path: environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"])
        self.command = command
        outputFolder = FileManager.default.temporaryDirectory.appendingPathComponent("process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)

        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFolder.appendingPathComponent("stdout").path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if mergingErrors {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, outputFolder.appendingPathComponent("stderr").path,
                                             O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }
        if let directory {
            guard let changeDirectory = Self.changeDirectory else {
                throw StartError(description: "cannot start \(program) in \(directory.path): this C library cannot set a child's directory")
            }
            _ = changeDirectory(&actions, directory.path)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        var pid: pid_t = 0
        let started = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard started == 0 else {
            try? FileManager.default.removeItem(at: outputFolder)
            throw StartError(description: "cannot start \(program): \(String(cString: strerror(started)))")
        }
        self.pid = pid
        Thread { [self] in waitForEnd() }.start()
    }

    /// Sends `signal` to the program, unless it has ended.
    public func signal(_ signal: Int32) {
        state.withLock { state in
            if !state.hasEnded { _ = Glibc.kill(pid, signal) }
        }
    }

    /// SIGKILL, like `kill -9`: nothing is flushed.
    public func kill() { signal(SIGKILL) }

    /// Waits for the end and returns what the program printed. With a
    /// `timeout`, a program still running then is killed (with its process
    /// group) and `Timeout` thrown.
    @discardableResult
    public func wait(timeout: TimeInterval? = nil) throws -> ProcessResult {
        if let timeout, ended.wait(timeout: .now() + timeout) == .timedOut {
            state.withLock { state in
                if !state.hasEnded { _ = Glibc.kill(-pid, SIGKILL) }
            }
            ended.wait()
            ended.signal()
            throw Timeout(command: command, seconds: timeout, result: try collect())
        }
        if timeout == nil { ended.wait() }
        ended.signal()  // later calls return at once
        return try collect()
    }

    /// Whether the program has ended (by itself or by a signal).
    public var hasEnded: Bool { state.withLock { $0.hasEnded } }

    /// What the program printed so far, while it runs (a server's "ready"
    /// line, say).
    public func outputSoFar() -> (stdout: String, stderr: String) {
        func read(_ name: String) -> String {
            String(decoding: (try? Data(contentsOf: outputFolder.appendingPathComponent(name))) ?? Data(), as: UTF8.self)
        }
        return (read("stdout"), read("stderr"))
    }

    private func collect() throws -> ProcessResult {
        let (status, signal) = state.withLock { ($0.status, $0.signal) }
        let (stdout, stderr) = outputSoFar()
        return ProcessResult(status: status, signal: signal, stdout: stdout, stderr: stderr)
    }

    deinit {
        try? FileManager.default.removeItem(at: outputFolder)
    }

    private func waitForEnd() {
        var info = siginfo_t()
        // Waits without reaping, so the pid stays ours until `hasEnded` is set.
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        state.withLock { state in
            state.hasEnded = true
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            let signal = status & 0x7f
            (state.status, state.signal) = signal == 0 ? ((status >> 8) & 0xff, nil) : (128 + signal, signal)
        }
        ended.signal()
    }

    /// The file `program` names: itself when it holds a slash, else the
    /// first executable of that name on `path`.
    private static func resolve(_ program: String, path: String?) throws -> String {
        if program.contains("/") { return program }
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw StartError(description: "cannot start \(program): not found on PATH \(path ?? "(unset)")")
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later)
    /// and `posix_spawn_file_actions_addchdir_np` (2.29), which Swift's
    /// Glibc module does not show.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    private static let changeDirectory: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
    }()
}

/// Runs programs for tests: to the end, or in the background.
public enum Subprocess {
    /// Runs `command` to its end and returns its status and output. See
    /// `RunningProcess` for the child's world. With a `timeout`, a program
    /// still running then is killed and `RunningProcess.Timeout` thrown.
    @discardableResult
    public static func run(_ command: [String], environment: [String: String], directory: URL? = nil,
                           mergingErrors: Bool = false, timeout: TimeInterval? = nil) throws -> ProcessResult {
        try RunningProcess(command, environment: environment, directory: directory, mergingErrors: mergingErrors)
            .wait(timeout: timeout)
    }

    /// Starts `command` without waiting for it.
    public static func start(_ command: [String], environment: [String: String], directory: URL? = nil,
                             mergingErrors: Bool = false) throws -> RunningProcess {
        try RunningProcess(command, environment: environment, directory: directory, mergingErrors: mergingErrors)
    }
}
