import Foundation
import GRDB
import RemindersCore

/// What a quick-add line will create, as read so far.
public struct QuickAddPreview: Equatable, Sendable {
    public var title: String
    public var list: RemindersList
    public var due: DueDate?
    public var priority: Priority
    public var isFlagged: Bool
    public var tags: [String]
    /// The repeat the line names ("every monday", "daily").
    public var repeatRule: RepeatRule?

    public init(title: String, list: RemindersList, due: DueDate?, priority: Priority, isFlagged: Bool, tags: [String],
                repeatRule: RepeatRule? = nil) {
        self.title = title
        self.list = list
        self.due = due
        self.priority = priority
        self.isFlagged = isFlagged
        self.tags = tags
        self.repeatRule = repeatRule
    }
}

/// The state of `QuickAddViewModel`.
public struct QuickAddState: ViewState {
    /// The line as typed.
    public var text: String
    /// What Enter would add; nil while the line is empty or cannot be read.
    public var preview: QuickAddPreview?
    /// Why the line cannot be read (or the add was refused); nil when fine.
    public var problem: String?
    /// Lists in My Lists order, for `^List` (kept current).
    public var lists: [RemindersList]
    public var errorMessage: String?

    public init(text: String = "", preview: QuickAddPreview? = nil, problem: String? = nil, lists: [RemindersList] = [],
                errorMessage: String? = nil) {
        self.text = text
        self.preview = preview
        self.problem = problem
        self.lists = lists
        self.errorMessage = errorMessage
    }
}

/// The one-line add of a list's screen: the line is read as the user types
/// (`QuickAdd`: due date, #tags, ! !! !!!, ^List, *), and what it will
/// create is in `state.preview`. Where the user was fills what the line
/// leaves out, as the reminder form does: the list on screen (else the
/// default list), today's date in Today and Scheduled, the flag in
/// Flagged, the tag of a tag.
public final class QuickAddViewModel: ViewModel {
    public let core: ViewModelCore<QuickAddState>
    /// Where the user pressed "quick add".
    public let context: ReminderFilter?

    public init(environment: AppEnvironment, context: ReminderFilter?) {
        self.context = context
        core = ViewModelCore(environment: environment, initial: QuickAddState(), label: "quick-add")
        observe({ db in try Queries.listsInOrder(db) }, apply: { [context, environment] state, lists in
            state.lists = lists
            (state.preview, state.problem) = Self.read(state.text, lists: lists, context: context, dates: environment.naturalDates,
                                                       defaultList: environment.defaultList)
        })
    }

    /// The line as typed; setting it reads it again.
    public var text: String {
        get { state.text }
        set {
            let context = context, dates = environment.naturalDates, defaultList = environment.defaultList
            update { state in
                state.text = newValue
                (state.preview, state.problem) = Self.read(newValue, lists: state.lists, context: context, dates: dates,
                                                           defaultList: defaultList)
            }
        }
    }

    /// Adds what the line says, read at this moment ("in 2h" counts from
    /// now, not from when it was typed), and empties the line for the next.
    /// Refused, the line stays and `state.problem` says why.
    public func add() -> ActionResult {
        let state = state
        let (preview, problem) = Self.read(state.text, lists: state.lists, context: context, dates: environment.naturalDates,
                                           defaultList: environment.defaultList)
        guard let preview else {
            let message = problem ?? "type a reminder, e.g. Pay rent fri 9am #bills !!"
            update { $0.problem = message }
            return .failed(message)
        }
        do {
            let reminder = try store.createReminder(ReminderDraft(
                listID: preview.list.id, title: preview.title, dueDate: preview.due, priority: preview.priority,
                isFlagged: preview.isFlagged, tags: preview.tags, repeatRule: preview.repeatRule?.rrule))
            update { state in
                state.text = ""
                state.preview = nil
                state.problem = nil
            }
            return ActionResult(message: "Added “\(preview.title)” to \(preview.list.title)", createdID: reminder.id)
        } catch {
            let message = Self.describe(error)
            update { $0.problem = message }
            return .failed(message)
        }
    }

    /// The preview of a line, or why there is none.
    static func read(_ text: String, lists: [RemindersList], context: ReminderFilter?, dates: NaturalDate,
                     defaultList: String?) -> (QuickAddPreview?, String?) {
        guard !text.allSatisfy(\.isWhitespace) else { return (nil, nil) }
        do {
            let line = try QuickAdd(parsing: text, dates: dates, listTitles: lists.map(\.title))
            var list = try line.list(in: lists)
            var due = line.due
            var tags = line.tags
            var isFlagged = line.isFlagged
            switch context {
            case .list(let id): list = list ?? lists.first { $0.id == id }
            case .today, .scheduled: due = due ?? dates.today
            case .flagged: isFlagged = true
            case .tag(let tag): if !tags.contains(where: { TagKey.of($0) == TagKey.of(tag) }) { tags.append(tag) }
            case .all, .completed, nil: break
            }
            guard let list = list ?? ReminderFormViewModel.defaultList(in: lists, named: defaultList) else {
                return (nil, "there is no list to add to: make one on Home first")
            }
            if let rule = line.repeatRule, due == nil || due == dates.today && line.due == nil {
                // Due on the rule's first day, as the reminder will be.
                due = Repeats.firstDue(rule, today: dates.today)
            }
            return (QuickAddPreview(title: line.title, list: list, due: due, priority: line.priority ?? .none,
                                    isFlagged: isFlagged, tags: tags, repeatRule: line.repeatRule), nil)
        } catch {
            return (nil, error.description)
        }
    }
}
