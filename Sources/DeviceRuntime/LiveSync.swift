import CloudServer
import Foundation
import GRDB
import Synchronization
import RemindersCore
import RemindersViewModels
import SyncEngine

/// Keeps a running app in sync, with no key pressed: a local edit is sent
/// right after its commit, and a change on the server (its head moves) is
/// fetched at once. All sync work runs on one queue of its own; screens
/// learn of it through `SyncStatusProvider` and their observations.
public final class LiveSync: SyncStatusProvider, Sendable {
    /// The device's engine, which every round runs.
    public let engine: SyncEngine
    /// Where the server is; the watch follows from it.
    public let server: ServerAddress
    private let queue = DispatchQueue(label: "reminders.live-sync")
    private let shared: Mutex<Shared>
    /// Opens the server at an address (the caller's opener, if any, knows
    /// its own).
    private let openServer: @Sendable (_ address: ServerAddress, _ createIfMissing: Bool) throws -> any ServerConnection
    /// Where the server is now (the sign-in read again, say); `server`
    /// unless the caller says otherwise.
    private let addressNow: @Sendable () -> ServerAddress
    private let pollInterval: TimeInterval

    /// What the sync queue, the watchers and the callers share.
    private struct Shared {
        var status = SyncStatus(connection: .online)
        var observers: [Int: @Sendable () -> Void] = [:]
        var nextObserverID = 0
        var connection: (any ServerConnection)?
        var regionObservation: AnyDatabaseCancellable?
        var watcher: (any ServerWatching)?
        /// The address the watcher was made for.
        var watchedAddress: ServerAddress?
        var sendQueued = false
        var fetchQueued = false
        /// A round after a failure is asked for (`retryAfterFailure`).
        var retryQueued = false
        var lastHead: Int64 = -1
        var knownConflicts: Set<String> = []
        /// Until a device's first sync finishes, the entries it receives
        /// are the log its other devices kept before it came: known, not
        /// announced as resolved now.
        var announcesConflicts = true
        var started = false
        var conflictHandler: (@Sendable ([ConflictEntry]) -> Void)?
        /// Set once the server was opened: a directory that goes away
        /// later is waited for, not made again empty (see
        /// `ServerAddress.open`).
        var hasOpened = false
    }

    /// How long the status bar keeps saying that the server was re-joined,
    /// once everything was sent again.
    static let rejoinShownFor: TimeInterval = 60

    /// How often, at most, a live round notes the time of the last sync
    /// (milliseconds).
    static let syncNotedEvery: Int64 = 5_000


    /// A live sync that does nothing until `start()`.
    /// - Parameters:
    ///   - engine: the device's engine (`DeviceSession.engine`).
    ///   - server: where the server is (`DeviceSession.server`).
    ///   - pollInterval: how often the server's head is read when the
    ///     directory watch brings no news (its fallback).
    ///   - openServer: opens the server (tests put a failing one here);
    ///     by default the address's `open(createIfMissing:knownLocation:)`.
    ///   - address: where the server is now, asked at each opening (the
    ///     first, and each after a failure) and the watch made again when
    ///     it changed: the app reads the sign-in again, so a `reminders
    ///     login` made meanwhile is used without a restart. By default,
    ///     `server`.
    public init(engine: SyncEngine, server: ServerAddress, pollInterval: TimeInterval = 1,
                openServer: (@Sendable (_ createIfMissing: Bool) throws -> any ServerConnection)? = nil,
                address: (@Sendable () -> ServerAddress)? = nil) {
        self.engine = engine
        self.server = server
        self.pollInterval = pollInterval
        addressNow = address ?? { server }
        if let openServer {
            self.openServer = { _, createIfMissing in try openServer(createIfMissing) }
        } else {
            self.openServer = { address, createIfMissing in
                try address.open(createIfMissing: createIfMissing, knownLocation: try engine.knownServerLocation())
            }
        }
        shared = Mutex(Shared(knownConflicts: Set(((try? engine.conflicts()) ?? []).map(\.id)),
                              announcesConflicts: (try? engine.status().lastSyncAt) != nil))
    }

    /// A live sync nobody stopped still gives back its watcher's thread and
    /// inotify instance (a user has few). Not `stop()`: the last reference
    /// may go on the sync queue, which `stop()` waits for.
    deinit {
        let (observation, watcher) = shared.withLock { ($0.regionObservation, $0.watcher) }
        observation?.cancel()
        watcher?.stop()
    }

