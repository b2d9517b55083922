import Foundation
import GRDB
import RemindersCore
import Synchronization

/// The state of a screen: a value, compared to decide whether to redraw,
/// with a place for the error of its observation (observations never throw
/// at the screen).
public protocol ViewState: Equatable, Sendable {
    /// Why the screen's data could not be read, one line; nil when fine.
    var errorMessage: String? { get set }
}

/// A screen's view model: its state, a value read through an observation,
/// and its actions, as methods of the conforming type.
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
///
/// A conforming type holds a `ViewModelCore`, which does all of that, and
/// gets the rest from this protocol's extension. It is a final class whose
/// stored properties are constants or guarded by a `Mutex`, so the compiler
/// checks that it is `Sendable`.
public protocol ViewModel: AnyObject, Sendable {
    /// The screen's state, a value compared on every change.
    associatedtype State: ViewState
    /// The machinery: state, observation and queue.
    var core: ViewModelCore<State> { get }
    /// Reads the observed data now, synchronously, and updates `state`.
    /// Errors land in `state.errorMessage`.
    func refresh()
    /// Finishes pending work when the view model stops (default: nothing).
    func willStop()
}

extension ViewModel {
    /// The environment the view model was made with.
    public var environment: AppEnvironment { core.environment }
    /// The environment's store, which actions write through.
    public var store: RemindersStore { core.environment.store }
    /// The serial queue observations are delivered on and `onChange` is
    /// called on.
    public var queue: DispatchQueue { core.queue }

    /// The latest state.
    public var state: State { core.state }

    /// Called on `queue` after `state` changed. Set it before relying on
    /// updates; it may be replaced at any time.
    public var onChange: (@Sendable () -> Void)? {
        get { core.onChange }
        set { core.onChange = newValue }
    }

    public func refresh() { core.refresh() }

    public func willStop() {}

    /// Cancels the observation and finishes pending work. Idempotent.
    public func stop() {
        core.stop()
        willStop()
    }

    /// Changes the state; calls `onChange` on the queue if it differs.
    func update(_ body: (inout State) -> Void) { core.update(body) }

    /// Runs `body` on the queue and waits for it (directly when already
    /// there).
    func onQueue<T>(_ body: () throws -> T) rethrows -> T { try core.onQueue(body) }

    /// Starts (or restarts, cancelling the previous one) observing `fetch`,
    /// applying each value with `apply`. Values of a cancelled observation
    /// that are already in flight are dropped.
    func observe<Value: Sendable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value,
        apply: @escaping @Sendable (inout State, Value) -> Void
    ) {
        core.observe(fetch, apply: apply)
    }

    /// The one line a user sees for an error.
    static func describe(_ error: any Error) -> String { describeViewModelError(error) }

    /// Runs a store action, turning a thrown error into a failed result.
    func perform(_ body: () throws -> ActionResult) -> ActionResult {
        do {
            return try body()
        } catch {
            return .failed(Self.describe(error))
        }
    }
}

/// The one line a user sees for an error.
func describeViewModelError(_ error: any Error) -> String {
    if let error = error as? CoreError { return error.description }
    if let error = error as? DatabaseError { return "database error: \(error.message ?? "\(error.resultCode)")" }
    return "\(error)"
}

/// The machinery shared by every screen's view model (see `ViewModel`).
public final class ViewModelCore<State: ViewState>: Sendable {
    /// The environment the view model was made with.
    public let environment: AppEnvironment
    /// The serial queue observations are delivered on and `onChange` is
    /// called on.
    public let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    private let inner: Mutex<Inner>

    private struct Inner {
        var current: State
        var changeHandler: (@Sendable () -> Void)?
        var cancellable: AnyDatabaseCancellable?
        var generation = 0
        /// Counts `refresh()` calls. An observed value whose fetch began
        /// before the latest refresh may be older than what that refresh
        /// read, so it is read again instead of shown (see `observe`).
        var refreshEpoch = 0
        var reload: (@Sendable () -> Void)?
        /// How many observed values were replaced by a new read.
        var staleReads = 0
        /// The generation of the observation whose value `current` holds
        /// (0: none yet).
        var deliveredGeneration = 0
    }
    /// Signalled when a value (or an error) of an observation lands.
    private let arrival = NSCondition()

