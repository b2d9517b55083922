import Foundation
import GRDB
import RemindersCore

/// The state of `ListDetailViewModel`.
public struct ListDetailState: ViewState {
    /// Which reminders: a list, a smart list or a tag.
    public var filter: ReminderFilter
    /// The list's title, the smart list's name, or "#tag".
    public var title: String
    /// "#rrggbb": the list's color or the smart list's.
    public var color: String
    /// The list's cover image (PNG bytes), nil when it has none or for
    /// smart lists and tags.
    public var coverPNG: Data?
    /// The reminders shown, in `sort` order, at most `limit` of them.
    public var rows: [ReminderRow]
    /// How many rows the filter has in all (rows may be cut at `limit`).
    public var totalCount: Int
    /// Completed reminders of the filter, shown or not ("N completed").
    public var completedCount: Int
    /// The order of `rows`.
    public var sort: RemindersCore.SortOrder
    /// Whether completed reminders are among `rows`.
    public var showCompleted: Bool
    /// The row limit asked for with `setLimit`, nil for all.
    public var limit: Int?
    /// "Shared with bob", for a list.
    public var share: ListShareStatus?
    /// A read-only share: the screen offers no editing keys.
    public var isReadOnly: Bool
    /// False when the list was deleted (here or on another device): the
    /// screen should go back.
    public var exists: Bool
    /// False until the first read arrived.
    public var isLoaded: Bool
    public var errorMessage: String?
    /// Parents whose subtasks are folded away (this visit only).
    public var collapsed: Set<String> = []
    /// The rows as read, folded subtasks included; `rows` leaves those out.
    public internal(set) var readRows: [ReminderRow] = []

    /// The defaults are the state before the first read.
    public init(filter: ReminderFilter, title: String, color: String, coverPNG: Data? = nil, rows: [ReminderRow] = [],
                totalCount: Int = 0, completedCount: Int = 0, sort: RemindersCore.SortOrder = .manual,
                showCompleted: Bool = false, limit: Int? = nil, share: ListShareStatus? = nil, isReadOnly: Bool = false,
                exists: Bool = true, isLoaded: Bool = false, errorMessage: String? = nil) {
        self.filter = filter
        self.title = title
        self.color = color
        self.coverPNG = coverPNG
        self.rows = rows
        self.totalCount = totalCount
        self.completedCount = completedCount
        self.sort = sort
        self.showCompleted = showCompleted
        self.limit = limit
        self.share = share
        self.isReadOnly = isReadOnly
        self.exists = exists
        self.isLoaded = isLoaded
        self.errorMessage = errorMessage
    }

    /// The list's id when the filter is a real list.
    public var listID: String? {
        if case .list(let id) = filter { return id }
        return nil
    }

    /// `readRows` without the subtasks of collapsed parents.
    mutating func foldRows() {
        rows = collapsed.isEmpty ? readRows : readRows.filter { row in
            guard let parentID = row.reminder.parentID else { return true }
            return !collapsed.contains(parentID)
        }
    }

    /// Whether the rows show subtasks under their parents (a list does;
    /// smart lists and tags show every reminder as a row of its own).
    public var groupsSubtasks: Bool { listID != nil }

    /// Moving rows up and down only means something in a real list's
    /// manual order.
    public var canReorder: Bool { listID != nil && sort == .manual && !isReadOnly }

    /// The count a heading shows ("3 reminders"): the open ones, whether or
    /// not completed ones are shown too; in Completed, the completed ones.
    public var headingCount: Int {
        filter == .completed || !showCompleted ? totalCount : totalCount - completedCount
    }
}

/// One list or smart list: its rows, sort, show/hide completed, and the
/// actions on its reminders. Selection is the screen's business.
public final class ListDetailViewModel: ViewModel {
    public let core: ViewModelCore<ListDetailState>
    /// Which reminders it shows, for its whole life.
    public let filter: ReminderFilter

