import Foundation

/// The `meta` table every store has: the change counter, the compaction
/// point and the store's identity, one row each.
package enum StoreMeta {
    /// The last change sequence handed out. Every record save, delete,
    /// visibility change and share change takes the next one.
    package static let sequence = "sequence"
    /// Tombstones with a sequence up to this were removed: tokens older
    /// than it have expired.
    package static let compactedThrough = "compactedThrough"
    /// Random identity of this store, part of every change tag so that a
    /// tag from a deleted and re-created server never matches.
    package static let serverID = "serverID"

    package static func integer(_ db: any StoreConnection, _ key: String) throws -> Int64 {
        try db.integer("SELECT value FROM meta WHERE key = ?", [key]) ?? 0
    }

    package static func text(_ db: any StoreConnection, _ key: String) throws -> String {
        try db.text("SELECT value FROM meta WHERE key = ?", [key]) ?? ""
    }

    package static func set(_ db: any StoreConnection, _ key: String, _ value: some SQLBindable) throws {
        try db.execute("""
            INSERT INTO meta (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """, [key, value])
    }

    /// `bytes` random bytes in lower-case hex.
    package static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }
}
