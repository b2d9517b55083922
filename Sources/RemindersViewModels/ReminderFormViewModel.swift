import Foundation
import GRDB
import RemindersCore
import Synchronization

/// The fields of the reminder form, as the user typed them.
public struct ReminderFields: Equatable, Sendable {
    public var title: String
    /// May hold several lines.
    public var notes: String
    /// "YYYY-MM-DD", empty for no due date.
    public var dueDate: String
    /// "HH:MM" (24-hour), empty for a date without a time.
    public var dueTime: String
    public var priority: Priority
    public var isFlagged: Bool
    /// The id of the list the reminder is in, or goes into.
    public var listID: String
    /// Tag titles, in the order chosen; new ones are created on save.
    public var tags: [String]
    /// The repeat as typed ("every 2 weeks on mon", or an RRULE), empty
    /// for none.
    public var repeatText: String
    /// Seconds before the due time to alert; nil: at the due time.
    public var alertBefore: Int?

    /// Fields as typed; empty ones mean no value.
    public init(title: String = "", notes: String = "", dueDate: String = "", dueTime: String = "",
                priority: Priority = .none, isFlagged: Bool = false, listID: String = "", tags: [String] = [],
                repeatText: String = "", alertBefore: Int? = nil) {
        self.repeatText = repeatText
        self.alertBefore = alertBefore
        self.title = title
        self.notes = notes
        self.dueDate = dueDate
        self.dueTime = dueTime
        self.priority = priority
        self.isFlagged = isFlagged
        self.listID = listID
        self.tags = tags
    }
}

/// A field of the reminder form, to attach error messages to. The cases
/// are in the form's order, the order a refused save looks for the first
/// field in error.
public enum ReminderField: String, CaseIterable, Hashable, Sendable {
    case title, notes, dueDate, dueTime, repeatRule, alert, priority, flag, list, tags
}

/// A refused save moved the focus from the field the user was in to the
/// first field in error. A user who did not see the move goes on typing
/// for the old field, so until they move the focus themselves the first
/// deletion in the new one is held back (see `mayDeleteText()`): keys
/// meant for one field must not silently erase another's text.
public struct FocusMove: Equatable, Sendable {
    /// Where the user was when they saved.
    public var from: ReminderField
    /// Where the focus went: the first field in error.
    public var to: ReminderField
    /// A deletion was held back once and the screen said why; the next
    /// one goes through.
    public var heldDeletion: Bool

    public init(from: ReminderField, to: ReminderField, heldDeletion: Bool = false) {
        self.from = from
        self.to = to
        self.heldDeletion = heldDeletion
    }
}

/// The state of `ReminderFormViewModel`.
public struct ReminderFormState: ViewState {
    /// Nil for a new reminder.
    public var reminderID: String?
    /// The fields as typed.
    public var fields: ReminderFields
    /// Error messages from the last `validate()` or `save()`.
    public var fieldErrors: [ReminderField: String]
    /// Lists to choose from, in My Lists order (kept current).
    public var lists: [RemindersList]
    /// Every existing tag, to pick from (kept current).
    public var tagChoices: [String]
    /// Why the last `save()` was refused by the store, or nil.
    public var saveError: String?
    public var errorMessage: String?
    /// The field keys go to.
    public var focus: ReminderField
    /// Set while the focus is where a refused save moved it, until the
    /// user moves it.
    public var focusMove: FocusMove?

    /// The defaults are the state of a new reminder's form before the first
    /// read.
    public init(reminderID: String? = nil, fields: ReminderFields = ReminderFields(), fieldErrors: [ReminderField: String] = [:],
                lists: [RemindersList] = [], tagChoices: [String] = [], saveError: String? = nil, errorMessage: String? = nil,
                focus: ReminderField = .title, focusMove: FocusMove? = nil) {
        self.reminderID = reminderID
        self.fields = fields
        self.fieldErrors = fieldErrors
        self.lists = lists
        self.tagChoices = tagChoices
        self.saveError = saveError
        self.errorMessage = errorMessage
        self.focus = focus
        self.focusMove = focusMove
    }

    /// Whether saving creates a reminder (rather than edits one).
    public var isNew: Bool { reminderID == nil }
}

