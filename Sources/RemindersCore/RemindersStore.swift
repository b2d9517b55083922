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

    public init(listID: String, title: String, notes: String = "", dueDate: DueDate? = nil,
                priority: Priority = .none, isFlagged: Bool = false, tags: [String] = []) {
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

    public init(title: String? = nil, notes: String? = nil, dueDate: DueDate?? = nil, priority: Priority? = nil,
                isFlagged: Bool? = nil, listID: String? = nil, tags: [String]? = nil) {
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
public struct DeletedReminder: Hashable, Sendable {
    public var reminder: Reminder
    public var tags: [String]
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

    public init(writer: any DatabaseWriter, clock: AppClock = AppClock(),
                writeGuard: @escaping @Sendable (Database, Set<String>) throws -> Void = { _, _ in }) {
        self.writer = writer
        self.clock = clock
        self.writeGuard = writeGuard
    }

    // MARK: Lists

    @discardableResult
    public func createList(title: String, color: String? = nil) throws -> RemindersList {
        let title = try Validation.title(title, of: "list title")
        let color = try color.map { try Validation.color($0) } ?? RemindersStore.palette[0]
        return try write { db in
            let position = try Int.fetchOne(db, sql: "SELECT ifnull(max(position), -1) + 1 FROM remindersLists") ?? 0
            let list = RemindersList(title: title, color: color, position: position)
            try list.insert(db)
            return list
        }
    }

    public func updateList(id: String, title: String? = nil, color: String? = nil) throws {
        let title = try title.map { try Validation.title($0, of: "list title") }
        let color = try color.map { try Validation.color($0) }
        try write { db in
            try self.writeGuard(db, [id])
            guard var list = try RemindersList.fetchOne(db, key: id) else { throw CoreError.notFound("list \(id) not found") }
            if let title { list.title = title }
            if let color { list.color = color }
            try list.update(db)
        }
    }

    /// Deletes a list with its reminders and cover, and returns all of it,
    /// so that `restore(_:)` can undo the delete.
    @discardableResult
    public func deleteList(id: String) throws -> DeletedList {
        try write { db in
            try self.writeGuard(db, [id])
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
            for item in deleted.reminders {
                try item.reminder.insert(db)
                try Self.setTags(db, reminderID: item.reminder.id, tags: item.tags)
            }
        }
    }

    /// Moves a list up (negative) or down (positive) in the manual order.
    public func moveList(id: String, by offset: Int) throws {
        try write { db in
            var ids = try String.fetchAll(db, sql: "SELECT id FROM remindersLists ORDER BY position, title COLLATE NOCASE, id")
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
        return try write { db in
            try self.writeGuard(db, [draft.listID])
            guard try RemindersList.exists(db, key: draft.listID) else {
                throw CoreError.notFound("list \(draft.listID) not found")
            }
            let position = try Int.fetchOne(db, sql: """
                SELECT ifnull(max(position), -1) + 1 FROM reminders WHERE remindersListID = ?
                """, arguments: [draft.listID]) ?? 0
            let reminder = Reminder(
                remindersListID: draft.listID, title: title, notes: notes, dueDate: draft.dueDate,
                priority: draft.priority, isFlagged: draft.isFlagged, position: position)
            try reminder.insert(db)
            try Self.setTags(db, reminderID: reminder.id, tags: tags)
            return reminder
        }
    }

    public func updateReminder(id: String, _ changes: ReminderChanges) throws {
        let title = try changes.title.map { try Validation.title($0) }
        let notes = try changes.notes.map { try Validation.notes($0) }
        let tags = try changes.tags.map { try $0.map { try Validation.tag($0) } }
        try write { db in
            var reminder = try Self.fetchReminder(db, id: id)
            var touched: Set<String> = [reminder.remindersListID]
            if let listID = changes.listID { touched.insert(listID) }
            try self.writeGuard(db, touched)
            if let title { reminder.title = title }
            if let notes { reminder.notes = notes }
            if let dueDate = changes.dueDate { reminder.dueDate = dueDate }
            if let priority = changes.priority { reminder.priority = priority }
            if let isFlagged = changes.isFlagged { reminder.isFlagged = isFlagged }
            if let listID = changes.listID, listID != reminder.remindersListID {
                guard try RemindersList.exists(db, key: listID) else { throw CoreError.notFound("list \(listID) not found") }
                reminder.remindersListID = listID
                reminder.position = try Int.fetchOne(db, sql: """
                    SELECT ifnull(max(position), -1) + 1 FROM reminders WHERE remindersListID = ?
                    """, arguments: [listID]) ?? 0
            }
            try reminder.updateChanges(db, from: try Self.fetchReminder(db, id: id))
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
            let status: ReminderStatus = reminder.status == .incomplete ? .completing : .incomplete
            try self.setStatus(db, id: id, status: status)
            return status
        }
    }

    /// Turns reminders that are still "completing" into "completed". With
    /// no ids, all of them.
    public func finishCompleting(ids: [String]? = nil) throws {
        try write { db in
            let candidates = try String.fetchAll(db, sql: "SELECT id FROM reminders WHERE status = 'completing'")
            for id in candidates where ids?.contains(id) ?? true {
                try self.setStatus(db, id: id, status: .completed)
            }
        }
    }

    /// Completes at once (the command line's `complete`).
    public func complete(id: String) throws {
        try write { db in
            let reminder = try Self.fetchReminder(db, id: id)
            try self.writeGuard(db, [reminder.remindersListID])
            try self.setStatus(db, id: id, status: .completed)
        }
    }

    public func uncomplete(id: String) throws {
        try write { db in
            let reminder = try Self.fetchReminder(db, id: id)
            try self.writeGuard(db, [reminder.remindersListID])
            try self.setStatus(db, id: id, status: .incomplete)
        }
    }

    private func setStatus(_ db: Database, id: String, status: ReminderStatus) throws {
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
            let tags = try Queries.tags(db, reminderID: id)
            try Reminder.deleteOne(db, key: id)
            return DeletedReminder(reminder: reminder, tags: tags)
        }
    }

    /// Puts a deleted reminder back (the undo of a delete). If its list is
    /// gone meanwhile, the undo fails with `notFound`.
    public func restore(_ deleted: DeletedReminder) throws {
        try write { db in
            try self.writeGuard(db, [deleted.reminder.remindersListID])
            guard try RemindersList.exists(db, key: deleted.reminder.remindersListID) else {
                throw CoreError.notFound("the list of '\(deleted.reminder.title)' no longer exists")
            }
            try deleted.reminder.insert(db)
            try Self.setTags(db, reminderID: deleted.reminder.id, tags: deleted.tags)
        }
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
    public func createTag(_ title: String) throws {
        let title = try Validation.tag(title)
        try write { db in
            try Self.ensureTag(db, title)
        }
    }

    /// Renames a tag everywhere; `old` may be spelled any way that has its
    /// key. A new spelling of the same key ("work" to "Work") changes the
    /// title only. Another key is another record: the new tag is created
    /// (or, if it exists, kept as it is spelled: the two merge), each link
    /// is made again under the new key, and the old tag is deleted, so
    /// that every step is an ordinary insert or delete another device can
    /// apply.
    public func renameTag(_ old: String, to new: String) throws {
        let new = try Validation.tag(new)
        try write { db in
            guard let current = try Tag.fetchOne(db, key: TagKey.of(old)) else {
                throw CoreError.notFound("tag '\(old)' not found")
            }
            let target = TagKey.of(new)
            if target == current.id {
                try db.execute(sql: "UPDATE tags SET title = ? WHERE id = ? AND title != ?",
                               arguments: [new, current.id, new])
                return
            }
            try Self.ensureTag(db, new)
            for reminderID in try String.fetchAll(db, sql: "SELECT reminderID FROM remindersTags WHERE tagID = ?",
                                                  arguments: [current.id]) {
                try ReminderTag(reminderID: reminderID, tagID: target).insert(db, onConflict: .ignore)
            }
            try db.execute(sql: "DELETE FROM remindersTags WHERE tagID = ?", arguments: [current.id])
            try Tag.deleteOne(db, key: current.id)
        }
    }

    /// Deletes a tag, spelled any way that has its key, and its links.
    public func deleteTag(_ title: String) throws {
        try write { db in
            guard try Tag.deleteOne(db, key: TagKey.of(title)) else { throw CoreError.notFound("tag '\(title)' not found") }
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
        do {
            return try writer.write(body)
        } catch let error as CoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw CoreError.invalidInput("change refused by the database: \(error.message ?? "constraint failed")")
        } catch let error as DatabaseError {
            throw CoreError.database("database error: \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// The list colors offered by forms, first one the default.
    public static let palette = ["#4a99ef", "#e8524a", "#f0a030", "#f5d23c", "#5cc15a", "#a86fe0", "#a5826a", "#8e8e93"]
}
