import Foundation
import GRDB

/// What a new reminder holds; validated by `RemindersStore.createReminder`.
public struct ReminderDraft: Hashable, Sendable {
    public var listID: String
    public var title: String
    public var notes: String
    public var dueDate: DueDate?
    public var priority: Priority
    public var isFlagged: Bool
    public var tags: [String]
    /// Makes it a subtask of this reminder (in that reminder's list).
    public var parentID: String?
    /// A repeat rule (RRULE text, `RepeatRule`); a repeating reminder with
    /// no due date is due today.
    public var repeatRule: String?
    /// Seconds before the due time to alert; nil: at the due time.
    public var alertBefore: Int?

    public init(listID: String, title: String, notes: String = "", dueDate: DueDate? = nil,
                priority: Priority = .none, isFlagged: Bool = false, tags: [String] = [],
                parentID: String? = nil, repeatRule: String? = nil, alertBefore: Int? = nil) {
        self.parentID = parentID
        self.repeatRule = repeatRule
        self.alertBefore = alertBefore
        self.listID = listID
        self.title = title
        self.notes = notes
        self.dueDate = dueDate
        self.priority = priority
        self.isFlagged = isFlagged
        self.tags = tags
    }
}

/// Changes to a reminder: nil leaves a field as it is. `dueDate` is a double
/// optional so that `.some(nil)` clears the date.
public struct ReminderChanges: Hashable, Sendable {
    public var title: String?
    public var notes: String?
    public var dueDate: DueDate??
    public var priority: Priority?
    public var isFlagged: Bool?
    public var listID: String?
    public var tags: [String]?
    /// `.some(nil)` makes a subtask a top-level reminder again.
    public var parentID: String??
    /// `.some(nil)` stops the repeat. Clearing the due date stops it too.
    public var repeatRule: String??
    /// `.some(nil)`: alert at the due time.
    public var alertBefore: Int??
    /// The occurrence a repeating reminder's due date stands for, set as
    /// given (an undo puts back what an edit changed); nil works it out
    /// from the edit (`Repeats.occurrence`). A reminder that does not
    /// repeat, or has no due date, has none whatever is given.
    public var occurrence: DueDate??
    /// Its place in its list, set as given (an undo puts a reminder back
    /// where it was); nil keeps it, or puts it at the end of a list it
    /// moves to.
    public var position: Int?

    public init(title: String? = nil, notes: String? = nil, dueDate: DueDate?? = nil, priority: Priority? = nil,
                isFlagged: Bool? = nil, listID: String? = nil, tags: [String]? = nil,
                parentID: String?? = nil, repeatRule: String?? = nil, alertBefore: Int?? = nil,
                occurrence: DueDate?? = nil, position: Int? = nil) {
        self.occurrence = occurrence
        self.position = position
        self.parentID = parentID
        self.repeatRule = repeatRule
        self.alertBefore = alertBefore
        self.title = title
        self.notes = notes
        self.dueDate = dueDate
        self.priority = priority
        self.isFlagged = isFlagged
        self.listID = listID
        self.tags = tags
    }
}

/// A deleted reminder with its tags, kept so that a delete can be undone.
/// A tag as spelled and the reminders it was on, for the undo of its
/// delete or rename.
public struct TagLinks: Hashable, Codable, Sendable {
    public var title: String
    public var reminderIDs: [String]
}

/// What a tag's rename did: the tag it was, the name it took (as the tag
/// it merged into is spelled), and the reminders that tag was on before,
/// nil when the rename made it (or only respelled the old one).
public struct TagRename: Hashable, Codable, Sendable {
    public var old: TagLinks
    public var new: String
    public var newWasOn: [String]?

    /// Whether the old tag went into one that was there already.
    public var merged: Bool { newWasOn != nil }
}

public struct DeletedReminder: Codable, Hashable, Sendable {
    public var reminder: Reminder
    public var tags: [String]
    /// Its subtasks, deleted with it.
    public var subtasks: [DeletedReminder]

    public init(reminder: Reminder, tags: [String], subtasks: [DeletedReminder] = []) {
        self.reminder = reminder
        self.tags = tags
        self.subtasks = subtasks
    }

    /// The subtasks that went with it.
    public var subtaskCount: Int { subtasks.reduce(0) { $0 + 1 + $1.subtaskCount } }
}

/// Every change a user can make to their reminders, each one transaction
/// with its validation done first, so a refused change leaves nothing
/// behind.
public final class RemindersStore: Sendable {
    public let writer: any DatabaseWriter
    public let clock: AppClock
    /// Called inside every write transaction with the ids of the lists it
    /// touches; throws `CoreError.readOnly` for a list the user may only
    /// read (a read-only share). Set by the layer that knows about sharing.
    public let writeGuard: @Sendable (Database, Set<String>) throws -> Void
    /// Called inside `deleteList`'s transaction with the list's id; throws
    /// `CoreError.readOnly` for a list another user owns: a participant's
    /// delete would take the owner's reminders from everyone (the server
    /// takes a read-write participant's deletes of reminders, not of the
    /// list), so it is refused before anything goes. Set by the layer that
    /// knows about sharing.
    public let deleteGuard: @Sendable (Database, String) throws -> Void