/// The form for a new reminder or an edit. Fields are plain text as typed;
/// `validate()` checks them and `save()` writes through the store.
public final class ReminderFormViewModel: ViewModel {
    public let core: ViewModelCore<ReminderFormState>
    /// The fields as the reminder had them when the form read it (or as
    /// the form last saved them): a save writes only the fields that
    /// differ from these, so an edit made meanwhile elsewhere (another
    /// device's, synced in while the form is open, or a command's) to a
    /// field the user did not touch stays. Nil for a reminder not saved
    /// yet.
    private let baseline: Mutex<ReminderFields?>
    /// The reminder as the form read it, for the occurrence a moved series
    /// stands for; nil for a new one.
    private let loaded: Reminder?
    /// A new reminder. `context` pre-fills from where the user pressed
    /// "add": a list's id, today's date for Today or Scheduled, the flag for
    /// Flagged, the tag for a tag. Without a list, the first list is chosen.
    public init(environment: AppEnvironment, context: ReminderFilter? = nil) {
        var fields = ReminderFields()
        switch context {
        case .list(let id): fields.listID = id
        case .today, .scheduled: fields.dueDate = environment.clock.today
        case .flagged: fields.isFlagged = true
        case .tag(let tag): fields.tags = [tag]
        case .all, .completed, nil: break
        }
        baseline = Mutex(nil)
        loaded = nil
        core = ViewModelCore(environment: environment,
                   initial: ReminderFormState(reminderID: nil, fields: fields, fieldErrors: [:], lists: [], tagChoices: []),
                   label: "reminder-form")
        startObserving()
        refresh()
        if state.fields.listID.isEmpty, let list = Self.defaultList(in: state.lists, named: environment.defaultList) {
            update { $0.fields.listID = list.id }
        }
    }

    /// The user's default list when it is there (by id, or title in any
    /// case), else the first list.
    static func defaultList(in lists: [RemindersList], named name: String?) -> RemindersList? {
        if let name {
            if let list = lists.first(where: { $0.id == name })
                ?? lists.first(where: { $0.title.caseInsensitiveCompare(name) == .orderedSame }) {
                return list
            }
        }
        return lists.first
    }

    /// Editing an existing reminder; throws `CoreError.notFound` when it
    /// does not exist.
    public init(environment: AppEnvironment, reminderID: String) throws {
        let clock = environment.clock
        guard let row = try environment.writer.read({ db in try Queries.reminder(db, id: reminderID, clock: clock) }) else {
            throw CoreError.notFound("reminder \(reminderID) not found")
        }
        let due = DueDateInput.fields(for: row.reminder.dueDate)
        let fields = ReminderFields(
            title: row.reminder.title, notes: row.reminder.notes, dueDate: due.date, dueTime: due.time,
            priority: row.reminder.priority, isFlagged: row.reminder.isFlagged,
            listID: row.reminder.remindersListID, tags: row.tags,
            repeatText: row.reminder.repeatRule.map(Self.repeatText) ?? "", alertBefore: row.reminder.alertBefore)
        baseline = Mutex(fields)
        loaded = row.reminder
        core = ViewModelCore(environment: environment,
                   initial: ReminderFormState(reminderID: reminderID, fields: fields, fieldErrors: [:], lists: [], tagChoices: []),
                   label: "reminder-form")
        startObserving()
        refresh()
    }

    private func startObserving() {
        observe({ db in
            (try Queries.listsInOrder(db),
             try Queries.tagTitles(db))
        }, apply: { state, value in
            state.lists = value.0
            state.tagChoices = value.1
        })
    }

    // MARK: Focus

    /// Moves the focus where the user asked; a move a refused save made is
    /// then over.
    public func focus(_ field: ReminderField) {
        update { state in
            state.focus = field
            state.focusMove = nil
        }
    }

    /// Whether a key that deletes may change the focused field. False once
    /// right after a refused save moved the focus to a field that holds
    /// something (the screen says where the focus is, and that the same key
    /// again will delete); true otherwise.
    public func mayDeleteText() -> Bool {
        let state = state
        guard let move = state.focusMove, move.to == state.focus, state.fields.holdsSomething(in: move.to) else { return true }
        update { state in
            if move.heldDeletion {
                state.focusMove = nil
            } else {
                state.focusMove?.heldDeletion = true
            }
        }
        return move.heldDeletion
    }

    // MARK: Fields

