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
    private let queue = DispatchQueue(label: "reminders.completions")
    private let lock = NSLock()
    private var pending: Set<String> = []
    private var timer: DispatchWorkItem?
    private var errorHandler: (@Sendable (String) -> Void)?

    public init(store: RemindersStore, delay: TimeInterval = 3) {
        self.store = store
        self.delay = delay
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
        timer?.cancel()
        let item = DispatchWorkItem { [weak self] in self?.finishNow() }
        timer = item
        lock.unlock()
        queue.asyncAfter(deadline: .now() + delay, execute: item)
    }

    /// A reminder's tick was taken back (or it was deleted).
    public func cancelled(_ id: String) {
        lock.lock()
        pending.remove(id)
        if pending.isEmpty {
            timer?.cancel()
            timer = nil
        }
        lock.unlock()
    }

    /// Completes every pending reminder now (leaving a screen, quitting).
    public func finishNow() {
        lock.lock()
        let ids = pending
        pending = []
        timer?.cancel()
        timer = nil
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
