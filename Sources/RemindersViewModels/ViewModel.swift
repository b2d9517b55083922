import Foundation
import GRDB
import RemindersCore

/// The state of a screen: a value, compared to decide whether to redraw,
/// with a place for the error of its observation (observations never throw
/// at the screen).
public protocol ViewState: Equatable, Sendable {
    /// Why the screen's data could not be read, one line; nil when fine.
    var errorMessage: String? { get set }
}

/// The machinery shared by every screen's view model.
///
/// Contract:
/// - `state` is the latest value, readable from any thread.
/// - Observations (GRDB `ValueObservation`) run on `queue`, a serial queue
///   of this view model, never the main queue: the TUI's main thread sleeps
///   in `poll()`. After every change of `state`, `onChange` is called on
///   `queue`; the TUI uses it to write to its wake pipe.
/// - `refresh()` reads the state synchronously (first frame, tests).
/// - `stop()` (also run on deinit) cancels the observation and finishes
///   pending work such as reminders still "completing".
public class ViewModel<State: ViewState>: @unchecked Sendable {
    public let environment: AppEnvironment
    /// The serial queue observations are delivered on and `onChange` is
    /// called on.
    public let queue: DispatchQueue

    private let lock = NSLock()
    private var current: State
    private var changeHandler: (@Sendable () -> Void)?
    private var cancellable: AnyDatabaseCancellable?
    private var generation = 0
    /// Counts `refresh()` calls. An observed value whose fetch began before
    /// the latest refresh may be older than what that refresh read, so it is
    /// read again instead of shown (see `observe`).
    private var refreshEpoch = 0
    private var reload: (() -> Void)?
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    init(environment: AppEnvironment, initial: State, label: String) {
        self.environment = environment
        self.queue = DispatchQueue(label: "reminders.viewmodel.\(label)")
        self.current = initial
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    deinit {
        cancellable?.cancel()
    }

    public var store: RemindersStore { environment.store }

    /// The latest state.
    public var state: State {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Called on `queue` after `state` changed. Set it before relying on
    /// updates; it may be replaced at any time.
    public var onChange: (@Sendable () -> Void)? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return changeHandler
        }
        set {
            lock.lock()
            changeHandler = newValue
            lock.unlock()
        }
    }

    /// Reads the observed data now, synchronously, and updates `state`.
    /// Errors land in `state.errorMessage`.
    public func refresh() {
        lock.lock()
        let reload = self.reload
        refreshEpoch += 1
        lock.unlock()
        guard let reload else { return }
        onQueue(reload)
    }

    /// Cancels the observation and finishes pending work. Idempotent.
    public func stop() {
        lock.lock()
        let cancellable = self.cancellable
        self.cancellable = nil
        generation += 1
        lock.unlock()
        cancellable?.cancel()
        willStop()
    }

    /// Subclasses finish their pending work here.
    func willStop() {}

    /// Changes the state; calls `onChange` on the queue if it differs.
    func update(_ body: (inout State) -> Void) {
        lock.lock()
        var state = current
        body(&state)
        let changed = state != current
        current = state
        let handler = changeHandler
        lock.unlock()
        if changed, let handler { notify(handler) }
    }

    private func notify(_ handler: @escaping @Sendable () -> Void) {
        if DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) {
            handler()
        } else {
            queue.async(execute: handler)
        }
    }

    /// Runs `body` on the queue and waits for it (directly when already
    /// there).
    func onQueue<T>(_ body: () throws -> T) rethrows -> T {
        if DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) {
            return try body()
        }
        return try queue.sync(execute: body)
    }

    /// Starts (or restarts, cancelling the previous one) observing `fetch`,
    /// applying each value with `apply`. Values of a cancelled observation
    /// that are already in flight are dropped.
    func observe<Value: Sendable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value,
        apply: @escaping @Sendable (inout State, Value) -> Void
    ) {
        lock.lock()
        generation += 1
        let myGeneration = generation
        let previous = cancellable
        cancellable = nil
        let writer = environment.writer
        reload = { [weak self] in
            do {
                let value = try writer.read(fetch)
                self?.deliver(myGeneration) { apply(&$0, value); $0.errorMessage = nil }
            } catch {
                self?.deliver(myGeneration) { $0.errorMessage = Self.describe(error) }
            }
        }
        lock.unlock()
        previous?.cancel()

        // Each observed value carries the refresh epoch its fetch began in.
        // A value from before the latest refresh may predate it (the
        // observation's first fetch runs concurrently with the caller), and
        // showing it would take the screen back in time until the next
        // write; such a value is replaced by a fresh read.
        let observation = ValueObservation.tracking { [weak self] db in
            (self?.currentRefreshEpoch ?? 0, try fetch(db))
        }
        let started = observation.start(
            in: writer,
            scheduling: .async(onQueue: queue),
            onError: { [weak self] error in
                self?.deliver(myGeneration) { $0.errorMessage = Self.describe(error) }
            },
            onChange: { [weak self] epoch, value in
                guard let self else { return }
                if epoch < self.currentRefreshEpoch {
                    // A value the screen already shows needs no new read:
                    // older or newer, it changes nothing (the usual case,
                    // a screen refreshed as it opens).
                    if self.wouldChange(myGeneration, { apply(&$0, value); $0.errorMessage = nil }) {
                        self.refreshAfterStaleValue(myGeneration)
                    }
                } else {
                    self.deliver(myGeneration) { apply(&$0, value); $0.errorMessage = nil }
                }
            })
        lock.lock()
        if generation == myGeneration {
            cancellable = started
            lock.unlock()
        } else {
            lock.unlock()
            started.cancel()
        }
    }

    private var currentRefreshEpoch: Int {
        lock.lock()
        defer { lock.unlock() }
        return refreshEpoch
    }

    /// Whether `body` would change the state of the current observation.
    private func wouldChange(_ generation: Int, _ body: (inout State) -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard self.generation == generation else { return false }
        var state = current
        body(&state)
        return state != current
    }

    /// Reads again, on the queue, in place of an observed value that a
    /// refresh may have overtaken. Does not count as a refresh itself.
    private func refreshAfterStaleValue(_ generation: Int) {
        lock.lock()
        let reload = self.generation == generation ? self.reload : nil
        if reload != nil { staleReads += 1 }
        lock.unlock()
        reload?()
    }

    private var staleReads = 0

    /// How many observed values were replaced by a new read (tests).
    var staleValuesReadAgain: Int {
        lock.lock()
        defer { lock.unlock() }
        return staleReads
    }

    private func deliver(_ generation: Int, _ body: (inout State) -> Void) {
        lock.lock()
        let current = self.generation == generation
        lock.unlock()
        if current { update(body) }
    }

    /// The one line a user sees for an error.
    static func describe(_ error: Error) -> String {
        if let error = error as? CoreError { return error.description }
        if let error = error as? DatabaseError { return "database error: \(error.message ?? "\(error.resultCode)")" }
        return "\(error)"
    }

    /// Runs a store action, turning a thrown error into a failed result.
    func perform(_ body: () throws -> ActionResult) -> ActionResult {
        do {
            return try body()
        } catch {
            return .failed(Self.describe(error))
        }
    }
}
