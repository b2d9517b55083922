import CloudServer
import Foundation
import GRDB
import RemindersCore
import Synchronization
import Testing
@testable import SyncEngine
import TestSupport

/// A send reads its next batch while a full batch's request is on its way
/// (`SendRound.modifyRecords(_:saving:deleting:readingAhead:)`). The batch
/// read ahead leaves the request's changes out, lets subtasks of parents
/// still on their way wait, and is dropped when the answer did more than
/// confirm.
@Suite struct SendAheadTests {
    let directory = TemporaryDirectory()

    /// The record names of each save request a device makes.
    final class Requests: Sendable {
        let saved = Mutex<[[String]]>([])
    }

    /// Records every save request `device` makes from now on.
    func recordRequests(_ device: Device, on server: DirectoryServer) -> Requests {
        let requests = Requests()
        let base = server.databases(user: device.user, device: device.name)
        device.engine.connect(
            privateDatabase: InterceptingDatabase(base: base.private, modifyRecords: { saving, deleting, through in
                requests.saved.withLock { $0.append(saving.map(\.id.recordName)) }
                return try base.private.modifyRecords(saving: saving, deleting: deleting, deletedThrough: through)
            }),
            sharedDatabase: base.shared)
        return requests
    }

    /// `count` reminders in `list`, in one transaction.
    func addMany(_ device: Device, _ count: Int, in list: String) throws {
        try device.db.write { db in
            for index in 0..<count {
                try db.execute(sql: "INSERT INTO reminders (id, remindersListID, title) VALUES (?, ?, ?)",
                               arguments: ["\(device.name)-\(index)", list, "Reminder \(index)"])
            }
        }
    }

    @Test func theBatchReadAheadLeavesTheRequestOutAndSubtasksWaitForTheirParent() throws {
        let server = try makeServer(directory)
        let (a, b) = try twoDevices(on: server)
        let list = try a.store.createList(title: "Home").id
        let parent = try a.store.createReminder(ReminderDraft(listID: list, title: "Trip")).id
        let steps = try (0..<5).map { try a.store.createReminder(ReminderDraft(listID: list, title: "Step \($0)", parentID: parent)).id }
        try addMany(a, 900, in: list)
        let requests = recordRequests(a, on: server)
        let report = try a.sync()
        #expect(report.sentSaves == 907)

        let sent = requests.saved.withLock { $0 }
        #expect(sent.count >= 3)
        let all = sent.flatMap { $0 }
        #expect(all.count == Set(all).count, "a record went in two requests")
        #expect(Set(all).count == 907)
        func request(of id: String) throws -> Int {
            try #require(sent.firstIndex { $0.contains("reminders/\(id)") })
        }
        for step in steps {
            #expect(try request(of: step) > request(of: parent), "a subtask went no later than its new parent")
        }

        try b.sync()
        #expect(try b.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_held_records") } == 0)
        #expect(try b.export() == a.export())
    }

    /// The batch after a request's leaves out the request's rows, found by
    /// their rowids in the pending index, and by name should a row's rowid
    /// no longer be the one read.
    @Test func theNextBatchLeavesOutTheBatchInFlightByRowidAndByName() throws {
        let server = try makeServer(directory)
        let (a, _) = try twoDevices(on: server)
        let list = try a.store.createList(title: "Home").id
        try addMany(a, 30, in: list)
        func names(_ batch: [OutgoingChange]) -> Set<String> { Set(batch.map(\.key)) }
        let (first, next, all) = try a.db.read { db in
            let first = try a.engine.outgoingBatch(db, limit: 10)
            return (first, try a.engine.outgoingBatch(db, limit: 400, excluding: first),
                    try a.engine.outgoingBatch(db, limit: 400))
        }
        #expect(first.count == 10 && all.count == 31)
        #expect(names(first).isDisjoint(with: names(next)))
        #expect(names(first).union(names(next)) == names(all))

        // The same batch with every rowid wrong: still left out, by name.
        let stale = first.map { change in
            var metadata = change.metadata
            metadata.rowID = -metadata.rowID
            return OutgoingChange(table: change.table, key: change.key, metadata: metadata, record: change.record,
                                  blobs: change.blobs, deleteID: change.deleteID)
        }
        let nextOfStale = try a.db.read { db in try a.engine.outgoingBatch(db, limit: 400, excluding: stale) }
        #expect(names(nextOfStale) == names(next))
    }

