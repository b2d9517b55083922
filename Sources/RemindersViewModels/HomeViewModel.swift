import Foundation
import GRDB
import RemindersCore

/// The smart lists at the top of the home screen: reminders due today
/// or earlier, with a due date, all of them, flagged, and completed.
public enum SmartList: String, CaseIterable, Sendable {
    case today, scheduled, all, flagged, completed

    /// The name shown on Home and as the title of its screen.
    public var title: String {
        switch self {
        case .today: "Today"
        case .scheduled: "Scheduled"
        case .all: "All"
        case .flagged: "Flagged"
        case .completed: "Completed"
        }
    }

    /// The reminders it shows, as `ListDetailViewModel` takes them.
    public var filter: ReminderFilter {
        switch self {
        case .today: .today
        case .scheduled: .scheduled
        case .all: .all
        case .flagged: .flagged
        case .completed: .completed
        }
    }

    /// The color the smart list is drawn in, "#rrggbb".
    public var color: String {
        switch self {
        case .today: "#4a99ef"
        case .scheduled: "#e8524a"
        case .all: "#5b5b60"
        case .flagged: "#f0a030"
        case .completed: "#8e8e93"
        }
    }

    /// The smart list a filter stands for; nil for a list or a tag.
    public init?(filter: ReminderFilter) {
        guard let match = SmartList.allCases.first(where: { $0.filter == filter }) else { return nil }
        self = match
    }
}

/// A smart list with its count.
public struct SmartListItem: Equatable, Sendable, Identifiable {
    /// Which smart list.
    public var kind: SmartList
    /// Open reminders (completed ones for Completed).
    public var count: Int
    public var id: SmartList { kind }

    /// A smart list with its count.
    public init(kind: SmartList, count: Int) {
        self.kind = kind
        self.count = count
    }
}

/// One of My Lists as the home screen shows it.
public struct HomeListItem: Equatable, Sendable, Identifiable {
    /// The list with its count of open reminders.
    public var summary: ListSummary
    /// How the list is shared; nil when it is not.
    public var share: ListShareStatus?
    /// Shared with this user read-only: its reminders cannot be changed.
    public var isReadOnly: Bool

    public var id: String { summary.list.id }
    /// The list itself.
    public var list: RemindersList { summary.list }

    /// A list as Home shows it.
    public init(summary: ListSummary, share: ListShareStatus? = nil, isReadOnly: Bool = false) {
        self.summary = summary
        self.share = share
        self.isReadOnly = isReadOnly
    }
}

/// The state of `HomeViewModel`.
public struct HomeState: ViewState {
    /// Today, Scheduled, All, Flagged, Completed, in that order.
    public var smartLists: [SmartListItem]
    /// Every smart list's count, and past due, as last read.
    public var counts: SmartCounts
    /// Open reminders past their due date (drawn in red next to Today).
    public var pastDueCount: Int { counts.pastDue }
    /// My Lists, in their order, each with how it is shared.
    public var lists: [HomeListItem]
    /// Tags that at least one reminder carries.
    public var tags: [TagSummary]
    /// False until the first read arrived (the screen may show "Loading…").
    public var isLoaded: Bool
    public var errorMessage: String?

    /// The defaults are the state before the first read.
    public init(smartLists: [SmartListItem] = SmartList.allCases.map { SmartListItem(kind: $0, count: 0) },
                counts: SmartCounts = SmartCounts(), lists: [HomeListItem] = [], tags: [TagSummary] = [],
                isLoaded: Bool = false, errorMessage: String? = nil) {
        self.smartLists = smartLists
        self.counts = counts
        self.lists = lists
        self.tags = tags
        self.isLoaded = isLoaded
        self.errorMessage = errorMessage
    }
}

/// What deleting a list would delete, for the confirmation.
public struct ListDeletionSummary: Equatable, Sendable {
    /// The list that would be deleted.
    public var listID: String
    public var title: String
    /// Every reminder of the list, completed ones included.
    public var reminderCount: Int
    /// A list not shared can be put back after the delete. A shared one
    /// cannot: its share ends with it, for every participant.
    public var canUndo: Bool
    /// The user who owns the list when it is not this user's: only they can
    /// delete it (`refusal` says so instead of asking).
    public var owner: String?

