import Foundation
import RemindersCore

/// What an action did, for the toast: a message, an undo when the action
/// can be undone, or the error that stopped it. Actions never throw.
public struct ActionResult: Equatable, Sendable {
    /// What happened, e.g. "Deleted “Milk”"; nil for actions that need no
    /// toast.
    public var message: String?
    /// Set when the action failed: one line naming what was wrong. The
    /// database is unchanged.
    public var errorMessage: String?
    /// Offer this in the toast; pass it to the view model's `undo(_:)`.
    public var undo: UndoAction?
    /// The id of what the action created (a list, a tag title), if any.
    public var createdID: String?

    /// A result with any of its parts; `done` and `failed(_:)` cover the
    /// plain cases.
    public init(message: String? = nil, errorMessage: String? = nil, undo: UndoAction? = nil, createdID: String? = nil) {
        self.message = message
        self.errorMessage = errorMessage
        self.undo = undo
        self.createdID = createdID
    }

    /// Whether the action went through (no `errorMessage`).
    public var succeeded: Bool { errorMessage == nil }

    /// Done, with nothing to say: no toast, no undo.
    public static let done = ActionResult()

    /// Failed, with the line to show; nothing was changed.
    public static func failed(_ message: String) -> ActionResult {
        ActionResult(errorMessage: message)
    }
}

/// How to take back an action. Applying one gives the action that takes
/// it back in turn, so an undo can be redone and undone again.
public enum UndoAction: Equatable, Sendable {
    /// Puts back a deleted reminder, with its tags and position.
    case restoreReminder(DeletedReminder)
    /// Puts back a deleted list with its cover, reminders and tags.
    case restoreList(DeletedList)
    /// Puts back several deleted reminders (clearing completed matches).
    case restoreReminders([DeletedReminder])
    /// Takes back a completion (completing or completed -> incomplete).
    case uncomplete(id: String)
    /// Completes a reminder again (the redo of an uncompletion).
    case complete(id: String)
    /// Sets a reminder's flag back.
    case setFlag(id: String, Bool)
    /// Sets a reminder's due date back (the undo of a snooze).
    case restoreDueDate(id: String, DueDate?)
    /// Sets back until when this device holds the alert of a reminder's
    /// due date: nil brings it back to Due now (the undo of a snooze
    /// before the due time, which leaves the due date as it is).
    case setSnooze(id: String, DueDate, until: Date?)
    /// Sets a reminder's priority back.
    case setPriority(id: String, Priority)
    /// Sets a reminder's fields back as the form found them (the undo of
    /// an edit in the form): title, notes, due date and the occurrence it
    /// stands for, priority, flag, list and place in it, tags, repeat and
    /// alert.
    /// `expecting`: those fields' values the change left, which the undo
    /// finds still there or refuses (another device, another person, may
    /// have written since: their later edit stays).
    case restoreFields(id: String, ReminderChanges, expecting: ReminderChanges? = nil)
    /// Deletes a reminder again (the undo of adding one, the redo of a
    /// restore).
    case deleteReminder(id: String)
    /// Deletes several reminders again.
    case deleteReminders(ids: [String])
    /// Deletes a list again.
    case deleteList(id: String)
    /// Takes back the completion of several reminders (a parent ticked
    /// with its subtasks).
    case uncompleteReminders(ids: [String])
    /// Completes several reminders again.
    case completeReminders(ids: [String])
    /// Puts a reminder back under its parent, or at the top level with nil.
    case setParent(id: String, String?)
    /// Puts a deleted tag back on the reminders it was on.
    case restoreTag(TagLinks)
    /// Deletes a tag again (the redo of its delete).
    case deleteTag(title: String)
    /// Takes a tag's rename (or merge) back.
    case undoRename(TagRename)
    /// Renames a tag again (the redo of a rename).
    case renameTag(from: String, to: String)
    /// Sets a list's title and colour back (the undo of its edit), refused
    /// if either is no longer what the edit left (`expectingTitle`,
    /// `expectingColor`): a later edit stays.
    case restoreListFields(id: String, title: String, color: String, expectingTitle: String, expectingColor: String)