    /// A batch reads each pending row with its metadata in one query: the
    /// records carry the rows' values, a subtask's and a cover's parent
    /// reference (a cover's is its primary key), and a pending save whose
    /// row is gone is left out without ending the batch.
    @Test func aBatchReadsEachPendingRowWithItsMetadataInOneQuery() throws {
        let server = try makeServer(directory)
        let (a, _) = try twoDevices(on: server)
        let list = try a.store.createList(title: "Home").id
        let parent = try a.store.createReminder(ReminderDraft(listID: list, title: "Trip", notes: "Pack \"light\"")).id
        let step = try a.store.createReminder(ReminderDraft(listID: list, title: "Tickets", parentID: parent)).id
        try a.store.setCover(listID: list, png: SampleCovers.png(named: "forest"))
        try addMany(a, 3, in: list)
        // A pending save without its row (written by hand: the capture
        // never leaves one).
        try a.db.write { db in
            try db.execute(sql: "DELETE FROM reminders WHERE id = ?", arguments: ["\(a.name)-1"])
            try db.execute(sql: """
                INSERT INTO sync_metadata (recordType, recordName, editTimes, isPendingSave) VALUES ('reminders', ?, '{}', 1)
                """, arguments: ["\(a.name)-1"])
        }
        let batch = try a.db.read { db in try a.engine.outgoingBatch(db, limit: 400, orderingRows: false) }
        let byKey = Dictionary(uniqueKeysWithValues: batch.map { ($0.table.name + "/" + $0.key, $0) })
        #expect(byKey["reminders/\(a.name)-1"] == nil)
        #expect(byKey["reminders/\(a.name)-2"] != nil)
        let trip = try #require(byKey["reminders/\(parent)"]?.record)
        #expect(trip.fields["title"] == .string("Trip"))
        #expect(trip.fields["notes"] == .string("Pack \"light\""))
        #expect(trip.parent?.recordName == "remindersLists/\(list)")
        let tickets = try #require(byKey["reminders/\(step)"]?.record)
        #expect(tickets.fields["parentID"] == .string(parent))
        let cover = try #require(byKey["remindersListCovers/\(list)"])
        #expect(cover.record?.parent?.recordName == "remindersLists/\(list)")
        #expect(cover.record?.id.zoneID == trip.id.zoneID)
        #expect(cover.blobs["image"] != nil)
        // Every column's time, and the key's: when the row was made (`createdAt`).
        #expect(batch.allSatisfy { $0.record?.fieldModificationTimes.count == $0.table.allColumns.count })
        #expect(batch.allSatisfy { change in change.record.map { SyncEngine.createdAt($0, table: change.table) != nil } ?? true })
    }

    /// Each batch is noted as sent in the transaction that reads it; what
    /// no request carried is put back when the send ends. Here the second
    /// request fails on its way, after the third batch was read: the
    /// second batch's rows stay noted (the server may have taken them), the
    /// third's do not, and the next send still delivers everything.
    @Test func aBatchReadAheadAndNeverSentIsNotLeftNotedAsSent() throws {
        let server = try makeServer(directory)
        let (a, b) = try twoDevices(on: server)
        let list = try a.store.createList(title: "Home").id
        try addMany(a, 1_000, in: list)
        let base = server.databases(user: a.user, device: a.name)
        let requests = Mutex<[[String]]>([])
        a.engine.connect(
            privateDatabase: InterceptingDatabase(base: base.private, modifyRecords: { saving, deleting, through in
                let count = requests.withLock { $0.append(saving.map(\.id.recordName)); return $0.count }
                // Slow enough for the third batch to be read meanwhile.
                if count == 2 { Thread.sleep(forTimeInterval: 0.3); throw CloudError.serverUnavailable("cut") }
                return try base.private.modifyRecords(saving: saving, deleting: deleting, deletedThrough: through)
            }),
            sharedDatabase: base.shared)
        #expect(throws: SyncError.self) { try a.sync() }

        let sent = requests.withLock { $0 }
        #expect(sent.count == 2)
        let noted = try a.db.read { db in
            try Set(String.fetchAll(db, sql: """
                SELECT recordType || '/' || recordName FROM sync_metadata
                WHERE zoneName IS NOT NULL AND lastKnownServerRecord IS NULL
                """))
        }
        // Counted, not listed: a failure would print a thousand names.
        #expect(noted.subtracting(sent[1]).count == 0, "a batch no request carried stays noted as sent")
        #expect(Set(sent[1]).subtracting(noted).count == 0, "the request that failed on its way is not noted")

        a.engine.connect(privateDatabase: base.private, sharedDatabase: base.shared)
        try a.sync()
        try b.sync()
        #expect(try a.pending() == 0)
        #expect(try b.export() == a.export())
    }

