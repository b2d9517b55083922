import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Test-only crash injection: kills the process with SIGKILL right before
/// the N-th write transaction commits, so that tests can prove a crash at
/// any point of a sync loses nothing.
///
/// Off unless the environment asks for it, read once per process:
///
/// - `REMINDERS_FAULT_AFTER_WRITES=N` (N >= 1): the N-th counted write dies
///   before its commit;
/// - `REMINDERS_FAULT_SCOPE=server|device|any` (default `any`): which writes
///   count: the server's request transactions (`DirectoryServer`), the sync
///   engine's transactions on the device database, or both.
///
/// The process prints `reminders: fault injected before write N (<scope>)
/// commits` on stderr and kills itself, so no exit handler, flush or
/// rollback runs: what is on disk is what `kill -9` would leave.
public enum FaultInjection {
    /// Which writes a fault plan counts.
    public enum Scope: String, Sendable {
        case server, device, any
    }

    /// Call inside a write transaction, right before it commits. Costs a
    /// call and a nil check when no fault is planned.
    public static func beforeCommit(_ scope: Scope) {
        guard let plan else { return }
        plan.count(scope)
    }

    private static let plan: Plan? = Plan(environment: ProcessInfo.processInfo.environment)

    private final class Plan: Sendable {
        let target: Int
        let scope: Scope
        private let seen = Atomic(0)

        init?(environment: [String: String]) {
            guard let text = environment["REMINDERS_FAULT_AFTER_WRITES"], let target = Int(text), target >= 1 else {
                return nil
            }
            self.target = target
            scope = environment["REMINDERS_FAULT_SCOPE"].flatMap(Scope.init(rawValue:)) ?? .any
        }

        func count(_ writeScope: Scope) {
            guard scope == .any || scope == writeScope else { return }
            let fire = seen.add(1, ordering: .acquiringAndReleasing).newValue == target
            guard fire else { return }
            let line = "reminders: fault injected before write \(target) (\(writeScope.rawValue)) commits\n"
            line.utf8CString.withUnsafeBufferPointer { buffer in
                _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count - 1)
            }
            kill(getpid(), SIGKILL)
            // SIGKILL cannot be caught; should it be delivered late, do not
            // let the transaction commit meanwhile.
            while true { _ = pause() }
        }
    }
}
