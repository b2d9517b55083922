import RemindersViewModels

/// A view model of reminder rows, a list's or search results': the screens
/// that show them complete, flag and delete a row the same way, with the
/// same undo, and show or hide completed reminders the same way.
protocol ReminderRowsModel: ViewModel {
    var showsCompleted: Bool { get }
    func toggleShowCompleted()
    func toggleCompletion(id: String) -> ActionResult
    func toggleFlag(id: String) -> ActionResult
    func delete(id: String) -> ActionResult
    func undo(_ action: UndoAction) -> ActionResult
}

extension ListDetailViewModel: ReminderRowsModel {
    var showsCompleted: Bool { state.showCompleted }
}

extension SearchViewModel: ReminderRowsModel {
    var showsCompleted: Bool { state.showCompleted }
}

extension ReminderRowsModel {
    /// Completes, flags or deletes the reminder `id` as `action` says, and
    /// shows what it did with its undo.
    func perform(_ action: Action, onReminder id: String, app: AppController) {
        let result: ActionResult
        switch action {
        case .toggleCompletion: result = toggleCompletion(id: id)
        case .toggleFlag: result = toggleFlag(id: id)
        case .deleteReminder: result = delete(id: id)
        default: return
        }
        app.show(result, undo: undoPerformer(app))
    }

    /// Takes an action back through this view model while it is open (its
    /// screen follows at once), else through the store.
    func undoPerformer(_ app: AppController) -> (UndoAction) -> ActionResult {
        let fallback = app.storeUndo()
        return { [weak self] action in
            self?.undo(action) ?? fallback(action)
        }
    }

    /// Shows or hides completed reminders, and says which.
    func toggleShowCompleted(app: AppController) {
        toggleShowCompleted()
        app.showMessage(showsCompleted ? "Showing completed" : "Hiding completed")
    }
}

/// " · 2 completed (hidden)": after a list's or a search's count, how many
/// completed reminders it has and whether they show.
func completedSummary(count: Int, shown: Bool) -> String {
    " · \(count == 1 ? "1 completed" : "\(count) completed") (\(shown ? "shown" : "hidden"))"
}
