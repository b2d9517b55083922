import CSQLiteSetup
import Foundation
import GRDB
import GRDBSQLite

/// A search's hits with their sort keys (completed or not, the title, the
/// id), read straight from the statement that found them into one buffer
/// of bytes: as Strings they cost allocations a hit.
struct SearchCandidates {
    private struct Key {
        var rowid: Int64
        var completed: Bool
        /// Where the title's sort key starts in `bytes` (its letters
        /// folded, as `reminders_title` compares them first); the title
        /// itself follows it, then the id.
        var start: Int
        var keyCount: Int
        var titleCount: Int
        var idCount: Int
    }

    private var keys: [Key] = []
    private var bytes: [UInt8] = []

    /// Adds the hit the statement is on: its `title` and `id` columns.
    mutating func append(rowid: Int64, completed: Bool, handle: SQLiteStatement, title: CInt, id: CInt) {
        let start = bytes.count
        let keyCount = appendKey(handle, title)
        let titleCount = copy(handle, title)
        let idCount = copy(handle, id)
        keys.append(Key(rowid: rowid, completed: completed, start: start, keyCount: keyCount, titleCount: titleCount,
                        idCount: idCount))
    }

    /// Appends a text column's bytes.
    private mutating func copy(_ handle: SQLiteStatement, _ column: CInt) -> Int {
        // The text first, then its length: the order SQLite's documentation asks for.
        guard let text = sqlite3_column_text(handle, column) else { return 0 }
        let count = Int(sqlite3_column_bytes(handle, column))
        bytes.append(contentsOf: UnsafeBufferPointer(start: text, count: count))
        return count
    }

    /// Appends a title's letters as `reminders_title` compares them first:
    /// folded (`reminders_fold`, never longer), ASCII lowered.
    private mutating func appendKey(_ handle: SQLiteStatement, _ column: CInt) -> Int {
        guard let text = sqlite3_column_text(handle, column) else { return 0 }
        let count = Int(sqlite3_column_bytes(handle, column))
        let source = UnsafeBufferPointer(start: text, count: count)
        guard source.contains(where: { $0 >= 0x80 }) else {
            bytes.append(contentsOf: source.lazy.map(Queries.noCaseFold))
            return count
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            reminders_fold(text, count, buffer.baseAddress! + start)
        }
        bytes.removeLast(count - written)
        for index in start..<bytes.count { bytes[index] = Queries.noCaseFold(bytes[index]) }
        return written
    }

    /// The rowids of the first `limit` hits in the order of
    /// `status = 'completed', title COLLATE reminders_title, id`.
    func first(_ limit: Int) -> [Int64] {
        bytes.withUnsafeBufferPointer { buffer -> [Int64] in
            guard let base = buffer.baseAddress else { return keys.prefix(max(0, limit)).map(\.rowid) }
            // Below, at or above zero as the first bytes sort before, with
            // or after the second, a prefix first: SQLite's order of text.
            func compare(_ a: Int, _ aCount: Int, _ b: Int, _ bCount: Int) -> Int {
                let common = min(aCount, bCount)
                let order = common > 0 ? Int(memcmp(base + a, base + b, common)) : 0
                return order != 0 ? order : aCount - bCount
            }
            let sorted = keys.sorted { a, b in
                if a.completed != b.completed { return !a.completed }
                let byLetters = compare(a.start, a.keyCount, b.start, b.keyCount)
                if byLetters != 0 { return byLetters < 0 }
                // The same letters: the collation's own tie-breaks.
                let (aTitle, bTitle) = (a.start + a.keyCount, b.start + b.keyCount)
                let byTitle = reminders_title_compare(base + aTitle, a.titleCount, base + bTitle, b.titleCount)
                if byTitle != 0 { return byTitle < 0 }
                return compare(aTitle + a.titleCount, a.idCount, bTitle + b.titleCount, b.idCount) < 0
            }
            return sorted.prefix(max(0, limit)).map(\.rowid)
        }
    }
}