    /// Starts observing the filter's reminders at once.
    /// - Parameters:
    ///   - environment: the device's environment.
    ///   - filter: which reminders: a list, a smart list or a tag.
    ///   - sort: initial order; nil takes the one this device last chose
    ///     for the filter (`ViewSettings`), else manual (for smart lists:
    ///     lists in their order, then reminders in theirs).
    ///   - showCompleted: whether completed reminders are shown; nil takes
    ///     this device's last choice, else only in Completed.
    ///   - limit: at most this many rows are read (a window for huge
    ///     lists); nil reads all. Change it with `setLimit`.
    public init(environment: AppEnvironment, filter: ReminderFilter, sort: RemindersCore.SortOrder? = nil,
                showCompleted: Bool? = nil, limit: Int? = nil) {
        self.filter = filter
        // A database that cannot be read here fails the observation below,
        // which reports it; the standard settings stand in until then.
        let saved = (try? environment.store.writer.read { db in try ViewSettings.saved(db, for: filter) })
            ?? ViewSettings.standard(for: filter)
        let smart = SmartList(filter: filter)
        let title: String
        switch filter {
        case .tag(let tag): title = "#" + tag
        case .list: title = ""
        default: title = smart?.title ?? ""
        }
        let initial = ListDetailState(
            filter: filter, title: title, color: smart?.color ?? RemindersStore.palette[0], coverPNG: nil,
            rows: [], totalCount: 0, completedCount: 0, sort: sort ?? saved.sort,
            showCompleted: showCompleted ?? saved.showCompleted, limit: limit,
            share: nil, isReadOnly: false, exists: true, isLoaded: false, errorMessage: nil)
        core = ViewModelCore(environment: environment, initial: initial, label: "list")
        startObserving()
    }

    /// Completes the reminders still completing.
    public func willStop() {
        environment.completions.finishNow()
    }

    deinit {
        environment.completions.finishNow()
    }

    private struct Snapshot: Sendable {
        var list: RemindersList?
        /// A tag's title as it is spelled now.
        var tagTitle: String?
        var cover: Data?
        var rows: [ReminderRow]
        var totalCount: Int
        var completedCount: Int
        var share: ListShareStatus?
        var isReadOnly: Bool
    }

    private func startObserving() {
        let state = self.state
        let filter = self.filter
        let sort = state.sort
        let showCompleted = state.showCompleted
        let limit = state.limit
        let clock = environment.clock
        let sharing = environment.sharing
        observe({ db in
            var snapshot = Snapshot(rows: [], totalCount: 0, completedCount: 0, isReadOnly: false)
            if case .list(let id) = filter {
                snapshot.list = try Queries.list(db, id: id)
                snapshot.cover = try Queries.cover(db, listID: id)
                snapshot.share = try sharing.shareStatus(db, listID: id)
                snapshot.isReadOnly = try sharing.isReadOnly(db, listID: id)
            }
            if case .tag(let tag) = filter {
                snapshot.tagTitle = try Queries.tagTitle(db, tag)
            }
            snapshot.rows = try Queries.reminders(db, filter: filter, sort: sort, showCompleted: showCompleted,
                                                  clock: clock, limit: limit)
            let counts = try Queries.counts(db, filter: filter, clock: clock)
            snapshot.totalCount = showCompleted || filter == .completed ? counts.total : counts.total - counts.completed
            snapshot.completedCount = counts.completed
            return snapshot
        }, apply: { state, snapshot in
            if case .list = filter {
                state.exists = snapshot.list != nil
                if let list = snapshot.list {
                    state.title = list.title
                    state.color = list.color
                }
                state.coverPNG = snapshot.cover
                // A list gone keeps the share it had: a list shared with
                // this user leaves when the owner stops sharing it, too.
                if snapshot.list != nil { state.share = snapshot.share }
                state.isReadOnly = snapshot.isReadOnly
            }
            if let title = snapshot.tagTitle {
                state.title = "#" + title
            }
            state.readRows = snapshot.rows
            state.foldRows()
            state.totalCount = snapshot.totalCount
            state.completedCount = snapshot.completedCount
            state.isLoaded = true
        })
    }

    // MARK: View settings

    /// Changes the order; the rows follow, and this device remembers it
    /// for the filter.
    public func setSort(_ sort: RemindersCore.SortOrder) {
        guard sort != state.sort else { return }
        update { $0.sort = sort }
        remember()
        startObserving()
    }

    /// Shows or hides completed reminders (Completed always shows them);
    /// this device remembers it for the filter.
    public func setShowCompleted(_ show: Bool) {
        guard show != state.showCompleted else { return }
        update { $0.showCompleted = show }
        remember()
        startObserving()
    }

    /// Saves the sort and show-completed choice on this device. A database
    /// opened read-only keeps them for this visit only: a view setting is
    /// not worth an error.
    private func remember() {
        let settings = ViewSettings(sort: state.sort, showCompleted: state.showCompleted)
        let filter = self.filter
        _ = try? environment.store.writer.write { db in try ViewSettings.save(db, settings, for: filter) }
    }

    /// Shows completed reminders if hidden, hides them if shown.
    public func toggleShowCompleted() {
        setShowCompleted(!state.showCompleted)
    }