    /// A core holding `initial` until the view model's first read.
    /// - Parameters:
    ///   - environment: what the view model reads and writes through.
    ///   - initial: the state before the first read.
    ///   - label: names the queue ("reminders.viewmodel.<label>"), for a
    ///     debugger.
    public init(environment: AppEnvironment, initial: State, label: String) {
        self.environment = environment
        self.queue = DispatchQueue(label: "reminders.viewmodel.\(label)")
        self.inner = Mutex(Inner(current: initial))
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    deinit {
        inner.withLock { $0.cancellable }?.cancel()
    }

    var state: State { inner.withLock { $0.current } }

    var onChange: (@Sendable () -> Void)? {
        get { inner.withLock { $0.changeHandler } }
        set { inner.withLock { $0.changeHandler = newValue } }
    }

    func refresh() {
        let reload = inner.withLock { inner in
            inner.refreshEpoch += 1
            return inner.reload
        }
        guard let reload else { return }
        onQueue(reload)
    }

    func stop() {
        let cancellable = inner.withLock { inner in
            defer {
                inner.cancellable = nil
                inner.generation += 1
            }
            return inner.cancellable
        }
        cancellable?.cancel()
    }

    func update(_ body: (inout State) -> Void) {
        let handler = inner.withLock { inner -> (@Sendable () -> Void)? in
            var state = inner.current
            body(&state)
            let changed = state != inner.current
            inner.current = state
            return changed ? inner.changeHandler : nil
        }
        if let handler { notify(handler) }
    }

    private func notify(_ handler: @escaping @Sendable () -> Void) {
        if DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) {
            handler()
        } else {
            queue.async(execute: handler)
        }
    }

    func onQueue<T>(_ body: () throws -> T) rethrows -> T {
        if DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) {
            return try body()
        }
        return try queue.sync(execute: body)
    }

    func observe<Value: Sendable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value,
        apply: @escaping @Sendable (inout State, Value) -> Void
    ) {
        let writer = environment.writer
        let (myGeneration, previous) = inner.withLock { inner -> (Int, AnyDatabaseCancellable?) in
            inner.generation += 1
            let myGeneration = inner.generation
            let previous = inner.cancellable
            inner.cancellable = nil
            inner.reload = { [weak self] in
                do {
                    let value = try writer.read(fetch)
                    self?.deliver(myGeneration) { apply(&$0, value); $0.errorMessage = nil }
                } catch {
                    self?.deliver(myGeneration) { $0.errorMessage = describeViewModelError(error) }
                }
            }
            return (myGeneration, previous)
        }
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
                self?.deliver(myGeneration) { $0.errorMessage = describeViewModelError(error) }
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
        let kept = inner.withLock { inner -> Bool in
            guard inner.generation == myGeneration else { return false }
            inner.cancellable = started
            return true
        }
        if !kept { started.cancel() }
    }

    private var currentRefreshEpoch: Int { inner.withLock { $0.refreshEpoch } }

    /// Whether `body` would change the state of the current observation.
    private func wouldChange(_ generation: Int, _ body: (inout State) -> Void) -> Bool {
        inner.withLock { inner in
            guard inner.generation == generation else { return false }
            var state = inner.current
            body(&state)
            return state != inner.current
        }
    }

    /// Reads again, on the queue, in place of an observed value that a
    /// refresh may have overtaken. Does not count as a refresh itself.
    private func refreshAfterStaleValue(_ generation: Int) {
        let reload = inner.withLock { inner -> (@Sendable () -> Void)? in
            guard inner.generation == generation, let reload = inner.reload else { return nil }
            inner.staleReads += 1
            return reload
        }
        reload?()
    }

    /// How many observed values were replaced by a new read (tests).
    var staleValuesReadAgain: Int { inner.withLock { $0.staleReads } }

    private func deliver(_ generation: Int, _ body: (inout State) -> Void) {
        let current = inner.withLock { $0.generation == generation }
        guard current else { return }
        update(body)
        arrival.lock()
        inner.withLock { inner in
            if inner.generation == generation { inner.deliveredGeneration = generation }
        }
        arrival.broadcast()
        arrival.unlock()
    }

    /// Waits until the current observation's first value (or its error)
    /// is in `state`, at most `timeout` seconds. False when there is no
    /// observation, or it stopped or was replaced, or the time ran out.
    ///
    /// A screen starting a view model waits for this instead of calling
    /// `refresh()`: the observation began reading when the view model was
    /// made, and a second read of the same data at the same moment doubled
    /// the work of a start (and the connections it opens).
    public func awaitObservedValue(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        arrival.lock()
        defer { arrival.unlock() }
        let generation = inner.withLock { $0.generation }
        while true {
            let (current, delivered, observing) = inner.withLock { ($0.generation, $0.deliveredGeneration, $0.cancellable != nil) }
            guard generation > 0, current == generation else { return false }
            if delivered == generation { return true }
            guard observing, arrival.wait(until: deadline) else { return false }
        }
    }
}
