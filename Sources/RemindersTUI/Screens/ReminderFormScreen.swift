import RemindersCore
import RemindersViewModels

/// The reminder form: title, notes, due date and time, priority, flag, list
/// and tags. The fields are typed here and handed to the view model, which
/// validates and saves.
final class ReminderFormScreen: ViewModelScreen {
    let viewModel: ReminderFormViewModel
    private var titleField: TextField
    /// The error line the last refused save showed, until the fields it
    /// named are edited.
    private var refusedSaveLine: String?
    private var notes: TextArea
    private var dueDate: TextField
    private var dueTime: TextField
    private var repeatField: TextField
    private let initialFields: ReminderFields
    private let onSave: ((String) -> Void)?
    private var fieldRows: [Int: ReminderField] = [:]
    private var notesWidth = 40
    /// Where the time field was drawn, to tell it from the date on a click.
    private var dueRow = -1
    private var timeColumns = 0..<0
    /// Where the alert choice was drawn, beside the repeat field.
    private var repeatRow = -1
    private var alertColumns = 0..<0

    /// A new reminder, pre-filled from where the user was.
    convenience init(environment: AppEnvironment, context: ReminderFilter?, onSave: ((String) -> Void)? = nil) {
        self.init(viewModel: ReminderFormViewModel(environment: environment, context: context), onSave: onSave)
    }

    /// Editing a reminder.
    convenience init(environment: AppEnvironment, reminderID: String, onSave: ((String) -> Void)? = nil) throws {
        self.init(viewModel: try ReminderFormViewModel(environment: environment, reminderID: reminderID), onSave: onSave)
    }

    private init(viewModel: ReminderFormViewModel, onSave: ((String) -> Void)?) {
        self.viewModel = viewModel
        let fields = viewModel.fields
        titleField = TextField(fields.title)
        notes = TextArea(fields.notes)
        dueDate = TextField(fields.dueDate)
        dueTime = TextField(fields.dueTime)
        repeatField = TextField(fields.repeatText)
        initialFields = fields
        self.onSave = onSave
    }

    var title: String { viewModel.state.isNew ? "New Reminder" : "Edit Reminder" }

    /// Tab's order, which is also the order a refused save looks for the
    /// first field in error.
    static let order = ReminderField.allCases

    var contexts: [KeyContext] {
        switch focus {
        case .title, .dueDate, .dueTime, .repeatRule: [.textEntry, .form, .reminderForm]
        case .notes: [.notes, .textEntry, .form, .reminderForm]
        case .priority, .list, .alert: [.choice, .form, .reminderOptions, .reminderForm]
        case .flag: [.flag, .form, .reminderOptions, .reminderForm]
        case .tags: [.tagField, .form, .reminderOptions, .reminderForm]
        }
    }

    var isDirty: Bool { viewModel.fields != initialFields }

    /// The field keys go to; the view model keeps it, since a refused save
    /// moves it.
    var focus: ReminderField { viewModel.state.focus }

    func focus(_ field: ReminderField) {
        viewModel.focus(field)
    }

    /// How the form names a field in messages.
    static func name(_ field: ReminderField) -> String {
        switch field {
        case .title: "Title"
        case .notes: "Notes"
        case .dueDate: "Due"
        case .dueTime: "Due time"
        case .repeatRule: "Repeat"
        case .alert: "Alert"
        case .priority: "Priority"
        case .flag: "Flag"
        case .list: "List"
        case .tags: "Tags"
        }
    }

    /// Actions that take text away from a field.
    static let deletions: Set<Action> = [.deleteBackward, .deleteForward, .deleteToStart, .deleteToEnd, .deleteWord]

    // MARK: Input

    func handleText(_ key: Key, app: AppController) -> Bool {
        guard let character = key.typedCharacter else { return false }
        let edited = editFocusedText { field in
            field.insert(character)
            return true
        } notes: { notes in
            notes.insert(character)
            return true
        }
        if edited { withdrawSaveError(app) }
        return edited
    }

