import Foundation

/// Removing tombstones, for any store (see
/// `DirectoryServer.compactTombstones(through:)`).
package enum Compaction {
    /// Removes tombstones with a sequence up to `sequence` and makes that the
    /// compaction point. Returns the number of record tombstones removed.
    package static func compact(_ store: some RecordStore, through sequence: Int64) throws -> Int {
        try store.write(user: "", device: "") { context in
            let db = context.db
            let point = min(sequence, try StoreMeta.integer(db, StoreMeta.sequence))
            guard point > (try StoreMeta.integer(db, StoreMeta.compactedThrough)) else { return 0 }
            try db.execute("DELETE FROM record WHERE isDeleted = 1 AND sequence <= ?", [point])
            let removed = db.changesCount
            try db.execute("DELETE FROM sharedView WHERE isVisible = 0 AND sequence <= ?", [point])
            try db.execute("DELETE FROM zone WHERE deletedSequence IS NOT NULL AND deletedSequence <= ?", [point])
            try StoreMeta.set(db, StoreMeta.compactedThrough, point)
            return removed
        }
    }

    /// Removes tombstones of records deleted before `date`, and every
    /// tombstone older than the newest of those.
    package static func compact(_ store: some RecordStore, olderThan date: Date) throws -> Int {
        let sequence = try store.read { db in
            try db.integer("SELECT MAX(sequence) FROM record WHERE isDeleted = 1 AND modificationDate < ?",
                           [date.timeIntervalSinceReferenceDate])
        }
        guard let sequence else { return 0 }
        return try compact(store, through: sequence)
    }
}