    /// Applies the undo through the store and returns the action that
    /// takes it back. View models call this through their own `undo(_:)`,
    /// which also cancels pending timers.
    @discardableResult
    public func apply(to store: RemindersStore) throws -> UndoAction {
        switch self {
        case .restoreReminder(let deleted):
            try store.restore(deleted)
            return .deleteReminder(id: deleted.reminder.id)
        case .restoreList(let deleted):
            try store.restore(deleted)
            return .deleteList(id: deleted.list.id)
        case .restoreReminders(let deleted):
            for item in deleted { try store.restore(item) }
            return .deleteReminders(ids: deleted.map(\.reminder.id))
        case .uncomplete(let id):
            try store.uncomplete(id: id)
            return .complete(id: id)
        case .complete(let id):
            try store.complete(id: id)
            return .uncomplete(id: id)
        case .setFlag(let id, let flagged):
            try store.setFlag(id: id, flagged)
            return .setFlag(id: id, !flagged)
        case .restoreDueDate(let id, let due):
            // A snooze's undo (and redo): this occurrence only, as the snooze.
            let before = try Self.fields(of: id, in: store)
            try store.moveOccurrence(id: id, to: due)
            return .restoreDueDate(id: id, before.dueDate ?? nil)
        case .setSnooze(let id, let due, let until):
            let timestamp = store.clock.timestamp()
            let before = try store.writer.write { db in
                let before = try DueAlertLog.snoozedUntil(db, reminderID: id, dueDate: due)
                if let until {
                    try DueAlertLog.snooze(db, reminderID: id, dueDate: due, until: until, at: timestamp)
                } else {
                    try DueAlertLog.endSnooze(db, reminderID: id, dueDate: due)
                }
                return before
            }
            return .setSnooze(id: id, due, until: before)
        case .setPriority(let id, let priority):
            let before = try Self.fields(of: id, in: store)
            try store.updateReminder(id: id, ReminderChanges(priority: priority))
            return .setPriority(id: id, before.priority ?? .none)
        case .restoreFields(let id, let fields, let expecting):
            // Only the fields it puts back: the others may have changed
            // elsewhere since, and stay.
            let before = try Self.fields(of: id, in: store).limited(to: fields)
            if let expecting, before != expecting.limited(to: fields) {
                throw CoreError.invalidInput("it was changed since, here or on another device; the later edit stays")
            }
            try store.updateReminder(id: id, fields)
            return .restoreFields(id: id, before, expecting: fields)
        case .deleteReminder(let id):
            return .restoreReminder(try store.deleteReminder(id: id))
        case .deleteReminders(let ids):
            return .restoreReminders(try ids.map { try store.deleteReminder(id: $0) })
        case .deleteList(let id):
            return .restoreList(try store.deleteList(id: id))
        case .uncompleteReminders(let ids):
            for id in ids { try store.uncomplete(id: id) }
            return .completeReminders(ids: ids)
        case .completeReminders(let ids):
            for id in ids { try store.complete(id: id) }
            return .uncompleteReminders(ids: ids)
        case .setParent(let id, let parentID):
            let before = try store.writer.read { db in try Reminder.fetchOne(db, key: id)?.parentID }
            try store.setParent(id: id, parentID: parentID)
            return .setParent(id: id, before)
        case .restoreTag(let links):
            try store.restoreTag(links)
            return .deleteTag(title: links.title)
        case .deleteTag(let title):
            return .restoreTag(try store.deleteTag(title))
        case .undoRename(let rename):
            try store.undoRename(rename)
            return .renameTag(from: rename.old.title, to: rename.new)
        case .renameTag(let old, let new):
            return .undoRename(try store.renameTag(old, to: new))
        case .restoreListFields(let id, let title, let color, let expectingTitle, let expectingColor):
            try store.restoreListFields(id: id, title: title, color: color, expecting: (expectingTitle, expectingColor))
            return .restoreListFields(id: id, title: expectingTitle, color: expectingColor, expectingTitle: title, expectingColor: color)
        }
    }