    /// Called (on the sync queue) with conflicts resolved since the last
    /// call, newest first, so the screen can announce them.
    public func onNewConflicts(_ handler: @escaping @Sendable ([ConflictEntry]) -> Void) {
        shared.withLock { $0.conflictHandler = handler }
    }

    /// Starts watching the database and the server, and syncs once.
    public func start() {
        let shouldStart = shared.withLock { shared -> Bool in
            if shared.started { return false }
            shared.started = true
            return true
        }
        guard shouldStart else { return }
        let observation = DatabaseRegionObservation(tracking: Table("sync_metadata"))
        let regionObservation = observation.start(in: engine.writer, onError: { _ in }, onChange: { [weak self] _ in
            self?.scheduleSend()
        })
        let address = addressNow()
        let watcher = makeWatcher(address)
        shared.withLock {
            $0.regionObservation = regionObservation
            $0.watcher = watcher
            $0.watchedAddress = address
        }
        watcher.start()
        queue.async { [weak self] in self?.run(send: true, fetch: true) }
    }

    private func makeWatcher(_ address: ServerAddress) -> any ServerWatching {
        address.watcher(pollInterval: pollInterval,
                        onUnavailable: { [weak self] reason in self?.watchUnavailable(reason) },
                        onTick: { [weak self] in self?.serverTick() })
    }

    /// Stops watching the database and the server, and waits for the sync
    /// work under way. Never call it on the sync queue (from a sharing
    /// request's completion, say): it would wait for itself.
    public func stop() {
        let (observation, watcher) = shared.withLock { shared in
            defer { shared.regionObservation = nil; shared.watcher = nil }
            return (shared.regionObservation, shared.watcher)
        }
        observation?.cancel()
        watcher?.stop()
        queue.sync {}
    }

    /// Waits until the queued sync work is done (for tests and shutdown).
    public func drain() { queue.sync {} }

    /// Whether the user took this device offline.
    public var isOffline: Bool { engine.isOffline }

    /// Takes the device offline (no sends, no fetches; edits pile up as
    /// pending) or back online (everything pending goes at once).
    public func setOffline(_ offline: Bool) {
        try? engine.setOffline(offline)
        publish()
        if !offline { queue.async { [weak self] in self?.run(send: true, fetch: true) } }
    }

    /// Takes the device offline if it is online, and back.
    public func toggleOffline() { setOffline(!isOffline) }

    /// A full round now, whatever the watchers say.
    public func syncNow() {
        queue.async { [weak self] in self?.run(send: true, fetch: true) }
    }

    /// Re-reads pending count, conflicts and offline state (on the sync
    /// queue) after a change made outside a round, such as a dismissed
    /// conflict, so the status bar follows.
    public func refreshStatus() {
        queue.async { [weak self] in self?.publish() }
    }

    /// Runs `body` on the sync queue with the engine connected (sharing
    /// calls make server requests), then `completion` with its error, if any.
    func withConnectedEngine(_ body: @escaping @Sendable (SyncEngine) throws -> Void,
                                    completion: @escaping @Sendable ((any Error)?) -> Void) {
        queue.async { [weak self] in
            guard let self else { return }
            var failure: (any Error)?
            do {
                try self.connect()
                try body(self.engine)
            } catch {
                failure = error
            }
            self.publish()
            completion(failure)
        }
    }

    // MARK: Scheduling

    private func scheduleSend() {
        let first = shared.withLock { shared -> Bool in
            if shared.sendQueued { return false }
            shared.sendQueued = true
            return true
        }
        guard first else { return }
        // At once, not after a pause: commits made while this send runs
        // queue one more send, which takes them all, so a burst still goes
        // in one or two requests, and a single edit leaves without waiting.
        queue.async { [weak self] in
            guard let self else { return }
            self.shared.withLock { $0.sendQueued = false }
            self.run(send: true, fetch: false)
        }
        // Not here and now: this runs on the database's writer queue.
        queue.async { [weak self] in self?.publish() }
    }

