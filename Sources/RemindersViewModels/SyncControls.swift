import Foundation
import SyncEngine

/// What screens may ask of the sync layer beyond its status: the offline
/// switch, a round now, the conflict log's two actions, and news of
/// conflicts as the merge resolves them. `LiveSync` provides it in the app;
/// tests may provide a fake.
///
/// Every call returns quickly: sends and fetches run on the sync layer's own
/// queue, never on the caller's thread.
public protocol SyncControls: AnyObject, Sendable {
    /// The user took this device offline (no sends, no fetches).
    var isOffline: Bool { get }
    /// Takes the device offline, or back online (everything pending goes).
    func setOffline(_ offline: Bool)
    /// A full round (send, then fetch) as soon as the sync queue is free.
    func syncNow()
    /// `handler` is called, on the sync layer's queue, with the conflicts
    /// each round resolved, newest first. One handler; a new one replaces it.
    func onNewConflicts(_ handler: @escaping @Sendable ([ConflictEntry]) -> Void)
    /// Marks a conflict log entry as seen.
    func dismissConflict(id: String) throws
    /// Puts the value that lost back, as a new local edit that syncs, and
    /// marks the entry as seen. False when the record is gone or the entry
    /// is not a field conflict.
    func restoreLosingValue(conflictID: String) throws -> Bool
}
