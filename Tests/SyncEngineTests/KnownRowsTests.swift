import CloudServer
import Foundation
import GRDB
import RemindersCore
import Synchronization
import Testing
@testable import SyncEngine
import TestSupport

/// A fetch remembers the rows its earlier pages wrote (`KnownRows`), so a
/// later page's children skip looking their parents up. The hint can be
/// stale: the user may delete such a row between two pages. The child's
/// write then breaks a foreign key, and the page is applied again the
/// careful way, as if no hint existed.
@Suite struct KnownRowsTests {
    let directory = TemporaryDirectory()

    @Test func aParentDeletedHereBetweenTwoPagesTakesItsChildWithIt() throws {
        let server = try makeServer(directory)
        let a = try Device("A", server: server)
        let list = try a.store.createList(title: "Home").id
        let kept = try a.store.createReminder(ReminderDraft(listID: list, title: "Kept", tags: ["errands"])).id
        let doomed = try a.store.createReminder(ReminderDraft(listID: list, title: "Doomed", tags: ["errands"])).id
        try a.sync()

        // B fetches one record per page; once the reminders are in, the
        // user deletes one of them before the pages with the tags' links.
        let b = try Device("B", server: server)
        let base = server.databases(user: b.user, device: b.name)
        let pages = Mutex(0)
        let store = b.store
        b.engine.connect(
            privateDatabase: InterceptingDatabase(base: base.private, fetchZoneChanges: { zone, token, _ in
                let page = try base.private.fetchZoneChanges(zoneID: zone, since: token, limit: 1)
                if page.changed.contains(where: { $0.recordType == "remindersTags" }),
                   pages.withLock({ count in defer { count += 1 }; return count == 0 }) {
                    _ = try store.deleteReminder(id: doomed)
                }
                return page
            }),
            sharedDatabase: base.shared)
        try b.sync()

        #expect(try b.reminder(doomed) == nil)
        #expect(try b.reminder(kept)?.title == "Kept")
        #expect(try b.engine.conflicts().isEmpty, "a stale hint was taken for a refused record")
        let links = try b.db.read { db in try String.fetchAll(db, sql: "SELECT reminderID FROM remindersTags") }
        #expect(links == [kept])

        // The delete goes out, and A ends the same.
        try b.sync()
        try a.sync()
        #expect(try a.reminder(doomed) == nil)
        #expect(try b.export() == a.export())
    }

    /// A device that held no synced rows when its fetch began takes a
    /// page's records for new without looking (`PageWrites.assumesNew`).
    /// A tag the user makes between two pages has the key the other
    /// device derived for the same tag: the page that brings that tag
    /// must merge it with the one here (the later spelling wins), not
    /// write over it and forget the edit.
    @Test func aTagMadeHereDuringAFirstDownloadMergesWithTheOneThatArrives() throws {
        let server = try makeServer(directory)
        let a = try Device("A", server: server)
        let list = try a.store.createList(title: "Home").id
        let reminder = try a.store.createReminder(ReminderDraft(listID: list, title: "Milk", tags: ["errands"])).id
        try a.sync()

        // B fetches one record per page. Before the page with the tag, the
        // user here makes a list and a reminder tagged "Errands".
        let b = try Device("B", server: server)
        b.clock.advance(60_000)
        let base = server.databases(user: b.user, device: b.name)
        let pagesBefore = Mutex(0)
        let tagged = Mutex(false)
        let store = b.store
        b.engine.connect(
            privateDatabase: InterceptingDatabase(base: base.private, fetchZoneChanges: { zone, token, _ in
                let page = try base.private.fetchZoneChanges(zoneID: zone, since: token, limit: 1)
                if page.changed.contains(where: { $0.recordType == "tags" }), pagesBefore.withLock({ $0 }) > 0,
                   !tagged.withLock({ $0 }) {
                    let mine = try store.createList(title: "Mine").id
                    _ = try store.createReminder(ReminderDraft(listID: mine, title: "Bread", tags: ["Errands"]))
                    tagged.withLock { $0 = true }
                }
                pagesBefore.withLock { $0 += 1 }
                return page
            }),
            sharedDatabase: base.shared)
        try b.sync()
        #expect(tagged.withLock { $0 }, "the tag came in the first page: the test made nothing between pages")

        let titles = { (device: Device) in try device.db.read { db in try String.fetchAll(db, sql: "SELECT title FROM tags") } }
        #expect(try titles(b) == ["Errands"], "the page wrote over the tag made here")
        try b.sync()
        try a.sync()
        #expect(try titles(a) == ["Errands"])
        #expect(try b.export() == a.export())
        let links = try a.db.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM remindersTags") }
        #expect(links == 2)
        #expect(try a.reminder(reminder)?.title == "Milk")
    }

    /// A record fetched before its parent waits (`sync_held_records`). A
    /// newer version of it applied before the parent comes replaces what
    /// waits: when the parent and the newer version arrive in one page,
    /// the older version held must not be applied over it.
    @Test func aHeldVersionIsNotAppliedOverANewerOne() throws {
        let server = try makeServer(directory)
        let a = try Device("A", server: server)
        let list = try a.store.createList(title: "Home").id
        let reminder = try a.store.createReminder(ReminderDraft(listID: list, title: "First")).id
        try a.sync()
        // The list's edit moves it after the reminder in the zone's changes.
        try a.store.updateList(id: list, title: "House")
        try a.sync()

        // B's first page holds the reminder alone (its list not here yet);
        // A then edits the reminder, and B's next page brings the list and
        // the edited reminder together.
        let b = try Device("B", server: server)
        let base = server.databases(user: b.user, device: b.name)
        let pages = Mutex<[[String]]>([])
        let (storeA, engineA) = (a.store, a.engine)
        b.engine.connect(
            privateDatabase: InterceptingDatabase(base: base.private, fetchZoneChanges: { zone, token, _ in
                let first = pages.withLock { $0.isEmpty }
                let page = try base.private.fetchZoneChanges(zoneID: zone, since: token, limit: first ? 1 : 100)
                pages.withLock { $0.append(page.changed.map(\.recordType)) }
                if first {
                    try storeA.updateReminder(id: reminder, ReminderChanges(title: "Second"))
                    try engineA.sync()
                }
                return page
            }),
            sharedDatabase: base.shared)
        try b.sync()
        let seen = pages.withLock { $0 }
        #expect(seen.first == ["reminders"], "the first page did not hold the reminder: \(seen)")
        #expect(try b.reminder(reminder)?.title == "Second", "the held version was applied over the newer one")
        #expect(try b.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_held_records") } == 0)
        try b.sync()
        #expect(try b.export() == a.export())
    }

    /// The hints are used only where a child of a gone parent fails its own
    /// statement: foreign keys on and not deferred.
    @Test func hintsNeedForeignKeysCheckedAtEachStatement() throws {
        let server = try makeServer(directory)
        let a = try Device("A", server: server)
        #expect(try a.db.read { db in try a.engine.checksForeignKeysAtOnce(db) })
        try a.db.write { db in
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            #expect(try !a.engine.checksForeignKeysAtOnce(db))
        }
        try a.db.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            #expect(try !a.engine.checksForeignKeysAtOnce(db))
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
    }
}
