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

/// How to take back an action.
public enum UndoAction: Equatable, Sendable {
    /// Puts back a deleted reminder, with its tags and position.
    case restoreReminder(DeletedReminder)
    /// Puts back a deleted list with its cover, reminders and tags.
    case restoreList(DeletedList)
    /// Puts back several deleted reminders (clearing completed matches).
    case restoreReminders([DeletedReminder])
    /// Takes back a completion (completing or completed -> incomplete).
    case uncomplete(id: String)
    /// Sets a reminder's flag back.
    case setFlag(id: String, Bool)
    /// Sets a reminder's due date back (the undo of a snooze).
    case restoreDueDate(id: String, DueDate?)

    /// Applies the undo through the store. View models call this through
    /// their own `undo(_:)`, which also cancels pending timers.
    public func apply(to store: RemindersStore) throws {
        switch self {
        case .restoreReminder(let deleted):
            try store.restore(deleted)
        case .restoreList(let deleted):
            try store.restore(deleted)
        case .restoreReminders(let deleted):
            for item in deleted { try store.restore(item) }
        case .uncomplete(let id):
            try store.uncomplete(id: id)
        case .setFlag(let id, let flagged):
            try store.setFlag(id: id, flagged)
        case .restoreDueDate(let id, let due):
            try store.updateReminder(id: id, ReminderChanges(dueDate: .some(due)))
        }
    }

    /// Applies the undo and keeps the completion batch in step: an undone
    /// completion leaves it, and a reminder put back while it was still
    /// completing joins it again, so it completes as it would have (else it
    /// would stay "completing" until the app ends). Never throws: a failure
    /// is the result's error.
    public func perform(in environment: AppEnvironment) -> ActionResult {
        do {
            if case .uncomplete(let id) = self { environment.completions.cancelled(id) }
            try apply(to: environment.store)
            for id in restoredCompletingIDs { environment.completions.scheduled(id) }
            return ActionResult(message: doneMessage)
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
        case .uncomplete, .setFlag, .restoreDueDate: restored = []
        }
        return restored.filter { $0.reminder.status == .completing }.map(\.reminder.id)
    }

    /// The toast's line after undoing.
    public var doneMessage: String {
        switch self {
        case .restoreReminder: "Restored"
        case .restoreList(let deleted): "Restored “\(deleted.list.title)”"
        case .restoreReminders(let items): items.count == 1 ? "Restored 1 reminder" : "Restored \(items.count) reminders"
        case .uncomplete: "Marked incomplete"
        case .setFlag(_, let flagged): flagged ? "Flagged" : "Unflagged"
        case .restoreDueDate(_, let due): due.map { "Due \($0.description.replacingOccurrences(of: "T", with: " ")) again" } ?? "No due date again"
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