    /// Asks for a round `pollInterval` after a failed one. The watch ticks
    /// while the server cannot be reached, but not while a network watch
    /// waits in a long poll begun before the failure (a sign-in refused
    /// since, say): up to its whole wait, the device would not try again.
    private func retryAfterFailure() {
        let first = shared.withLock { shared -> Bool in
            if shared.retryQueued { return false }
            shared.retryQueued = true
            return true
        }
        guard first else { return }
        queue.asyncAfter(deadline: .now() + pollInterval) { [weak self] in
            guard let self else { return }
            // Not once stopped, and not when a round since went well.
            let due = self.shared.withLock { shared -> Bool in
                shared.retryQueued = false
                return shared.watcher != nil && shared.status.errorMessage != nil
            }
            if due { self.run(send: true, fetch: true) }
        }
    }

    private func serverTick() {
        let head = shared.withLock { $0.connection }?.head()
        let changed = shared.withLock { shared -> Bool in
            guard let head else { return true }
            if head == shared.lastHead || shared.fetchQueued { return false }
            shared.fetchQueued = true
            return true
        }
        guard changed else { return }
        queue.async { [weak self] in
            guard let self else { return }
            self.shared.withLock { $0.fetchQueued = false }
            self.run(send: false, fetch: true)
        }
    }

    // MARK: Work (on the queue)

    private func connect() throws {
        if shared.withLock({ $0.connection }) != nil { return }
        do {
            // Opening may have created the directory (first round) or found
            // a new one (repaired): watch it now, not at the next poll. A
            // watch of another address (a new sign-in) is made again.
            let address = addressNow()
            let connection = try openServer(address, !shared.withLock { $0.hasOpened })
            let (watcher, replaced) = shared.withLock { shared -> ((any ServerWatching)?, (any ServerWatching)?) in
                shared.connection = connection
                shared.hasOpened = true
                guard shared.watcher != nil, shared.watchedAddress != address else { return (shared.watcher, nil) }
                let old = shared.watcher
                shared.watcher = makeWatcher(address)
                shared.watchedAddress = address
                return (shared.watcher, old)
            }
            if let replaced {
                replaced.stop()
                watcher?.start()
            } else {
                watcher?.rewatch()
            }
            let databases = connection.databases(user: engine.userName, device: engine.deviceName)
            engine.connect(privateDatabase: databases.private, sharedDatabase: databases.shared,
                           location: server.description)
        } catch {
            engine.disconnect()
            throw error
        }
    }

    private func run(send: Bool, fetch: Bool) {
        guard !engine.isOffline else {
            publish()
            return
        }
        setConnection(.syncing)
        var errorMessage: String?
        let pendingAtStart = (try? engine.pendingCount()) ?? 1
        do {
            try connect()
            let head = shared.withLock { $0.connection }?.head() ?? -1
            var report = SyncReport()
            if send && fetch {
                report = try engine.sync()
            } else if send {
                report = try engine.sendChanges()
            } else {
                report = try engine.fetchChanges()
                // A fetch can leave merged edits to send.
                report.goneShares += try engine.sendChanges().goneShares
            }
            if !report.goneShares.isEmpty {
                let notice = GoneShareNotice(sentence: GoneShareWords.sentence(report.goneShares),
                                             at: Date())
                shared.withLock { $0.status.goneShares = notice }
            }
            if fetch { shared.withLock { $0.lastHead = head } }
            // `reminders status` says when the device last synced, the app
            // too; a note that cannot be written (the file busy) waits for
            // the next round rather than failing this one.
            try? engine.noteSynced(atMostEvery: Self.syncNotedEvery)
            let rejoin = try engine.takeRejoinNotice().map {
                ServerRejoin($0, server: server.description, at: Date())
            }
            let cover = try Self.unavailableCoverLine(engine.waitingAssets())
            shared.withLock { shared in
                shared.status.unavailableCover = cover
                if let rejoin {
                    shared.status.rejoin = rejoin
                } else if pendingAtStart == 0, let shown = shared.status.rejoin,
                          Date().timeIntervalSince(shown.at) > Self.rejoinShownFor {
                    shared.status.rejoin = nil
                }
            }
        } catch SyncError.server(let error) {
            // Shown after "Cannot sync:", which says it is the server's.
            errorMessage = error.description
        } catch let error as SyncError {
            errorMessage = error.description
        } catch let error as CloudError {
            errorMessage = error.description
        } catch {
            errorMessage = "\(error)"
        }
        if errorMessage != nil {
            // Try the server afresh next time: it may have been repaired.
            shared.withLock { $0.connection = nil }
            engine.disconnect()
            retryAfterFailure()
        }
        shared.withLock { shared in
            shared.status.connection = .online
            shared.status.errorMessage = errorMessage
            // A re-join's mark goes in time, also while the server fails.
            if errorMessage != nil, let shown = shared.status.rejoin, Date().timeIntervalSince(shown.at) > Self.rejoinShownFor {
                shared.status.rejoin = nil
            }
            if errorMessage == nil { shared.status.lastSync = Date() }
        }
        // The status first, so a conflict's announcement finds it counted.
        publish()
        announceConflicts(quietly: errorMessage == nil && !shared.withLock { $0.announcesConflicts })
        if errorMessage == nil { shared.withLock { $0.announcesConflicts = true } }
    }

