import Foundation
import RemindersCore

/// The actions on one reminder that several screens offer (list detail,
/// search), in one place so they behave the same everywhere.
enum ReminderActions {
    static func describe(_ error: Error) -> String {
        (error as? CoreError)?.description ?? "\(error)"
    }

    /// Ticks or unticks a reminder; with `subtasks`, a tick ticks its open
    /// subtasks too (the screen asks first).
    static func toggleCompletion(_ environment: AppEnvironment, id: String, subtasks: Bool = false) -> ActionResult {
        do {
            let (reminder, children) = try environment.writer.read { db in
                (try Reminder.fetchOne(db, key: id), subtasks ? try Subtasks.openSubtaskIDs(db, of: id) : [])
            }
            let title = reminder?.title
            let status = try environment.store.toggleCompletion(id: id)
            switch status {
            case .completing:
                environment.completions.scheduled(id)
                var ids = [id]
                for child in children where try environment.store.toggleCompletion(id: child) == .completing {
                    environment.completions.scheduled(child)
                    ids.append(child)
                }
                if ids.count > 1 {
                    let subtasks = ids.count == 2 ? "its open subtask" : "\(ids.count - 1) open subtasks"
                    // A series' checklist opens again for its next occurrence.
                    let message = reminder?.rule != nil
                        ? "Completed this occurrence of “\(title ?? "reminder")” and \(subtasks), open again for the next"
                        : "Completed “\(title ?? "reminder")” and \(subtasks)"
                    return ActionResult(message: message, undo: .uncompleteReminders(ids: ids))
                }
                return ActionResult(message: completedMessage(reminder, title: title, environment: environment),
                                    undo: .uncomplete(id: id))
            default:
                environment.completions.cancelled(id)
                return try reopenedResult(environment, reminder: reminder, title: title)
            }
        } catch {
            return .failed(describe(error))
        }
    }

    /// What unticking did, with its undo: a completed reminder open again;
    /// the latest completed copy of a series taken back, the series due at
    /// that occurrence again. A tick taken back within its delay is itself
    /// the undo of the tick: nothing to say.
    private static func reopenedResult(_ environment: AppEnvironment, reminder: Reminder?, title: String?) throws -> ActionResult {
        let name = "“\(title ?? "reminder")”"
        guard let reminder, reminder.status == .completed else { return ActionResult(message: nil) }
        // The copy is gone when its completion was taken back.
        if let seriesID = reminder.repeatOf, let series = try environment.writer.read({ db in
            try Reminder.exists(db, key: reminder.id) ? nil : try Reminder.fetchOne(db, key: seriesID)
        }) {
            let due = series.dueDate.map { ", due \($0.description.replacingOccurrences(of: "T", with: " ")) again" } ?? ""
            return ActionResult(message: "Took back the completion of \(name)\(due)", undo: .complete(id: seriesID))
        }
        return ActionResult(message: "Reopened \(name)", undo: .complete(id: reminder.id))
    }

    static func setFlag(_ environment: AppEnvironment, id: String, _ flagged: Bool) -> ActionResult {
        do {
            try environment.store.setFlag(id: id, flagged)
            return ActionResult(message: flagged ? "Flagged" : "Unflagged", undo: .setFlag(id: id, !flagged))
        } catch {
            return .failed(describe(error))
        }
    }

    static func toggleFlag(_ environment: AppEnvironment, id: String) -> ActionResult {
        do {
            guard let reminder = try environment.writer.read({ db in try Reminder.fetchOne(db, key: id) }) else {
                return .failed("reminder \(id) not found")
            }
            return setFlag(environment, id: id, !reminder.isFlagged)
        } catch {
            return .failed(describe(error))
        }
    }

    /// "Completed “Bins”", and for a series what comes next: "Completed
    /// this occurrence of “Bins”; next due Mon 2026-03-09", or that it was
    /// the last.
    private static func completedMessage(_ reminder: Reminder?, title: String?, environment: AppEnvironment) -> String {
        let name = "“\(title ?? "reminder")”"
        guard let reminder, reminder.rule != nil, reminder.dueDate != nil else { return "Completed \(name)" }
        guard let next = Repeats.nextDue(completing: reminder, clock: environment.store.clock) else {
            return "Completed \(name), the last of its repeats"
        }
        return "Completed this occurrence of \(name); next due \(next.withWeekday)"
    }

    static func delete(_ environment: AppEnvironment, id: String) -> ActionResult {
        do {
            let deleted = try environment.store.deleteReminder(id: id)
            environment.completions.cancelled(id)
            let count = deleted.subtaskCount
            let subtasks = count == 0 ? "" : count == 1 ? " and its subtask" : " and its \(count) subtasks"
            return ActionResult(message: "Deleted “\(deleted.reminder.title)”" + subtasks, undo: .restoreReminder(deleted))
        } catch {
            return .failed(describe(error))
        }
    }

    static func undo(_ environment: AppEnvironment, _ action: UndoAction) -> ActionResult {
        action.perform(in: environment)
    }
}