    public init(writer: any DatabaseWriter, clock: AppClock = AppClock(),
                writeGuard: @escaping @Sendable (Database, Set<String>) throws -> Void = { _, _ in },
                deleteGuard: @escaping @Sendable (Database, String) throws -> Void = { _, _ in }) {
        self.writer = writer
        self.clock = clock
        self.writeGuard = writeGuard
        self.deleteGuard = deleteGuard
    }

    // MARK: Lists

    @discardableResult
    public func createList(title: String, color: String? = nil) throws -> RemindersList {
        let title = try Validation.title(title, of: "list title")
        let color = try color.map { try Validation.color($0) }
        return try write { db in
            let position = try Int.fetchOne(db, sql: "SELECT ifnull(max(position), -1) + 1 FROM remindersLists") ?? 0
            let list = RemindersList(title: title, color: try color ?? Self.nextColor(db), position: position)
            try list.insert(db)
            return list
        }
    }

    /// The title of the list `firstList(user:)` makes.
    public static let firstListTitle = "Reminders"

    /// The list a reminder goes to when none is named and none is set as
    /// the default: the first in Home's order, or, on a device with no
    /// list at all, a new one called "Reminders". Its id is derived from
    /// the user's name, so that two devices of one user that each make it
    /// before they sync make one list, not two (equal creates merge as one
    /// record), and a list shared with another person never takes the id
    /// of theirs. `made` says whether it is new.
    /// `usable`: whether a list may take the reminder (a list shared with
    /// the user read-only may not); one that may not is passed over.
    public func firstList(user: String, usable: (Database, String) throws -> Bool = { _, _ in true }) throws
        -> (list: RemindersList, made: Bool) {
        try write { db in
            if let first = try Queries.listsInOrder(db).first(where: { try usable(db, $0.id) }) { return (first, false) }
            let list = RemindersList(id: derivedID("first list", user), title: Self.firstListTitle,
                                     color: try Self.nextColor(db), position: 0)
            try list.insert(db)
            return (list, true)
        }
    }

    /// Returns the list as it was and as it is, read in the same write.
    @discardableResult
    public func updateList(id: String, title: String? = nil, color: String? = nil) throws -> (before: RemindersList, after: RemindersList) {
        let title = try title.map { try Validation.title($0, of: "list title") }
        let color = try color.map { try Validation.color($0) }
        return try write { db in
            try self.writeGuard(db, [id])
            guard var list = try RemindersList.fetchOne(db, key: id) else { throw CoreError.notFound("list \(id) not found") }
            let before = list
            if let title { list.title = title }
            if let color { list.color = color }
            try list.update(db)
            return (before, list)
        }
    }

    /// Puts a list's title and colour back as they were (the undo of an
    /// edit), unless either changed since from what the edit left
    /// (`expecting`), here or on another device: the later edit stays.
    public func restoreListFields(id: String, title: String, color: String, expecting: (title: String, color: String)) throws {
        try write { db in
            try self.writeGuard(db, [id])
            guard var list = try RemindersList.fetchOne(db, key: id) else { throw CoreError.notFound("the list is gone") }
            guard list.title == expecting.title, list.color == expecting.color else {
                throw CoreError.invalidInput("“\(list.title)” changed since (title or colour); the later edit stays")
            }
            list.title = title
            list.color = color
            try list.update(db)
        }
    }

