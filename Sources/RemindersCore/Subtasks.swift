import Foundation
import GRDB

/// Subtasks: a reminder whose `parentID` names another reminder of the same
/// list. One level deep, as on people's phones: a subtask has no subtasks
/// of its own. One level is what a checklist under a task needs, it keeps
/// every screen's rows two shapes (a reminder, a step under it), and it
/// makes the outcome of concurrent moves simple to state (`repair`).
///
/// Rules every write here keeps, and `repair` restores after a sync merged
/// edits from devices that each kept them:
/// - a subtask's parent is a top-level reminder (no chains, no cycles);
/// - a subtask is in its parent's list.
public enum Subtasks {
    /// Restores the rules after rows merged from other devices broke them.
    /// Deterministic on the rows alone, so every device that holds the same
    /// rows makes the same writes (which then merge as equal edits):
    ///
    /// - A reminder whose parent is itself a subtask becomes a top-level
    ///   reminder. So "A under B" here while "B under A" there leaves both
    ///   at the top, and "A under B" here while "B under C" there leaves B
    ///   under C and A at the top, each in the list it is in.
    /// - A subtask whose list is not its parent's moves to its parent's list
    ///   (the parent was moved to another list while the subtask was added
    ///   under it elsewhere).
    ///
    /// Run by the sync engine after a fetch, as a local edit, so the writes
    /// reach the server and the other devices. Returns how many rows it
    /// changed.
    @discardableResult
    public static func repair(_ db: Database) throws -> Int {
        var changed = 0
        // Chosen first, written after: which rows lose their parent must not
        // depend on the order the update visits them in.
        let nested = try String.fetchAll(db, sql: """
            SELECT child.id FROM reminders AS child JOIN reminders AS parent ON parent.id = child.parentID
            WHERE child.parentID IS NOT NULL AND (parent.parentID IS NOT NULL OR child.parentID = child.id)
            """)
        for id in nested {
            try db.execute(sql: "UPDATE reminders SET parentID = NULL WHERE id = ?", arguments: [id])
            changed += db.changesCount
        }
        try db.execute(sql: """
            UPDATE reminders SET remindersListID = (SELECT parent.remindersListID FROM reminders AS parent WHERE parent.id = reminders.parentID)
            WHERE parentID IS NOT NULL
              AND remindersListID != (SELECT parent.remindersListID FROM reminders AS parent WHERE parent.id = reminders.parentID)
            """)
        changed += db.changesCount
        return changed
    }

    /// Checks that `childID` may become a subtask of `parentID`; returns
    /// the parent. Throws `CoreError.invalidInput` naming the rule broken.
    static func checkParent(_ db: Database, childID: String?, parentID: String) throws -> Reminder {
        guard let parent = try Reminder.fetchOne(db, key: parentID) else {
            throw CoreError.notFound("parent reminder \(parentID) not found")
        }
        if let childID {
            guard childID != parentID else {
                throw CoreError.invalidInput("a reminder cannot be a subtask of itself")
            }
            let child = try RemindersStore.fetchReminder(db, id: childID)
            if try subtaskCount(db, of: childID) > 0 {
                throw CoreError.invalidInput("“\(child.title)” has subtasks of its own; subtasks go one level deep")
            }
        }
        if parent.parentID != nil {
            throw CoreError.invalidInput("“\(parent.title)” is a subtask; subtasks go one level deep, so pick a top-level reminder")
        }
        if parent.repeatOf != nil {
            throw CoreError.invalidInput("“\(parent.title)” is a completed occurrence of a repeating reminder; pick the reminder itself")
        }
        return parent
    }

    /// How many subtasks a reminder has, completed ones included.
    public static func subtaskCount(_ db: Database, of id: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM reminders WHERE parentID = ?", arguments: [id]) ?? 0
    }

    /// The ids of a reminder's open subtasks, in their order.
    public static func openSubtaskIDs(_ db: Database, of id: String) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT id FROM reminders WHERE parentID = ? AND status != 'completed' ORDER BY position, id
            """, arguments: [id])
    }
}

extension RemindersStore {
    /// Makes a reminder a subtask of `parentID` (moving it to the parent's
    /// list, after the parent's other subtasks), or with nil, a top-level
    /// reminder again.
    public func setParent(id: String, parentID: String?) throws {
        try write { db in
            let reminder = try Self.fetchReminder(db, id: id)
            guard let parentID else {
                try self.writeGuard(db, [reminder.remindersListID])
                try db.execute(sql: "UPDATE reminders SET parentID = NULL WHERE id = ?", arguments: [id])
                return
            }
            let parent = try Subtasks.checkParent(db, childID: id, parentID: parentID)
            try self.writeGuard(db, [reminder.remindersListID, parent.remindersListID])
            guard reminder.parentID != parentID else { return }
            var moved = reminder
            moved.parentID = parentID
            if moved.remindersListID != parent.remindersListID {
                moved.remindersListID = parent.remindersListID
                moved.position = try Self.nextPosition(db, listID: parent.remindersListID)
            }
            try moved.updateChanges(db, from: reminder)
        }
    }

    /// The position after the last reminder of a list.
    static func nextPosition(_ db: Database, listID: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT ifnull(max(position), -1) + 1 FROM reminders WHERE remindersListID = ?",
                         arguments: [listID]) ?? 0
    }
}
