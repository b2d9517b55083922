import Foundation
import GRDB

/// The engine's small facts in `sync_state` (a key and a value each): the
/// device name, tokens, the server's mark, flags and notices. One place
/// reads and writes them, so the SQL is written once.
enum SyncState {
    static func value<Value: DatabaseValueConvertible>(_ db: Database, _ key: String, as type: Value.Type = Value.self) throws -> Value? {
        try Value.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_state WHERE key = ?"), arguments: [key])
    }

    static func contains(_ db: Database, _ key: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sync_state WHERE key = ?)"), arguments: [key]) ?? false
    }

    static func set(_ db: Database, _ key: String, _ value: some DatabaseValueConvertible) throws {
        try db.executeCached("INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)", arguments: [key, value])
    }

    static func remove(_ db: Database, _ keys: String...) throws {
        for key in keys {
            try db.executeCached("DELETE FROM sync_state WHERE key = ?", arguments: [key])
        }
    }

    /// A value kept as JSON; nil when absent or unreadable.
    static func json<Value: Decodable>(_ db: Database, _ key: String, as type: Value.Type) throws -> Value? {
        guard let text = try value(db, key, as: String.self) else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }

    static func setJSON(_ db: Database, _ key: String, _ value: some Encodable) throws {
        try set(db, key, String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
    }
}

extension Database {
    /// Whether the main schema has the table: a look-up in `sqlite_master`.
    /// GRDB's `tableExists` first reads every schema object (the whole
    /// schema's SQL, some 45 KB) into a cache for the connection, which a start
    /// paid on its way to the first frame for a handful of checks.
    public func hasTable(_ name: String) throws -> Bool {
        try Bool.fetchOne(cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE)
            """), arguments: [name]) ?? false
    }
}

extension SyncEngine {
    /// The device name the engine last ran under in the database at
    /// `path`, read without writing anything; nil for a file that is not
    /// there, not a database, or never synced.
    public static func storedDeviceName(databaseAt path: String) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        defer { try? queue.close() }
        return try? queue.read { db in
            try db.hasTable("sync_state") ? try SyncState.value(db, "deviceName", as: String.self) : nil
        }
    }
}
