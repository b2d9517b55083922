import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A program started directly with `posix_spawn` (never through a shell),
/// for the notify command.
///
/// Not `Foundation.Process`: on Linux it learns that a child ended when a
/// descriptor the child inherited closes, so a program that leaves a
/// daemon behind (notification helpers do) never "ends" there. Here a
/// thread waits for the child itself. The child gets /dev/null for its
/// standard streams (the terminal belongs to the app), none of the app's
/// other descriptors, default signal handling (ignored signals survive
/// exec), and a process group of its own, so that stopping it stops what
/// it started too.
final class SpawnedProcess: Sendable {
    enum Outcome: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    let pid: pid_t
    private let life = Mutex(Life())

    private struct Life {
        /// Set as soon as the child ended, before it is reaped: from then
        /// on `stop()` sends nothing, so a signal can never reach a reused
        /// pid.
        var hasEnded = false
        var outcome: Outcome?
        var handlers: [@Sendable (Outcome) -> Void] = []
    }

    init(executable: String, arguments: [String]) throws {
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw SpawnError(description: String(cString: strerror(result))) }
        self.pid = pid
        // The thread keeps the object alive until the child ended.
        Thread { [self] in waitForExit() }.start()
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later),
    /// which Swift's Glibc module does not show; looked up at run time so an
    /// older C library only loses the closing of stray descriptors.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    var isRunning: Bool { life.withLock { !$0.hasEnded } }

    /// Calls `handler` once the child ended (at once if it already has),
    /// on the waiting thread.
    func onExit(_ handler: @escaping @Sendable (Outcome) -> Void) {
        let done = life.withLock { life -> Outcome? in
            if let outcome = life.outcome { return outcome }
            life.handlers.append(handler)
            return nil
        }
        if let done { handler(done) }
    }

    /// Asks the child and its group to end (SIGTERM), and kills them a
    /// second later if they have not.
    func stop() {
        signalGroup(SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in signalGroup(SIGKILL) }
    }

    private func signalGroup(_ signal: Int32) {
        life.withLock { life in
            if !life.hasEnded { _ = kill(-pid, signal) }
        }
    }

    private func waitForExit() {
        var info = siginfo_t()
        // Wait without reaping, so the pid stays ours until `hasEnded` is set.
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        life.withLock { $0.hasEnded = true }
        var status: Int32 = 0
        var reaped: pid_t
        repeat {
            reaped = waitpid(pid, &status, 0)
        } while reaped == -1 && errno == EINTR
        // Someone else reaped it (ECHILD): the status is unknown; count it as success.
        let outcome: Outcome = reaped == -1 ? .exited(0)
            : status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        let handlers = life.withLock { life -> [@Sendable (Outcome) -> Void] in
            life.outcome = outcome
            defer { life.handlers = [] }
            return life.handlers
        }
        for handler in handlers { handler(outcome) }
    }
}
