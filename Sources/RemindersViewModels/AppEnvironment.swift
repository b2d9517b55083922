import Foundation
import GRDB
import RemindersCore

/// Everything a screen needs from the world outside it: the store (database
/// and clock), who and where the user is, and the hooks through which the
/// sync and sharing layers, which come later, describe their state.
///
/// One per process; every view model gets the same one.
public final class AppEnvironment: Sendable {
    /// The database and clock every screen reads and every action writes
    /// through.
    public let store: RemindersStore
    /// The user's name: the owner of every list no one else owns, and the
    /// first half of `identity`.
    public let userName: String
    /// This device's name, which the conflict log records: the conflicts
    /// screen tells this device's edits from others' by it.
    public let deviceName: String
    /// Online/offline, pending changes, last sync, conflicts. Local only
    /// until the sync engine provides its own.
    public let syncStatus: any SyncStatusProvider
    /// Sharing lines and read-only flags of lists. None until the sharing
    /// layer provides its own.
    public let sharing: any SharingInfoProvider
    /// Turns ticked ("completing") reminders into completed ones after a
    /// delay; shared by every screen. Call `completions.finishNow()` before
    /// the app exits.
    public let completions: CompletionScheduler
    /// The offline switch and the conflict log's actions; nil without a
    /// server. Defaults to `syncStatus.syncControls` (`LiveSync` offers
    /// itself), so an app built with `syncStatus: liveSync` gets both.
    public let syncControls: (any SyncControls)?
    /// The list a new reminder goes to when where the user was names none
    /// (Today, a tag, search): a list's title (any case) or id, from the
    /// config file's `default-list`. Nil, or a list that is not there,
    /// means the first list.
    public let defaultList: String?
    /// Whether 3/4 is 3 April or March 4 where the user types dates: the
    /// order of their locale.
    public let dayMonthOrder: DayMonthOrder

    /// An environment for one store; without providers, the device has no
    /// server and no shares.
    /// - Parameters:
    ///   - store: the device's store.
    ///   - userName: who the user is.
    ///   - deviceName: this device's name.
    ///   - syncStatus: the sync layer's report (`LiveSync` in the app).
    ///   - sharing: how lists are shared (`ListSharing` in the app).
    ///   - completionDelay: seconds from the last tick until ticked
    ///     reminders become completed.
    ///   - completionClock: the completion batch's timer; a test passes one
    ///     it moves by hand.
    ///   - syncControls: the offline switch and the conflict log's actions;
    ///     by default `syncStatus.syncControls`.
    ///   - defaultList: the title or id of the list new reminders go to
    ///     when the screen names none.
    ///   - dayMonthOrder: how typed numeric dates read; by default the order
    ///     of the locale the process environment names.
    public init(
        store: RemindersStore,
        userName: String = "me",
        deviceName: String = "default",
        syncStatus: any SyncStatusProvider = LocalOnlySyncStatus(),
        sharing: any SharingInfoProvider = NoSharing(),
        completionDelay: TimeInterval = 3,
        completionClock: any CompletionClock = DispatchCompletionClock(),
        syncControls: (any SyncControls)? = nil,
        defaultList: String? = nil,
        dayMonthOrder: DayMonthOrder = .fromEnvironment()
    ) {
        self.store = store
        self.userName = userName
        self.deviceName = deviceName
        self.syncStatus = syncStatus
        self.sharing = sharing
        self.syncControls = syncControls ?? syncStatus.syncControls
        self.defaultList = defaultList
        self.completions = CompletionScheduler(store: store, delay: completionDelay, clock: completionClock)
        self.dayMonthOrder = dayMonthOrder
    }

    /// The store's database, which observations read.
    public var writer: any DatabaseWriter { store.writer }
    /// The store's clock: what "now" and "today" mean on every screen.
    public var clock: AppClock { store.clock }

    /// Reads typed due dates relative to the clock, now.
    public var naturalDates: NaturalDate { NaturalDate(clock: clock, order: dayMonthOrder) }

    /// "me@default", for the status bar.
    public var identity: String { "\(userName)@\(deviceName)" }

    /// How a list is shared, or nil for a list that is not. Reads the
    /// database; view models read it inside their observations instead, so
    /// that sharing changes redraw the screen.
    public func shareStatus(listID: String) -> ListShareStatus? {
        (try? writer.read { db in try sharing.shareStatus(db, listID: listID) }) ?? nil
    }

    /// Whether the user may only read this list (a read-only share).
    public func isReadOnly(listID: String) -> Bool {
        (try? writer.read { db in try sharing.isReadOnly(db, listID: listID) }) ?? false
    }
}