    /// What `u` after a form's save puts back: the fields the save changed
    /// (`before` against `after`, both from `fields(of:in:)`), as they were
    /// before it. The others may change elsewhere meanwhile, and stay.
    public static func restoring(_ before: ReminderChanges, after: ReminderChanges) -> ReminderChanges {
        var fields = before.differing(from: after)
        // A due date and the occurrence it stands for go back together
        // (`Repeats.scheduleColumns`): one alone would be paired anew.
        if fields.dueDate != nil || fields.occurrence != nil {
            fields.dueDate = before.dueDate
            fields.occurrence = before.occurrence
        }
        return fields
    }

    /// A reminder's editable fields as they are now, for `restoreFields`.
    public static func fields(of id: String, in store: RemindersStore) throws -> ReminderChanges {
        guard let row = try store.writer.read({ db in try Queries.reminder(db, id: id, clock: store.clock) }) else {
            throw CoreError.notFound("the reminder is gone")
        }
        return fields(of: row)
    }

    /// A reminder's editable fields as `row` has them.
    public static func fields(of row: ReminderRow) -> ReminderChanges {
        let reminder = row.reminder
        return ReminderChanges(title: reminder.title, notes: reminder.notes, dueDate: .some(reminder.dueDate),
                               priority: reminder.priority, isFlagged: reminder.isFlagged,
                               listID: reminder.remindersListID, tags: row.tags, parentID: .some(reminder.parentID),
                               repeatRule: .some(reminder.repeatRule), alertBefore: .some(reminder.alertBefore),
                               occurrence: .some(reminder.occurrence), position: reminder.position)
    }

    /// Applies the undo and keeps the completion batch in step: an undone
    /// completion leaves it, and a reminder put back while it was still
    /// completing joins it again, so it completes as it would have (else it
    /// would stay "completing" until the app ends). Never throws: a failure
    /// is the result's error. The result's `undo` takes this one back (a
    /// redo).
    /// `redoing`: it does again what an undo took back (its toast says so).
    public func perform(in environment: AppEnvironment, redoing: Bool = false) -> ActionResult {
        do {
            switch self {
            case .uncomplete(let id), .complete(let id), .deleteReminder(let id): environment.completions.cancelled(id)
            case .deleteReminders(let ids), .uncompleteReminders(let ids), .completeReminders(let ids):
                for id in ids { environment.completions.cancelled(id) }
            default: break
            }
            let subject = subject(in: environment.store)
            let inverse = try apply(to: environment.store)
            for id in restoredCompletingIDs { environment.completions.scheduled(id) }
            return ActionResult(message: doneMessage(subject: subject, redoing: redoing), undo: inverse)
        } catch CoreError.notFound(let what) {
            // The reminder it changes deleted since, here (with its list)
            // or on another device; else what was not found says itself.
            guard let id = changedReminderID,
                  (try? environment.writer.read({ db in try Reminder.exists(db, key: id) })) == false else {
                return .failed(what)
            }
            return .failed("it was deleted since, here or on another device")
        } catch {
            return .failed(ReminderActions.describe(error))
        }
    }

    /// The reminders this undo puts back that were completing when deleted.
    var restoredCompletingIDs: [String] {
        let restored: [DeletedReminder]
        switch self {
        case .restoreReminder(let deleted): restored = [deleted]
        case .restoreReminders(let deleted): restored = deleted
        case .restoreList(let deleted): restored = deleted.reminders
        default: restored = []
        }
        return restored.filter { $0.reminder.status == .completing }.map(\.reminder.id)
    }

