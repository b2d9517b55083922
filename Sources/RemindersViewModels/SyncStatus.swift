import Foundation
import RemindersCore
import SyncEngine
import Synchronization

/// What the status bar says about sync.
public struct SyncStatus: Equatable, Sendable {
    /// Where the device stands with its server.
    public enum Connection: Equatable, Sendable {
        /// No server configured: everything stays on this device.
        case localOnly
        /// The server was reachable on the last attempt.
        case online
        /// The server could not be reached; edits wait in `pendingCount`.
        case offline
        /// A send or fetch is running.
        case syncing
    }

    /// Where the device stands with its server.
    public var connection: Connection
    /// Local changes not yet confirmed by the server.
    public var pendingCount: Int
    /// When a round last finished without error; nil before the first.
    public var lastSync: Date?
    /// Entries in the conflict log the user has not looked at.
    public var conflictsCount: Int
    /// The last sync error, one line, or nil.
    public var errorMessage: String?
    /// Why changes on the server are only noticed by the periodic poll
    /// (the directory watch could not be set up), or nil when it works.
    public var watchUnavailableReason: String?
    /// Set when the device re-joined a server that was reset, replaced or
    /// put back from an older copy, until a round a minute later finds
    /// nothing left to send.
    public var rejoin: ServerRejoin?
    /// What the last round received but could not show: a list's cover
    /// whose image the server could not give (everything else synced),
    /// one line with the repair, or nil.
    public var unavailableCover: String?
    /// The last round's word that lists shared with this user went from
    /// this device (their owner deleted them or stopped sharing), with
    /// when, for the app to say once; nil before any.
    public var goneShares: GoneShareNotice?

    /// A status, for a fake sync layer or a test.
    public init(connection: Connection = .localOnly, pendingCount: Int = 0, lastSync: Date? = nil,
                conflictsCount: Int = 0, errorMessage: String? = nil, watchUnavailableReason: String? = nil,
                rejoin: ServerRejoin? = nil, unavailableCover: String? = nil) {
        self.connection = connection
        self.pendingCount = pendingCount
        self.lastSync = lastSync
        self.conflictsCount = conflictsCount
        self.errorMessage = errorMessage
        self.watchUnavailableReason = watchUnavailableReason
        self.rejoin = rejoin
        self.unavailableCover = unavailableCover
    }

    /// The status of a device without a server.
    public static let localOnly = SyncStatus()

    /// A short line for the status bar: "local only", "synced 10:42",
    /// "offline · 3 pending", "syncing…", with "· 2 conflicts" when any and
    /// "· polling" when other devices' edits arrive by the poll only.
    public func summary(timeZone: TimeZone = LocalZone.current) -> String {
        var parts: [String] = []
        switch connection {
        case .localOnly: parts.append("local only")
        case .syncing: parts.append("syncing…")
        case .offline: parts.append("offline")
        case .online:
            if let lastSync {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = timeZone
                formatter.dateFormat = "HH:mm"
                parts.append("synced \(formatter.string(from: lastSync))")
            } else {
                parts.append("online")
            }
        }
        if rejoin != nil { parts.append("re-joined server") }
        if pendingCount > 0 { parts.append("\(pendingCount) pending") }
        if conflictsCount > 0 { parts.append(conflictsCount == 1 ? "1 conflict" : "\(conflictsCount) conflicts") }
        if errorMessage != nil, connection != .offline { parts.append("error") }
        if watchUnavailableReason != nil, connection != .offline { parts.append("polling") }
        return parts.joined(separator: " · ")
    }
}

/// The sync layer's report to the screens. Implementations call the
/// observers whenever the status changes, from any thread.
public protocol SyncStatusProvider: Sendable {
    /// The status now.
    func currentStatus() -> SyncStatus
    /// Calls `onChange` after every change of the status until the
    /// returned subscription is cancelled or released.
    func observeStatus(_ onChange: @escaping @Sendable () -> Void) -> StatusSubscription
    /// The controls of the sync this status reports on (the offline
    /// switch, a round now, the conflict log's actions), when it offers
    /// them; nil (the default) for a status alone. A requirement rather
    /// than a cast: a failed cast to a protocol costs the runtime a search
    /// of every conformance in the program, on the start's main thread.
    var syncControls: (any SyncControls)? { get }
    /// Where the sharing requests of this sync run, when it runs them; nil
    /// (the default) otherwise.
    var sharingService: (any SharingService)? { get }
}

extension SyncStatusProvider {
    public var syncControls: (any SyncControls)? { nil }
    public var sharingService: (any SharingService)? { nil }
}

/// Keeps a status observer alive; cancelling or releasing it stops the
/// calls.
public final class StatusSubscription: Sendable {
    private let cancelAction: Mutex<(@Sendable () -> Void)?>

    /// A subscription that runs `cancel` once: when cancelled or released.
    public init(cancel: @escaping @Sendable () -> Void) {
        cancelAction = Mutex(cancel)
    }

    /// Stops the calls. Idempotent.
    public func cancel() {
        let action = cancelAction.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}

/// The status of an app without a server: never changes.
public struct LocalOnlySyncStatus: SyncStatusProvider {
    /// The status of a device with no server.
    public init() {}
    public func currentStatus() -> SyncStatus { .localOnly }
    public func observeStatus(_ onChange: @escaping @Sendable () -> Void) -> StatusSubscription {
        StatusSubscription(cancel: {})
    }
}

/// Lists shared with this user that a round took from this device.
public struct GoneShareNotice: Equatable, Sendable {
    /// One sentence for them all (`GoneShareWords.sentence`).
    public var sentence: String
    public var at: Date

    public init(sentence: String, at: Date) {
        self.sentence = sentence
        self.at = at
    }
}

/// The word that a list someone shared went from this device: its owner
/// deleted it or stopped sharing it, which this side cannot tell apart.
public enum GoneShareWords {
    /// "alice's list “Trip” is gone from this device: it was deleted, or
    /// is no longer shared with you."; several: "alice's lists “Trip” and
    /// “Food” are gone…", owners named as they come. Who did it this side
    /// cannot tell (the owner, or this user leaving on another device).
    public static func sentence(_ gone: [GoneShare]) -> String {
        guard !gone.isEmpty else { return "" }
        let owners = gone.reduce(into: [String]()) { if !$0.contains($1.owner) { $0.append($1.owner) } }
        let names = gone.map { $0.name.map { "“\($0)”" } ?? "a list" }
        let listed = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        if owners.count == 1 {
            let owner = owners[0]
            return gone.count == 1
                ? "\(owner)'s list \(listed) is gone from this device: it was deleted, or is no longer shared with you."
                : "\(owner)'s lists \(listed) are gone from this device: they were deleted, or are no longer shared with you."
        }
        return "Lists \(listed) shared with you are gone from this device: they were deleted, or are no longer shared with you."
    }
}