    /// The fields as typed; set them as the user edits. Setting clears the
    /// errors of the fields that changed.
    public var fields: ReminderFields {
        get { state.fields }
        set {
            update { state in
                let old = state.fields
                state.fields = newValue
                if old.title != newValue.title { state.fieldErrors[.title] = nil }
                if old.notes != newValue.notes { state.fieldErrors[.notes] = nil }
                if old.dueDate != newValue.dueDate || old.dueTime != newValue.dueTime {
                    state.fieldErrors[.dueDate] = nil
                    state.fieldErrors[.dueTime] = nil
                }
                if old.listID != newValue.listID { state.fieldErrors[.list] = nil }
                if old.repeatText != newValue.repeatText { state.fieldErrors[.repeatRule] = nil }
                if old.tags != newValue.tags { state.fieldErrors[.tags] = nil }
            }
        }
    }

    public var title: String {
        get { fields.title }
        set { fields.title = newValue }
    }

    public var notes: String {
        get { fields.notes }
        set { fields.notes = newValue }
    }

    /// A date as typed ("fri 9am", "2026-12-01") or empty.
    public var dueDate: String {
        get { fields.dueDate }
        set { fields.dueDate = newValue }
    }

    /// A time as typed ("9am", "21:00") or empty.
    public var dueTime: String {
        get { fields.dueTime }
        set { fields.dueTime = newValue }
    }

    public var priority: Priority {
        get { fields.priority }
        set { fields.priority = newValue }
    }

    public var isFlagged: Bool {
        get { fields.isFlagged }
        set { fields.isFlagged = newValue }
    }

    public var listID: String {
        get { fields.listID }
        set { fields.listID = newValue }
    }

    public var tags: [String] {
        get { fields.tags }
        set { fields.tags = newValue }
    }

    /// The repeat as typed.
    public var repeatText: String {
        get { fields.repeatText }
        set { fields.repeatText = newValue }
    }

    public var alertBefore: Int? {
        get { fields.alertBefore }
        set { fields.alertBefore = newValue }
    }

    /// What the form shows for a stored rule: its description when that
    /// reads back as the same rule, else the RRULE itself.
    static func repeatText(_ rrule: String) -> String {
        guard let rule = try? RepeatRule(rrule: rrule) else { return rrule }
        return (try? RepeatRule(parsing: rule.description)) == rule ? rule.description : rule.rrule
    }

    /// The rule the repeat field gives (nil when empty), read as the short
    /// syntax or, failing that, as an RRULE; or why it gives none.
    public func resolvedRepeat() -> Result<RepeatRule?, RepeatRuleError> {
        readRepeat(fields).map { $0?.rule }
    }

