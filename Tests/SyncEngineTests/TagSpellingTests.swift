import CloudServer
import Foundation
import GRDB
import RemindersCore
import Testing
@testable import SyncEngine
import TestSupport

/// Two devices that tag with different spellings of one tag end with one
/// tag, spelled one way, on both devices and on the server.
@Suite struct TagSpellingTests {
    let directory = TemporaryDirectory()

    /// Device A tags X with `first`, device B tags Y with `second` (both
    /// reminders synced before), then both sync three times.
    func tagOnTwoDevices(_ first: String, _ second: String) throws -> (a: Device, b: Device, server: DirectoryServer) {
        let server = try makeServer(directory)
        let (a, b) = try twoDevices(on: server)
        let list = try a.store.createList(title: "Errands")
        let x = try a.store.createReminder(ReminderDraft(listID: list.id, title: "X"))
        let y = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Y"))
        try a.sync(); try b.sync()

        a.clock.advance()
        try a.store.updateReminder(id: x.id, ReminderChanges(tags: [first]))   // edit X --tags first
        b.clock.advance(2_000)
        try b.store.updateReminder(id: y.id, ReminderChanges(tags: [second]))  // edit Y --tags second
        for _ in 0..<3 {
            try a.sync()
            try b.sync()
        }
        return (a, b, server)
    }

    func tagRows(_ device: Device) throws -> [String] {
        try device.db.read { db in
            try String.fetchAll(db, sql: "SELECT id || ' ' || title FROM tags ORDER BY id")
        }
    }

    func serverTagRecords(_ server: DirectoryServer) throws -> [String] {
        try server.dump().records.filter { $0.recordType == "tags" }.map(\.recordName)
    }

    @Test func workAndWorkEndAsOneTag() throws {
        let (a, b, server) = try tagOnTwoDevices("Work", "work")
        // B spelled it last, so its spelling wins on both.
        #expect(try tagRows(a) == ["work work"])
        #expect(try tagRows(b) == ["work work"])
        let exported = try a.export()
        #expect(try b.export() == exported)
        #expect(exported.tags.map(\.title) == ["work"])
        #expect(exported.reminders.map(\.tags) == [["work"], ["work"]])
        #expect(try serverTagRecords(server) == ["tags/work"])
        #expect(try a.pending() == 0 && b.pending() == 0)
    }

    @Test func caféAndCAFÉEndAsOneTag() throws {
        let (a, b, server) = try tagOnTwoDevices("Café", "CAFÉ")
        #expect(try tagRows(a) == ["café CAFÉ"])
        #expect(try tagRows(b) == ["café CAFÉ"])
        let exported = try a.export()
        #expect(try b.export() == exported)
        #expect(exported.reminders.map(\.tags) == [["CAFÉ"], ["CAFÉ"]])
        #expect(try serverTagRecords(server) == ["tags/café"])
        let hits = try a.db.read { db in try Queries.search(db, text: "CAFÉ", showCompleted: true, clock: a.store.clock) }
        #expect(hits.hits.count == 2)
    }

    @Test func theSameTagOnTheSameReminderOfflineIsOneLink() throws {
        let server = try makeServer(directory)
        let (a, b) = try twoDevices(on: server)
        let list = try a.store.createList(title: "Errands")
        let x = try a.store.createReminder(ReminderDraft(listID: list.id, title: "X"))
        try a.sync(); try b.sync()
        try a.store.updateReminder(id: x.id, ReminderChanges(tags: ["cafe\u{301}"]))
        try b.store.updateReminder(id: x.id, ReminderChanges(tags: ["Café"]))
        for _ in 0..<3 {
            try a.sync()
            try b.sync()
        }
        #expect(try a.export() == b.export())
        let links = try server.dump().records.filter { $0.recordType == "remindersTags" }.map(\.recordName)
        #expect(links == ["remindersTags/" + ReminderTag.linkID(reminderID: x.id, tagKey: "café")])
    }

    @Test func aRenameToAnotherKeyReplacesTheServerRecord() throws {
        let (a, b, server) = try tagOnTwoDevices("Work", "WORK")
        try a.store.renameTag("work", to: "Job")
        for _ in 0..<2 {
            try a.sync()
            try b.sync()
        }
        #expect(try tagRows(b) == ["job Job"])
        #expect(try b.export() == a.export())
        #expect(try serverTagRecords(server) == ["tags/job"])
    }
}