    /// Deletes a list with its reminders and cover, and returns all of it,
    /// so that `restore(_:)` can undo the delete.
    @discardableResult
    public func deleteList(id: String) throws -> DeletedList {
        try write { db in
            try self.writeGuard(db, [id])
            try self.deleteGuard(db, id)
            guard let list = try RemindersList.fetchOne(db, key: id) else { throw CoreError.notFound("list \(id) not found") }
            let cover = try RemindersListCover.fetchOne(db, key: id)?.image
            let reminders = try Reminder.filter(Column("remindersListID") == id)
                .order(Column("position"), Column("id")).fetchAll(db)
            var tags: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT remindersTags.reminderID, tags.title FROM remindersTags JOIN tags ON tags.id = remindersTags.tagID
                WHERE remindersTags.reminderID IN (SELECT id FROM reminders WHERE remindersListID = ?)
                ORDER BY remindersTags.tagID
                """, arguments: [id]) {
                tags[row[0], default: []].append(row[1])
            }
            try RemindersList.deleteOne(db, key: id)
            return DeletedList(list: list, coverPNG: cover,
                               reminders: reminders.map { DeletedReminder(reminder: $0, tags: tags[$0.id] ?? []) })
        }
    }

    /// Puts a deleted list back, with its cover, reminders and tags, under
    /// the same ids (the undo of a delete): other devices see the rows come
    /// back. Refused if a list with that id exists.
    public func restore(_ deleted: DeletedList) throws {
        try write { db in
            try self.writeGuard(db, [deleted.list.id])
            guard try !RemindersList.exists(db, key: deleted.list.id) else {
                throw CoreError.invalidInput("list '\(deleted.list.title)' exists already")
            }
            try deleted.list.insert(db)
            if let png = deleted.coverPNG {
                try RemindersListCover(remindersListID: deleted.list.id, image: png).insert(db)
            }
            // Parents before their subtasks, for the foreign key.
            for item in deleted.reminders where item.reminder.parentID == nil {
                try Self.insert(db, item)
            }
            for item in deleted.reminders where item.reminder.parentID != nil {
                try Self.insert(db, item)
            }
        }
    }

    /// Moves a list up (negative) or down (positive) in the manual order.
    public func moveList(id: String, by offset: Int) throws {
        try write { db in
            var ids = try String.fetchAll(db, sql: "SELECT id FROM remindersLists ORDER BY position, title COLLATE reminders_title, id")
            try Self.move(id, by: offset, in: &ids)
            for (position, listID) in ids.enumerated() {
                try db.execute(sql: "UPDATE remindersLists SET position = ? WHERE id = ? AND position != ?",
                               arguments: [position, listID, position])
            }
        }
    }

    /// Sets (PNG bytes, checked) or removes (nil) a list's cover image.
    public func setCover(listID: String, png: Data?) throws {
        if let png {
            _ = try CoverImage(png: png)
        }
        try write { db in
            try self.writeGuard(db, [listID])
            guard try RemindersList.exists(db, key: listID) else { throw CoreError.notFound("list \(listID) not found") }
            if let png {
                try db.execute(sql: """
                    INSERT INTO remindersListCovers (remindersListID, image) VALUES (?, ?)
                    ON CONFLICT (remindersListID) DO UPDATE SET image = excluded.image WHERE image IS NOT excluded.image
                    """, arguments: [listID, png])
            } else {
                try db.execute(sql: "DELETE FROM remindersListCovers WHERE remindersListID = ?", arguments: [listID])
            }
        }
    }

    // MARK: Reminders

    @discardableResult
    public func createReminder(_ draft: ReminderDraft) throws -> Reminder {
        let title = try Validation.title(draft.title)
        let notes = try Validation.notes(draft.notes)
        let tags = try draft.tags.map { try Validation.tag($0) }
        let rule = try draft.repeatRule.map { try Validation.repeatRule($0) }
        let alertBefore = try draft.alertBefore.map { try Validation.alertBefore($0) }
        return try write { db in
            var listID = draft.listID
            if let parentID = draft.parentID {
                listID = try Subtasks.checkParent(db, childID: nil, parentID: parentID).remindersListID
            }
            try self.writeGuard(db, [listID])
            guard try RemindersList.exists(db, key: listID) else {
                throw CoreError.notFound("list \(listID) not found")
            }
            let dueDate = draft.dueDate ?? self.firstDue(rule)
            if alertBefore != nil, dueDate == nil { throw Self.alertWithoutDueDate }
            let position = try Self.nextPosition(db, listID: listID)
            let reminder = Reminder(
                remindersListID: listID, title: title, notes: notes,
                dueDate: dueDate,
                priority: draft.priority, isFlagged: draft.isFlagged, position: position,
                parentID: draft.parentID, repeatRule: rule, alertBefore: alertBefore)
            try reminder.insert(db)
            try Self.setTags(db, reminderID: reminder.id, tags: tags)
            return reminder
        }
    }

    /// An alert given to a reminder with no due date to count back from.
    static let alertWithoutDueDate = CoreError.invalidInput(
        "an alert counts back from the due date, and the reminder has none: give it a due date too")

    /// Moves a reminder's due date for this occurrence only (a snooze): a
    /// repeating reminder keeps the occurrence it stands for, and its
    /// time of day, even when the move keeps the day (`Repeats`).
    public func moveOccurrence(id: String, to due: DueDate?) throws {
        try updateReminder(id: id, ReminderChanges(dueDate: .some(due)), oneOccurrence: true)
    }

    public func updateReminder(id: String, _ changes: ReminderChanges) throws {
        try updateReminder(id: id, changes, oneOccurrence: false)
    }

    private func updateReminder(id: String, _ changes: ReminderChanges, oneOccurrence: Bool) throws {
        let title = try changes.title.map { try Validation.title($0) }
        let notes = try changes.notes.map { try Validation.notes($0) }
        let tags = try changes.tags.map { try $0.map { try Validation.tag($0) } }
        let rule = try changes.repeatRule.map { try $0.map { try Validation.repeatRule($0) } }
        let alertBefore = try changes.alertBefore.map { try $0.map { try Validation.alertBefore($0) } }
        try write { db in
            let before = try Self.fetchReminder(db, id: id)
            var reminder = before
            var touched: Set<String> = [reminder.remindersListID]
            if let listID = changes.listID { touched.insert(listID) }
            if let title { reminder.title = title }
            if let notes { reminder.notes = notes }
            if let dueDate = changes.dueDate { reminder.dueDate = dueDate }
            if let priority = changes.priority { reminder.priority = priority }
            if let isFlagged = changes.isFlagged { reminder.isFlagged = isFlagged }
            if let alertBefore { reminder.alertBefore = alertBefore }
            if let rule {
                reminder.repeatRule = rule
                if reminder.dueDate == nil { reminder.dueDate = self.firstDue(rule) }
            }
            // A repeat and an alert count from the due date: without one
            // the repeat stops, an alert given now is refused, and removing
            // the due date removes the alert. (One kept without a due date,
            // as an imported alarm may be, stays through other edits.)
            if reminder.dueDate == nil {
                reminder.repeatRule = nil
                if case .some(.some) = alertBefore { throw Self.alertWithoutDueDate }
                if before.dueDate != nil { reminder.alertBefore = nil }
            }
            if let parentID = changes.parentID, parentID != reminder.parentID {
                if let parentID {
                    let parent = try Subtasks.checkParent(db, childID: id, parentID: parentID)
                    touched.insert(parent.remindersListID)
                    if changes.listID == nil || changes.listID == parent.remindersListID {
                        reminder.remindersListID = parent.remindersListID
                    } else {
                        throw Self.notInParentsList(parent)
                    }
                }
                reminder.parentID = parentID
            }
            if let listID = changes.listID, listID != reminder.remindersListID {
                guard try RemindersList.exists(db, key: listID) else { throw CoreError.notFound("list \(listID) not found") }
                reminder.remindersListID = listID
                // A subtask moved to another list on its own leaves its parent;
                // one told to keep its parent stays in that parent's list.
                if changes.parentID == nil {
                    reminder.parentID = nil
                } else if let parentID = reminder.parentID, let parent = try Reminder.fetchOne(db, key: parentID),
                          parent.remindersListID != listID {
                    throw Self.notInParentsList(parent)
                }
            }
            if reminder.remindersListID != before.remindersListID {
                touched.insert(reminder.remindersListID)
                reminder.position = try Self.nextPosition(db, listID: reminder.remindersListID)
            }
            if let position = changes.position { reminder.position = position }
            // The occurrence goes with the due date and the rule: an edit of
            // neither leaves it (a snoozed series flagged stays snoozed).
            if let occurrence = changes.occurrence {
                reminder.occurrence = reminder.repeatRule != nil && reminder.dueDate != nil ? occurrence : nil
            } else {
                reminder.occurrence = Repeats.occurrence(before: before, after: reminder, oneOccurrence: oneOccurrence)
            }
            let schedule = changes.dueDate != nil || changes.repeatRule != nil || changes.occurrence != nil
            let restamps = schedule && (reminder.repeatRule != nil || before.repeatRule != nil)
                && reminder.occurrence == before.occurrence
            // Tags alone are the user's own (their links live in the user's
            // own zone, on a list shared read-only too): only a change of
            // the reminder itself (or its occurrence's stamp) is guarded.
            if reminder != before || restamps { try self.writeGuard(db, touched) }
            try reminder.updateChanges(db, from: before)
            if restamps {
                try Repeats.restampOccurrence(db, id: id, reminder.occurrence)
            }
            if reminder.remindersListID != before.remindersListID {
                // Subtasks go with their parent.
                try db.execute(sql: "UPDATE reminders SET remindersListID = ? WHERE parentID = ?",
                               arguments: [reminder.remindersListID, id])
            }
            if let tags { try Self.setTags(db, reminderID: id, tags: tags) }
        }
    }

    /// The checkbox: incomplete -> completing (still shown; undo by toggling
    /// again); completing or completed -> incomplete. `finishCompleting`
    /// later turns completing into completed.
    @discardableResult
    public func toggleCompletion(id: String) throws -> ReminderStatus {
        try write { db in
            let reminder = try Self.fetchReminder(db, id: id)
            try self.writeGuard(db, [reminder.remindersListID])
            if reminder.status == .completed, try self.reopenCopy(db, reminder) != nil { return .incomplete }
            let status: ReminderStatus = reminder.status == .incomplete ? .completing : .incomplete
            try self.setStatus(db, id: id, status: status)
            return status
        }
    }

    /// Turns reminders that are still "completing" into "completed". With
    /// no ids, all of them.
    public func finishCompleting(ids: [String]? = nil) throws {
        try write { db in
            // Subtasks first: a repeating parent that moves on opens its
            // checklist again, which must find its ticked subtasks done.
            let candidates = try String.fetchAll(db, sql: """
                SELECT id FROM reminders WHERE status = 'completing' ORDER BY parentID IS NULL, rowid
                """)
            for id in candidates where ids?.contains(id) ?? true {
                try self.setStatus(db, id: id, status: .completed)
            }
        }
    }

    /// Completes at once (the command line's `complete`); with
    /// `subtasks`, its open subtasks too. A repeating reminder completes its
    /// current occurrence and moves on (`Repeats`). Returns the ids of the
    /// subtasks completed.
    @discardableResult
    public func complete(id: String, subtasks: Bool = false) throws -> [String] {
        try write { db in
            let reminder = try Self.fetchReminder(db, id: id)
            try self.writeGuard(db, [reminder.remindersListID])
            let children = subtasks ? try Subtasks.openSubtaskIDs(db, of: id) : []
            for child in children { try self.setStatus(db, id: child, status: .completed) }
            try self.setStatus(db, id: id, status: .completed)
            return children
        }
    }

    /// What `uncomplete` did.
    public enum Uncompletion: Equatable, Sendable {
        /// The reminder was completed and is open now.
        case reopened
        /// An open repeating reminder took back its latest completed
        /// occurrence, or the copy of that occurrence was given: the copy
        /// is gone and the series is due at that occurrence again.
        case tookBackOccurrence(seriesID: String)
        /// It was open, with nothing to take back.
        case alreadyOpen
    }

    /// Marks a reminder incomplete. On a repeating reminder that is open,
    /// takes back its latest completed occurrence (the undo of completing
    /// it): the due date goes back and the occurrence's copy goes. The copy
    /// of that latest occurrence does the same; the copy of an earlier one
    /// is refused while its series repeats on (it is history: reopened, it
    /// was one more open reminder beside its series). A copy whose series
    /// is gone, over or no longer repeats reopens as any reminder.
    @discardableResult
    public func uncomplete(id: String) throws -> Uncompletion {
        try write { db in
            let reminder = try Self.fetchReminder(db, id: id)
            try self.writeGuard(db, [reminder.remindersListID])
            if reminder.status == .completed, let outcome = try self.reopenCopy(db, reminder) { return outcome }
            if reminder.status == .incomplete {
                return try Repeats.takeBackLatest(db, reminder) ? .tookBackOccurrence(seriesID: reminder.id) : .alreadyOpen
            }
            try self.setStatus(db, id: id, status: .incomplete)
            return .reopened
        }
    }

    /// Reopening a completed occurrence's copy while its series repeats
    /// on: the latest one takes that completion back (see `uncomplete`),
    /// an earlier one is refused. Nil when `reminder` is no such copy, or
    /// its series is gone, over or no longer repeats (it reopens as any
    /// reminder then).
    private func reopenCopy(_ db: Database, _ reminder: Reminder) throws -> Uncompletion? {
        guard let seriesID = reminder.repeatOf, let series = try Reminder.fetchOne(db, key: seriesID),
              series.status != .completed, series.rule != nil else { return nil }
        try writeGuard(db, [series.remindersListID])
        guard series.status == .incomplete else {
            throw CoreError.invalidInput("“\(series.title)” is being completed: untick it first to take back a completion")
        }
        guard try Repeats.latestCopyID(db, series: seriesID) == reminder.id, try Repeats.takeBackLatest(db, series) else {
            throw CoreError.invalidInput("“\(reminder.title)” records an earlier occurrence of a repeating reminder and stays "
                                         + "completed: only the latest can be taken back")
        }
        return .tookBackOccurrence(seriesID: seriesID)
    }

    private func setStatus(_ db: Database, id: String, status: ReminderStatus) throws {
        if status == .completed, let reminder = try Reminder.fetchOne(db, key: id), reminder.status != .completed,
           try Repeats.completeOccurrence(db, reminder, clock: clock) != nil {
            // Completing the occurrence left the reminder open, due next;
            // a "completing" one is open again until its next completion.
            try db.execute(sql: "UPDATE reminders SET status = 'incomplete' WHERE id = ? AND status = 'completing'", arguments: [id])
            return
        }
        let completedAt: String? = status == .completed ? clock.timestamp() : nil
        try db.execute(sql: """
            UPDATE reminders SET status = ?, completedAt = CASE WHEN ? = 'completed' THEN coalesce(completedAt, ?) ELSE NULL END
            WHERE id = ? AND status != ?
            """, arguments: [status.rawValue, status.rawValue, completedAt, id, status.rawValue])
    }

    public func setFlag(id: String, _ flagged: Bool) throws {
        try updateReminder(id: id, ReminderChanges(isFlagged: flagged))
    }

    /// Deletes a reminder and returns what is needed to undo it.
    @discardableResult
    public func deleteReminder(id: String) throws -> DeletedReminder {
        try write { db in
            let reminder = try Self.fetchReminder(db, id: id)
            try self.writeGuard(db, [reminder.remindersListID])
            let deleted = try Self.deletedReminder(db, reminder)
            // Its subtasks go by the foreign key's cascade.
            try Reminder.deleteOne(db, key: id)
            return deleted
        }
    }

    /// A reminder as `restore` puts it back: with its tags and subtasks.
    static func deletedReminder(_ db: Database, _ reminder: Reminder) throws -> DeletedReminder {
        let subtasks = try Reminder.filter(Column("parentID") == reminder.id).order(Column("position"), Column("id")).fetchAll(db)
        return DeletedReminder(reminder: reminder, tags: try Queries.tags(db, reminderID: reminder.id),
                               subtasks: try subtasks.map { try deletedReminder(db, $0) })
    }

    /// Puts a deleted reminder back (the undo of a delete). If its list is
    /// gone meanwhile, the undo fails with `notFound`.
    public func restore(_ deleted: DeletedReminder) throws {
        try write { db in
            try self.writeGuard(db, [deleted.reminder.remindersListID])
            guard try RemindersList.exists(db, key: deleted.reminder.remindersListID) else {
                throw CoreError.notFound("the list of '\(deleted.reminder.title)' no longer exists")
            }
            try Self.insert(db, deleted)
        }
    }

    /// The columns `restoreLost` puts back, besides its list and tags: what
    /// the conflict log keeps of a reminder a delete takes.
    /// (A completion time says it was completed: "status" need not be kept.)
    public static let restoredColumns = ["title", "notes", "dueDate", "priority", "isFlagged", "completedAt",
                                         "repeatRule", "alertBefore"]

    /// Puts back a reminder a delete made elsewhere took, from the values
    /// the conflict log kept of it (`[(column, value)]` as the log writes
    /// them), under its old id so its entry knows it again, into `listID`
    /// (its own list may be gone with it), with the tags it kept (made
    /// again where they are gone). What the log did not keep takes its
    /// default; a value this version cannot read is left out.
    @discardableResult
    public func restoreLost(id: String, values: [(column: String, value: String)], listID: String) throws -> Reminder {
        try write { db in
            try self.writeGuard(db, [listID])
            guard try RemindersList.exists(db, key: listID) else { throw CoreError.notFound("list \(listID) not found") }
            guard try !Reminder.exists(db, key: id) else { throw CoreError.invalidInput("the reminder is here already") }
            var reminder = Reminder(id: id, remindersListID: listID, title: "", position: try Self.nextPosition(db, listID: listID))
            var tags: [String] = []
            // A completion time says it was completed, unless a status
            // kept with it says otherwise (a merge can leave both).
            let statusKept = values.contains { $0.column == "status" }
            for (column, value) in values {
                switch column {
                case "title": reminder.title = value
                case "notes": reminder.notes = value
                case "dueDate": reminder.dueDate = DueDate(value)
                case "priority": reminder.priority = Int(value).flatMap(Priority.init(rawValue:)) ?? .none
                case "isFlagged": reminder.isFlagged = value == "1"
                case "status": reminder.status = ReminderStatus(rawValue: value) == .completed ? .completed : .incomplete
                case "completedAt":
                    reminder.completedAt = value
                    if !statusKept { reminder.status = .completed }
                case "repeatRule": reminder.repeatRule = try? Validation.repeatRule(value)
                case "alertBefore": reminder.alertBefore = Int(value)
                case Tag.databaseTableName: tags = Self.keptTags(value).compactMap { try? Validation.tag($0) }
                default: break
                }
            }
            if reminder.dueDate == nil { reminder.alertBefore = nil }
            if reminder.status != .completed { reminder.completedAt = nil }
            try reminder.insert(db)
            try Self.setTags(db, reminderID: id, tags: tags)
            return reminder
        }
    }

    /// The tags the conflict log kept of a reminder a delete took: the
    /// titles as a JSON array (`SyncEngine.linkedNames`); none for any
    /// other text.
    public static func keptTags(_ value: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(value.utf8))) ?? []
    }

    static func insert(_ db: Database, _ deleted: DeletedReminder) throws {
        var reminder = deleted.reminder
        // Its parent may have gone meanwhile: it comes back at the top.
        if let parentID = reminder.parentID, try !Reminder.exists(db, key: parentID) { reminder.parentID = nil }
        try reminder.insert(db)
        try setTags(db, reminderID: reminder.id, tags: deleted.tags)
        for subtask in deleted.subtasks { try insert(db, subtask) }
    }

    /// Moves a reminder up (negative) or down (positive) within its list.
    public func moveReminder(id: String, by offset: Int) throws {
        try write { db in
            let reminder = try Self.fetchReminder(db, id: id)
            try self.writeGuard(db, [reminder.remindersListID])
            var ids = try String.fetchAll(db, sql: """
                SELECT id FROM reminders WHERE remindersListID = ? ORDER BY status = 'completed', position, id
                """, arguments: [reminder.remindersListID])
            try Self.move(id, by: offset, in: &ids)
            for (position, reminderID) in ids.enumerated() {
                try db.execute(sql: "UPDATE reminders SET position = ? WHERE id = ? AND position != ?",
                               arguments: [position, reminderID, position])
            }
        }
    }

    /// Deletes completed reminders completed before the period's cutoff.
    /// With a list, only that list (refused if it is read-only); without,
    /// every list the user may write. Returns how many were deleted.
    @discardableResult
    public func clearCompleted(_ period: ClearPeriod, listID: String? = nil) throws -> Int {
        let cutoff = period.cutoff(clock)
        return try write { db in
            var condition = "status = 'completed'"
            var arguments: StatementArguments = []
            if let cutoff {
                condition += " AND (completedAt IS NULL OR completedAt < ?)"
                arguments += [cutoff]
            }
            var listIDs: [String]
            if let listID {
                try self.writeGuard(db, [listID])
                listIDs = [listID]
            } else {
                listIDs = []
                let candidates = try String.fetchAll(
                    db, sql: "SELECT DISTINCT remindersListID FROM reminders WHERE \(condition)", arguments: arguments)
                for candidate in candidates {
                    do {
                        try self.writeGuard(db, [candidate])
                        listIDs.append(candidate)
                    } catch CoreError.readOnly {
                        continue
                    }
                }
            }
            var deleted = 0
            for id in listIDs {
                try db.execute(sql: "DELETE FROM reminders WHERE \(condition) AND remindersListID = ?",
                               arguments: arguments + [id])
                deleted += db.changesCount
            }
            return deleted
        }
    }

    // MARK: Tags

    /// Creates a tag. A tag with the same key (any case, any accent
    /// encoding) exists already: it stays as it is spelled.
    /// Returns nil when it made the tag, else the spelling of the tag with
    /// its key that was there already (which stays as it is).
    @discardableResult
    public func createTag(_ title: String) throws -> String? {
        let title = try Validation.tag(title)
        return try write { db in
            if let existing = try Queries.tagTitle(db, title) { return existing }
            try Self.ensureTag(db, title)
            return nil
        }
    }

    /// Renames a tag everywhere; `old` may be spelled any way that has its
    /// key. A new spelling of the same key ("work" to "Work") changes the
    /// title only. Another key is another record: the new tag is created
    /// (or, if it exists, kept as it is spelled: the two merge), each link
    /// is made again under the new key, and the old tag is deleted, so
    /// that every step is an ordinary insert or delete another device can
    /// apply.
    ///
    /// Returns what the rename did, which `undoRename` takes back.
    @discardableResult
    public func renameTag(_ old: String, to new: String) throws -> TagRename {
        let new = try Validation.tag(new)
        return try write { db in
            guard let current = try Tag.fetchOne(db, key: TagKey.of(old)) else {
                throw CoreError.notFound("tag '\(old)' not found")
            }
            let links = try Self.links(db, of: current)
            let target = TagKey.of(new)
            if target == current.id {
                try db.execute(sql: "UPDATE tags SET title = ? WHERE id = ? AND title != ?",
                               arguments: [new, current.id, new])
                return TagRename(old: links, new: new, newWasOn: nil)
            }
            let existing = try Tag.fetchOne(db, key: target)
            let newWasOn = try existing.map { try Self.links(db, of: $0).reminderIDs }
            try Self.ensureTag(db, new)
            for reminderID in links.reminderIDs {
                try ReminderTag(reminderID: reminderID, tagID: target).insert(db, onConflict: .ignore)
            }
            try db.execute(sql: "DELETE FROM remindersTags WHERE tagID = ?", arguments: [current.id])
            try Tag.deleteOne(db, key: current.id)
            return TagRename(old: links, new: existing?.title ?? new, newWasOn: newWasOn)
        }
    }

    /// Takes a rename back: the old tag again, on the reminders it was on
    /// (those still here), and the new one off those it was not on before;
    /// a tag the rename made goes again if nothing else took it since.
    public func undoRename(_ rename: TagRename) throws {
        try write { db in
            let newKey = TagKey.of(rename.new)
            if newKey == TagKey.of(rename.old.title) {
                guard try Tag.exists(db, key: newKey) else { throw CoreError.notFound("tag '\(rename.new)' not found") }
                try db.execute(sql: "UPDATE tags SET title = ? WHERE id = ? AND title != ?",
                               arguments: [rename.old.title, newKey, rename.old.title])
                return
            }
            try Self.putBack(db, rename.old)
            let keep = Set(rename.newWasOn ?? [])
            for reminderID in rename.old.reminderIDs where !keep.contains(reminderID) {
                try db.execute(sql: "DELETE FROM remindersTags WHERE reminderID = ? AND tagID = ?", arguments: [reminderID, newKey])
            }
            let stillUsed = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM remindersTags WHERE tagID = ?)",
                                              arguments: [newKey]) ?? false
            if rename.newWasOn == nil, !stillUsed { try Tag.deleteOne(db, key: newKey) }
        }
    }

    /// Deletes a tag, spelled any way that has its key, and its links;
    /// returns them, which `restoreTag` puts back.
    @discardableResult
    public func deleteTag(_ title: String) throws -> TagLinks {
        try write { db in
            guard let tag = try Tag.fetchOne(db, key: TagKey.of(title)) else { throw CoreError.notFound("tag '\(title)' not found") }
            let links = try Self.links(db, of: tag)
            try Tag.deleteOne(db, key: tag.id)
            return links
        }
    }

    /// Puts a deleted tag back on the reminders it was on that are still
    /// here (the undo of `deleteTag`).
    public func restoreTag(_ links: TagLinks) throws {
        try write { db in try Self.putBack(db, links) }
    }

    private static func links(_ db: Database, of tag: Tag) throws -> TagLinks {
        TagLinks(title: tag.title, reminderIDs: try String.fetchAll(db, sql: "SELECT reminderID FROM remindersTags WHERE tagID = ? ORDER BY reminderID",
                                                                    arguments: [tag.id]))
    }

    private static func putBack(_ db: Database, _ links: TagLinks) throws {
        try ensureTag(db, links.title)
        let key = TagKey.of(links.title)
        for reminderID in links.reminderIDs where try Reminder.exists(db, key: reminderID) {
            try ReminderTag(reminderID: reminderID, tagID: key).insert(db, onConflict: .ignore)
        }
    }

    /// Makes a reminder's tags exactly `tags` (by key: "Work" and "work"
    /// are one), creating tags as needed and touching only the links that
    /// change.
    static func setTags(_ db: Database, reminderID: String, tags: [String]) throws {
        var wanted: [String: String] = [:]
        var order: [String] = []
        for tag in tags {
            let key = TagKey.of(tag)
            if wanted[key] == nil {
                wanted[key] = tag
                order.append(key)
            }
        }
        let current = Set(try String.fetchAll(db, sql: "SELECT tagID FROM remindersTags WHERE reminderID = ?",
                                               arguments: [reminderID]))
        for key in current where wanted[key] == nil {
            try db.execute(sql: "DELETE FROM remindersTags WHERE reminderID = ? AND tagID = ?", arguments: [reminderID, key])
        }
        for key in order where !current.contains(key) {
            try ensureTag(db, wanted[key] ?? key)
            try ReminderTag(reminderID: reminderID, tagID: key).insert(db)
        }
    }

    /// Creates the tag unless one with its key exists, which keeps its
    /// spelling: a link to "work" made after "Work" exists reads "Work".
    static func ensureTag(_ db: Database, _ title: String) throws {
        try db.execute(sql: "INSERT INTO tags (id, title) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
                       arguments: [TagKey.of(title), title])
    }

    // MARK: Helpers

    /// The due date a repeating reminder given none takes (nil without a
    /// rule): the rule's first day from today.
    func firstDue(_ rrule: String?) -> DueDate? {
        guard let rrule, let rule = try? RepeatRule(rrule: rrule), let today = DueDate(clock.today) else { return nil }
        return Repeats.firstDue(rule, today: today)
    }

    static func fetchReminder(_ db: Database, id: String) throws -> Reminder {
        guard let reminder = try Reminder.fetchOne(db, key: id) else { throw CoreError.notFound("reminder \(id) not found") }
        return reminder
    }

    static func move(_ id: String, by offset: Int, in ids: inout [String]) throws {
        guard let index = ids.firstIndex(of: id) else { throw CoreError.notFound("\(id) not found") }
        let target = min(max(index + offset, 0), ids.count - 1)
        ids.remove(at: index)
        ids.insert(id, at: target)
    }

    /// Runs a write transaction, turning SQLite errors into `CoreError`.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try mappingErrors { try writer.write(body) }
    }

    /// As `write`, for a body that opens its own transaction.
    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try mappingErrors { try writer.writeWithoutTransaction(body) }
    }

    private func mappingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw CoreError.invalidInput("change refused by the database: \(error.message ?? "constraint failed")")
        } catch let error as DatabaseError {
            throw CoreError.database("database error: \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// An edit that would put a subtask in another list than its parent's.
    private static func notInParentsList(_ parent: Reminder) -> CoreError {
        .invalidInput("a subtask is in its parent's list: “\(parent.title)” is in another list than the one given")
    }

    /// The list colors offered by forms, first one the default.
    public static let palette = ["#4a99ef", "#e8524a", "#f0a030", "#f5d23c", "#5cc15a", "#a86fe0", "#a5826a", "#8e8e93"]

    /// The palette's colours by name, in its order: `--color green` and
    /// the list form say them so.
    public static let paletteNames = ["blue", "red", "orange", "yellow", "green", "purple", "brown", "gray"]

    /// A new list's colour when none is given: the palette's first that no
    /// list uses, else the palette in turn, so that a new list stands apart
    /// from the others on every screen, however it was made.
    public static func nextColor(_ db: Database) throws -> String {
        let used = try Queries.listColors(db)
        return palette.first { !used.contains($0) } ?? palette[used.count % palette.count]
    }
}

/// A change kept to be applied later (the CLI's undo keeps one in the
/// device's database): every field it sets, and only those. A field set
/// to nothing (`.some(nil)`: no due date, no repeat) is written as
/// `{"dueDate": {}}`, one left alone is absent.
extension ReminderChanges: Codable {
    private enum Key: String, CodingKey {
        case title, notes, dueDate, priority, isFlagged, listID, tags, parentID, repeatRule, alertBefore, occurrence, position
    }

    /// A field that is set, to a value or to nothing.
    private struct Given<Value: Codable>: Codable {
        var value: Value?
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(title: try c.decodeIfPresent(String.self, forKey: .title),
                  notes: try c.decodeIfPresent(String.self, forKey: .notes),
                  dueDate: try c.decodeIfPresent(Given<DueDate>.self, forKey: .dueDate).map(\.value),
                  priority: try c.decodeIfPresent(Priority.self, forKey: .priority),
                  isFlagged: try c.decodeIfPresent(Bool.self, forKey: .isFlagged),
                  listID: try c.decodeIfPresent(String.self, forKey: .listID),
                  tags: try c.decodeIfPresent([String].self, forKey: .tags),
                  parentID: try c.decodeIfPresent(Given<String>.self, forKey: .parentID).map(\.value),
                  repeatRule: try c.decodeIfPresent(Given<String>.self, forKey: .repeatRule).map(\.value),
                  alertBefore: try c.decodeIfPresent(Given<Int>.self, forKey: .alertBefore).map(\.value),
                  occurrence: try c.decodeIfPresent(Given<DueDate>.self, forKey: .occurrence).map(\.value),
                  position: try c.decodeIfPresent(Int.self, forKey: .position))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(notes, forKey: .notes)
        try c.encodeIfPresent(dueDate.map { Given(value: $0) }, forKey: .dueDate)
        try c.encodeIfPresent(priority, forKey: .priority)
        try c.encodeIfPresent(isFlagged, forKey: .isFlagged)
        try c.encodeIfPresent(listID, forKey: .listID)
        try c.encodeIfPresent(tags, forKey: .tags)
        try c.encodeIfPresent(parentID.map { Given(value: $0) }, forKey: .parentID)
        try c.encodeIfPresent(repeatRule.map { Given(value: $0) }, forKey: .repeatRule)
        try c.encodeIfPresent(alertBefore.map { Given(value: $0) }, forKey: .alertBefore)
        try c.encodeIfPresent(occurrence.map { Given(value: $0) }, forKey: .occurrence)
        try c.encodeIfPresent(position, forKey: .position)
    }
}
