import CloudServer
import Foundation
import GRDB
import RemindersCore
import Testing
@testable import SyncEngine
import TestSupport

@Suite struct FetchPageCacheTests {
    let directory = TemporaryDirectory()

    /// A big page widens the writer's page cache for the fetch; whatever the
    /// app had set before is back afterwards, and a small fetch leaves it be.
    @Test func theWritersCacheIsGivenBackAfterABigFetch() throws {
        let (a, b) = try twoDevices(directory)
        try b.db.write { db in try db.execute(sql: "PRAGMA cache_size = -3000") }
        let list = try a.store.createList(title: "Many")
        for index in 0..<(FetchPageCache.bigPage + 10) {
            try a.store.createReminder(ReminderDraft(listID: list.id, title: "Item \(index)"))
        }
        try a.sync()
        try b.sync()
        #expect(try b.db.read { db in try Reminder.fetchCount(db) } == FetchPageCache.bigPage + 10)
        #expect(try b.db.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -3000)

        let cache = FetchPageCache()
        try b.db.write { db in try cache.widen(db, forPageOf: 3) }
        #expect(try b.db.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -3000)
        try b.db.write { db in try cache.widen(db, forPageOf: FetchPageCache.bigPage) }
        #expect(try b.db.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -FetchPageCache.wideKiB)
        cache.restore(on: b.db)
        #expect(try b.db.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -3000)
    }
}
