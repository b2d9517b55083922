import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end as a terminal would start it, for the tmux
/// harnesses and the demo scripts:
/// - with `posix_spawn` and `waitpid`, not Foundation's `Process`, which on
///   Linux waits for the descriptors the child inherited to close (a tmux
///   server forked from the child keeps them for its whole life);
/// - with descriptors above 2 closed, so that server holds none of the test
///   runner's;
/// - with every signal unblocked and at its default: the test runner's
///   worker threads block all signals, and a tmux server that inherited that
///   mask never saw the SIGTERM of `kill-server` and outlived the test with
///   its panes.
enum Spawn {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The exit status and what the program printed on standard output
    /// (and standard error, with `includingErrors`).
    static func run(_ arguments: [String], environment: [String: String], includingErrors: Bool = false) throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let words = ["/usr/bin/env"] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if includingErrors {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        if let closeFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure(description: "cannot start \(arguments.first ?? ""): \(String(cString: strerror(result)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return (status, String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self))
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later),
    /// which Swift's Glibc module does not show.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
}