    /// The reminder a screen should select once the undo is applied: the
    /// one it brings back or changes (the first of several, a parent
    /// before its subtasks). Nil when it takes reminders away or is
    /// about a list.
    /// The reminder the action changes, one that must still be here
    /// (not one it puts back).
    private var changedReminderID: String? {
        switch self {
        case .uncomplete(let id), .complete(let id), .setFlag(let id, _), .restoreDueDate(let id, _), .setSnooze(let id, _, _),
             .setPriority(let id, _), .restoreFields(let id, _, _), .setParent(let id, _), .deleteReminder(let id):
            id
        default: nil
        }
    }

    public var revealedReminderID: String? {
        switch self {
        case .restoreReminder(let deleted): deleted.reminder.id
        case .restoreReminders(let deleted): deleted.first?.reminder.id
        case .uncomplete(let id), .setFlag(let id, _), .restoreDueDate(let id, _), .setSnooze(let id, _, _),
             .setPriority(let id, _), .restoreFields(let id, _, _), .setParent(let id, _):
            id
        case .uncompleteReminders(let ids): ids.first
        case .complete, .completeReminders, .deleteReminder, .deleteReminders, .restoreList, .deleteList,
             .restoreTag, .deleteTag, .undoRename, .renameTag, .restoreListFields: nil
        }
    }

    /// The title of the one reminder or list the undo is about, read
    /// before it is applied (a delete's redo takes it away); nil when it is
    /// about several, or carries its own (a restore).
    func subject(in store: RemindersStore) -> String? {
        let id: String
        switch self {
        case .uncomplete(let one), .complete(let one), .setFlag(let one, _), .restoreDueDate(let one, _),
             .setSnooze(let one, _, _), .setPriority(let one, _), .deleteReminder(let one), .setParent(let one, _),
             .restoreFields(let one, _, _):
            id = one
        case .uncompleteReminders(let ids), .completeReminders(let ids), .deleteReminders(let ids):
            guard ids.count == 1 else { return nil }
            id = ids[0]
        case .deleteList(let listID), .restoreListFields(let listID, _, _, _, _):
            return try? store.writer.read { db in try RemindersList.fetchOne(db, key: listID)?.title }
        case .restoreReminder, .restoreList, .restoreReminders, .restoreTag, .deleteTag, .undoRename, .renameTag:
            return nil
        }
        return try? store.writer.read { db in try Reminder.fetchOne(db, key: id)?.title }
    }

