import Foundation
import GRDB

/// What `reminders status` shows: the state of this device's sync.
public struct EngineStatus: Codable, Equatable, Sendable {
    /// Local changes not yet confirmed by the server.
    public var pendingSaves: Int
    public var pendingDeletes: Int
    /// Milliseconds since 1970 of the last completed sync, if any.
    public var lastSyncAt: Int64?
    /// Conflict log entries not dismissed.
    public var conflicts: Int
    /// The user took this device offline: no sends, no fetches.
    public var isOffline: Bool
    /// A sync reached the server (its mark is kept) though none finished:
    /// `lastSyncAt` is nil after a first sync stopped partway.
    public var hasReachedServer: Bool

    public var pendingCount: Int { pendingSaves + pendingDeletes }
}

extension SyncEngine {
    public func status() throws -> EngineStatus {
        try writer.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT
                  (SELECT count(*) FROM sync_metadata WHERE isPendingSave AND NOT isPendingDelete AND recordType != ?) AS saves,
                  (SELECT count(*) FROM sync_metadata WHERE isPendingDelete AND recordType != ?) AS deletes,
                  (SELECT value FROM sync_state WHERE key = 'lastSyncAt') AS lastSyncAt,
                  (SELECT count(*) FROM sync_conflicts WHERE NOT isDismissed) AS conflicts,
                  (SELECT value FROM sync_state WHERE key = 'offline') AS offline,
                  EXISTS (SELECT 1 FROM sync_state WHERE key = ?) AS reached
                """, arguments: [Self.conflictTable, Self.conflictTable, Self.serverMarkKey])
            return EngineStatus(
                pendingSaves: row?["saves"] ?? 0, pendingDeletes: row?["deletes"] ?? 0, lastSyncAt: row?["lastSyncAt"],
                conflicts: row?["conflicts"] ?? 0, isOffline: (row?["offline"] as Int?) == 1,
                hasReachedServer: row?["reached"] ?? false)
        }
    }

    /// Takes the device offline or back online; kept in the database so
    /// every process of the device agrees.
    public func setOffline(_ offline: Bool) throws {
        try writer.write { db in
            try SyncState.set(db, "offline", offline ? 1 : 0)
        }
    }

    public var isOffline: Bool {
        (try? writer.read { db in try SyncState.value(db, "offline", as: Int.self) }) == 1
    }

    /// Whether this device has ever synced or holds rows the engine knows of.
    public func hasSyncState() throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_metadata) OR EXISTS (SELECT 1 FROM sync_zones)") ?? false
        }
    }
}