    /// A process stopped after a batch was read and noted, before its
    /// request went, leaves its rows noted: the next send puts them back
    /// before it asks what the server may hold. Rows whose request went
    /// stay noted, so a delete of them still reaches the server.
    @Test func aBatchNotedAndNeverSentBeforeACrashIsPutBackByTheNextSend() throws {
        let server = try makeServer(directory)
        let (a, _) = try twoDevices(on: server)
        let list = try a.store.createList(title: "Home").id
        try addMany(a, 10, in: list)
        func notedCount() throws -> Int {
            try a.db.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_metadata WHERE zoneName IS NOT NULL AND lastKnownServerRecord IS NULL") ?? 0
            }
        }

        // Read and noted; the process stops before the request.
        let batch = try a.engine.takeBatch(limit: 4, excluding: [])
        #expect(batch.count == 4)
        #expect(try notedCount() == 4)
        try a.engine.unnoteNeverSent()
        #expect(try notedCount() == 0)
        #expect(try !a.engine.hasUnconfirmedSends())

        // Read, noted and on its way; the process stops before the answer.
        let sent = try a.engine.takeBatch(limit: 4, excluding: [])
        try a.engine.willSend(unsent: [])
        _ = try a.engine.privateDatabase.modifyRecords(saving: sent.compactMap(\.record), deleting: [])
        try a.engine.unnoteNeverSent()
        #expect(try notedCount() == 4)
        #expect(try a.engine.hasUnconfirmedSends())

        // Two batches read, the first sent: only the second is put back.
        try a.sync()
        _ = try a.store.createReminder(ReminderDraft(listID: list, title: "One"))
        _ = try a.store.createReminder(ReminderDraft(listID: list, title: "Two"))
        let first = try a.engine.takeBatch(limit: 1, excluding: [])
        try a.engine.willSend(unsent: [])
        let second = try a.engine.takeBatch(limit: 1, excluding: first)
        #expect(first.count == 1 && second.count == 1)
        try a.engine.unnoteNeverSent()
        #expect(try notedCount() == 1)
        let stillNoted = try a.db.read { db in
            try String.fetchOne(db, sql: "SELECT recordName FROM sync_metadata WHERE zoneName IS NOT NULL AND lastKnownServerRecord IS NULL")
        }
        #expect(stillNoted == first[0].key)
    }

    /// The first request's answer refuses it all (its list was deleted
    /// elsewhere, and a zone's saves land together or not at all): the
    /// batch read meanwhile is dropped and read again, and both devices
    /// end with the list and its reminders gone.
    @Test func anAnswerThatRefusesTheRequestDropsTheBatchReadAhead() throws {
        let server = try makeServer(directory)
        let (a, b) = try twoDevices(on: server)
        let list = try a.store.createList(title: "Home")
        try a.sync()
        try b.sync()
        try b.store.deleteList(id: list.id)
        try b.sync()
        try a.store.updateList(id: list.id, title: "House")
        try addMany(a, 900, in: list.id)
        let requests = recordRequests(a, on: server)
        try a.engine.sendChanges()
        let sent = requests.saved.withLock { $0 }
        #expect(sent.first?.contains("remindersLists/\(list.id)") == true)
        #expect(sent.count > 1)

        try a.sync()
        try b.sync()
        try a.sync()
        #expect(try a.db.read { try Reminder.fetchCount($0) } == 0)
        #expect(try b.db.read { try Reminder.fetchCount($0) } == 0)
        #expect(try b.export() == a.export())
    }
}