    /// The toast's line after undoing, naming what it was about (`subject`,
    /// from `subject(in:)`) where that is one reminder or list; without a
    /// subject, in words that need none.
    public func doneMessage(subject: String? = nil, redoing: Bool = false) -> String {
        let name = subject.map { "“\($0)”" }
        func named(_ with: (String) -> String, _ without: String) -> String { name.map(with) ?? without }
        switch self {
        case .restoreReminder(let deleted): return "Restored “\(deleted.reminder.title)”"
        case .restoreList(let deleted): return "Restored “\(deleted.list.title)”"
        case .restoreReminders(let items): return items.count == 1 ? "Restored 1 reminder" : "Restored \(items.count) reminders"
        case .uncomplete: return named({ "\($0) marked incomplete" }, "Marked incomplete")
        case .complete: return named({ "Completed \($0) again" }, "Completed again")
        case .setFlag(_, let flagged):
            return named({ (flagged ? "Flagged " : "Unflagged ") + $0 }, flagged ? "Flagged" : "Unflagged")
        case .restoreDueDate(_, let due):
            let date = due.map { $0.description.replacingOccurrences(of: "T", with: " ") }
            return named({ name in date.map { "\(name) due \($0) again" } ?? "\(name) has no due date again" },
                         date.map { "Due \($0) again" } ?? "No due date again")
        case .setSnooze(_, _, let until):
            return until == nil ? named({ "\($0) due now again" }, "Due now again") : named({ "Snoozed \($0) again" }, "Snoozed again")
        case .setPriority(_, let priority):
            let level = priority == .none ? "none" : priority.name
            return named({ "\($0): priority \(level) again" }, "Priority: \(level) again")
        case .restoreFields(_, let fields, _):
            if redoing { return (fields.title ?? subject).map { "Edited “\($0)” again" } ?? "Edited the reminder again" }
            return (fields.title ?? subject).map { "Put back “\($0)” as it was" } ?? "Put back the reminder as it was"
        case .deleteReminder: return named({ "Deleted \($0) again" }, "Deleted again")
        case .deleteReminders(let ids):
            return ids.count == 1 ? named({ "Deleted \($0) again" }, "Deleted 1 reminder again") : "Deleted \(ids.count) reminders again"
        case .deleteList: return named({ "Deleted \($0) again" }, "Deleted the list again")
        case .uncompleteReminders(let ids):
            return ids.count == 1 ? named({ "\($0) marked incomplete" }, "Marked incomplete") : "Marked \(ids.count) reminders incomplete"
        case .completeReminders(let ids):
            return ids.count == 1 ? named({ "Completed \($0) again" }, "Completed again") : "Completed \(ids.count) reminders again"
        case .setParent(_, let parentID):
            return parentID == nil ? named({ "\($0) is a top-level reminder again" }, "Top-level reminder again")
                : named({ "\($0) is a subtask again" }, "Subtask again")
        case .restoreTag(let links):
            let count = links.reminderIDs.count
            return "Restored #\(links.title)" + (count == 0 ? "" : count == 1 ? " on 1 reminder" : " on \(count) reminders")
        case .deleteTag(let title): return "Deleted #\(title) again"
        case .undoRename(let rename):
            return rename.merged ? "#\(rename.old.title) is apart from #\(rename.new) again" : "#\(rename.new) is #\(rename.old.title) again"
        case .renameTag(let old, let new): return "Renamed #\(old) to #\(new) again"
        case .restoreListFields(_, let title, _, _, _): return "Put back the list “\(title)” as it was"
        }
    }
}

/// What a form's `save()` did.
public enum FormSaveResult<Field: Hashable & Sendable>: Equatable, Sendable {
    /// Saved; the id of the created or edited record.
    case saved(id: String)
    /// Not saved: a message per field (also in the form's state).
    case invalid([Field: String])
    /// Not saved: the store refused (e.g. a read-only list, a list deleted
    /// meanwhile).
    case failed(String)

    /// The id of the saved record; nil when nothing was saved.
    public var savedID: String? {
        if case .saved(let id) = self { return id }
        return nil
    }
}

extension ReminderChanges {
    /// These changes, less the fields whose values `other` has too.
    func differing(from other: ReminderChanges) -> ReminderChanges {
        selecting(against: other) { mine, theirs in mine != theirs }
    }

    /// These changes, only for the fields `mask` sets.
    func limited(to mask: ReminderChanges) -> ReminderChanges {
        selecting(against: mask) { _, masked in masked != nil }
    }

    /// These changes for the fields where `keep` holds of this value and
    /// `other`'s, the others nil: every field, named once.
    private func selecting(against other: ReminderChanges, keep: (AnyHashable?, AnyHashable?) -> Bool) -> ReminderChanges {
        var result = ReminderChanges()
        func take<Value: Hashable>(_ field: WritableKeyPath<ReminderChanges, Value?>) {
            if keep(self[keyPath: field].map(AnyHashable.init), other[keyPath: field].map(AnyHashable.init)) {
                result[keyPath: field] = self[keyPath: field]
            }
        }
        take(\.title)
        take(\.notes)
        take(\.dueDate)
        take(\.priority)
        take(\.isFlagged)
        take(\.listID)
        take(\.tags)
        take(\.parentID)
        take(\.repeatRule)
        take(\.alertBefore)
        take(\.occurrence)
        take(\.position)
        return result
    }
}
