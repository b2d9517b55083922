import Foundation
import Synchronization
import RemindersCore

/// The state of `StatusBarViewModel`.
public struct StatusBarState: ViewState {
    /// "me@default".
    public var identity: String
    /// What the sync layer reported last.
    public var sync: SyncStatus
    public var errorMessage: String?

    /// The defaults are those of a device without a server.
    public init(identity: String, sync: SyncStatus = .localOnly, errorMessage: String? = nil) {
        self.identity = identity
        self.sync = sync
        self.errorMessage = errorMessage
    }

    /// "local only", "synced 10:42 · 2 pending", …
    public var syncSummary: String { sync.summary() }
}

/// The status bar's data: who and where, and the sync state reported by the
/// environment's `SyncStatusProvider`.
public final class StatusBarViewModel: ViewModel {
    public let core: ViewModelCore<StatusBarState>
    private let subscription = Mutex<StatusSubscription?>(nil)

    /// Subscribes to the environment's sync status at once.
    public init(environment: AppEnvironment) {
        core = ViewModelCore(environment: environment,
                             initial: StatusBarState(identity: environment.identity,
                                                     sync: environment.syncStatus.currentStatus()),
                             label: "status")
        let provider = environment.syncStatus
        let subscription = provider.observeStatus { [weak self] in
            guard let self else { return }
            self.queue.async {
                let status = provider.currentStatus()
                self.update { $0.sync = status }
            }
        }
        self.subscription.withLock { $0 = subscription }
    }

    /// Ends the subscription to the sync status.
    public func willStop() {
        subscription.withLock { $0 }?.cancel()
    }
}
