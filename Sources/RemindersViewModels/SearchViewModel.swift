import Foundation
import GRDB
import RemindersCore

/// The state of `SearchViewModel`.
public struct SearchState: ViewState {
    /// The text as typed.
    public var query: String
    /// Hits (snippets mark matches with `Queries.matchStart` /
    /// `Queries.matchEnd`) and the number of completed matches.
    public var results: SearchResults
    /// Whether completed reminders are among the hits.
    public var showCompleted: Bool
    /// The query `results` answer; differs from `query` while a new search
    /// is running.
    public var resultsQuery: String
    public var errorMessage: String?

    /// The defaults are the state of an empty search.
    public init(query: String = "", results: SearchResults = SearchResults(), showCompleted: Bool = false,
                resultsQuery: String = "", errorMessage: String? = nil) {
        self.query = query
        self.results = results
        self.showCompleted = showCompleted
        self.resultsQuery = resultsQuery
        self.errorMessage = errorMessage
    }

    /// The hits of `results`.
    public var hits: [SearchHit] { results.hits }
    /// Completed reminders that match, shown or not ("N completed").
    public var completedCount: Int { results.completedCount }
    /// Whether the results of the latest query are still to come.
    public var isSearching: Bool { resultsQuery != query }
}

/// Search as you type over titles, notes and tags. Each change of the query
/// replaces the observed query (the previous observation is cancelled, and
/// its late answers dropped), so results stay current as data changes.
public final class SearchViewModel: ViewModel {
    public let core: ViewModelCore<SearchState>
    /// At most this many hits are read.
    public let limit: Int

    /// Starts searching at once; an empty query finds nothing.
    public init(environment: AppEnvironment, query: String = "", showCompleted: Bool = false, limit: Int = 500) {
        self.limit = limit
        core = ViewModelCore(environment: environment,
                   initial: SearchState(query: query, results: SearchResults(), showCompleted: showCompleted, resultsQuery: ""),
                   label: "search")
        startObserving()
    }

    /// Completes the reminders still completing.
    public func willStop() {
        environment.completions.finishNow()
    }

    deinit {
        environment.completions.finishNow()
    }

    private func startObserving() {
        let state = self.state
        let query = state.query
        let showCompleted = state.showCompleted
        let clock = environment.clock
        let limit = self.limit
        observe({ db in
            try Queries.search(db, text: query, showCompleted: showCompleted, clock: clock, limit: limit)
        }, apply: { state, results in
            state.results = results
            state.resultsQuery = query
        })
    }

    /// Sets the query text (call on every keystroke).
    public func setQuery(_ text: String) {
        guard text != state.query else { return }
        update { $0.query = text }
        startObserving()
    }

    /// Includes completed matches among the hits, or leaves them out.
    public func setShowCompleted(_ show: Bool) {
        guard show != state.showCompleted else { return }
        update { $0.showCompleted = show }
        startObserving()
    }

    /// Shows completed matches if hidden, hides them if shown.
    public func toggleShowCompleted() {
        setShowCompleted(!state.showCompleted)
    }

    /// Deletes the completed reminders that match the query; the result's
    /// undo puts them back.
    @discardableResult
    public func clearCompleted() -> ActionResult {
        let query = state.query
        let clock = environment.clock
        return perform {
            let ids = try environment.writer.read { db in
                try Queries.search(db, text: query, showCompleted: true, clock: clock, limit: Int.max / 2)
                    .hits.filter { $0.row.reminder.status == .completed }.map(\.id)
            }
            var deleted: [DeletedReminder] = []
            for id in ids {
                do {
                    deleted.append(try store.deleteReminder(id: id))
                } catch CoreError.notFound {
                    continue
                }
            }
            let message = deleted.count == 1 ? "Cleared 1 completed reminder" : "Cleared \(deleted.count) completed reminders"
            return ActionResult(message: message, undo: deleted.isEmpty ? nil : .restoreReminders(deleted))
        }
    }

    // MARK: Actions on hits (same behaviour as in a list)

    /// Ticks a hit, or takes the tick back, as in a list.
    @discardableResult
    public func toggleCompletion(id: String) -> ActionResult {
        ReminderActions.toggleCompletion(environment, id: id)
    }

    /// Flips a hit's flag; the result's undo flips it back.
    @discardableResult
    public func toggleFlag(id: String) -> ActionResult {
        ReminderActions.toggleFlag(environment, id: id)
    }

    /// Deletes a hit; the result's undo puts it back.
    @discardableResult
    public func delete(id: String) -> ActionResult {
        ReminderActions.delete(environment, id: id)
    }

    /// Undoes an action's result (delete, completion, flag, clearing).
    @discardableResult
    public func undo(_ action: UndoAction) -> ActionResult {
        ReminderActions.undo(environment, action)
    }
}