    /// What deleting a list would delete.
    public init(listID: String, title: String, reminderCount: Int, canUndo: Bool = true, owner: String? = nil) {
        self.listID = listID
        self.title = title
        self.reminderCount = reminderCount
        self.canUndo = canUndo
        self.owner = owner
    }

    /// Why the list cannot be deleted here, for a list another user owns:
    /// "“Trip” is alice's: only alice can delete it".
    public var refusal: String? {
        owner.map { "“\(title)” is \($0)'s: only \($0) can delete it" }
    }

    /// "Delete “Work” and its 12 reminders?"
    public var question: String {
        switch reminderCount {
        case 0: "Delete “\(title)”?"
        case 1: "Delete “\(title)” and its reminder?"
        default: "Delete “\(title)” and its \(reminderCount) reminders?"
        }
    }

    /// The line under the question.
    public var consequence: String {
        canUndo ? "u undoes it afterwards." : "It is shared: this cannot be undone."
    }
}

/// The home screen: smart lists with counts, My Lists, tags in use.
public final class HomeViewModel: ViewModel {
    public let core: ViewModelCore<HomeState>
    /// Starts observing counts, lists and tags at once.
    public init(environment: AppEnvironment) {
        core = ViewModelCore(environment: environment, initial: HomeState(), label: "home")
        let clock = environment.clock
        let sharing = environment.sharing
        observe({ db in
            let counts = try Queries.smartCounts(db, clock: clock)
            let lists = try Queries.lists(db).map { summary in
                HomeListItem(summary: summary,
                             share: try sharing.shareStatus(db, listID: summary.list.id),
                             isReadOnly: try sharing.isReadOnly(db, listID: summary.list.id))
            }
            return (counts, lists, try Queries.tagsInUse(db))
        }, apply: { state, value in
            let (counts, lists, tags) = value
            state.counts = counts
            state.smartLists = SmartList.allCases.map { SmartListItem(kind: $0, count: Self.count(of: $0, in: counts)) }
            state.lists = lists
            state.tags = tags
            state.isLoaded = true
        })
    }

    static func count(of list: SmartList, in counts: SmartCounts) -> Int {
        switch list {
        case .today: counts.today
        case .scheduled: counts.scheduled
        case .all: counts.all
        case .flagged: counts.flagged
        case .completed: counts.completed
        }
    }

    /// Creates a list at the end of My Lists; `createdID` is its id.
    @discardableResult
    public func createList(title: String, color: String? = nil) -> ActionResult {
        perform {
            let list = try store.createList(title: title, color: color)
            return ActionResult(message: "Created “\(list.title)”", createdID: list.id)
        }
    }

    /// What deleting the list would delete; nil when the list is gone.
    public func deletionSummary(listID: String) -> ListDeletionSummary? {
        let sharing = environment.sharing
        return try? environment.writer.read { db -> ListDeletionSummary? in
            guard let list = try Queries.list(db, id: listID) else { return nil }
            let count = try Queries.reminderCount(db, listID: listID)
            // A shared list's delete reaches other people: it cannot be undone.
            let status = try sharing.shareStatus(db, listID: listID)
            var owner: String?
            if case .sharedBy(let name, _)? = status { owner = name }
            return ListDeletionSummary(listID: listID, title: list.title, reminderCount: count,
                                       canUndo: status == nil, owner: owner)
        }
    }

    /// Deletes a list with all its reminders (ask first with
    /// `deletionSummary`). The result's undo puts it all back, unless the
    /// list was shared.
    @discardableResult
    public func deleteList(id: String) -> ActionResult {
        perform {
            let summary = deletionSummary(listID: id)
            let deleted = try store.deleteList(id: id)
            // Gone with the list: their completion has nothing left to do.
            for item in deleted.reminders where item.reminder.status == .completing {
                environment.completions.cancelled(item.reminder.id)
            }
            return ActionResult(message: "Deleted “\(deleted.list.title)”",
                                undo: summary?.canUndo == true ? .restoreList(deleted) : nil)
        }
    }

    /// Moves a list up (-1) or down (+1) in My Lists.
    @discardableResult
    public func moveList(id: String, by offset: Int) -> ActionResult {
        perform {
            try store.moveList(id: id, by: offset)
            return .done
        }
    }
}
