import GRDB

/// The writer's page cache during one fetch. Applying thousands of fetched
/// rows spilled SQLite's default 2 MB of pages to the file and read them
/// back (at 100,000 reminders, most of the download), so the first big page
/// widens it to 16 MB, and the end of the fetch gives it back: an idle app
/// stays small. Live sync's pages of a few records never touch it.
final class FetchPageCache {
    /// Records in a page from which the cache is widened.
    static let bigPage = 200
    static let wideKiB = 16_000
    private var previous: Int?

    /// Widens the cache if `records` make a big page; inside the page's own
    /// transaction, so it costs no round trip of its own.
    func widen(_ db: Database, forPageOf records: Int) throws {
        guard previous == nil, records >= Self.bigPage else { return }
        previous = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -\(Self.wideKiB)")
    }

    /// Sets the cache back to its size before `widen`, if it was widened.
    func restore(on writer: any DatabaseWriter) {
        guard let previous else { return }
        self.previous = nil
        try? writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = \(previous)") }
    }
}
