import Foundation
import Synchronization
import RemindersCore

/// The few seconds between ticking a reminder and it leaving the list.
///
/// Ticking an incomplete reminder makes it "completing" in the database
/// (still shown, so the tick can be taken back); this scheduler turns every
/// completing reminder it knows into "completed" once `delay` has passed
/// since the *last* tick, so a user ticking several rows in a row sees none
/// of them jump away mid-way. Taking a tick back removes the reminder from
/// the batch. One scheduler per app (in `AppEnvironment`), shared by every
/// screen, so a tick made in Search and taken back in a list is one batch.
public final class CompletionScheduler: Sendable {
    /// Seconds from the last tick until the batch is completed.
    public let delay: TimeInterval
    private let store: RemindersStore
    private let clock: any CompletionClock
    private let batch = Mutex(Batch())

    private struct Batch {
        var pending: Set<String> = []
        var cancelTimer: (@Sendable () -> Void)?
        var errorHandler: (@Sendable (String) -> Void)?
    }

    /// A scheduler for one app; `AppEnvironment` makes it.
    /// - Parameters:
    ///   - store: where the completions are written.
    ///   - delay: seconds from the last tick until the batch is completed.
    ///   - clock: when the delay has passed; real time unless a
    ///     test moves time by hand.
    public init(store: RemindersStore, delay: TimeInterval = 3, clock: any CompletionClock = DispatchCompletionClock()) {
        self.store = store
        self.delay = delay
        self.clock = clock
    }

    /// Ids of reminders waiting to become completed.
    public var pendingIDs: Set<String> {
        batch.withLock { $0.pending }
    }

    /// Called (on the scheduler's queue) when finishing fails, with the
    /// message to show.
    public var onError: (@Sendable (String) -> Void)? {
        get { batch.withLock { $0.errorHandler } }
        set { batch.withLock { $0.errorHandler = newValue } }
    }

    /// A reminder became completing: (re)start the batch's timer.
    public func scheduled(_ id: String) {
        batch.withLock { batch in
            batch.pending.insert(id)
            batch.cancelTimer?()
            batch.cancelTimer = clock.schedule(after: delay) { [weak self] in self?.finishNow() }
        }
    }

    /// A reminder's tick was taken back (or it was deleted).
    public func cancelled(_ id: String) {
        batch.withLock { batch in
            batch.pending.remove(id)
            if batch.pending.isEmpty {
                batch.cancelTimer?()
                batch.cancelTimer = nil
            }
        }
    }

    /// Completes every pending reminder now (leaving a screen, quitting).
    public func finishNow() {
        let (ids, handler) = batch.withLock { batch in
            defer {
                batch.pending = []
                batch.cancelTimer?()
                batch.cancelTimer = nil
            }
            return (batch.pending, batch.errorHandler)
        }
        guard !ids.isEmpty else { return }
        do {
            try store.finishCompleting(ids: Array(ids))
        } catch {
            handler?((error as? CoreError)?.description ?? "\(error)")
        }
    }
}