    /// The line the app shows while covers wait for their image
    /// (`WaitingAsset`): the first, the repair, the server's reason.
    static func unavailableCoverLine(_ waiting: [WaitingAsset]) -> String? {
        guard let first = waiting.first else { return nil }
        let list = first.subject.map { "“\($0)”" } ?? "a list"
        let more = waiting.count > 1 ? " (and \(waiting.count - 1) more)" : ""
        return "Cover of \(list)\(more) lost on the server: clear and set it again where it shows · \(first.problem)"
    }

    private func watchUnavailable(_ reason: String?) {
        shared.withLock { $0.status.watchUnavailableReason = reason }
        notify()
    }

    private func setConnection(_ connection: SyncStatus.Connection) {
        shared.withLock { $0.status.connection = connection }
        notify()
    }

    /// `quietly`: noted as known without a word (a first sync's).
    private func announceConflicts(quietly: Bool = false) {
        guard let entries = try? engine.conflicts(includingDismissed: true) else { return }
        let (fresh, handler) = shared.withLock { shared -> ([ConflictEntry], (@Sendable ([ConflictEntry]) -> Void)?) in
            let fresh = entries.filter { !shared.knownConflicts.contains($0.id) }
            shared.knownConflicts.formUnion(fresh.map(\.id))
            return (fresh, shared.conflictHandler)
        }
        if !fresh.isEmpty, !quietly { handler?(fresh) }
    }

    // MARK: SyncStatusProvider

    /// The live sync drives itself: its controls and its sharing requests
    /// are its own.
    public var syncControls: (any SyncControls)? { self }
    public var sharingService: (any SharingService)? { self }

    /// Re-reads pending count, conflicts and offline state, then tells
    /// observers.
    private func publish() {
        if let engineStatus = try? engine.status() {
            shared.withLock { shared in
                shared.status.pendingCount = engineStatus.pendingCount
                shared.status.conflictsCount = engineStatus.conflicts
                if engineStatus.isOffline {
                    shared.status.connection = .offline
                } else if shared.status.connection == .offline {
                    shared.status.connection = .online
                }
                if shared.status.lastSync == nil, let last = engineStatus.lastSyncAt {
                    shared.status.lastSync = Date(timeIntervalSince1970: Double(last) / 1000)
                }
            }
        }
        notify()
    }

    private func notify() {
        let callbacks = shared.withLock { Array($0.observers.values) }
        for callback in callbacks { callback() }
    }

    /// The status as of its last change.
    public func currentStatus() -> SyncStatus {
        shared.withLock { $0.status }
    }

    /// Calls `onChange`, from any thread, after every change of the status
    /// until the subscription is cancelled or released.
    public func observeStatus(_ onChange: @escaping @Sendable () -> Void) -> StatusSubscription {
        let id = shared.withLock { shared -> Int in
            shared.nextObserverID += 1
            shared.observers[shared.nextObserverID] = onChange
            return shared.nextObserverID
        }
        return StatusSubscription { [weak self] in
            guard let self else { return }
            _ = self.shared.withLock { $0.observers.removeValue(forKey: id) }
        }
    }
}

extension LiveSync: SyncControls {
    /// Marks a conflict log entry as seen; the status bar's count follows.
    public func dismissConflict(id: String) throws {
        try engine.dismissConflict(id: id)
        refreshStatus()
    }

    /// Puts the value that lost back, as a local edit that is sent like any
    /// other, and marks the entry as seen. False when the record is gone or
    /// the entry is not a field conflict.
    public func restoreLosingValue(conflictID: String) throws -> Bool {
        // The restored value is an ordinary edit: change capture marks it
        // pending and the commit schedules its send.
        let restored = try engine.restoreLosingValue(conflictID: conflictID)
        refreshStatus()
        return restored
    }
}
