import Foundation
import GRDB
import Testing
@testable import RemindersCore

/// The list a reminder goes to on a device with none (`firstList(user:)`).
@Suite("The first list")
struct FirstListTests {
    /// Made once, as "Reminders"; its id is the user's, the same on every
    /// device of that user and another for another user.
    @Test func aDeviceWithoutListsMakesOneWhoseIDIsTheUsers() throws {
        let laptop = try makeStore(), desktop = try makeStore(), bobs = try makeStore()
        let made = try laptop.firstList(user: "alice")
        #expect(made.made)
        #expect(made.list.title == "Reminders")
        #expect(made.list.position == 0)
        let again = try laptop.firstList(user: "alice")
        #expect(!again.made)
        #expect(again.list.id == made.list.id)
        #expect(try laptop.read { try RemindersList.fetchCount($0) } == 1)

        let other = try desktop.firstList(user: "alice")
        #expect(other.list.id == made.list.id)
        #expect(other.list.color == made.list.color)
        #expect(try bobs.firstList(user: "bob").list.id != made.list.id)
    }

    /// With lists, the first in Home's order, and nothing is made.
    @Test func withListsItIsTheFirstInHomesOrder() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        _ = try store.createList(title: "Work")
        let first = try store.firstList(user: "alice")
        #expect(!first.made)
        #expect(first.list.id == home.id)
        #expect(try store.read { try RemindersList.fetchCount($0) } == 2)
    }
}
