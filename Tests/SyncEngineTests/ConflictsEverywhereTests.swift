import CloudServer
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import Testing
import TestSupport
@testable import SyncEngine

/// The conflict log is synced: the device whose edit lost sees the
/// conflict too, from its own side, and dismissing it anywhere dismisses it
/// everywhere.
@Suite struct ConflictsEverywhereTests {
    let directory = TemporaryDirectory()

    /// A and B edit the title of one reminder; A's edit is the later one and
    /// B merges: B's edit loses on B.
    private func conflict() throws -> (a: Device, b: Device, c: Device, reminder: Reminder) {
        let server = try makeServer(directory)
        let a = try Device("laptop", server: server, clock: TestClock(1_800_000_000_000))
        let b = try Device("phone", server: server, clock: TestClock(1_800_000_000_000))
        let c = try Device("desktop", server: server, clock: TestClock(1_800_000_000_000))
        let list = try a.store.createList(title: "Home")
        let reminder = try a.store.createReminder(ReminderDraft(listID: list.id, title: "Paint"))
        try a.sync(); try b.sync(); try c.sync()
        b.clock.advance(1_000)
        a.clock.advance(2_000)
        try b.store.updateReminder(id: reminder.id, ReminderChanges(title: "Paint the fence"))
        try a.store.updateReminder(id: reminder.id, ReminderChanges(title: "Paint the shed"))
        try b.sync()
        // A merges: its edit is the later one and wins.
        try a.sync()
        try b.sync(); try c.sync()
        return (a, b, c, reminder)
    }

    @Test func theDeviceWhoseEditLostSeesTheConflictFromItsOwnSide() throws {
        let (a, b, c, reminder) = try conflict()
        #expect(try a.reminder(reminder.id)?.title == "Paint the shed")
        #expect(try b.reminder(reminder.id)?.title == "Paint the shed")
        let onA = try a.engine.conflicts()
        let onB = try b.engine.conflicts()
        #expect(onA.count == 1)
        #expect(onB.map(\.id) == onA.map(\.id))
        #expect(try c.engine.conflicts().map(\.id) == onA.map(\.id))
        let entry = try #require(onB.first)
        // Logged by the laptop, where its own edit won…
        #expect(entry.localDevice == "laptop" && entry.winner == "local")
        // …and seen from the phone, where the phone's edit lost.
        let seen = entry.seen(from: "phone")
        #expect(seen.localDevice == "phone" && seen.local == "Paint the fence")
        #expect(seen.remoteDevice == "laptop" && seen.remote == "Paint the shed")
        #expect(seen.winner == "remote")
        #expect(ConflictsViewModel.reason(seen) == "the other device's edit is the later one")
        // The desktop took no part: both sides by name.
        #expect(ConflictsViewModel.reason(entry.seen(from: "desktop"), isAboutThisDevice: false)
                == "laptop's edit is the later one")
        // Nothing of the log counts as the user's pending edits.
        #expect(try a.pending() == 0 && b.pending() == 0)
    }

    @Test func dismissingOnOneDeviceDismissesEverywhere() throws {
        let (a, b, c, _) = try conflict()
        let id = try #require(try b.engine.conflicts().first?.id)
        try b.engine.dismissConflict(id: id)
        #expect(try b.pending() == 0)
        try b.sync(); try a.sync(); try c.sync()
        #expect(try a.engine.conflicts().first?.isDismissed == true)
        #expect(try c.engine.conflicts().first?.isDismissed == true)
        #expect(try a.engine.status().conflicts == 0)
    }

    @Test func keepingTheLosingValueOnTheLosingDeviceIsAnEditThatWins() throws {
        let (a, b, _, reminder) = try conflict()
        let id = try #require(try b.engine.conflicts().first?.id)
        #expect(try b.engine.restoreLosingValue(conflictID: id))
        #expect(try b.reminder(reminder.id)?.title == "Paint the fence")
        try b.sync(); try a.sync()
        #expect(try a.reminder(reminder.id)?.title == "Paint the fence")
        #expect(try a.engine.conflicts().first?.isDismissed == true)
    }
}
