import Foundation
import Synchronization

/// The completion batch's timer. Injected so that a test can move time by
/// hand: the batch's behaviour is about the order of ticks and deadlines,
/// which real time on a loaded machine does not keep.
public protocol CompletionClock: Sendable {
    /// Calls `action` once, `delay` seconds from now, on a thread of the
    /// clock's choosing; returns what cancels it (a no-op once it ran).
    func schedule(after delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void
}

/// Real time, on a serial queue of its own.
public struct DispatchCompletionClock: CompletionClock {
    private let queue = DispatchQueue(label: "reminders.completions")

    /// A clock with a serial queue of its own.
    public init() {}

    public func schedule(after delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let timer = Timer()
        queue.asyncAfter(deadline: .now() + delay) {
            if !timer.isCancelled.load(ordering: .acquiring) { action() }
        }
        return { timer.isCancelled.store(true, ordering: .releasing) }
    }

    private final class Timer: Sendable {
        let isCancelled = Atomic(false)
    }
}
