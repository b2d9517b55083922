import CloudServer
import DeviceRuntime
import Foundation
import GRDB
import RemindersCore
import Synchronization
import Testing
@testable import SyncEngine
import TestSupport

/// A fresh device's first download of many records runs as a bulk load:
/// the app's search index and counts are built once at the end
/// (`BulkLoad`, `DerivedData`). Whatever happens, they end as the triggers
/// would have kept them, and the triggers are back.
@Suite struct BulkLoadTests {
    let directory = TemporaryDirectory()

    /// Counts each begin and end, then does what the app does.
    final class Recorder: Sendable {
        let calls = Mutex<[String]>([])
        var bulkLoad: BulkLoad {
            BulkLoad(isWorthIt: { incoming, existing in DerivedData.isWorthSuspending(incoming: incoming, existing: existing) },
                     begin: { db in
                         self.calls.withLock { $0.append("begin") }
                         try DerivedData.suspend(db)
                     },
                     end: { db in
                         self.calls.withLock { $0.append("end") }
                         try DerivedData.resume(db)
                     })
        }
    }

    /// 2,500 reminders in three lists, a third of them tagged, some done:
    /// more than one page.
    func fill(_ device: Device) throws {
        let home = try device.store.createList(title: "Home")
        let work = try device.store.createList(title: "Work")
        let empty = try device.store.createList(title: "Empty")
        _ = empty
        try device.db.write { db in
            try db.execute(sql: "INSERT INTO tags (id, title) VALUES ('errands', 'Errands'), ('büro', 'Büro')")
            for index in 1...2500 {
                let id = "\(device.name)-" + String(format: "%05d", index)
                try db.execute(sql: """
                    INSERT INTO reminders (id, remindersListID, title, notes, isFlagged, status, dueDate)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [id, index % 3 == 0 ? work.id : home.id, "Reminder \(index)",
                                     index % 7 == 0 ? "send the invoice" : "", index % 5 == 0,
                                     index % 4 == 0 ? "completed" : "incomplete", index % 2 == 0 ? "2026-05-01" : nil])
                if index % 3 == 1 {
                    let key = index % 2 == 0 ? "errands" : "büro"
                    try db.execute(sql: "INSERT INTO remindersTags (id, reminderID, tagID) VALUES (?, ?, ?)",
                                   arguments: [ReminderTag.linkID(reminderID: id, tagKey: key), id, key])
                }
            }
        }
    }

    func expectDerivedDataExact(_ device: Device, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try CountsSyncTests().expectCountsMatchRows(device, sourceLocation: sourceLocation)
        try device.db.read { db in
            #expect(try !DerivedData.isSuspended(db), sourceLocation: sourceLocation)
            let triggers = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND (name GLOB 'counts_*' OR name GLOB '*_search_*')
                """)
            #expect(triggers == 16, sourceLocation: sourceLocation)
            let indexes = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name GLOB 'reminders*'
                """)
            #expect(indexes == 14, sourceLocation: sourceLocation)
            let indexed = try Row.fetchAll(db, sql: "SELECT rowid, title, notes, tags FROM reminderSearch ORDER BY rowid")
            let expected = try Row.fetchAll(db, sql: """
                SELECT rowid, reminders_fold(title) AS title, reminders_fold(notes) AS notes,
                       reminders_fold((SELECT ifnull(group_concat('#' || tags.title, ' '), '') FROM remindersTags JOIN tags ON tags.id = remindersTags.tagID
                                       WHERE remindersTags.reminderID = reminders.id)) AS tags
                FROM reminders ORDER BY rowid
                """)
            #expect(indexed == expected, "the search index on \(device.name)", sourceLocation: sourceLocation)
        }
    }

    /// A filled and synced; B, new, with a recorder for its loads.
    func start() throws -> (server: DirectoryServer, a: Device, b: Device, recorder: Recorder) {
        let server = try makeServer(directory)
        let a = try Device("A", server: server)
        try fill(a)
        try a.sync()
        let recorder = Recorder()
        return (server, a, try Device("B", server: server, bulkLoad: recorder.bulkLoad), recorder)
    }

    @Test func aFreshDevicesFirstDownloadBuildsTheIndexAndCountsOnce() throws {
        let (_, a, b, recorder) = try start()
        let report = try b.sync()
        #expect(report.receivedSaves > b.engine.fetchLimit, "more than one page")
        #expect(recorder.calls.withLock { $0 } == ["begin", "end"])
        try expectDerivedDataExact(b)
        #expect(try b.export() == a.export())
        #expect(try b.db.read { try Queries.search($0, text: "invoice", showCompleted: true, clock: b.store.clock) }.hits.count
                == 357)

        // Later downloads are small: row by row, as always.
        try a.store.createReminder(ReminderDraft(listID: try #require(try a.db.read { try Queries.lists($0) }.first?.list.id),
                                                 title: "One more invoice", tags: ["Errands"]))
        try a.sync()
        try b.sync()
        #expect(recorder.calls.withLock { $0 } == ["begin", "end"])
        try expectDerivedDataExact(b)
        #expect(try b.export() == a.export())
    }

    @Test func aDeviceWithMoreRowsThanThePageDownloadsRowByRow() throws {
        let (_, _, b, recorder) = try start()
        try fill(b)
        try b.sync()
        #expect(recorder.calls.withLock { $0 }.isEmpty)
        try expectDerivedDataExact(b)
    }

    /// The fetch stops after the first page: the engine ends the load
    /// itself, and the next sync brings the rest.
    @Test func aFetchThatStopsHalfwayEndsTheLoad() throws {
        let (server, a, b, recorder) = try start()
        let pages = Mutex(0)
        let base = server.databases(user: "me", device: "B")
        b.engine.connect(
            privateDatabase: InterceptingDatabase(base: base.private, fetchZoneChanges: { zone, token, limit in
                let page = pages.withLock { count in
                    count += 1
                    return count
                }
                if page == 2 { throw CloudError.serverUnavailable("the network went away") }
                return try base.private.fetchZoneChanges(zoneID: zone, since: token, limit: limit)
            }),
            sharedDatabase: base.shared)
        #expect(throws: SyncError.self) { try b.sync() }
        #expect(recorder.calls.withLock { $0 } == ["begin", "end"])
        #expect(try b.db.read { try Reminder.fetchCount($0) } > 0)
        try expectDerivedDataExact(b)

        b.engine.connect(privateDatabase: base.private, sharedDatabase: base.shared)
        try b.sync()
        try expectDerivedDataExact(b)
        #expect(try b.export() == a.export())
    }
}
