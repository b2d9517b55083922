import Foundation
import GRDB
import GRDBSQLite

/// A search's hits with their sort keys (completed or not, the title as
/// `COLLATE NOCASE` compares it, the id), read straight from the statement
/// that found them into one buffer of bytes: as Strings, with a folded copy
/// of each title, they cost three allocations a hit.
struct SearchCandidates {
    private struct Key {
        var rowid: Int64
        var completed: Bool
        /// Where the folded title starts in `bytes`; the id follows it.
        var start: Int
        var titleCount: Int
        var idCount: Int
    }

    private var keys: [Key] = []
    private var bytes: [UInt8] = []

    /// Adds the hit the statement is on: its `title` and `id` columns.
    mutating func append(rowid: Int64, completed: Bool, handle: SQLiteStatement, title: CInt, id: CInt) {
        let start = bytes.count
        let titleCount = copy(handle, title, folded: true)
        let idCount = copy(handle, id, folded: false)
        keys.append(Key(rowid: rowid, completed: completed, start: start, titleCount: titleCount, idCount: idCount))
    }

    /// Appends a text column's bytes; ASCII letters folded to lower case if
    /// `folded`, as SQLite's NOCASE does.
    private mutating func copy(_ handle: SQLiteStatement, _ column: CInt, folded: Bool) -> Int {
        // The text first, then its length: the order SQLite's documentation asks for.
        guard let text = sqlite3_column_text(handle, column) else { return 0 }
        let count = Int(sqlite3_column_bytes(handle, column))
        let source = UnsafeBufferPointer(start: text, count: count)
        if folded {
            bytes.append(contentsOf: source.lazy.map(Queries.noCaseFold))
        } else {
            bytes.append(contentsOf: source)
        }
        return count
    }

    /// The rowids of the first `limit` hits in the order of
    /// `status = 'completed', title COLLATE NOCASE, id`.
    func first(_ limit: Int) -> [Int64] {
        bytes.withUnsafeBufferPointer { buffer -> [Int64] in
            // Below, at or above zero as the first bytes sort before, with
            // or after the second, a prefix first: SQLite's order of text.
            func compare(_ a: Int, _ aCount: Int, _ b: Int, _ bCount: Int) -> Int {
                let common = min(aCount, bCount)
                guard common > 0, let base = buffer.baseAddress else { return aCount - bCount }
                let order = Int(memcmp(base + a, base + b, common))
                return order != 0 ? order : aCount - bCount
            }
            let sorted = keys.sorted { a, b in
                if a.completed != b.completed { return !a.completed }
                let byTitle = compare(a.start, a.titleCount, b.start, b.titleCount)
                if byTitle != 0 { return byTitle < 0 }
                return compare(a.start + a.titleCount, a.idCount, b.start + b.titleCount, b.idCount) < 0
            }
            return sorted.prefix(max(0, limit)).map(\.rowid)
        }
    }
}