    /// Once every field the refused save named has been edited, its line
    /// is no longer true: it goes (it stayed for its six seconds).
    private func withdrawSaveError(_ app: AppController) {
        guard let line = refusedSaveLine, viewModel.state.fieldErrors.isEmpty else { return }
        app.withdrawError(line)
        refusedSaveLine = nil
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .nextField: moveFocus(by: 1)
        case .previousField: moveFocus(by: -1)
        case .lineUp:
            if !notes.apply(.lineUp, width: notesWidth) { moveFocus(by: -1) }
        case .lineDown:
            if !notes.apply(.lineDown, width: notesWidth) { moveFocus(by: 1) }
        case .newline:
            notes.apply(.newline, width: notesWidth)
            viewModel.notes = notes.text
        case .save: save(app)
        case .cancel: cancel(app)
        case .nextChoice, .previousChoice:
            let step = action == .nextChoice ? 1 : -1
            if focus == .priority {
                let all = Priority.allCases
                let index = all.firstIndex(of: viewModel.priority) ?? 0
                viewModel.priority = all[(index + step + all.count) % all.count]
            } else if focus == .alert {
                viewModel.cycleAlert(by: step)
            } else if focus == .list {
                let lists = viewModel.state.lists
                guard !lists.isEmpty else { return true }
                let index = lists.firstIndex { $0.id == viewModel.listID } ?? 0
                viewModel.listID = lists[(index + step + lists.count) % lists.count].id
            }
        case .toggleValue:
            viewModel.isFlagged.toggle()
        case .openPicker:
            app.present(TagPickerOverlay(viewModel: viewModel))
        case .removeLast:
            guard mayDelete(app) else { return true }
            if let last = viewModel.tags.last { viewModel.removeTag(last) }
        case .editNotesInEditor:
            editNotesExternally(app)
            return true
        default:
            if Self.deletions.contains(action), !mayDelete(app) { return true }
            guard editText(action) else { return false }
        }
        // An edit or a choice changed (list, priority, alert, tags) may
        // clear the last field the refused save named.
        if action != .save { withdrawSaveError(app) }
        return true
    }

    /// Whether a deleting key may change the focused field; when a refused
    /// save has just moved the focus there, says so instead, once.
    private func mayDelete(_ app: AppController) -> Bool {
        guard viewModel.mayDeleteText() else {
            let name = Self.name(focus)
            app.showError("\(name) has the focus since the refused save: press the key again to delete there")
            return false
        }
        return true
    }

    /// Editing keys for the focused text field.
    private func editText(_ action: Action) -> Bool {
        let width = notesWidth
        return editFocusedText { $0.apply(action) } notes: { $0.apply(action, width: width) }
    }

    /// Edits the focused text field, or the notes, and hands the text to
    /// the view model; false when the focus is not on text or the edit
    /// declined.
    private func editFocusedText(_ edit: (inout TextField) -> Bool, notes editNotes: (inout TextArea) -> Bool) -> Bool {
        switch focus {
        case .title:
            guard edit(&titleField) else { return false }
            viewModel.title = titleField.text
        case .notes:
            guard editNotes(&notes) else { return false }
            viewModel.notes = notes.text
        case .dueDate:
            guard edit(&dueDate) else { return false }
            viewModel.dueDate = dueDate.text
        case .dueTime:
            guard edit(&dueTime) else { return false }
            viewModel.dueTime = dueTime.text
        case .repeatRule:
            guard edit(&repeatField) else { return false }
            viewModel.repeatText = repeatField.text
        case .priority, .flag, .list, .tags, .alert:
            return false
        }
        return true
    }

    /// The notes in the user's editor, the terminal handed over meanwhile;
    /// an editor that fails or leaves the text as it was changes nothing.
    private func editNotesExternally(_ app: AppController) {
        app.editExternally(notes.text) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .edited(let text):
                notes = TextArea(text)
                viewModel.notes = text
                focus(.notes)
                app.showMessage("Notes edited in the editor; Save keeps them")
            case .unchanged:
                app.showMessage("Notes unchanged")
            case .failed(let reason):
                app.showError("\(reason); notes unchanged")
            }
        }
    }

    private func moveFocus(by offset: Int) {
        let index = Self.order.firstIndex(of: focus) ?? 0
        viewModel.focus(Self.order[max(0, min(Self.order.count - 1, index + offset))])
    }

    /// Saves; refused, says what is wrong with the first field in error and
    /// that the focus went there, when it moved.
    func save(_ app: AppController) {
        let isNew = viewModel.state.isNew
        // An edit that moved the reminder says where it went.
        let movedTo = isNew || viewModel.listID == initialFields.listID ? nil
            : viewModel.state.lists.first { $0.id == viewModel.listID }?.title
        let result = viewModel.save()
        app.end(result, titled: viewModel.title, isNew: isNew, createdVerb: "Added", movedTo: movedTo, onSave: onSave) { errors in
            let state = viewModel.state
            let name = Self.name(state.focus)
            var line = "\(name): \(errors[state.focus] ?? "not valid")"
            if state.focusMove?.to == state.focus { line += " · focus moved to \(name)" }
            if errors.count > 1 { line += " · \(errors.count - 1) more in red" }
            app.showError(line)
            refusedSaveLine = line
        }
    }

    private func cancel(_ app: AppController) {
        app.leave(self, changed: isDirty, discarding: "this reminder")
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool {
        guard event.button == .left, let field = fieldRows[event.row] else { return false }
        if event.row == dueRow, timeColumns.contains(event.column) {
            viewModel.focus(.dueTime)
        } else if event.row == repeatRow, alertColumns.contains(event.column) {
            viewModel.focus(.alert)
        } else {
            viewModel.focus(field)
        }
        return true
    }

    // MARK: Drawing

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let state = viewModel.state
        let fields = state.fields
        let errors = state.fieldErrors
        let focus = state.focus
        var layout = FormLayout(area: area, maxFieldWidth: 90, focus: focus, theme: theme)
        defer { fieldRows = layout.fieldRows }
        let fieldColumn = layout.fieldColumn, fieldWidth = layout.fieldWidth

        layout.textField("Title", titleField, .title, placeholder: "What to remember", error: errors[.title], into: &buffer)

        // Notes
        let notesHeight = max(2, min(10, area.bottom - layout.row - 14))
        layout.label("Notes", .notes, into: &buffer)
        for offset in 1..<notesHeight { layout.claim(row: layout.row + offset, for: .notes) }
        notesWidth = fieldWidth
        notes.scrollToCursor(width: fieldWidth, height: notesHeight)
        notes.draw(into: &buffer, rect: Rect(row: layout.row, column: fieldColumn, width: fieldWidth, height: notesHeight),
                   style: layout.fieldStyle(.notes), focused: focus == .notes,
                   placeholder: "Notes (Enter for a new line)", placeholderStyle: theme.dim)
        layout.row += notesHeight
        layout.note(errors[.notes], into: &buffer)
        layout.row += 1

        // Due date and time
        let row = layout.row
        layout.label("Due", .dueDate, into: &buffer)
        buffer.draw("date", row: row, column: fieldColumn, style: focus == .dueDate ? theme.focusedLabel : theme.dim)
        dueDate.draw(into: &buffer, row: row, column: fieldColumn + 5, width: 18,
                     style: layout.fieldStyle(.dueDate), focused: focus == .dueDate,
                     placeholder: "e.g. fri 9am", placeholderStyle: theme.dim)
        buffer.draw("time", row: row, column: fieldColumn + 25, style: focus == .dueTime ? theme.focusedLabel : theme.dim)
        dueTime.draw(into: &buffer, row: row, column: fieldColumn + 30, width: 8,
                     style: layout.fieldStyle(.dueTime), focused: focus == .dueTime,
                     placeholder: "e.g. 9pm", placeholderStyle: theme.dim)
        // What the fields give, as the user types: "→ Fri 27 Nov 09:00",
        // or, under them while they have the focus, why they give nothing.
        // Too narrow beside them, it goes under them.
        var hint = ""
        var under: (text: String, style: Style)?
        switch viewModel.resolvedDue() {
        case .success(let due?):
            let isPast = Queries.isPastDue(due, clock: viewModel.environment.clock)
            let text = "→ " + DueDateText.format(due, clock: viewModel.environment.clock) + (isPast ? " (past)" : "")
            let style = isPast ? theme.danger : theme.dim
            if DisplayWidth.of(text) <= fieldWidth - 40 {
                buffer.draw(text, row: row, column: fieldColumn + 40, maxWidth: fieldWidth - 40, style: style)
            } else {
                under = (text, style)
            }
        case .success(nil):
            let order = viewModel.environment.dayMonthOrder == .dayFirst ? "14/3 is 14 March" : "3/14 is March 14"
            hint = "today, tomorrow 9am, fri, in 3 days, 14 mar, \(order); time optional"
        case .failure(let problem):
            hint = [problem.date, problem.time].compactMap { $0 }.joined(separator: "; ")
        }
        timeColumns = (fieldColumn + 25)..<(fieldColumn + 38)
        dueRow = row
        layout.row += 1
        let dueError = [errors[.dueDate], errors[.dueTime]].compactMap { $0 }.joined(separator: "; ")
        if dueError.isEmpty, let under {
            buffer.draw(under.text, row: layout.row, column: fieldColumn, maxWidth: fieldWidth, style: under.style)
        } else {
            layout.note(dueError.isEmpty ? nil : dueError, hint: focus == .dueDate || focus == .dueTime ? hint : "", into: &buffer)
        }
        layout.row += 1

        // Repeat, and beside it the alert
        repeatRow = layout.row
        layout.label("Repeat", .repeatRule, into: &buffer)
        let repeatWidth = max(12, min(30, fieldWidth - 30))
        repeatField.draw(into: &buffer, row: repeatRow, column: fieldColumn, width: repeatWidth,
                         style: layout.fieldStyle(.repeatRule), focused: focus == .repeatRule,
                         placeholder: "never", placeholderStyle: theme.dim)
        let alertColumn = fieldColumn + repeatWidth + 2
        buffer.draw("alert", row: repeatRow, column: alertColumn, style: focus == .alert ? theme.focusedLabel : theme.dim)
        let alertText = "‹ " + AlertBefore.describe(fields.alertBefore) + " ›"
        buffer.draw(alertText, row: repeatRow, column: alertColumn + 6, maxWidth: max(0, fieldColumn + fieldWidth - alertColumn - 6),
                    style: focus == .alert ? theme.focusedField : theme.text)
        alertColumns = alertColumn..<(fieldColumn + fieldWidth)
        layout.row += 1
        var repeatHint = ""
        var repeatNote: String?
        switch viewModel.resolvedRepeat() {
        case .success(let rule?):
            let next = viewModel.repeatPreview().map { DueDateText.format($0, clock: viewModel.environment.clock, dated: true) }
            let hasDue = (try? viewModel.resolvedDue().get()) != nil
            repeatHint = rule.description + (next.isEmpty ? " · no more occurrences"
                                             : (hasDue ? " · next " : " · due ") + next.joined(separator: ", "))
        case .success(nil):
            repeatHint = focus == .repeatRule ? "daily, every 2 weeks on mon,thu, every month on the last fri, yearly … until DATE" : ""
        case .failure(let problem):
            repeatNote = focus == .repeatRule ? nil : (errors[.repeatRule] ?? viewModel.repeatProblem(problem))
            if focus == .repeatRule { repeatHint = viewModel.repeatProblem(problem) }
        }
        layout.note(repeatNote ?? errors[.repeatRule], hint: repeatHint, into: &buffer)
        layout.row += 1

        // Priority
        layout.label("Priority", .priority, into: &buffer)
        var column = fieldColumn
        for priority in Priority.allCases {
            let text = priority == .none ? " none " : " \(priority.marks) \(priority.name) "
            let selected = priority == fields.priority
            let style = selected ? (focus == .priority ? theme.focusedButton : theme.button.with(.bold)) : theme.dim
            column += buffer.draw(text, row: layout.row, column: column, style: style) + 1
        }
        layout.row += 1

        // Flag
        layout.label("Flag", .flag, into: &buffer)
        let flagText = fields.isFlagged ? "[⚑] flagged" : "[ ] not flagged"
        buffer.draw(flagText, row: layout.row, column: fieldColumn,
                    style: focus == .flag ? theme.focusedField : (fields.isFlagged ? theme.flag : theme.dim))
        layout.row += 1

        // List
        layout.label("List", .list, into: &buffer)
        // The list and its error share the line; without a list, the
        // error (or the lack of any list) has it alone.
        let listError = errors[.list]
        if let list = state.lists.first(where: { $0.id == fields.listID }) {
            let position = (state.lists.firstIndex(of: list) ?? 0) + 1
            let spans = [Span("‹ ", theme.dim), Span("● ", theme.listColor(list.color)),
                         Span(list.title, focus == .list ? theme.title : theme.text), Span(" ›", theme.dim),
                         Span("  \(position)/\(state.lists.count)", theme.dim)]
            let width = listError == nil ? fieldWidth : fieldWidth / 2 - 1
            buffer.draw(spans, row: layout.row, column: fieldColumn, maxWidth: width)
            if let listError {
                buffer.draw("⚠ " + listError, row: layout.row, column: fieldColumn + fieldWidth / 2, maxWidth: fieldWidth - fieldWidth / 2,
                            style: theme.danger)
            }
        } else if let listError {
            buffer.draw("⚠ " + listError, row: layout.row, column: fieldColumn, maxWidth: fieldWidth, style: theme.danger)
        } else {
            buffer.draw("No list: create one on Home first", row: layout.row, column: fieldColumn, maxWidth: fieldWidth, style: theme.danger)
        }
        layout.row += 1

        // Tags
        layout.label("Tags", .tags, into: &buffer)
        var tagSpans: [Span] = fields.tags.isEmpty ? [Span("none", theme.dim)] : fields.tags.map { Span("#" + $0 + " ", theme.tag) }
        if focus == .tags, let key = app.keyMap.key(for: .openPicker, in: [.tagField]) {
            tagSpans.append(Span("  \(key): pick or create", theme.dim))
        }
        buffer.draw(tagSpans, row: layout.row, column: fieldColumn, maxWidth: fieldWidth)
        layout.row += 1
        layout.note(errors[.tags], into: &buffer)
        layout.row += 1

        layout.saveError(state.saveError, row: layout.row, into: &buffer)
    }
}