    /// The repeat field's rule and the time its words end with, if they
    /// name one ("every tue at 9", "daily 7am", as `--repeat` reads them).
    private func readRepeat(_ fields: ReminderFields) -> Result<(rule: RepeatRule, time: (hour: Int, minute: Int)?)?, RepeatRuleError> {
        let text = fields.repeatText.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return .success(nil) }
        do {
            return .success(try environment.naturalDates.repeatWithTime(text))
        } catch let spoken {
            if let rule = try? RepeatRule(rrule: text) { return .success((rule, nil)) }
            return .failure(spoken)
        }
    }

    /// Why the repeat field gives no rule, in the form's words: the field
    /// shows what was typed, so the message does not repeat it, and keeps
    /// its room for the example.
    public func repeatProblem(_ problem: RepeatRuleError) -> String {
        var message = problem.description
        let echoed = "'\(fields.repeatText.trimmingCharacters(in: .whitespaces))': "
        if message.hasPrefix(echoed) { message.removeFirst(echoed.count) }
        return message
    }

    /// The occurrences the repeat gives, for the form to show as the user
    /// types: after the due date (or after the occurrence a series moved
    /// off its schedule stands for, as saving would leave it); without
    /// one, from the first day the rule gives from today, which saving
    /// makes the due date.
    public func repeatPreview(count: Int = 3) -> [DueDate] {
        guard case .success(let rule?) = resolvedRepeat() else { return [] }
        if case .success(let due?) = resolvedDue(), fields.dueDate.allSatisfy(\.isWhitespace) {
            // No date typed: the repeat's time made it, on the rule's first day.
            return [due] + rule.occurrences(after: due, count: count - 1)
        }
        if case .success(let due?) = resolvedDue() {
            guard let loaded else { return rule.occurrences(after: due, count: count) }
            var saved = loaded
            saved.dueDate = due
            saved.repeatRule = rule.rrule
            saved.occurrence = Repeats.occurrence(before: loaded, after: saved)
            return Repeats.nextOccurrences(saved, count: count)
        }
        let today = DueDate(environment.clock.today) ?? environment.clock.nowDue
        let first = Repeats.firstDue(rule, today: today)
        return [first] + rule.occurrences(after: first, count: count - 1)
    }

    /// Steps the alert through `AlertBefore.choices` (a lead set elsewhere
    /// that is not among them stays reachable as the starting point).
    public func cycleAlert(by step: Int) {
        let choices = AlertBefore.choices
        let index = choices.firstIndex(of: fields.alertBefore) ?? 0
        fields.alertBefore = choices[(index + step + choices.count) % choices.count]
    }

    /// Adds a tag, existing or new (typed text, a leading "#" dropped).
    /// Returns the error message for a bad tag, nil when added (or already
    /// there, spelled any way with the same `TagKey`). An existing tag is
    /// added as it is spelled.
    @discardableResult
    public func addTag(_ text: String) -> String? {
        do {
            let tag = try Validation.tag(text)
            let key = TagKey.of(tag)
            let canonical = state.tagChoices.first { TagKey.of($0) == key } ?? tag
            if !fields.tags.contains(where: { TagKey.of($0) == key }) {
                fields.tags.append(canonical)
            }
            return nil
        } catch {
            let message = Self.describe(error)
            update { $0.fieldErrors[.tags] = message }
            return message
        }
    }

    /// Removes a tag from the form, spelled any way with the same key.
    public func removeTag(_ tag: String) {
        let key = TagKey.of(tag)
        fields.tags.removeAll { TagKey.of($0) == key }
    }

    /// Whether the form's tags hold `tag`, spelled any way with its key.
    public func hasTag(_ tag: String) -> Bool {
        let key = TagKey.of(tag)
        return fields.tags.contains { TagKey.of($0) == key }
    }

    /// Picks or unpicks an existing tag.
    public func toggleTag(_ tag: String) {
        if hasTag(tag) {
            removeTag(tag)
        } else {
            addTag(tag)
        }
    }

    /// Tag choices that start with (or contain) the typed text, for
    /// completion while typing; prefix matches first.
    public func tagSuggestions(for text: String) -> [String] {
        var needle = text.trimmingCharacters(in: .whitespaces)
        if needle.hasPrefix("#") { needle.removeFirst() }
        let choices = state.tagChoices
        guard !needle.isEmpty else { return choices }
        let prefix = choices.filter { $0.range(of: needle, options: [.caseInsensitive, .anchored]) != nil }
        let inside = choices.filter { !prefix.contains($0) && $0.range(of: needle, options: .caseInsensitive) != nil }
        return prefix + inside
    }

    // MARK: Validate and save

    /// Checks every field; returns (and records in the state) a message per
    /// bad field, empty when all is well.
    @discardableResult
    public func validate() -> [ReminderField: String] {
        let (errors, _) = check(fields)
        update { $0.fieldErrors = errors }
        return errors
    }

    /// The due date the date and time fields give, read now ("in 2h"
    /// moves with the clock), or what is wrong with them: the form shows it
    /// as the user types, and saves what it gives at the moment of saving.
    public func resolvedDue() -> Result<DueDate?, DueDateInputError> {
        readDue(fields)
    }

    /// The date and time fields' due date; when the repeat names a time,
    /// the date's day at that time, or with no date the rule's first day
    /// at it (a date with another time of its own is `repeatTimeClash`).
    private func readDue(_ fields: ReminderFields) -> Result<DueDate?, DueDateInputError> {
        readSchedule(fields).due
    }

    /// The due date as `readDue` gives it, and, when the repeat names one
    /// time and the due date another, that clash (the due date then keeps
    /// its own).
    private func readSchedule(_ fields: ReminderFields) -> (due: Result<DueDate?, DueDateInputError>, clash: RepeatTimeClash?) {
        let typed = DueDateInput.parse(date: fields.dueDate, time: fields.dueTime, dates: environment.naturalDates)
        guard case .success(let due) = typed, case .success(let (rule, time?)?) = readRepeat(fields) else { return (typed, nil) }
        switch environment.naturalDates.due(due, repeating: rule, at: time) {
        case .success(let combined): return (.success(combined), nil)
        case .failure(let clash): return (typed, clash)
        }
    }

    private func check(_ fields: ReminderFields) -> ([ReminderField: String], DueDate?) {
        var errors: [ReminderField: String] = [:]
        do { _ = try Validation.title(fields.title) } catch { errors[.title] = Self.describe(error) }
        do { _ = try Validation.notes(fields.notes) } catch { errors[.notes] = Self.describe(error) }
        var due: DueDate?
        let schedule = readSchedule(fields)
        switch schedule.due {
        case .success(let value): due = value
        case .failure(let error):
            errors[.dueDate] = error.date
            errors[.dueTime] = error.time
        }
        if fields.listID.isEmpty {
            errors[.list] = "choose a list"
        } else if !state.lists.contains(where: { $0.id == fields.listID }) {
            errors[.list] = "the chosen list is gone (deleted, or no longer shared with you): pick another"
        }
        for tag in fields.tags {
            do { _ = try Validation.tag(tag) } catch {
                errors[.tags] = Self.describe(error)
                break
            }
        }
        if case .failure(let problem) = readRepeat(fields) {
            errors[.repeatRule] = repeatProblem(problem)
        } else if let clash = schedule.clash {
            errors[.repeatRule] = clash.message(repeatName: "the repeat", dueName: "the due date")
        }
        return (errors, due)
    }

    /// Validates, then creates or updates the reminder in one transaction.
    /// On success the form can be closed; `.saved(id:)` holds the id.
    /// Refused, the focus goes to the first field in error (`focusMove`
    /// says so when that is another field than the user's).
    @discardableResult
    public func save() -> FormSaveResult<ReminderField> {
        let fields = self.fields
        let (errors, due) = check(fields)
        update { state in
            state.fieldErrors = errors
            state.saveError = nil
            guard let first = ReminderField.allCases.first(where: { errors[$0] != nil }) else { return }
            if first != state.focus { state.focusMove = FocusMove(from: state.focus, to: first) }
            state.focus = first
        }
        guard errors.isEmpty else { return .invalid(errors) }
        let rule = (try? resolvedRepeat().get()) ?? nil
        do {
            if let id = state.reminderID {
                let was = baseline.withLock { $0 }
                func changed<Value: Equatable>(_ field: KeyPath<ReminderFields, Value>) -> Bool {
                    was.map { $0[keyPath: field] != fields[keyPath: field] } ?? true
                }
                // The due date and the repeat go together: the store reads
                // a cleared date as the repeat's end, and a repeat without
                // a date takes its first day from the rule.
                let schedule = changed(\.dueDate) || changed(\.dueTime) || changed(\.repeatText)
                try store.updateReminder(id: id, ReminderChanges(
                    title: changed(\.title) ? fields.title : nil,
                    notes: changed(\.notes) ? fields.notes : nil,
                    dueDate: schedule ? .some(due) : nil,
                    priority: changed(\.priority) ? fields.priority : nil,
                    isFlagged: changed(\.isFlagged) ? fields.isFlagged : nil,
                    listID: changed(\.listID) ? fields.listID : nil,
                    tags: changed(\.tags) ? fields.tags : nil,
                    repeatRule: schedule ? .some(rule?.rrule) : nil,
                    alertBefore: changed(\.alertBefore) ? .some(fields.alertBefore) : nil))
                baseline.withLock { $0 = fields }
                return .saved(id: id)
            }
            let reminder = try store.createReminder(ReminderDraft(
                listID: fields.listID, title: fields.title, notes: fields.notes, dueDate: due,
                priority: fields.priority, isFlagged: fields.isFlagged, tags: fields.tags,
                repeatRule: rule?.rrule, alertBefore: fields.alertBefore))
            baseline.withLock { $0 = fields }
            update { $0.reminderID = reminder.id }
            return .saved(id: reminder.id)
        } catch {
            let message = Self.describe(error)
            update { $0.saveError = message }
            return .failed(message)
        }
    }
}

extension ReminderFields {
    /// Whether a field holds something a deletion could lose.
    func holdsSomething(in field: ReminderField) -> Bool {
        switch field {
        case .title: !title.isEmpty
        case .notes: !notes.isEmpty
        case .dueDate: !dueDate.isEmpty
        case .dueTime: !dueTime.isEmpty
        case .tags: !tags.isEmpty
        case .repeatRule: !repeatText.isEmpty
        case .priority, .flag, .list, .alert: false
        }
    }
}
