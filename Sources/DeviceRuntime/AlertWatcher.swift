import Foundation
import Synchronization
import RemindersCore
import RemindersViewModels

/// A device's due alerts with no screen: what `reminders alerts --watch`
/// runs in the background.
///
/// It is the full-screen app minus the screen: the device's live sync (so
/// a reminder added on another device arrives, and alerts here), a watch
/// for writes of other processes (the command line, the app), and the
/// app's `DueAlertScheduler`, which claims each alert in the device's log.
/// Running beside the app on the same device, the two share that log, and
/// each alert is raised by whichever claims it first, never by both.
///
/// Alerts and problems are handed to the callbacks given to `start`, on
/// the scheduler's queue, one at a time; problems are each told once until
/// they clear (a server that stays away is not reported every second).
public final class AlertWatcher: Sendable {
    /// The scheduler it runs, for its state.
    public let scheduler: DueAlertScheduler
    private let live: LiveSync?
    private let otherWrites: OtherProcessWrites
    private let shared = Mutex(Shared())

    private struct Shared {
        var subscription: StatusSubscription?
        var lastSyncError: String?
        var lastError: String?
    }

    /// A watcher that does nothing until `start`.
    /// - Parameters:
    ///   - session: the device.
    ///   - settings: the due hour and the notifier (the notify command, or
    ///     none).
    ///   - liveSync: whether to keep the device in sync, as the app does;
    ///     off, it sees what other processes of the device write.
    public init(session: DeviceSession, settings: DueAlertSettings, liveSync: Bool = true) {
        let live = liveSync ? LiveSync(engine: session.engine, server: session.server) : nil
        self.live = live
        otherWrites = OtherProcessWrites(writer: session.writer)
        let environment = AppEnvironment(
            store: session.store, userName: session.userName, deviceName: session.deviceName,
            syncStatus: live ?? LocalOnlySyncStatus(), sharing: session.sharing)
        scheduler = DueAlertScheduler(environment: environment, settings: settings)
    }

    /// Starts syncing, watching and raising alerts.
    /// - Parameters:
    ///   - onAlert: each alert this device raised here, as it comes.
    ///   - onProblem: a line for the user: the notify command failed, the
    ///     database could not be read, a sync failed.
    public func start(onAlert: @escaping @Sendable (DueAlert) -> Void,
                      onProblem: @escaping @Sendable (String) -> Void) {
        scheduler.onChange = { [weak self] in
            guard let self else { return }
            let scheduler = self.scheduler
            for event in scheduler.takeEvents() {
                switch event {
                case .alert(let alert): onAlert(alert)
                case .notifyFailed(let message): onProblem(message)
                }
            }
            let error = scheduler.state.errorMessage
            let isNew = self.shared.withLock { shared in
                defer { shared.lastError = error }
                return error != nil && error != shared.lastError
            }
            if isNew, let error { onProblem(error) }
        }
        if let live {
            let subscription = live.observeStatus { [weak self, weak live] in
                guard let live else { return }
                let error = live.currentStatus().errorMessage
                let isNew = self?.shared.withLock { shared in
                    defer { shared.lastSyncError = error }
                    return error != nil && error != shared.lastSyncError
                } ?? false
                if isNew, let error { onProblem("sync: \(error)") }
            }
            shared.withLock { $0.subscription = subscription }
            live.start()
        }
        otherWrites.start()
        scheduler.start()
    }

    /// Stops raising alerts, watching and syncing; waits for the sync work
    /// under way.
    public func stop() {
        scheduler.stop()
        otherWrites.stop()
        shared.withLock { $0.subscription }?.cancel()
        live?.stop()
    }
}
