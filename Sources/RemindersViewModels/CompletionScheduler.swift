import Foundation
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
public final class CompletionScheduler: @unchecked Sendable {
    public let delay: TimeInterval
    private let store: RemindersStore
    private let clock: any CompletionClock
    private let lock = NSLock()
    private var pending: Set<String> = []
    private var cancelTimer: (@Sendable () -> Void)?
    private var errorHandler: (@Sendable (String) -> Void)?

    /// - Parameter clock: when the delay has passed; real time unless a
    ///   test moves time by hand.
    public init(store: RemindersStore, delay: TimeInterval = 3, clock: any CompletionClock = DispatchCompletionClock()) {
        self.store = store
        self.delay = delay
        self.clock = clock
    }

    /// Ids of reminders waiting to become completed.
    public var pendingIDs: Set<String> {
        lock.lock()
        defer { lock.unlock() }
        return pending
    }

    /// Called (on the scheduler's queue) when finishing fails, with the
    /// message to show.
    public var onError: (@Sendable (String) -> Void)? {
        get { lock.lock(); defer { lock.unlock() }; return errorHandler }
        set { lock.lock(); errorHandler = newValue; lock.unlock() }
    }

    /// A reminder became completing: (re)start the batch's timer.
    public func scheduled(_ id: String) {
        lock.lock()
        pending.insert(id)
        cancelTimer?()
        cancelTimer = clock.schedule(after: delay) { [weak self] in self?.finishNow() }
        lock.unlock()
    }

    /// A reminder's tick was taken back (or it was deleted).
    public func cancelled(_ id: String) {
        lock.lock()
        pending.remove(id)
        if pending.isEmpty {
            cancelTimer?()
            cancelTimer = nil
        }
        lock.unlock()
    }

    /// Completes every pending reminder now (leaving a screen, quitting).
    public func finishNow() {
        lock.lock()
        let ids = pending
        pending = []
        cancelTimer?()
        cancelTimer = nil
        let handler = errorHandler
        lock.unlock()
        guard !ids.isEmpty else { return }
        do {
            try store.finishCompleting(ids: Array(ids))
        } catch {
            handler?((error as? CoreError)?.description ?? "\(error)")
        }
    }
}
