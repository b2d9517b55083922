import Foundation
import Testing
import TestSupport
@testable import RemindersCore

/// A subtask is always in its parent's list, whatever an edit asks.
@Suite("A subtask stays in its parent's list")
struct SubtaskListTests {
    @Test func keepingTheParentWhileMovingToAnotherListIsRefused() throws {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        let work = try store.createList(title: "Work")
        let shop = try store.add("Shop", to: home)
        let milk = try store.add("Milk", to: home)
        try store.updateReminder(id: milk.id, ReminderChanges(parentID: .some(shop.id)))
        // The same parent, another list: refused, nothing written.
        #expect(throws: CoreError.self) {
            try store.updateReminder(id: milk.id, ReminderChanges(listID: work.id, parentID: .some(shop.id)))
        }
        let kept = try #require(try store.read { try Reminder.fetchOne($0, key: milk.id) })
        #expect(kept.remindersListID == home.id && kept.parentID == shop.id)
        // Moved on its own, it leaves its parent.
        try store.updateReminder(id: milk.id, ReminderChanges(listID: work.id))
        let moved = try #require(try store.read { try Reminder.fetchOne($0, key: milk.id) })
        #expect(moved.remindersListID == work.id && moved.parentID == nil)
    }
}