    /// Reads at most `limit` rows (nil: all). The screen can ask for a
    /// window a little beyond what it shows and grow it as the user scrolls.
    public func setLimit(_ limit: Int?) {
        guard limit != state.limit else { return }
        update { $0.limit = limit }
        startObserving()
    }

    // MARK: Actions on reminders

    /// The checkbox. An incomplete reminder becomes "completing" and is
    /// completed after the environment's delay unless toggled back; a
    /// completing or completed one becomes incomplete. The result's undo
    /// takes a completion back.
    @discardableResult
    public func toggleCompletion(id: String) -> ActionResult {
        ReminderActions.toggleCompletion(environment, id: id)
    }

    /// Flags or unflags a reminder; the result's undo sets it back.
    @discardableResult
    public func setFlag(id: String, _ flagged: Bool) -> ActionResult {
        ReminderActions.setFlag(environment, id: id, flagged)
    }

    /// Flips a reminder's flag; the result's undo flips it back.
    @discardableResult
    public func toggleFlag(id: String) -> ActionResult {
        guard let row = state.rows.first(where: { $0.id == id }) else {
            return ReminderActions.toggleFlag(environment, id: id)
        }
        return setFlag(id: id, !row.reminder.isFlagged)
    }

    /// Deletes a reminder; the result's undo puts it back.
    @discardableResult
    public func delete(id: String) -> ActionResult {
        ReminderActions.delete(environment, id: id)
    }

    /// Moves a reminder up (-1) or down (+1) in its list's manual order.
    /// Refused outside a real list in manual order.
    @discardableResult
    public func move(id: String, by offset: Int) -> ActionResult {
        guard state.listID != nil, state.sort == .manual else {
            return .failed("reminders can only be moved in a list sorted manually")
        }
        return perform {
            try store.moveReminder(id: id, by: offset)
            return .done
        }
    }

    /// Deletes completed reminders older than `period` (of this list, or
    /// everywhere for smart lists). Returns "Cleared N completed".
    @discardableResult
    public func clearCompleted(_ period: ClearPeriod) -> ActionResult {
        perform {
            let count = try store.clearCompleted(period, listID: state.listID)
            return ActionResult(message: count == 1 ? "Cleared 1 completed reminder" : "Cleared \(count) completed reminders")
        }
    }

    // MARK: Subtasks

    /// Folds a parent's subtasks away, or shows them again.
    public func toggleCollapsed(id: String) {
        update { state in
            if state.collapsed.contains(id) { state.collapsed.remove(id) } else { state.collapsed.insert(id) }
            state.foldRows()
        }
    }

    /// Makes a reminder a subtask of the nearest top-level reminder above
    /// it; the result's undo makes it top-level again.
    @discardableResult
    public func indent(id: String) -> ActionResult {
        let rows = state.rows
        guard let index = rows.firstIndex(where: { $0.id == id }) else { return .failed("the reminder is not in this list") }
        let row = rows[index]
        if row.isSubtask, rows.contains(where: { $0.id == row.reminder.parentID }) {
            return .failed("“\(row.reminder.title)” is a subtask already; subtasks go one level deep")
        }
        guard let parent = rows[..<index].last(where: { !$0.isSubtask && $0.reminder.repeatOf == nil }) else {
            return .failed("there is no reminder above to make it a subtask of")
        }
        return perform {
            try store.setParent(id: id, parentID: parent.id)
            return ActionResult(message: "“\(row.reminder.title)” is a subtask of “\(parent.reminder.title)”",
                                undo: .setParent(id: id, row.reminder.parentID))
        }
    }

    /// Makes a subtask a top-level reminder again.
    @discardableResult
    public func outdent(id: String) -> ActionResult {
        guard let row = state.rows.first(where: { $0.id == id }), let parentID = row.reminder.parentID else {
            return .failed("not a subtask: it is at the top level already")
        }
        return perform {
            try store.setParent(id: id, parentID: nil)
            return ActionResult(message: "“\(row.reminder.title)” is a top-level reminder", undo: .setParent(id: id, parentID))
        }
    }

    /// Completes a parent and, with `subtasks`, its open subtasks too.
    @discardableResult
    public func toggleCompletion(id: String, subtasks: Bool) -> ActionResult {
        ReminderActions.toggleCompletion(environment, id: id, subtasks: subtasks)
    }

    /// Undoes an action's result (delete, completion, flag).
    @discardableResult
    public func undo(_ action: UndoAction) -> ActionResult {
        ReminderActions.undo(environment, action)
    }
}
